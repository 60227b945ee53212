import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { localePath } from '../../core/i18n/i18n.ts';
import { SAVED_NAME_MAX } from '../../core/limits.ts';
import {
  deleteSavedSearch,
  listSavedSearches,
  saveSearch,
  updateSavedSearch,
} from '../../core/saved-searches/saved-searches.ts';
import { sectionById } from '../../core/sections/sections.ts';
import { CsrfField, RowAction } from '../components/account-form.tsx';
import { HistoryFilters, HistoryPager } from '../components/history.tsx';
import { FieldProblem, Notice, SaveSearchForm, UserDataNav } from '../components/user-data.tsx';
import { pageMeta } from '../meta.ts';
import { formText } from '../presenters/account-forms.server.ts';
import { presenter } from '../presenters/present.server.ts';
import { formInt, historyQuery, langOf, userDataFormFailure, userPageSeo } from '../presenters/user-data.server.ts';
import { requireUser } from '../require-user.server.ts';
import { servicesContext } from '../services.ts';
import type { Route } from './+types/saved-searches';

// /dashboard/saved-searches/: searches kept under a name (spec §3 "saved searches", §5 "save or
// load filters") from any section's search page; run one (its link), rename or delete it.

const PATH = '/dashboard/saved-searches/';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langOf(params);
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  const filters = historyQuery(url);
  const page = await listSavedSearches(db, auth.user.id, filters.query);
  return {
    seo: userPageSeo(context, lang, PATH, 'saved.title', 'saved.description'),
    action: p.path(PATH),
    filters: filters.values,
    done: url.searchParams.get('done'),
    rows: page.data.map((s) => {
      const section = sectionById(s.section);
      return {
        id: s.id,
        name: s.name,
        href: p.path(s.query),
        section: section ? p.label(section.title) : s.section,
        savedOn: p.date(s.created_at.slice(0, 10)),
        savedAt: s.created_at,
      };
    }),
    ...filters.pageLinks(p.path(PATH), page.next),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const here = localePath(langOf(params), PATH);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const values = {
    intent,
    id: formText(form, 'id'),
    name: formText(form, 'name'),
    section: formText(form, 'section'),
    query: formText(form, 'query'),
  };
  const id = formInt(form, 'id');
  try {
    if (intent === 'save') {
      await saveSearch(db, auth.user.id, { name: values.name, section: values.section, query: values.query });
      return redirect(`${here}?done=saved`);
    }
    if (intent === 'rename' && id !== null) {
      await updateSavedSearch(db, auth.user.id, id, { name: values.name });
      return redirect(`${here}?done=renamed`);
    }
    if (intent === 'delete' && id !== null) {
      await deleteSavedSearch(db, auth.user.id, id);
      return redirect(`${here}?done=deleted`);
    }
  } catch (error) {
    return userDataFormFailure(error, values);
  }
  throw new Response('Unknown action', { status: 400 });
}

export default function SavedSearches({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { rows } = loaderData;
  const failed = actionData?.values;
  const fields = actionData?.fields;
  return (
    <div className="user-data-page">
      <UserDataNav />
      <h1>{t('saved.title')}</h1>
      {loaderData.done ? <Notice>{t(`saved.done.${loaderData.done}`, { defaultValue: '' })}</Notice> : null}
      {failed?.intent === 'save' && fields ? (
        <section className="user-data-form" aria-labelledby="save-again">
          <p role="alert" className="form-alert" id="save-again">
            {fields.name ? t(`lists.problems.name.${fields.name}`) : t('saved.invalidSearch')}
          </p>
          {fields.name && !fields.query && !fields.section ? (
            <SaveSearchForm section={failed.section} query={failed.query} defaultName={failed.name} />
          ) : null}
        </section>
      ) : null}
      <HistoryFilters action={loaderData.action} values={loaderData.filters} queryLabel={t('saved.find')} />
      {rows.length === 0 ? (
        <p className="empty">{loaderData.filters.active ? t('history.noMatch') : t('saved.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="results-table style-2">
            <thead>
              <tr>
                <th scope="col">{t('saved.columns.name')}</th>
                <th scope="col">{t('saved.columns.section')}</th>
                <th scope="col">{t('saved.columns.savedOn')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('history.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const renaming = failed?.intent === 'rename' && failed.id === String(row.id);
                return (
                  <tr key={row.id}>
                    <td data-label={t('saved.columns.name')}>
                      <a href={row.href}>{row.name}</a>
                    </td>
                    <td data-label={t('saved.columns.section')}>{row.section}</td>
                    <td data-label={t('saved.columns.savedOn')}>
                      <time dateTime={row.savedAt}>{row.savedOn}</time>
                    </td>
                    <td className="row-actions">
                      <details open={renaming || undefined}>
                        <summary>{t('saved.rename')}</summary>
                        <form method="post" action={loaderData.action}>
                          <CsrfField />
                          <input type="hidden" name="intent" value="rename" />
                          <input type="hidden" name="id" value={row.id} />
                          <label htmlFor={`saved-${row.id}-name`}>{t('saved.name')}</label>
                          <input
                            id={`saved-${row.id}-name`}
                            name="name"
                            type="text"
                            required
                            maxLength={SAVED_NAME_MAX}
                            defaultValue={renaming ? failed.name : row.name}
                          />
                          {renaming ? (
                            <FieldProblem id={`saved-${row.id}-problem`} fields={fields} name="name" />
                          ) : null}
                          <button type="submit" className="secondary">
                            {t('lists.save')}
                          </button>
                        </form>
                      </details>
                      <RowAction
                        action={loaderData.action}
                        intent="delete"
                        fields={{ id: row.id }}
                        label={t('history.deleteOne', { name: row.name })}
                      >
                        {t('history.delete')}
                      </RowAction>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <HistoryPager firstHref={loaderData.firstHref} nextHref={loaderData.nextHref} />
    </div>
  );
}
