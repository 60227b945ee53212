import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { localePath } from '../../../core/i18n/i18n.ts';
import {
  createWatchlist,
  deleteWatchlist,
  listWatchlists,
  updateWatchlist,
} from '../../../core/watchlists/watchlists.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { ListFields } from '../../components/list-fields.tsx';
import { GatedLink, GateScript, Notice, SignInGate, UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { formInt, intParam, langOf, userDataFormFailure, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { authContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/lists';

// /companies/lists/: the user's company lists (spec §2 "Lists": List, Companies, Description),
// with create, rename, describe and delete. A guest sees what lists are and a gated "Create a list".

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langOf(params);
  const seo = userPageSeo(context, lang, '/companies/lists/', 'lists.title', 'lists.description');
  const auth = context.get(authContext);
  if (!auth) return { seo, signedIn: false as const };
  const { db, reference } = context.get(servicesContext);
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  const q = (url.searchParams.get('q') ?? '').slice(0, 200);
  const after = intParam(url, 'after');
  const page = await listWatchlists(db, auth.user.id, { q: q || undefined, after });
  const nextParams = new URLSearchParams({ ...(q ? { q } : {}), ...(page.next ? { after: String(page.next) } : {}) });
  return {
    seo,
    signedIn: true as const,
    q,
    done: url.searchParams.get('done'),
    lists: page.data.map((l) => ({
      id: l.id,
      number: l.number,
      name: l.name,
      description: l.description,
      total: p.number(l.total_objects),
      href: p.path(`/companies/lists/${l.number}/`),
    })),
    nextHref: page.next ? `${p.path('/companies/lists/')}?${nextParams}` : null,
    firstHref: after !== undefined ? p.path(`/companies/lists/${q ? `?q=${encodeURIComponent(q)}` : ''}`) : null,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const lang = langOf(params);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const name = formText(form, 'name');
  const description = formText(form, 'description');
  const id = formInt(form, 'id');
  const back = (done: string) => redirect(`${localePath(lang, '/companies/lists/')}?done=${done}`);
  try {
    if (intent === 'create') {
      const list = await createWatchlist(db, auth.user.id, { name, description });
      return redirect(`${localePath(lang, `/companies/lists/${list.number}/`)}?done=created`);
    }
    if (intent === 'update' && id !== null) {
      await updateWatchlist(db, auth.user.id, id, { name, description });
      return back('updated');
    }
    if (intent === 'delete' && id !== null) {
      await deleteWatchlist(db, auth.user.id, id);
      return back('deleted');
    }
  } catch (error) {
    return userDataFormFailure(error, { intent, id: id === null ? '' : String(id), name, description });
  }
  throw new Response('Unknown action', { status: 400 });
}

export default function Lists({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = loaderData.seo.lang;
  const failed = actionData?.values;
  const createFailed = failed?.intent === 'create';
  return (
    <div className="user-data-page">
      <UserDataNav />
      <h1>{t('lists.title')}</h1>
      {!loaderData.signedIn ? (
        <>
          <p>{t('lists.guestIntro')}</p>
          <GatedLink action="create-list" text={t('gate.createList')}>
            {t('lists.create')}
          </GatedLink>
          <SignInGate />
          <GateScript />
        </>
      ) : (
        <>
          {loaderData.done ? <Notice>{t(`lists.done.${loaderData.done}`, { defaultValue: '' })}</Notice> : null}
          {actionData?.fields && !createFailed ? (
            <p role="alert" className="form-alert">
              {t('lists.problemsSummary')}
            </p>
          ) : null}
          {loaderData.lists.length === 0 && !loaderData.q ? (
            <p className="empty">{t('lists.none')}</p>
          ) : (
            <>
              <search>
                <form method="get" action={localePath(lang, '/companies/lists/')} className="search-bar">
                  <label htmlFor="lists-q">{t('lists.find')}</label>
                  <input id="lists-q" name="q" type="search" defaultValue={loaderData.q} />
                  <button type="submit" className="secondary">
                    {t('history.filter')}
                  </button>
                </form>
              </search>
              <div className="table-wrap">
                <table className="results-table style-2 lists-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('lists.columns.list')}</th>
                      <th scope="col">{t('lists.columns.companies')}</th>
                      <th scope="col">{t('lists.columns.description')}</th>
                      <th scope="col">
                        <span className="visually-hidden">{t('lists.columns.actions')}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {loaderData.lists.map((list) => {
                      const editing = failed?.intent === 'update' && failed.id === String(list.id);
                      return (
                        <tr key={list.id}>
                          <td data-label={t('lists.columns.list')}>
                            <a href={list.href}>{list.name}</a>
                          </td>
                          <td data-label={t('lists.columns.companies')} className="number">
                            {list.total}
                          </td>
                          <td data-label={t('lists.columns.description')} className="description">
                            {list.description}
                          </td>
                          <td className="row-actions">
                            <details open={editing || undefined}>
                              <summary>{t('lists.edit')}</summary>
                              <ListFields
                                idPrefix={`list-${list.id}`}
                                intent="update"
                                listId={list.id}
                                name={editing ? failed.name : list.name}
                                description={editing ? failed.description : list.description}
                                fields={editing ? actionData?.fields : undefined}
                                submit={t('lists.save')}
                              />
                            </details>
                            <details>
                              <summary>{t('lists.delete')}</summary>
                              <form method="post" action={localePath(lang, '/companies/lists/')}>
                                <CsrfField />
                                <input type="hidden" name="intent" value="delete" />
                                <input type="hidden" name="id" value={list.id} />
                                <p>{t('lists.deleteConfirm', { name: list.name })}</p>
                                <button type="submit" className="danger">
                                  {t('lists.deleteNow')}
                                </button>
                              </form>
                            </details>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
              {loaderData.lists.length === 0 ? <p className="empty">{t('lists.noMatch')}</p> : null}
              <nav className="pagination" aria-label={t('search.pagination')}>
                {loaderData.firstHref ? <a href={loaderData.firstHref}>← {t('history.newest')}</a> : <span />}
                {loaderData.nextHref ? (
                  <a href={loaderData.nextHref} rel="next">
                    {t('search.next')} →
                  </a>
                ) : (
                  <span />
                )}
              </nav>
            </>
          )}
          <section aria-labelledby="create-list" className="user-data-form">
            <h2 id="create-list">{t('lists.create')}</h2>
            <ListFields
              idPrefix="new-list"
              intent="create"
              name={createFailed ? failed.name : ''}
              description={createFailed ? failed.description : ''}
              fields={createFailed ? actionData?.fields : undefined}
              submit={t('lists.createSubmit')}
              pending
            />
          </section>
          <GateScript />
        </>
      )}
    </div>
  );
}
