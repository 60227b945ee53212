import { data } from 'react-router';
import { i18nFor, isLang } from '../../../core/i18n/i18n.ts';
import { balanceOf } from '../../presenters/billing.server.ts';
import { authContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/balance';

/**
 * The signed-in user's balance as the pages word it, for the live-balance island
 * (app/islands/balance.js, ADR 0030): `{ balance, texts: { header, dashboard } }` in the page's
 * language. Private and never stored; a guest gets 401.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = context.get(authContext);
  const noStore = { 'cache-control': 'private, no-store' };
  if (!auth) return data({ error: 'Sign in to see your balance.' }, { status: 401, headers: noStore });
  const lang = isLang(params.lang) ? params.lang : 'en';
  const balance = (await balanceOf(context.get(servicesContext).db, auth.user.id)) ?? 0;
  const { t } = i18nFor(lang);
  // Worded as the header (app/root.tsx) and the dashboard (app/routes/dashboard/overview.tsx) word it.
  const credits = t('billing.credits', { count: balance });
  return data(
    { balance, texts: { header: credits, dashboard: t('billing.dashboard.balance', { credits }) } },
    { headers: noStore },
  );
}
