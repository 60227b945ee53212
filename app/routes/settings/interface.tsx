import { useTranslation } from 'react-i18next';
import { getAccountSettings, updateInterface } from '../../../core/accounts/account-settings.ts';
import { isLang, localePath } from '../../../core/i18n/i18n.ts';
import { LANGS } from '../../../core/reference/reference-data.ts';
import { TABLE_STYLES } from '../../../core/table-views/table-view-settings.ts';
import { AccountAlert, CsrfField } from '../../components/account-form.tsx';
import { SettingsPage } from '../../components/settings.tsx';
import { pageMeta } from '../../meta.ts';
import { accountFormFailure, formText } from '../../presenters/account-forms.server.ts';
import { doneOf, settingsDone, settingsHeaders } from '../../presenters/settings.server.ts';
import { langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/interface';

// Settings → interface: the language of the pages and emails, and the table style every results
// table starts with (a page's own choice, kept in its cookie, still wins: spec §4).

export const headers = settingsHeaders;

/** Each language by its own name, so that anyone can find theirs. */
const LANGUAGE_NAMES = { en: 'English', de: 'Deutsch', fr: 'Français' } as const;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const lang = langOf(params);
  const settings = await getAccountSettings(db, auth.user.id);
  return {
    seo: userPageSeo(
      context,
      lang,
      '/dashboard/settings/interface/',
      'settings.interface.title',
      'settings.interface.description',
    ),
    language: settings.language,
    tableStyle: settings.tableStyle,
    ...doneOf(request),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const form = await request.formData();
  const language = formText(form, 'language');
  const tableStyle = formText(form, 'tableStyle');
  try {
    await updateInterface(db, auth.user.id, { language, tableStyle });
  } catch (error) {
    return accountFormFailure(error, { language, tableStyle });
  }
  // The page answers in the language just chosen.
  return settingsDone(isLang(language) ? language : langOf(params), 'interface', 'saved');
}

export default function InterfaceSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const action = localePath(loaderData.seo.lang, '/dashboard/settings/interface/');
  const language = actionData?.values?.language ?? loaderData.language;
  const tableStyle = actionData?.values?.tableStyle ?? loaderData.tableStyle;
  return (
    <SettingsPage page="interface" notice={loaderData.done === 'saved' ? t('settings.interface.saved') : null}>
      <form method="post" action={action} className="account-form">
        <CsrfField />
        <AccountAlert result={actionData} />
        <div className="field">
          <label htmlFor="settings-language">{t('settings.interface.language')}</label>
          <select id="settings-language" name="language" defaultValue={language}>
            {LANGS.map((l) => (
              <option key={l} value={l} lang={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
        </div>
        <fieldset aria-describedby="settings-table-style-hint">
          <legend>{t('settings.interface.tableStyle')}</legend>
          {TABLE_STYLES.map((style) => (
            <label key={style}>
              <input type="radio" name="tableStyle" value={style} defaultChecked={style === tableStyle} />{' '}
              {t(`table.${style}`)}
            </label>
          ))}
          <span id="settings-table-style-hint" className="field-hint">
            {t('settings.interface.tableStyleHint')}
          </span>
        </fieldset>
        <button type="submit">{t('settings.interface.save')}</button>
      </form>
    </SettingsPage>
  );
}
