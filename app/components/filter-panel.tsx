import { useTranslation } from 'react-i18next';
import type { SearchPage } from '../presenters/search-page.server.ts';
import { HiddenFields } from './hidden-fields.tsx';

/** The filter form: a plain GET form (works without JavaScript), one field per declared filter. */
export function FilterPanel({ page }: { page: SearchPage }) {
  const { t } = useTranslation();
  return (
    <aside className="filter-panel">
      <h2>{t('search.filters')}</h2>
      <form method="get" action={page.clearHref}>
        {page.invalidFilters ? (
          <p role="alert" className="form-alert">
            {t('search.invalidFilters')}
          </p>
        ) : null}
        <HiddenFields params={page.carry.panel} />
        {page.panel.map((field) =>
          field.kind === 'select' ? (
            <div className="field" key={field.name}>
              <label htmlFor={`filter-${field.name}`}>{field.label}</label>
              <select id={`filter-${field.name}`} name={field.name} defaultValue={field.value}>
                <option value="">{t('search.any')}</option>
                {field.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {`${'\u00a0\u00a0'.repeat(o.depth ?? 0)}${o.label}`}
                  </option>
                ))}
              </select>
            </div>
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
        <button type="submit">{t('search.apply')}</button>
      </form>
    </aside>
  );
}

/** Input hints of a range bound: dates as yyyy, yyyy-MM or yyyy-MM-dd; numbers with up to 2 decimals. */
function rangeInput(valueType: 'date' | 'number', placeholder: string, t: (key: string) => string) {
  return valueType === 'date'
    ? { inputMode: 'numeric' as const, pattern: '\\d{4}(-\\d{2}(-\\d{2})?)?', placeholder, title: t('search.dateHint') }
    : { inputMode: 'decimal' as const, pattern: '-?\\d+(\\.\\d{1,2})?', title: t('search.numberHint') };
}
