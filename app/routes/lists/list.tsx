import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { localePath } from '../../../core/i18n/i18n.ts';
import { userDataFieldsOf } from '../../../core/user-data/user-data-errors.ts';
import { parseCompanyRefs, resolveCompanyRefs } from '../../../core/watchlists/company-refs.ts';
import {
  addWatchlistObjects,
  listWatchlistObjects,
  removeWatchlistObjects,
  removeWatchlistTag,
  splitTags,
  tagWatchlistObjects,
} from '../../../core/watchlists/watchlist-objects.ts';
import { deleteWatchlist, getWatchlistByNumber, updateWatchlist } from '../../../core/watchlists/watchlists.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { CompanyTable } from '../../components/company-table.tsx';
import { ExportLink } from '../../components/export-link.tsx';
import { ListFields } from '../../components/list-fields.tsx';
import { FieldProblem, Notice, TrackSelected, UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { formIds, intParam, langOf, pageError, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/list';

// /companies/lists/{list_number}/: one of the user's lists (spec §2 "Company list detail": Legal
// name, Status, Jurisdiction, Registration date, Primary industry, Employees), its tags, adding
// companies by pasting their numbers or ids, removing and tagging the ticked rows.

const COLUMNS = ['legal_name', 'status', 'jurisdiction', 'registration_date', 'primary_industry', 'employees'] as const;
/** The form the rows' checkboxes belong to. */
const ROWS_FORM = 'list-rows';

async function listOf(context: Route.LoaderArgs['context'], number: string | undefined) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const list = /^\d{1,9}$/.test(number ?? '') ? await getWatchlistByNumber(db, auth.user.id, Number(number)) : null;
  if (!list) throw data({ message: 'list not found' }, { status: 404 });
  return { auth, list };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langOf(params);
  const { auth, list } = await listOf(context, params.number);
  const { db, reference } = context.get(servicesContext);
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  const q = (url.searchParams.get('q') ?? '').slice(0, 200);
  const tag = (url.searchParams.get('tag') ?? '').slice(0, 100);
  const after = intParam(url, 'after');
  const page = await listWatchlistObjects(db, auth.user.id, list.id, {
    q: q || undefined,
    tag: tag || undefined,
    after,
  });
  const base = p.path(`/companies/lists/${list.number}/`);
  const withParams = (extra: Record<string, string>) => {
    const search = new URLSearchParams({ ...(q ? { q } : {}), ...(tag ? { tag } : {}), ...extra });
    const text = search.toString();
    return text ? `${base}?${text}` : base;
  };
  const seo = userPageSeo(context, lang, `/companies/lists/${list.number}/`, 'lists.detailTitle', 'lists.description');
  return {
    seo: { ...seo, title: `${list.name} — ${seo.title}` },
    list: { id: list.id, number: list.number, name: list.name, description: list.description },
    totalText: p.t('lists.companiesCount', { count: list.total_objects }),
    base,
    q,
    tag,
    tags: page.tags.map((name) => ({
      name,
      href: `${base}?${new URLSearchParams({ tag: name })}`,
      current: name === tag,
    })),
    columns: [
      ...COLUMNS.map((key) => ({ key, label: p.t(`columns.${key}`) })),
      { key: 'tags', label: p.t('lists.columns.tags') },
      { key: 'added_at', label: p.t('lists.columns.added') },
    ],
    rows: page.data.map((o) => ({
      id: o.id,
      cells: {
        ...p.companyCells(o),
        tags: { text: o.tags.join(', ') },
        added_at: { text: p.date(o.added_at.slice(0, 10)) },
      },
    })),
    nextHref: page.next ? withParams({ after: String(page.next) }) : null,
    firstHref: after !== undefined ? withParams({}) : null,
    done: url.searchParams.get('done'),
    count: Number(url.searchParams.get('count') ?? '0') || 0,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langOf(params);
  const { auth, list } = await listOf(context, params.number);
  const { db } = context.get(servicesContext);
  const userId = auth.user.id;
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const here = localePath(lang, `/companies/lists/${list.number}/`);
  const done = (what: string, count?: number) =>
    redirect(`${here}?done=${what}${count === undefined ? '' : `&count=${count}`}`);
  const values = {
    intent,
    name: formText(form, 'name'),
    description: formText(form, 'description'),
    refs: formText(form, 'refs'),
    tags: formText(form, 'tags'),
    tag: formText(form, 'tag'),
  };
  try {
    switch (intent) {
      case 'update':
        await updateWatchlist(db, userId, list.id, { name: values.name, description: values.description });
        return done('updated');
      case 'delete':
        await deleteWatchlist(db, userId, list.id);
        return redirect(`${localePath(lang, '/companies/lists/')}?done=deleted`);
      case 'add': {
        const refs = parseCompanyRefs(values.refs);
        if (refs.length === 0)
          return data({ fields: { companies: 'required' }, values, notFound: [] }, { status: 400 });
        const resolved = await resolveCompanyRefs(db, refs);
        const result =
          resolved.ids.length > 0
            ? await addWatchlistObjects(db, userId, list.id, resolved.ids, splitTags(values.tags))
            : { added: 0 };
        // Some references named nothing: say which, and keep them in the field to correct.
        if (resolved.notFound.length > 0) {
          return data(
            {
              values: { ...values, refs: resolved.notFound.join('\n') },
              notFound: resolved.notFound,
              added: result.added,
            },
            { status: resolved.ids.length > 0 ? 200 : 400 },
          );
        }
        return done('added', result.added);
      }
      case 'remove': {
        const ids = formIds(form, 'ids');
        if (ids.length === 0) return data({ fields: { companies: 'select' }, values, notFound: [] }, { status: 400 });
        return done('removed', await removeWatchlistObjects(db, userId, list.id, ids));
      }
      case 'tag': {
        const ids = formIds(form, 'ids');
        if (ids.length === 0) return data({ fields: { companies: 'select' }, values, notFound: [] }, { status: 400 });
        return done('tagged', await tagWatchlistObjects(db, userId, list.id, ids, splitTags(values.tag)));
      }
      case 'untag': {
        const ids = formIds(form, 'ids');
        if (ids.length === 0) return data({ fields: { companies: 'select' }, values, notFound: [] }, { status: 400 });
        return done('untagged', await removeWatchlistTag(db, userId, list.id, values.tag, ids));
      }
    }
  } catch (error) {
    const fields = userDataFieldsOf(error);
    if (!fields) pageError(error);
    return data({ fields, values, notFound: [] as string[] }, { status: 400 });
  }
  throw data({ message: 'unknown action' }, { status: 400 });
}

export default function ListPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { list } = loaderData;
  const failed = actionData?.values;
  const fields = actionData && 'fields' in actionData ? (actionData.fields as Record<string, string>) : undefined;
  const editing = failed?.intent === 'update';
  const adding = failed?.intent === 'add';
  const rowsFailed = failed && ['remove', 'tag', 'untag'].includes(failed.intent);
  return (
    <div className="user-data-page">
      <UserDataNav />
      <p className="breadcrumbs">
        <a href={localePath(loaderData.seo.lang, '/companies/lists/')}>{t('lists.title')}</a>
      </p>
      <h1>{list.name}</h1>
      {list.description ? <p className="list-description">{list.description}</p> : null}
      <p className="count">{loaderData.totalText}</p>
      {/* ---- export: the list's companies (or the ticked ones) as a file ---- */}
      <ExportLink
        href={localePath(loaderData.seo.lang, `/companies/export/?list=${list.number}`)}
        select={`input[name="ids"][form="${ROWS_FORM}"]`}
        label={t('export.exportList')}
      />
      {loaderData.done ? (
        <Notice>{t(`lists.done.${loaderData.done}`, { count: loaderData.count, defaultValue: '' })}</Notice>
      ) : null}
      {actionData && 'added' in actionData && actionData.notFound.length > 0 ? (
        <p role="alert" className="form-alert">
          {t('lists.notFoundRefs', { count: actionData.notFound.length, refs: actionData.notFound.join(', ') })}{' '}
          {actionData.added ? t('lists.done.added', { count: actionData.added }) : null}
        </p>
      ) : null}

      {loaderData.tags.length > 0 ? (
        <nav className="chips tags" aria-label={t('lists.tags')}>
          <span>{t('lists.tags')}:</span>
          {loaderData.tags.map((tag) => (
            <a key={tag.name} href={tag.href} aria-current={tag.current ? 'true' : undefined}>
              {tag.name}
            </a>
          ))}
          {loaderData.tag ? <a href={loaderData.base}>{t('lists.allTags')}</a> : null}
        </nav>
      ) : null}
      <search>
        <form method="get" action={loaderData.base} className="search-bar">
          <label htmlFor="list-q">{t('lists.findCompany')}</label>
          <input id="list-q" name="q" type="search" defaultValue={loaderData.q} />
          {loaderData.tag ? <input type="hidden" name="tag" value={loaderData.tag} /> : null}
          <button type="submit" className="secondary">
            {t('history.filter')}
          </button>
        </form>
      </search>

      {loaderData.rows.length === 0 ? (
        <p className="empty">{loaderData.q || loaderData.tag ? t('lists.noMatch') : t('lists.empty')}</p>
      ) : (
        <>
          <form method="post" action={loaderData.base} id={ROWS_FORM} className="rows-actions">
            <CsrfField />
            <p>{t('lists.selectedRows')}</p>
            <button type="submit" name="intent" value="remove" className="secondary">
              {t('lists.removeSelected')}
            </button>
            <TrackSelected form={ROWS_FORM} />
            <label htmlFor="rows-tag">{t('lists.tagLabel')}</label>
            <input
              id="rows-tag"
              name="tag"
              type="text"
              maxLength={200}
              defaultValue={rowsFailed ? failed?.tag : ''}
              aria-describedby={fields?.tag ? 'rows-tag-problem' : undefined}
            />
            <button type="submit" name="intent" value="tag" className="secondary">
              {t('lists.addTag')}
            </button>
            <button type="submit" name="intent" value="untag" className="secondary">
              {t('lists.removeTag')}
            </button>
            {rowsFailed ? <FieldProblem id="rows-tag-problem" fields={fields} name="tag" /> : null}
            {rowsFailed ? <FieldProblem id="rows-companies-problem" fields={fields} name="companies" /> : null}
          </form>
          <CompanyTable
            columns={loaderData.columns}
            rows={loaderData.rows}
            selectable={{ form: ROWS_FORM, label: t('lists.select') }}
          />
        </>
      )}
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

      <section aria-labelledby="add-companies" className="user-data-form">
        <h2 id="add-companies">{t('lists.addCompanies')}</h2>
        <form method="post" action={loaderData.base} className="account-form">
          <CsrfField />
          <input type="hidden" name="intent" value="add" />
          <div className={`field${adding && fields?.companies ? ' field-invalid' : ''}`}>
            <label htmlFor="add-refs">{t('lists.refsLabel')}</label>
            <textarea
              id="add-refs"
              name="refs"
              rows={4}
              required
              defaultValue={adding ? failed?.refs : ''}
              aria-describedby="add-refs-hint"
            />
            <span id="add-refs-hint" className="field-hint">
              {t('lists.refsHint')}
            </span>
            {adding ? <FieldProblem id="add-refs-problem" fields={fields} name="companies" /> : null}
          </div>
          <div className="field">
            <label htmlFor="add-tags">{t('lists.tagsLabel')}</label>
            <input id="add-tags" name="tags" type="text" defaultValue={adding ? failed?.tags : ''} />
            {adding ? <FieldProblem id="add-tags-problem" fields={fields} name="tag" /> : null}
          </div>
          <button type="submit">{t('lists.addSubmit')}</button>
        </form>
      </section>

      <section aria-labelledby="edit-list" className="user-data-form">
        <h2 id="edit-list">{t('lists.editTitle')}</h2>
        <ListFields
          idPrefix="edit-list"
          intent="update"
          name={editing ? (failed?.name ?? '') : list.name}
          description={editing ? (failed?.description ?? '') : list.description}
          fields={editing ? fields : undefined}
          submit={t('lists.save')}
          action={loaderData.base}
        />
        <details>
          <summary>{t('lists.delete')}</summary>
          <form method="post" action={loaderData.base}>
            <CsrfField />
            <input type="hidden" name="intent" value="delete" />
            <p>{t('lists.deleteConfirm', { name: list.name })}</p>
            <button type="submit" className="danger">
              {t('lists.deleteNow')}
            </button>
          </form>
        </details>
      </section>
    </div>
  );
}
