import { useTranslation } from 'react-i18next';
import { escapeHtml } from '../../core/html/escape-html.ts';
import autoSubmitScript from '../islands/auto-submit.js?raw';
import { inlineScript } from '../islands/inline-script.ts';
import moreChoicesScript from '../islands/more-choices.js?raw';
import type { Option, SearchPage } from '../presenters/search-page.server.ts';
import { HiddenFields } from './hidden-fields.tsx';

const AUTO_SUBMIT_SCRIPT = inlineScript(autoSubmitScript);
const MORE_CHOICES_SCRIPT = inlineScript(moreChoicesScript);

/**
 * The filter form: a plain GET form (works without JavaScript), one field per declared filter.
 * Lists are boxes to tick, several values of one filter at once (OR). With script the form is
 * sent on every change (app/islands/auto-submit.js, ADR 0022); without, "Apply filters" sends it.
 */
export function FilterPanel({ page }: { page: SearchPage }) {
  const { t } = useTranslation();
  return (
    <aside className="filter-panel">
      <h2>{t('search.filters')}</h2>
      <form method="get" action={page.clearHref} id="filter-form" data-auto-submit="">
        {page.invalidFilters ? (
          <p role="alert" className="form-alert">
            {t('search.invalidFilters')}
          </p>
        ) : null}
        <HiddenFields params={page.carry.panel} />
        {page.panel.map((field) =>
          field.kind === 'choices' ? (
            <fieldset className="field" key={field.name}>
              <legend>{field.label}</legend>
              <ChoiceBoxes field={field} id={`choices-${field.name}`} />
              {field.more ? (
                <a href={field.more.href} className="more-choices" data-more-choices={`choices-${field.name}`}>
                  {field.more.label}
                </a>
              ) : null}
            </fieldset>
          ) : field.kind === 'text' ? (
            <div className="field" key={field.name}>
              <label htmlFor={`filter-${field.name}`}>{field.label}</label>
              <input id={`filter-${field.name}`} name={field.name} defaultValue={field.value} maxLength={200} />
            </div>
          ) : (
            <fieldset className={`field${field.problems ? ' field-invalid' : ''}`} key={field.name}>
              <legend>{field.label}</legend>
              {(['from', 'to'] as const).map((side) => {
                const problem = field.problems?.[side];
                const problemId = `filter-${field.name}-${side}-problem`;
                return (
                  <label key={side}>
                    {t(`search.${side}`)}
                    <input
                      name={`${field.name}:${side}`}
                      defaultValue={field[side]}
                      aria-invalid={problem ? true : undefined}
                      aria-describedby={problem ? problemId : undefined}
                      {...rangeInput(field.valueType, side === 'from' ? 'yyyy' : 'yyyy-MM-dd', t)}
                    />
                    {problem ? (
                      <span id={problemId} className="field-problem">
                        {problem}
                      </span>
                    ) : null}
                  </label>
                );
              })}
            </fieldset>
          ),
        )}
        <button type="submit" data-without-script="">
          {t('search.apply')}
        </button>
      </form>
      <script dangerouslySetInnerHTML={{ __html: AUTO_SUBMIT_SCRIPT }} />
      {page.panel.some((field) => field.kind === 'choices' && field.more) ? (
        <script dangerouslySetInnerHTML={{ __html: MORE_CHOICES_SCRIPT }} />
      ) : null}
    </aside>
  );
}

/**
 * A list of boxes to tick, several values of one filter at once (OR); a long one in columns. `id`
 * names the list where the whole of a shortened one can take its place (app/islands/more-choices.js).
 * The boxes are written as one string, not as React elements (ADR 0043): the same markup React
 * writes for them, at a fraction of its cost for a list of hundreds.
 */
export function ChoiceBoxes({
  field,
  id,
}: {
  field: { name: string; options: Option[]; values: string[] };
  id?: string;
}) {
  return (
    <div
      id={id}
      className={`choices${field.options.length > 8 ? ' choices-long' : ''}`}
      // Every name, value and label is escaped (escapeHtml).
      dangerouslySetInnerHTML={{ __html: choiceBoxesHtml(field) }}
    />
  );
}

function choiceBoxesHtml(field: { name: string; options: Option[]; values: string[] }): string {
  const name = escapeHtml(field.name);
  const chosen = new Set(field.values);
  let html = '';
  for (const o of field.options) {
    html += `<label${o.depth ? ` class="depth-${o.depth}"` : ''}><input type="checkbox" name="${name}"${chosen.has(o.value) ? ' checked=""' : ''} value="${escapeHtml(o.value)}"/> ${escapeHtml(o.label)}</label>`;
  }
  return html;
}

/** Input hints of a range bound: dates as yyyy, yyyy-MM or yyyy-MM-dd; numbers with up to 2 decimals. */
export function rangeInput(valueType: 'date' | 'number', placeholder: string, t: (key: string) => string) {
  return valueType === 'date'
    ? { inputMode: 'numeric' as const, pattern: '\\d{4}(-\\d{2}(-\\d{2})?)?', placeholder, title: t('search.dateHint') }
    : { inputMode: 'decimal' as const, pattern: '-?\\d+(\\.\\d{1,2})?', title: t('search.numberHint') };
}
