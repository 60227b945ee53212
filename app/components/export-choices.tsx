import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportChoices } from '../../core/export/export-options.ts';

// The choices of an export (spec §5, §7 "Export behaviour"): format, separator, which rows (the
// first-N count beside its choice) and, for companies, the data sections. One markup for the
// export page and the companies settings page, which keep the same export view settings.

export type ExportOption = { value: string; label: string; note?: string };

/** What the choices offer, labelled (app/presenters/export-page.server.ts `exportOptionsOf`). */
export type ExportOptions = {
  formats: ExportOption[];
  separators: ExportOption[];
  scopes: ExportOption[];
  /** The company data sections; null for the other sections. */
  sections: ExportOption[] | null;
  /** The most rows the count may ask for. */
  limit: number;
};

export type ExportChoiceField = 'format' | 'separator' | 'scope' | 'count' | 'sections';

export function ExportChoicesFields({
  idPrefix,
  options,
  choices,
  problem,
}: {
  /** Makes the ids of the labelled fields unique on the page: `${idPrefix}-separator`. */
  idPrefix: string;
  options: ExportOptions;
  /** What is chosen when the page opens. */
  choices: ExportChoices;
  /** A field's problem after a refused save (the settings page), shown under it. */
  problem?: (field: ExportChoiceField) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <fieldset>
        <legend>{t('export.format')}</legend>
        {options.formats.map((f) => (
          <label key={f.value}>
            <input type="radio" name="format" value={f.value} defaultChecked={f.value === choices.format} /> {f.label}
          </label>
        ))}
        {problem?.('format')}
      </fieldset>
      <div className="field">
        <label htmlFor={`${idPrefix}-separator`}>{t('export.separator')}</label>
        <select id={`${idPrefix}-separator`} name="separator" defaultValue={choices.separator}>
          {options.separators.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        {problem?.('separator')}
      </div>
      <fieldset>
        <legend>{t('export.scope')}</legend>
        {options.scopes.map((s) => (
          <div key={s.value} className="export-scope">
            <label>
              <input type="radio" name="scope" value={s.value} defaultChecked={s.value === choices.scope} /> {s.label}
            </label>
            {/* How many the first-N choice takes, beside it. */}
            {s.value === 'first' ? (
              <>
                {' '}
                <label htmlFor={`${idPrefix}-count`} className="visually-hidden">
                  {t('export.count')}
                </label>
                <input
                  id={`${idPrefix}-count`}
                  name="count"
                  type="number"
                  min={1}
                  max={options.limit}
                  step={1}
                  defaultValue={choices.count}
                />
                {problem?.('count')}
              </>
            ) : null}
            {/* Its price on the export page: the rows it would write, the credits, the balance after. */}
            {s.note ? <span className="export-scope-note"> {s.note}</span> : null}
          </div>
        ))}
        {problem?.('scope')}
      </fieldset>
      {options.sections ? (
        <fieldset>
          <legend>{t('export.sections')}</legend>
          <p className="field-hint">{t('export.sectionsHint')}</p>
          {options.sections.map((s) => (
            <label key={s.value}>
              <input
                type="checkbox"
                name="sections"
                value={s.value}
                defaultChecked={(choices.sections as readonly string[]).includes(s.value)}
              />{' '}
              {s.label}
            </label>
          ))}
          {problem?.('sections')}
        </fieldset>
      ) : null}
    </>
  );
}
