import { useTranslation } from 'react-i18next';
import { type TicketStatus as Status, TICKET_STATUSES } from '../../../core/support/help-desk.ts';
import { TicketStatus } from '../../components/support.tsx';
import { pageMeta } from '../../meta.ts';
import { accountPageHeaders } from '../../presenters/account-forms.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { pageHelpDesk, requireSupportStaff, when } from '../../presenters/support.server.ts';
import { intParam, langOf } from '../../presenters/user-data.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/desk';

// /support-desk/: the built-in help desk's queue for support staff (role `support`, ADR 0021):
// tickets by status, most recently updated first. Not for search engines.

export const headers = accountPageHeaders;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireSupportStaff(context);
  const services = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(services.reference, lang);
  const url = new URL(request.url);
  const asked = url.searchParams.get('status') ?? 'open';
  const status = (TICKET_STATUSES as string[]).includes(asked) ? (asked as Status) : undefined;
  const page = await pageHelpDesk(services).desk({ status, after: intParam(url, 'after') });
  const tickets = await Promise.all(page.data.map((s) => pageHelpDesk(services).get(s.id)));
  return {
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: '/support-desk/',
      title: p.t('support.desk.title'),
      description: p.t('support.desk.description'),
      noindex: true,
      social: false,
    },
    status: status ?? 'all',
    action: p.path('/support-desk/'),
    tickets: tickets.flatMap((ticket) =>
      ticket
        ? [
            {
              id: ticket.id,
              name: ticket.name,
              status: ticket.status,
              requester: `${ticket.requester_name} <${ticket.email}>`,
              guest: ticket.user_id === null,
              at: ticket.updated_at.toISOString(),
              on: when(p, ticket.updated_at),
              href: p.path(`/support-desk/topics/${ticket.id}/`),
            },
          ]
        : [],
    ),
    nextHref: page.next ? `${p.path('/support-desk/')}?status=${status ?? 'all'}&after=${page.next}` : null,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function Desk({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const d = loaderData;
  return (
    <div className="user-data-page">
      <h1>{t('support.desk.title')}</h1>
      <form method="get" action={d.action} className="search-bar">
        <label htmlFor="desk-status">{t('support.desk.filter')}</label>
        <select id="desk-status" name="status" defaultValue={d.status}>
          {['open', 'answered', 'closed', 'all'].map((s) => (
            <option key={s} value={s}>
              {s === 'all' ? t('support.desk.all') : t(`support.statuses.${s}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="secondary">
          {t('support.desk.show')}
        </button>
      </form>
      {d.tickets.length === 0 ? (
        <p className="empty">{t('support.desk.none')}</p>
      ) : (
        <div className="table-wrap">
          <table className="results-table style-2 support-table">
            <thead>
              <tr>
                <th scope="col">{t('support.columns.number')}</th>
                <th scope="col">{t('support.columns.name')}</th>
                <th scope="col">{t('support.desk.requester')}</th>
                <th scope="col">{t('support.columns.status')}</th>
                <th scope="col">{t('support.columns.updated')}</th>
              </tr>
            </thead>
            <tbody>
              {d.tickets.map((ticket) => (
                <tr key={ticket.id}>
                  <td className="number">{ticket.id}</td>
                  <td>
                    <a href={ticket.href}>{ticket.name}</a>
                  </td>
                  <td>
                    {ticket.requester}
                    {ticket.guest ? ` (${t('support.desk.guest')})` : ''}
                  </td>
                  <td>
                    <TicketStatus status={ticket.status} />
                  </td>
                  <td>
                    <time dateTime={ticket.at}>{ticket.on}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {d.nextHref ? (
        <nav className="pagination" aria-label={t('search.pagination')}>
          <a href={d.nextHref} rel="next">
            {t('support.more')} →
          </a>
        </nav>
      ) : null}
    </div>
  );
}
