import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { localePath } from '../../../core/i18n/i18n.ts';
import { createNewTracking, trackingQueryOf } from '../../../core/monitoring/new-trackings.ts';
import { getSavedSearch, listSavedSearches } from '../../../core/saved-searches/saved-searches.ts';
import { companiesSection } from '../../../core/sections/companies.ts';
import { fieldProblem } from '../../../core/user-data/user-data-errors.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { MonitoringNav } from '../../components/monitoring.tsx';
import { FieldProblem, UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { formInt, langOf, userDataFormFailure, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/new-add';

// /companies/monitoring/new/add/: define a new-company tracking from search criteria — the
// companies section's filters (name words, jurisdiction, industry), one of the user's saved
// searches, or the search the user came from (`?query=`, the search page's "Track new companies").

const COUNTRY = 1;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const lang = langOf(params);
  const { db, reference } = context.get(servicesContext);
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  let current: string | null = null;
  try {
    current = url.searchParams.get('query') ? trackingQueryOf(url.searchParams.get('query') ?? '') : null;
  } catch {
    current = null;
  }
  const saved = await listSavedSearches(db, auth.user.id, { section: companiesSection.id });
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, lang);
  return {
    seo: userPageSeo(
      context,
      lang,
      '/companies/monitoring/new/add/',
      'monitoring.add.title',
      'monitoring.add.description',
    ),
    current: current ? { query: current, href: p.path(current) } : null,
    saved: saved.data.map((s) => ({ id: s.id, name: s.name })),
    jurisdictions: reference.locations.items
      .filter((l) => l.location_type_id === COUNTRY)
      .map((l) => ({ id: l.id, name: p.name(l) }))
      .sort(byName),
    industries: reference.industries.items
      .filter((i) => i.level === 1)
      .map((i) => ({ id: i.id, name: p.name(i) }))
      .sort(byName),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

/** The criteria the form chose, as a companies search path (checked by createNewTracking). */
async function criteriaOf(form: FormData, db: Parameters<typeof getSavedSearch>[0], userId: number): Promise<string> {
  const source = formText(form, 'source');
  if (source === 'current') return formText(form, 'query');
  if (source === 'saved') {
    const id = formInt(form, 'saved');
    const saved = id === null ? null : await getSavedSearch(db, userId, id);
    if (!saved || saved.section !== companiesSection.id)
      throw fieldProblem('query', 'invalid', 'Choose a saved search.');
    return saved.query;
  }
  const search = new URLSearchParams();
  const words = formText(form, 'q').trim();
  if (words) search.set('q', words);
  for (const field of ['jurisdiction', 'industry']) {
    const id = formInt(form, field);
    if (id !== null) search.set(field, String(id));
  }
  const query = search.toString();
  return `/companies/search/${query ? `?${query}` : ''}`;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const lang = langOf(params);
  const form = await request.formData();
  const name = formText(form, 'name');
  try {
    await createNewTracking(db, auth.user.id, { name, query: await criteriaOf(form, db, auth.user.id) });
  } catch (error) {
    return userDataFormFailure(error, { name });
  }
  return redirect(`${localePath(lang, '/companies/monitoring/new/')}?done=created`);
}

export default function AddNewCompanyTracking({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { current, saved, jurisdictions, industries } = loaderData;
  const fields = actionData?.fields;
  const problem = (name: string) => (fields?.[name] ? `${name}-problem` : undefined);
  const source = current ? 'current' : 'filters';
  return (
    <div className="user-data-page monitoring-page">
      <UserDataNav />
      <MonitoringNav />
      <h1>{t('monitoring.add.title')}</h1>
      <p>{t('monitoring.add.intro')}</p>
      {fields ? (
        <p role="alert" className="form-alert">
          {t(`monitoring.problems.${Object.keys(fields)[0]}.${Object.values(fields)[0]}`, { defaultValue: '' })}
        </p>
      ) : null}
      <form method="post" className="account-form tracking-form">
        <CsrfField />
        <div className="field">
          <label htmlFor="tracking-name">{t('monitoring.add.name')}</label>
          <input
            id="tracking-name"
            name="name"
            type="text"
            required
            maxLength={100}
            defaultValue={actionData?.values?.name ?? t('monitoring.add.defaultName')}
            aria-describedby={problem('name')}
          />
          <FieldProblem id="name-problem" fields={fields} name="name" problems="monitoring.problems" />
        </div>
        <fieldset>
          <legend>{t('monitoring.add.criteria')}</legend>
          {current ? (
            <div className="choice">
              <input
                type="radio"
                id="source-current"
                name="source"
                value="current"
                defaultChecked={source === 'current'}
              />
              <label htmlFor="source-current">
                {t('monitoring.add.fromCurrent')}: <a href={current.href}>{current.query}</a>
              </label>
              <input type="hidden" name="query" value={current.query} />
            </div>
          ) : null}
          <div className="choice">
            <input
              type="radio"
              id="source-filters"
              name="source"
              value="filters"
              defaultChecked={source === 'filters'}
            />
            <label htmlFor="source-filters">{t('monitoring.add.fromFilters')}</label>
            <div className="field">
              <label htmlFor="tracking-q">{t('monitoring.add.words')}</label>
              <input id="tracking-q" name="q" type="text" maxLength={200} />
            </div>
            <div className="field">
              <label htmlFor="tracking-jurisdiction">{t('monitoring.add.jurisdiction')}</label>
              <select id="tracking-jurisdiction" name="jurisdiction" defaultValue="">
                <option value="">{t('monitoring.add.any')}</option>
                {jurisdictions.map((j) => (
                  <option key={j.id} value={j.id}>
                    {j.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="tracking-industry">{t('monitoring.add.industry')}</label>
              <select id="tracking-industry" name="industry" defaultValue="">
                <option value="">{t('monitoring.add.any')}</option>
                {industries.map((i) => (
                  <option key={i.id} value={i.id}>
                    {i.name}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="choice">
            <input type="radio" id="source-saved" name="source" value="saved" disabled={saved.length === 0} />
            <label htmlFor="source-saved">{t('monitoring.add.fromSaved')}</label>
            {saved.length > 0 ? (
              <div className="field">
                <label htmlFor="tracking-saved">{t('monitoring.add.savedSearch')}</label>
                <select id="tracking-saved" name="saved">
                  {saved.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                </select>
              </div>
            ) : (
              <p className="hint">{t('monitoring.add.noSaved')}</p>
            )}
          </div>
          <FieldProblem id="query-problem" fields={fields} name="query" problems="monitoring.problems" />
        </fieldset>
        <button type="submit">{t('monitoring.add.submit')}</button>
      </form>
    </div>
  );
}
