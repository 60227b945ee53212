import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data } from 'react-router';
import { AppError } from '../../core/errors/app-error.ts';
import { isLang, unprefixedPath } from '../../core/i18n/i18n.ts';
import { sectionById } from '../../core/sections/sections.ts';
import { HiddenFields } from '../components/hidden-fields.tsx';
import { pageMeta } from '../meta.ts';
import { type AdvancedParam, loadAdvancedSearch } from '../presenters/advanced-search.server.ts';
import type { RouteHandle } from '../root.tsx';
import { servicesContext } from '../services.ts';
import type { Route } from './+types/advanced-search';

/** The parameter list filters as the user types: this page hydrates (and works without JavaScript). */
export const handle: RouteHandle = { hydrate: true };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const url = new URL(request.url);
  const section = sectionById(unprefixedPath(url.pathname).split('/')[1]);
  if (!section) throw data({ message: 'Not found' }, { status: 404 });
  try {
    const page = loadAdvancedSearch(services, lang, url, section);
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
  const [find, setFind] = useState(page.find);
  // Marks the page as interactive (the list filters as you type from then on).
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  const needle = find.trim().toLowerCase();
  const matches = (param: AdvancedParam) =>
    needle === '' || param.label.toLowerCase().includes(needle) || param.name.includes(needle);
  const groups = page.groups
    .map((g) => ({ ...g, params: g.params.filter(matches) }))
    .filter((g) => g.params.length > 0);
  return (
    <div className="advanced-search" data-live={live ? 'true' : undefined}>
      <h1>{page.title}</h1>
      <p>{t('advanced.intro', { count: page.parameterCount })}</p>
      <section aria-labelledby="advanced-current" className="advanced-current">
        <h2 id="advanced-current">{t('advanced.current')}</h2>
        {page.chips.length === 0 ? (
          <p className="muted">{t('advanced.none')}</p>
        ) : (
          <ul className="chips">
            {page.chips.map((c) => (
              <li key={c.name}>
                {c.label}{' '}
                <a href={c.removeHref} aria-label={t('search.removeFilter', { name: c.name })}>
                  ×
                </a>
              </li>
            ))}
          </ul>
        )}
        <p>
          <a className="button" href={page.resultsHref}>
            {t('advanced.showResults')}
          </a>
        </p>
      </section>
      <search>
        <form method="get" action={page.action} className="advanced-find">
          <HiddenFields params={page.current} />
          <label htmlFor="find">{t('advanced.find')}</label>
          <input
            id="find"
            name="find"
            type="search"
            value={find}
            onChange={(e) => setFind(e.target.value)}
            placeholder={t('advanced.findPlaceholder')}
            autoComplete="off"
          />
          <button type="submit" className="secondary">
            {t('advanced.findButton')}
          </button>
        </form>
      </search>
      {groups.length === 0 ? <p>{t('advanced.noMatch')}</p> : null}
      {groups.map((group) => (
        <details key={group.id} className="advanced-group" open={needle !== '' || group.id === 'record'}>
          <summary>
            {group.label} <span className="count">({group.params.length})</span>
          </summary>
          <ul>
            {group.params.map((param) => (
              <li key={param.name} className={param.active ? 'active' : undefined}>
                <ParamForm param={param} action={page.action} />
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}

function ParamForm({ param, action }: { param: AdvancedParam; action: string }) {
  const { t } = useTranslation();
  const id = `param-${param.name.replace(/[^a-z0-9_-]/g, '-')}`;
  const submit = !param.active
    ? t('advanced.add')
    : param.control === 'select'
      ? t('advanced.or')
      : t('advanced.update');
  return (
    <form method="get" action={action} className="param-form">
      <HiddenFields params={param.carry} />
      <label htmlFor={id}>
        {param.label} <code className="param-name">{param.name}</code>
      </label>
      {param.control === 'availability' ? (
        <input type="hidden" id={id} name={param.name} value="" />
      ) : param.control === 'select' ? (
        <select id={id} name={param.name} defaultValue="" required>
          <option value="">{t('search.any')}</option>
          {param.options?.map((o) => (
            <option key={o.value} value={o.value}>
              {`${'\u00a0\u00a0'.repeat(o.depth ?? 0)}${o.label}`}
            </option>
          ))}
        </select>
      ) : param.control === 'boolean' ? (
        <select id={id} name={param.name} defaultValue={param.value || 'true'}>
          <option value="true">{t('profile.yes')}</option>
          <option value="false">{t('profile.no')}</option>
        </select>
      ) : (
        <input
          id={id}
          name={param.name}
          defaultValue={param.value}
          required
          maxLength={200}
          placeholder={param.control === 'date' ? 'yyyy, yyyy-MM or yyyy-MM-dd' : undefined}
          inputMode={param.control === 'number' ? 'decimal' : undefined}
        />
      )}
      <button type="submit" className="secondary">
        {submit}
      </button>
    </form>
  );
}
