import { useTranslation } from 'react-i18next';
import type { ProfileOffer } from '../presenters/billing.server.ts';
import { CsrfField } from './account-form.tsx';
import { GatedLink } from './user-data.tsx';

// What the pages of the money side show around a paid action (docs/decisions/0019-billing.md):
// the cost before it happens and the balance after; too few credits offers the pricing page; a
// guest gets the sign-in popup, which finishes the purchase after signing in.

/** "Open the full profile (2 credits)" on a profile page, or when it was bought. */
export function ProfilePurchase({ offer }: { offer: ProfileOffer }) {
  const { t } = useTranslation();
  if (offer.boughtOn) return <p className="profile-bought">{t('billing.cost.bought', { date: offer.boughtOn })}</p>;
  // Nothing to reveal, nothing to sell (ADR 0029): no price, no button.
  if (offer.nothingToBuy)
    return (
      <div className="profile-purchase">
        <p data-reveal="none">{t('billing.reveal.nothing')}</p>
      </div>
    );
  const label = t('billing.cost.buyProfile', { cost: offer.costText });
  return (
    <div className="profile-purchase">
      <p>{t('billing.cost.profile', { cost: offer.costText })}</p>
      <p data-reveal="counts">{t('billing.reveal.intro', { what: offer.revealText })}</p>
      {offer.balance === null ? (
        <GatedLink action="buy-profile" text={t('billing.cost.gate')}>
          {label}
        </GatedLink>
      ) : offer.balance < offer.cost ? (
        <p>
          {offer.tooFewText}{' '}
          <a className="button" href={offer.pricingHref}>
            {t('billing.cost.buyCredits')}
          </a>
        </p>
      ) : (
        <form method="post" data-pending="buy-profile">
          <CsrfField />
          <input type="hidden" name="intent" value="buy-profile" />
          <p className="field-hint">{offer.afterText}</p>
          <button type="submit">{label}</button>
        </form>
      )}
    </div>
  );
}
