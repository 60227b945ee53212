import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { offerOf } from '../../../core/billing/catalogue.ts';
import { placeOfferOrder } from '../../../core/billing/checkout.ts';
import { currentSubscription } from '../../../core/billing/subscriptions.ts';
import { AppError } from '../../../core/errors/app-error.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { GatedLink, GateScript, Notice, SignInGate } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { balanceOf, creditsText, presentCatalogue } from '../../presenters/billing.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { authContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/pricing';

// /info/pricing/ (spec §2 "Info"): the credit packs, the subscription plans and what credits pay
// for, from the one catalogue (core/billing/catalogue.ts). Buying places an order and goes to its
// checkout; a guest gets the sign-in popup, which comes back here to finish. A paid action refused
// for too few credits links here with what it needed (`?cost=`).

const PATH = '/info/pricing/';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langOf(params);
  const services = context.get(servicesContext);
  const auth = context.get(authContext);
  const p = presenter(services.reference, lang);
  const url = new URL(request.url);
  const balance = await balanceOf(services.db, auth?.user.id);
  const subscription = auth ? await currentSubscription(services.db, auth.user.id) : null;
  const cost = Number(url.searchParams.get('cost'));
  return {
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: PATH,
      title: `${p.t('billing.pricing.title')} — Registra`,
      description: p.t('billing.pricing.description'),
    },
    ...presentCatalogue(p),
    signedIn: auth !== null,
    balance: balance === null ? null : creditsText(p, balance),
    need:
      balance !== null && Number.isInteger(cost) && cost > 0
        ? p.t('billing.pricing.need', { cost: creditsText(p, cost), balance: creditsText(p, balance) })
        : '',
    subscribed: subscription
      ? p.t('billing.pricing.subscribed', { plan: offerOf(subscription.plan_id)?.name[lang] ?? subscription.plan_id })
      : '',
    conflict: url.searchParams.get('problem') === 'subscribed' ? p.t('billing.pricing.conflict') : '',
    sandbox: services.payments.id === 'sandbox',
    action: p.path(PATH),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

/** Buy: a pending order of the offer, then its checkout page. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langOf(params);
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const form = await request.formData();
  try {
    const order = await placeOfferOrder(services.db, services.payments, auth.user.id, formText(form, 'offer'));
    return redirect(localePath(lang, `/dashboard/orders/${order.number}/checkout/`), 303);
  } catch (error) {
    if (error instanceof AppError && error.code === 'conflict') {
      return redirect(`${localePath(lang, PATH)}?problem=subscribed`, 303);
    }
    throw error;
  }
}

function BuyButton({
  offer,
  label,
  signedIn,
  action,
}: {
  offer: string;
  label: string;
  signedIn: boolean;
  action: string;
}) {
  const { t } = useTranslation();
  if (!signedIn) {
    return (
      <GatedLink action={`buy-${offer}`} text={t('billing.pricing.gate')}>
        {label}
      </GatedLink>
    );
  }
  return (
    <form method="post" action={action} data-pending={`buy-${offer}`}>
      <CsrfField />
      <input type="hidden" name="offer" value={offer} />
      <button type="submit">{label}</button>
    </form>
  );
}

export default function Pricing({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="pricing-page">
      <h1>{t('billing.pricing.title')}</h1>
      <p>{t('billing.pricing.intro')}</p>
      <Notice>{d.need}</Notice>
      <Notice>{d.conflict}</Notice>
      {d.balance !== null ? (
        <p className="credit-balance">{t('billing.pricing.yourBalance', { credits: d.balance })}</p>
      ) : null}
      {d.sandbox ? <p className="muted">{t('billing.pricing.sandbox')}</p> : null}
      <section aria-labelledby="packs">
        <h2 id="packs">{t('billing.pricing.packs')}</h2>
        <ul className="offers">
          {d.packs.map((o) => (
            <li key={o.id} className="offer">
              <h3>{o.name}</h3>
              <p className="offer-credits">{o.credits}</p>
              <p className="offer-price">{o.price}</p>
              <BuyButton offer={o.id} label={t('billing.pricing.buy')} signedIn={d.signedIn} action={d.action} />
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="plans">
        <h2 id="plans">{t('billing.pricing.plans')}</h2>
        {d.subscribed ? <p>{d.subscribed}</p> : null}
        <ul className="offers">
          {d.plans.map((o) => (
            <li key={o.id} className="offer">
              <h3>{o.name}</h3>
              <p className="offer-credits">{o.credits}</p>
              <p className="offer-price">{o.price}</p>
              <BuyButton offer={o.id} label={t('billing.pricing.subscribe')} signedIn={d.signedIn} action={d.action} />
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="products">
        <h2 id="products">{t('billing.pricing.products')}</h2>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('billing.pricing.product')}</th>
              <th scope="col">{t('billing.pricing.creditsColumn')}</th>
              <th scope="col">{t('billing.pricing.unit')}</th>
            </tr>
          </thead>
          <tbody>
            {d.products.map((product) => (
              <tr key={product.id}>
                <th scope="row">{product.name}</th>
                <td>{product.credits}</td>
                <td>{product.unit}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {d.signedIn ? null : <SignInGate />}
      <GateScript />
    </div>
  );
}
