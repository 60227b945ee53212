import { useTranslation } from 'react-i18next';
import { data } from 'react-router';
import { AppError } from '../../core/errors/app-error.ts';
import { isLang } from '../../core/i18n/i18n.ts';
import { ChoiceBoxes, rangeInput } from '../components/filter-panel.tsx';
import { HiddenFields } from '../components/hidden-fields.tsx';
import { pageMeta } from '../meta.ts';
import type { AdvancedField } from '../presenters/advanced-search.server.ts';
import { loadAdvancedSearch } from '../presenters/advanced-search.server.ts';
import { sectionOfUrl } from '../presenters/search-page.server.ts';
import { servicesContext } from '../services.ts';
import type { Route } from './+types/advanced-search';

// The advanced search (ADR 0022): one plain GET form to the results (no framework JavaScript),
// its fields labelled and grouped by topic, values ticked from lists.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const url = new URL(request.url);
  const section = sectionOfUrl(url);
  try {
    const page = await loadAdvancedSearch(services, lang, url, section);
    return {
      page,
      seo: { siteUrl: services.siteUrl, lang, path: page.canonicalPath, title: page.title, description: page.title },
    };
  } catch (error) {
    if (error instanceof AppError && error.code === 'bad_request')
      throw data({ message: error.message }, { status: 400 });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function AdvancedSearch({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  const { t } = useTranslation();
  return (
    <div className="advanced-search">
      <h1>{page.title}</h1>
      <p>{t('advanced.intro')}</p>
      <section aria-labelledby="advanced-current" className="advanced-current">
        <h2 id="advanced-current">{t('advanced.current')}</h2>
        {page.chips.length === 0 ? (
          <p className="muted">{t('advanced.none')}</p>
        ) : (
          <ul className="chips">
            {page.chips.map((c) => (
              <li key={c.name}>
                {c.label}{' '}
                <a href={c.removeHref} aria-label={t('search.removeFilter', { name: c.label })}>
                  ×
                </a>
              </li>
            ))}
          </ul>
        )}
        <p>
          <a href={page.resultsHref}>{t('advanced.backToResults')}</a>
        </p>
      </section>
      <form method="get" action={page.action} className="advanced-form">
        <HiddenFields params={page.carry} />
        {page.topics.map((topic) => (
          <fieldset key={topic.id} className="advanced-topic">
            <legend>{topic.label}</legend>
            <div className="advanced-fields">
              {topic.fields.map((field) => (
                <Field key={field.name} field={field} />
              ))}
            </div>
            {topic.subgroups.map((group) => (
              <details key={group.label} className="advanced-subgroup" open={group.open}>
                <summary>{group.label}</summary>
                <div className="advanced-fields">
                  {group.fields.map((field) => (
                    <Field key={field.name} field={field} />
                  ))}
                </div>
              </details>
            ))}
          </fieldset>
        ))}
        <p className="advanced-actions">
          <button type="submit">{t('advanced.showResults')}</button> <a href={page.clearHref}>{t('search.clear')}</a>
        </p>
      </form>
    </div>
  );
}

/** A field's id: its parameter name with brackets and colons made plain. */
const idOf = (name: string) => `adv-${name.replace(/[^a-z0-9_-]/gi, '-')}`;

function Field({ field }: { field: AdvancedField }) {
  const { t } = useTranslation();
  const id = idOf(field.name);
  switch (field.kind) {
    case 'choices':
      return (
        <fieldset className={`field${field.options.length > 8 ? ' field-wide' : ''}`}>
          <legend>{field.label}</legend>
          <ChoiceBoxes field={field} />
        </fieldset>
      );
    case 'text':
      return (
        <div className="field">
          <label htmlFor={id}>{field.label}</label>
          <input id={id} name={field.name} defaultValue={field.value} maxLength={200} />
        </div>
      );
    case 'range':
      return (
        <fieldset className="field">
          <legend>{field.label}</legend>
          <div className="range-fields">
            {(['from', 'to'] as const).map((side) => (
              <label key={side}>
                {t(`search.${side}`)}
                <input
                  name={`${field.name}:${side}`}
                  defaultValue={field[side]}
                  {...rangeInput(field.valueType, side === 'from' ? 'yyyy' : 'yyyy-MM-dd', t)}
                />
              </label>
            ))}
          </div>
        </fieldset>
      );
    case 'yesno':
      return (
        <div className="field">
          <label htmlFor={id}>{field.label}</label>
          <select id={id} name={field.name} defaultValue={field.value}>
            <option value="">{t('search.any')}</option>
            <option value="true">{t('profile.yes')}</option>
            <option value="false">{t('profile.no')}</option>
          </select>
        </div>
      );
    case 'known':
      return (
        <fieldset className="field">
          <legend>{field.label}</legend>
          <div className="choices">
            {/* An empty-valued box sends `name:is_known=` (the filter grammar's availability). */}
            <label>
              <input type="checkbox" name={`${field.name}:is_known`} value="" defaultChecked={field.known} />{' '}
              {t('advanced.known')}
            </label>
            <label>
              <input type="checkbox" name={`${field.name}:is_unknown`} value="" defaultChecked={field.unknown} />{' '}
              {t('advanced.unknown')}
            </label>
          </div>
        </fieldset>
      );
  }
}
