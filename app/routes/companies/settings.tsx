import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import {
  COMPANY_EXPORT_SECTIONS,
  EXPORT_FORMATS,
  EXPORT_ROW_LIMIT,
  EXPORT_SCOPES,
  EXPORT_SEPARATORS,
} from '../../../core/export/export-options.ts';
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
import { FieldProblem, Notice, UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
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
    exportOptions: {
      formats: EXPORT_FORMATS.map((value) => ({ value, label: p.t(`export.formats.${value}`) })),
      separators: EXPORT_SEPARATORS.map((value) => ({ value, label: p.t(`export.separators.${value}`) })),
      scopes: SCOPES.map((value) => ({
        value,
        label: p.t(`export.scopes.${value}`),
      })),
      sections: COMPANY_EXPORT_SECTIONS.map((value) => ({ value, label: p.t(`export.sectionNames.${value}`) })),
    },
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
  const { table, exportOptions } = loaderData;
  const choices = loaderData.export;
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
      <section aria-labelledby="company-settings-table">
        <h2 id="company-settings-table">{t('companySettings.table')}</h2>
        <p className="field-hint">{t('companySettings.tableHint')}</p>
        <form method="post" action={action} className="account-form">
          <CsrfField />
          <input type="hidden" name="intent" value="table" />
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
          <button type="submit">{t('companySettings.saveTable')}</button>
        </form>
      </section>
      <section aria-labelledby="company-settings-export">
        <h2 id="company-settings-export">{t('companySettings.export')}</h2>
        <p className="field-hint">{t('companySettings.exportHint')}</p>
        <form method="post" action={action} className="account-form export-form">
          <CsrfField />
          <input type="hidden" name="intent" value="export" />
          <fieldset>
            <legend>{t('export.format')}</legend>
            {exportOptions.formats.map((f) => (
              <label key={f.value}>
                <input type="radio" name="format" value={f.value} defaultChecked={f.value === choices.format} />{' '}
                {f.label}
              </label>
            ))}
            {problem('export', 'format')}
          </fieldset>
          <div className="field">
            <label htmlFor="company-settings-separator">{t('export.separator')}</label>
            <select id="company-settings-separator" name="separator" defaultValue={choices.separator}>
              {exportOptions.separators.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
            {problem('export', 'separator')}
          </div>
          <fieldset>
            <legend>{t('export.scope')}</legend>
            {exportOptions.scopes.map((s) => (
              <label key={s.value}>
                <input type="radio" name="scope" value={s.value} defaultChecked={s.value === choices.scope} /> {s.label}
              </label>
            ))}
            {problem('export', 'scope')}
          </fieldset>
          <div className="field">
            <label htmlFor="company-settings-count">{t('export.count')}</label>
            <input
              id="company-settings-count"
              name="count"
              type="number"
              min={1}
              max={EXPORT_ROW_LIMIT}
              step={1}
              defaultValue={choices.count}
            />
            {problem('export', 'count')}
          </div>
          <fieldset>
            <legend>{t('export.sections')}</legend>
            <p className="field-hint">{t('export.sectionsHint')}</p>
            {exportOptions.sections.map((s) => (
              <label key={s.value}>
                <input
                  type="checkbox"
                  name="sections"
                  value={s.value}
                  defaultChecked={choices.sections.includes(s.value)}
                />{' '}
                {s.label}
              </label>
            ))}
            {problem('export', 'sections')}
          </fieldset>
          <button type="submit">{t('companySettings.saveExport')}</button>
        </form>
      </section>
    </div>
  );
}
