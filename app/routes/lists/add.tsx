import { data, redirect } from 'react-router';
import { safeReturnTo } from '../../../core/accounts/return-to.ts';
import { i18nFor, localePath } from '../../../core/i18n/i18n.ts';
import { addWatchlistObjects } from '../../../core/watchlists/watchlist-objects.ts';
import { createWatchlist, getWatchlistByNumber } from '../../../core/watchlists/watchlists.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { formIds, langOf } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/add';

// POST /companies/lists/add/: "add to list" from a profile (one company) or from search results
// (the ticked rows), into one of the user's lists or a new one. Back to the profile, or on to the
// list. A guest gets 401 whatever the page showed (the gate, spec §5).

/** Nothing to show: a GET goes to the lists. */
export function loader({ params }: Route.LoaderArgs) {
  throw redirect(localePath(langOf(params), '/companies/lists/'));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const lang = langOf(params);
  const { t } = i18nFor(lang);
  const form = await request.formData();
  const ids = formIds(form, 'ids');
  if (ids.length === 0) throw data({ message: t('lists.selectFirst') }, { status: 400 });
  const choice = formText(form, 'list');
  let list = /^\d{1,9}$/.test(choice) ? await getWatchlistByNumber(db, auth.user.id, Number(choice)) : null;
  if (!list && /^\d{1,9}$/.test(choice)) throw data({ message: t('lists.notFound') }, { status: 404 });
  try {
    list ??= await createWatchlist(db, auth.user.id, { name: formText(form, 'new_name') || t('lists.defaultName') });
    const result = await addWatchlistObjects(db, auth.user.id, list.id, ids);
    const returnTo = safeReturnTo(formText(form, 'returnTo'), '');
    if (returnTo) return redirect(returnTo);
    return redirect(`${localePath(lang, `/companies/lists/${list.number}/`)}?done=added&count=${result.added}`);
  } catch (error) {
    const fields = (error as { details?: { fields?: Record<string, string> } }).details?.fields;
    const [field, code] = Object.entries(fields ?? {})[0] ?? [];
    if (field) throw data({ message: t(`lists.problems.${field}.${code}`) }, { status: 400 });
    throw error;
  }
}

export default function AddToList() {
  return null;
}
