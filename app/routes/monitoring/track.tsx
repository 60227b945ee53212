import { data, redirect } from 'react-router';
import { safeReturnTo } from '../../../core/accounts/return-to.ts';
import { i18nFor, localePath } from '../../../core/i18n/i18n.ts';
import { MAX_REFS } from '../../../core/limits.ts';
import { trackCompany } from '../../../core/monitoring/existing-trackings.ts';
import { userDataFieldsOf } from '../../../core/user-data/user-data-errors.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { formIds, langOf } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/track';

// POST /companies/monitoring/track/: "Track updates" from a profile (one company), search results
// or a list (the ticked rows). Back to the page it came from, else on to the tracked companies.
// A guest gets 401 whatever the page showed (the gate, spec §5).

/** Nothing to show: a GET goes to the tracked companies. */
export function loader({ params }: Route.LoaderArgs) {
  throw redirect(localePath(langOf(params), '/companies/monitoring/updates/'));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const lang = langOf(params);
  const form = await request.formData();
  const ids = formIds(form, 'ids').slice(0, MAX_REFS);
  if (ids.length === 0) throw data({ message: i18nFor(lang).t('monitoring.selectFirst') }, { status: 400 });
  let created = 0;
  try {
    for (const id of ids) if ((await trackCompany(db, auth.user.id, id)).created) created += 1;
  } catch (error) {
    const fields = userDataFieldsOf(error);
    if (!fields) throw error;
    const [field, code] = Object.entries(fields)[0];
    throw data({ message: i18nFor(lang).t(`monitoring.problems.${field}.${code}`) }, { status: 400 });
  }
  const returnTo = safeReturnTo(formText(form, 'returnTo'), '');
  if (returnTo) return redirect(returnTo);
  return redirect(`${localePath(lang, '/companies/monitoring/updates/')}?done=trackedMany&count=${created}`);
}

export default function Track() {
  return null;
}
