import { useTranslation } from 'react-i18next';
import { minorAmount, offerOf } from '../../../core/billing/catalogue.ts';
import { listOrders } from '../../../core/orders/orders.ts';
import { HistoryPager } from '../../components/history.tsx';
import { UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { balanceOf, creditsText, failureText, formatMoney } from '../../presenters/billing.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { settingsHeaders } from '../../presenters/settings.server.ts';
import { intParam, langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/orders';

// /dashboard/orders/ (spec §2, table "Orders": #, Created on, Amount, Status, Details): the user's
// orders, newest first, 50 a page; a pending or failed one links to its checkout, a paid or
// refunded one to its invoice (PDF). Back from a checkout (`?order=N`) it says how that order went:
// paid, still waiting for the provider's webhook, or failed and why.

export const headers = settingsHeaders;

const PATH = '/dashboard/orders/';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  const [page, balance] = await Promise.all([
    listOrders(db, auth.user.id, { after: intParam(url, 'after') }),
    balanceOf(db, auth.user.id),
  ]);
  const rows = page.data.map((o) => {
    const offer = offerOf(String(o.order_data.offer_id ?? ''));
    const credits = Number(o.order_data.credits ?? offer?.credits ?? 0);
    const details = [
      offer ? p.t('billing.orders.offer', { offer: offer.name[lang], credits: creditsText(p, credits) }) : '',
      o.order_data.renewal ? p.t('billing.orders.renewal') : '',
      o.status === 'failed' && o.failure_reason ? failureText(p, o.failure_reason) : '',
    ].filter(Boolean);
    return {
      id: o.id,
      number: o.number,
      createdOn: p.date(o.created_at.slice(0, 10)),
      createdAt: o.created_at,
      amount: formatMoney(lang, { amount: minorAmount(o.amount), currency: o.currency }),
      status: o.status,
      statusText: p.t(`billing.orders.statuses.${o.status}`),
      details: details.join(' · '),
      payHref:
        offer && (o.status === 'pending' || o.status === 'failed')
          ? p.path(`/dashboard/orders/${o.number}/checkout/`)
          : null,
      invoiceHref: o.status === 'paid' || o.status === 'refunded' ? `/api/orders/${o.id}/invoice?lang=${lang}` : null,
    };
  });
  const asked = intParam(url, 'order');
  const back = asked === undefined ? null : page.data.find((o) => o.number === asked);
  const notice = !back
    ? ''
    : back.status === 'paid'
      ? p.t('billing.orders.done.paid', { number: back.number })
      : back.status === 'failed'
        ? p.t('billing.orders.done.failed', {
            number: back.number,
            reason: failureText(p, back.failure_reason ?? 'unknown'),
          })
        : back.status === 'pending'
          ? p.t('billing.orders.done.waiting', { number: back.number })
          : '';
  return {
    seo: userPageSeo(context, lang, PATH, 'billing.orders.title', 'billing.orders.description'),
    rows,
    notice,
    balance: p.t('billing.dashboard.balance', { credits: creditsText(p, balance ?? 0) }),
    pricingHref: p.path('/info/pricing/'),
    firstHref: intParam(url, 'after') ? p.path(PATH) : null,
    nextHref: page.next ? `${p.path(PATH)}?after=${page.next}` : null,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function Orders({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="user-data-page orders-page">
      <UserDataNav />
      <h1>{t('billing.orders.title')}</h1>
      {d.notice ? (
        <p className="form-notice" role="status">
          {d.notice}
        </p>
      ) : null}
      <p className="credit-balance">
        {d.balance} <a href={d.pricingHref}>{t('billing.dashboard.buy')}</a>
      </p>
      {d.rows.length === 0 ? (
        <p className="empty">
          {t('billing.orders.empty')} <a href={d.pricingHref}>{t('billing.orders.seePricing')}</a>
        </p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('billing.orders.columns.number')}</th>
              <th scope="col">{t('billing.orders.columns.createdOn')}</th>
              <th scope="col">{t('billing.orders.columns.amount')}</th>
              <th scope="col">{t('billing.orders.columns.status')}</th>
              <th scope="col">{t('billing.orders.columns.details')}</th>
            </tr>
          </thead>
          <tbody>
            {d.rows.map((o) => (
              <tr key={o.id} data-status={o.status}>
                <td>{o.number}</td>
                <td>
                  <time dateTime={o.createdAt}>{o.createdOn}</time>
                </td>
                <td>{o.amount}</td>
                <td>{o.statusText}</td>
                <td>
                  {o.details}
                  {o.payHref ? (
                    <>
                      {' '}
                      <a href={o.payHref}>{t('billing.orders.pay')}</a>
                    </>
                  ) : null}
                  {o.invoiceHref ? (
                    <>
                      {' '}
                      <a href={o.invoiceHref}>{t('billing.orders.invoice')}</a>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <HistoryPager firstHref={d.firstHref} nextHref={d.nextHref} />
    </div>
  );
}
