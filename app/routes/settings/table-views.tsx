import { redirect } from 'react-router';
import { safeReturnTo } from '../../../core/accounts/return-to.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { saveTableViewSetting } from '../../../core/table-views/table-view-settings.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { langOf, userDataFormFailure } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/table-views';

// Saves a search section's table view as the user's default (the search pages' "Save as my
// default"), then goes back to the page it came from. The page has nothing to show by itself.

export function loader({ params }: Route.LoaderArgs) {
  throw redirect(localePath(langOf(params), '/dashboard/settings/interface/'));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const lang = langOf(params);
  const form = await request.formData();
  const section = formText(form, 'section');
  const columns = form.getAll('columns').filter((c): c is string => typeof c === 'string');
  try {
    await saveTableViewSetting(db, auth.user.id, section, {
      style: formText(form, 'style'),
      columns: columns.length > 0 ? columns : null,
    });
  } catch (error) {
    return userDataFormFailure(error, { section });
  }
  const back = safeReturnTo(formText(form, 'returnTo'), localePath(lang, `/${section}/search/`));
  const url = new URL(back, 'http://registra.invalid');
  url.searchParams.set('view', 'saved');
  return redirect(`${url.pathname}${url.search}`);
}
