import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { receiveWebhook } from '../../../core/billing/apply-payment-event.ts';
import { checkoutOf, findOfferOrder } from '../../../core/billing/checkout.ts';
import { completedEvent, paddleId, paymentFailedEvent } from '../../../core/billing/paddle-events.ts';
import { isSandbox } from '../../../core/billing/payment-provider.ts';
import { AppError } from '../../../core/errors/app-error.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { inlineScript } from '../../islands/inline-script.ts';
import paddleScript from '../../islands/paddle-checkout.js?raw';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { formatMoney } from '../../presenters/billing.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { settingsHeaders } from '../../presenters/settings.server.ts';
import { langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/checkout';

// /dashboard/orders/{number}/checkout/: takes the payment of a pending (or failed) order through
// the configured provider (docs/decisions/0019-billing.md). Paddle: Paddle.js opens the transaction
// the server opened for the order, with its price and custom data (the island
// app/islands/paddle-checkout.js): the browser chooses neither. Sandbox: this page is the
// checkout — "Pay" and "Decline the card" make the webhook Paddle would send, signed with the
// sandbox's secret, and deliver it through the same verification as the webhook route. Both come
// back to the orders page, which says how the order went.

export const headers = settingsHeaders;

const PADDLE_SCRIPT = inlineScript(paddleScript);

function orderNumber(text: string | undefined): number {
  if (!text || !/^\d{1,9}$/.test(text)) throw data({ message: 'order not found' }, { status: 404 });
  return Number(text);
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(services.reference, lang);
  const number = orderNumber(params.number);
  const ordersHref = p.path('/dashboard/orders/');
  let checkout: Awaited<ReturnType<typeof checkoutOf>>;
  try {
    checkout = await checkoutOf(services.db, services.payments, auth.user, number);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found')
      throw data({ message: 'order not found' }, { status: 404 });
    if (error instanceof AppError && error.code === 'conflict') throw redirect(`${ordersHref}?order=${number}`);
    throw error;
  }
  const { order, view } = checkout;
  const amount = formatMoney(lang, { amount: order.amount_minor, currency: order.currency });
  return {
    seo: userPageSeo(
      context,
      lang,
      `/dashboard/orders/${number}/checkout/`,
      'billing.orders.title',
      'billing.orders.description',
    ),
    number,
    summary: p.t('billing.checkout.summary', { offer: order.offer.name[lang], amount }),
    payLabel: p.t('billing.checkout.pay', { amount }),
    view,
    successHref: `${services.siteUrl}${ordersHref}?order=${number}`,
    ordersHref,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

/** The sandbox checkout's outcome, as the webhook Paddle would send. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const lang = langOf(params);
  const number = orderNumber(params.number);
  const provider = services.payments;
  if (!isSandbox(provider)) {
    throw data({ message: 'the sandbox checkout is off: payments go through Paddle' }, { status: 404 });
  }
  const order = await findOfferOrder(services.db, { userId: auth.user.id, number });
  if (!order) throw data({ message: 'order not found' }, { status: 404 });
  const form = await request.formData();
  const sandboxOrder = {
    orderId: order.id,
    userId: auth.user.id,
    offer: order.offer,
    amountMinor: order.amount_minor,
    currency: order.currency,
    transactionId: paddleId('txn'),
  };
  const event =
    formText(form, 'intent') === 'decline'
      ? paymentFailedEvent(sandboxOrder, 'declined')
      : completedEvent(sandboxOrder, order.offer.kind === 'plan' ? paddleId('sub') : null);
  const { body, signature } = provider.sign(event);
  await receiveWebhook(services, body, signature);
  return redirect(`${localePath(lang, '/dashboard/orders/')}?order=${number}`, 303);
}

export default function Checkout({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const view = d.view;
  return (
    <div className="user-data-page checkout-page">
      <p className="breadcrumbs">
        <a href={d.ordersHref}>{t('billing.checkout.back')}</a>
      </p>
      <h1>{t('billing.checkout.title', { number: d.number })}</h1>
      <p>{d.summary}</p>
      {view.provider === 'sandbox' ? (
        <form method="post" className="sandbox-checkout">
          <p className="muted">{t('billing.checkout.sandboxText')}</p>
          <CsrfField />
          <button type="submit" name="intent" value="pay">
            {d.payLabel}
          </button>{' '}
          <button type="submit" name="intent" value="decline" className="secondary">
            {t('billing.checkout.decline')}
          </button>
        </form>
      ) : view.priceId === null || view.transactionId === null ? (
        <p className="form-problem">{t('billing.checkout.noPrice')}</p>
      ) : (
        <>
          <button
            type="button"
            id="paddle-pay"
            disabled
            data-token={view.clientToken}
            data-environment={view.environment}
            data-transaction={view.transactionId}
            data-email={view.email}
            data-success={d.successHref}
            data-label={d.payLabel}
            data-failed={t('billing.checkout.failed')}
          >
            {d.payLabel}
          </button>
          <p id="paddle-status" role="status" aria-live="polite">
            {t('billing.checkout.needsScript')}
          </p>
          <script dangerouslySetInnerHTML={{ __html: PADDLE_SCRIPT }} />
        </>
      )}
    </div>
  );
}
