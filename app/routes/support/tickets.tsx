import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { localePath } from '../../../core/i18n/i18n.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { SupportField, TicketStatus } from '../../components/support.tsx';
import { Notice, UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { accountFormFailure, accountPageHeaders, formText } from '../../presenters/account-forms.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { pageHelpDesk, when } from '../../presenters/support.server.ts';
import { intParam, langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/tickets';

// /dashboard/support/: the user's tickets (spec §2: #, Name, Status, Last update), most recently
// updated first, 50 a page, and the form that opens a new one (ADR 0021).

export const headers = accountPageHeaders;

const PATH = '/dashboard/support/';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(services.reference, lang);
  const url = new URL(request.url);
  const page = await pageHelpDesk(services).listOfUser(auth.user.id, { after: intParam(url, 'after') });
  return {
    seo: userPageSeo(context, lang, PATH, 'support.title', 'support.description'),
    done: url.searchParams.get('done'),
    tickets: page.data.map((ticket) => ({
      id: ticket.id,
      number: ticket.number ?? 0,
      name: ticket.name,
      status: ticket.status,
      at: ticket.updated_at.toISOString(),
      on: when(p, ticket.updated_at),
      href: p.path(`/dashboard/support/topics/${ticket.number}/`),
    })),
    nextHref: page.next ? `${p.path(PATH)}?after=${page.next}` : null,
    helpHref: p.path('/info/'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const lang = langOf(params);
  const form = await request.formData();
  const name = formText(form, 'name');
  const message = formText(form, 'message');
  try {
    const ticket = await pageHelpDesk(services).open({
      requester: { kind: 'user', userId: auth.user.id, email: auth.user.email, name: auth.user.name, lang },
      name,
      message,
      source: 'dashboard',
    });
    return redirect(`${localePath(lang, `/dashboard/support/topics/${ticket.number}/`)}?done=created`);
  } catch (error) {
    return accountFormFailure(error, { name, message });
  }
}

export default function Tickets({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const d = loaderData;
  return (
    <div className="user-data-page">
      <UserDataNav />
      <h1>{t('support.title')}</h1>
      {d.done ? <Notice>{t(`support.done.${d.done}`, { defaultValue: '' })}</Notice> : null}
      <p>{t('support.intro')}</p>
      {d.tickets.length === 0 ? (
        <p className="empty">{t('support.none')}</p>
      ) : (
        <div className="table-wrap">
          <table className="results-table style-2 support-table">
            <thead>
              <tr>
                <th scope="col">{t('support.columns.number')}</th>
                <th scope="col">{t('support.columns.name')}</th>
                <th scope="col">{t('support.columns.status')}</th>
                <th scope="col">{t('support.columns.updated')}</th>
              </tr>
            </thead>
            <tbody>
              {d.tickets.map((ticket) => (
                <tr key={ticket.id}>
                  <td data-label={t('support.columns.number')} className="number">
                    {ticket.number}
                  </td>
                  <td data-label={t('support.columns.name')}>
                    <a href={ticket.href}>{ticket.name}</a>
                  </td>
                  <td data-label={t('support.columns.status')}>
                    <TicketStatus status={ticket.status} />
                  </td>
                  <td data-label={t('support.columns.updated')}>
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
      <section aria-labelledby="new-ticket">
        <h2 id="new-ticket">{t('support.newTicket')}</h2>
        <p>
          {t('support.helpFirst')} <a href={d.helpHref}>{t('help.title')}</a>
        </p>
        <form method="post" className="support-form">
          <CsrfField />
          {actionData?.alert ? (
            <p role="alert" className="form-alert">
              {t(`account.errors.${actionData.alert.key}`, { count: actionData.alert.count ?? 1 })}
            </p>
          ) : null}
          <SupportField name="name" label={t('support.subject')} result={actionData} />
          <SupportField name="message" label={t('support.message')} result={actionData} multiline />
          <button type="submit">{t('support.send')}</button>
        </form>
      </section>
    </div>
  );
}
