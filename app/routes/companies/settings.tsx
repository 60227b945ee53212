import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { EXPORT_SCOPES } from '../../../core/export/export-options.ts';
import { choicesOf, getExportSetting, saveExportSetting } from '../../../core/export/export-settings.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { sectionById } from '../../../core/sections/sections.ts';
import {
  DEFAULT_TABLE_STYLE,
  getTableViewSetting,
  saveTableViewSetting,
  TABLE_STYLES,
} from '../../../core/table-views/table-view-settings.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { ExportChoicesFields } from '../../components/export-choices.tsx';
import { FieldProblem, Notice, UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { exportOptionsOf } from '../../presenters/export-page.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { doneOf, settingsHeaders } from '../../presenters/settings.server.ts';
import { langOf, userDataFormFailure, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/settings';

// /companies/settings/ (spec §2 "Company pages"): the signed-in user's table view and export
// settings for companies in one place — the same settings the search page's "Save as my default"
// and the export page keep (table_view_settings, export_view_settings, spec §7).

export const headers = settingsHeaders;

const PATH = '/companies/settings/';
/** "The selected rows" needs rows ticked on a search page: not a choice to keep. */
const SCOPES = EXPORT_SCOPES.filter((s) => s !== 'selected');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(reference, lang);
  const companies = sectionById('companies');
  if (!companies) throw new Error('the companies section is not declared');
  const [table, exportSetting] = await Promise.all([
    getTableViewSetting(db, auth.user.id, 'companies'),
    getExportSetting(db, auth.user.id, 'companies'),
  ]);
  return {
    seo: userPageSeo(context, lang, PATH, 'companySettings.title', 'companySettings.description'),
    table: {
      style: table?.style ?? DEFAULT_TABLE_STYLE,
      columns: companies.columns.map((c) => ({
        key: c.key,
        label: p.label(c.label),
        shown: !table?.columns || table.columns.includes(c.key),
      })),
    },
    export: choicesOf(exportSetting),
    exportOptions: exportOptionsOf(p, 'companies', SCOPES),
    ...doneOf(request),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

/** One of the two forms: the table view (`intent=table`) or the export settings (`intent=export`). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const form = await request.formData();
  const intent = formText(form, 'intent') === 'export' ? 'export' : 'table';
  const all = (name: string) => form.getAll(name).filter((v): v is string => typeof v === 'string');
  try {
    if (intent === 'table') {
      await saveTableViewSetting(db, auth.user.id, 'companies', {
        style: formText(form, 'style'),
        columns: all('columns'),
      });
    } else {
      const count = formText(form, 'count').trim();
      await saveExportSetting(db, auth.user.id, 'companies', {
        format: formText(form, 'format'),
        separator: formText(form, 'separator'),
        scope: formText(form, 'scope'),
        count: /^\d{1,6}$/.test(count) ? Number(count) : Number.NaN,
        sections: all('sections'),
      });
    }
  } catch (error) {
    return userDataFormFailure(error, { intent });
  }
  return redirect(`${localePath(langOf(params), PATH)}?done=${intent}`);
}

export default function CompanySettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { table } = loaderData;
  const action = localePath(loaderData.seo.lang, PATH);
  const failed = actionData?.values?.intent;
  const fields = (intent: string) => (failed === intent ? actionData?.fields : undefined);
  const problem = (intent: string, name: string) => (
    <FieldProblem
      id={`company-settings-${name}-problem`}
      fields={fields(intent)}
      name={name}
      problems="companySettings.problems"
    />
  );
  return (
    <div className="user-data-page settings-page">
      <UserDataNav />
      <h1>{t('companySettings.title')}</h1>
      {loaderData.done === 'table' || loaderData.done === 'export' ? (
        <Notice>{t(`companySettings.saved.${loaderData.done}`)}</Notice>
      ) : null}
      <SettingsForm
        intent="table"
        action={action}
        title={t('companySettings.table')}
        hint={t('companySettings.tableHint')}
        submit={t('companySettings.saveTable')}
      >
        <fieldset>
          <legend>{t('table.style')}</legend>
          {TABLE_STYLES.map((style) => (
            <label key={style}>
              <input type="radio" name="style" value={style} defaultChecked={style === table.style} />{' '}
              {t(`table.${style}`)}
            </label>
          ))}
          {problem('table', 'style')}
        </fieldset>
        <fieldset>
          <legend>{t('table.columns')}</legend>
          {table.columns.map((c) => (
            <label key={c.key}>
              <input type="checkbox" name="columns" value={c.key} defaultChecked={c.shown} /> {c.label}
            </label>
          ))}
          {problem('table', 'columns')}
        </fieldset>
      </SettingsForm>
      <SettingsForm
        intent="export"
        action={action}
        title={t('companySettings.export')}
        hint={t('companySettings.exportHint')}
        submit={t('companySettings.saveExport')}
      >
        <ExportChoicesFields
          idPrefix="company-settings"
          options={loaderData.exportOptions}
          choices={loaderData.export}
          problem={(name) => problem('export', name)}
        />
      </SettingsForm>
    </div>
  );
}

/** One of the page's two forms, under its heading: its `intent` tells the action which it is. */
function SettingsForm({
  intent,
  action,
  title,
  hint,
  submit,
  children,
}: {
  intent: 'table' | 'export';
  action: string;
  title: string;
  hint: string;
  submit: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`company-settings-${intent}`}>
      <h2 id={`company-settings-${intent}`}>{title}</h2>
      <p className="field-hint">{hint}</p>
      <form method="post" action={action} className={intent === 'export' ? 'account-form export-form' : 'account-form'}>
        <CsrfField />
        <input type="hidden" name="intent" value={intent} />
        {children}
        <button type="submit">{submit}</button>
      </form>
    </section>
  );
}
