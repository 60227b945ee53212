import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { offerOf } from '../../../core/billing/catalogue.ts';
import { cancelSubscription, listSubscriptions } from '../../../core/billing/subscriptions.ts';
import { AppError } from '../../../core/errors/app-error.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { Notice, UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { creditsText } from '../../presenters/billing.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { settingsHeaders } from '../../presenters/settings.server.ts';
import { formInt, langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/subscriptions';

// /dashboard/subscriptions/ (spec §2, table "Subscriptions": Current plan, Started on, Credits
// left, Expires on, Next payment on; §6: a user with a subscription may cancel it). "Cancel
// subscription" opens the confirmation (?cancel=1, a dialog the server renders: no script needed),
// offered only while a subscription renews; cancelling takes effect at the period's end.

export const headers = settingsHeaders;

const PATH = '/dashboard/subscriptions/';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  const subscriptions = await listSubscriptions(db, auth.user.id);
  const day = (iso: string | null) => (iso ? p.date(iso.slice(0, 10)) : '—');
  const renewing = subscriptions.find((s) => s.status === 'active') ?? null;
  const done =
    url.searchParams.get('done') === 'cancelled' ? subscriptions.find((s) => s.status === 'cancelled') : null;
  return {
    seo: userPageSeo(context, lang, PATH, 'billing.subscriptions.title', 'billing.subscriptions.description'),
    rows: subscriptions.map((s) => ({
      id: s.id,
      plan: `${offerOf(s.plan_id)?.name[lang] ?? s.plan_id} (${p.t('billing.pricing.monthlyCredits', { credits: creditsText(p, s.monthly_credits) })})`,
      status: p.t(`billing.subscriptions.statuses.${s.status}`),
      startedOn: day(s.started_at),
      creditsLeft: s.status === 'ended' ? '—' : creditsText(p, s.credits_left),
      expiresOn: day(s.expires_at),
      nextPayment: day(s.next_payment_at),
    })),
    cancellable: renewing ? { id: renewing.id, endsOn: day(renewing.period_end) } : null,
    confirming: renewing !== null && url.searchParams.get('cancel') === '1',
    notice: done ? p.t('billing.orders.done.cancelled', { date: day(done.expires_at) }) : '',
    path: p.path(PATH),
    pricingHref: p.path('/info/pricing/'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const lang = langOf(params);
  const form = await request.formData();
  const id = formInt(form, 'id');
  if (id === null) throw new AppError('bad_request', 'id: the number of the subscription to cancel');
  // Another user's id is not_found, one already cancelled a conflict: the 404 and 409 pages
  // (app/page-errors.server.ts).
  await cancelSubscription(services.db, services.payments, auth.user.id, id);
  return redirect(`${localePath(lang, PATH)}?done=cancelled`, 303);
}

export default function Subscriptions({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="user-data-page subscriptions-page">
      <UserDataNav />
      <h1>{t('billing.subscriptions.title')}</h1>
      <Notice>{d.notice}</Notice>
      {d.rows.length === 0 ? (
        <p className="empty">
          {t('billing.subscriptions.empty')} <a href={d.pricingHref}>{t('billing.subscriptions.seePlans')}</a>
        </p>
      ) : (
        // A card a subscription on a phone (the labels are the cells' data-label), a table elsewhere.
        <div className="row-cards">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('billing.subscriptions.columns.plan')}</th>
                <th scope="col">{t('billing.subscriptions.columns.startedOn')}</th>
                <th scope="col">{t('billing.subscriptions.columns.creditsLeft')}</th>
                <th scope="col">{t('billing.subscriptions.columns.expiresOn')}</th>
                <th scope="col">{t('billing.subscriptions.columns.nextPayment')}</th>
              </tr>
            </thead>
            <tbody>
              {d.rows.map((s) => (
                <tr key={s.id}>
                  <td>
                    {s.plan} · {s.status}
                  </td>
                  <td data-label={t('billing.subscriptions.columns.startedOn')}>{s.startedOn}</td>
                  <td data-label={t('billing.subscriptions.columns.creditsLeft')}>{s.creditsLeft}</td>
                  <td data-label={t('billing.subscriptions.columns.expiresOn')}>{s.expiresOn}</td>
                  <td data-label={t('billing.subscriptions.columns.nextPayment')}>{s.nextPayment}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {d.cancellable && !d.confirming ? (
        <p>
          <a className="button secondary" href={`${d.path}?cancel=1`}>
            {t('billing.subscriptions.cancel')}
          </a>
        </p>
      ) : null}
      {d.cancellable && d.confirming ? (
        <dialog open className="confirm-dialog" aria-labelledby="cancel-title">
          <h2 id="cancel-title">{t('billing.subscriptions.cancelTitle')}</h2>
          <p>{t('billing.subscriptions.cancelText', { date: d.cancellable.endsOn })}</p>
          <form method="post" action={d.path}>
            <CsrfField />
            <input type="hidden" name="id" value={d.cancellable.id} />
            <button type="submit">{t('billing.subscriptions.cancelConfirm')}</button>{' '}
            <a className="button secondary" href={d.path}>
              {t('billing.subscriptions.keep')}
            </a>
          </form>
        </dialog>
      ) : null}
    </div>
  );
}
