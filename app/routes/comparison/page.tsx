import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { addCompanies, MAX_COMPARED_COMPANIES, removeCompany } from '../../../core/comparison/comparison-set.ts';
import { i18nFor, localePath } from '../../../core/i18n/i18n.ts';
import { existingCompanyIds, parseCompanyRefs, resolveCompanyRefs } from '../../../core/watchlists/company-refs.ts';
import { CsrfField, RowAction } from '../../components/account-form.tsx';
import { GatedLink, GateScript, Notice, SignInGate } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { changeComparison, loadComparisonView, readComparison } from '../../presenters/comparison.server.ts';
import { formIds, formInt, langOf } from '../../presenters/user-data.server.ts';
import { authContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/page';
import styles from './comparison.css?url';

// /companies/comparison/ (spec §1 "company comparison with PDF export", §2): up to five companies
// side by side, the rows where they differ highlighted and marked in words. Companies are added
// from search results (ticked rows), from a profile, or by number here; removed per column. The
// set is a guest's cookie or a signed-in user's saved row (app/presenters/comparison.server.ts).
// Every change is a POST answered by a redirect back here (the cookie rides on it), so a reload
// never repeats it. The PDF export is gated (spec §5): guests get the sign-in popup.

/** References typed into the "add" field, and ticked ids, that are looked up at most. */
const MAX_TYPED_REFS = 20;
const MAX_POSTED_IDS = 100;

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: styles }];

/** The page depends on the visitor's cookie or account: never kept by a shared cache. */
export const headers: Route.HeadersFunction = () => ({ 'cache-control': 'private, no-store' });

function cookieHeaders(setCookies: string[]): Headers {
  const headers = new Headers();
  for (const cookie of setCookies) headers.append('set-cookie', cookie);
  return headers;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langOf(params);
  const { t } = i18nFor(lang);
  const services = context.get(servicesContext);
  const state = await readComparison(context, request);
  const view = await loadComparisonView(services, lang, state.ids);
  const url = new URL(request.url);
  const base = localePath(lang, '/companies/comparison/');
  const count = (name: string) => Number(url.searchParams.get(name) ?? '0') || 0;
  const notices: string[] = [];
  const problems: string[] = [];
  const done = url.searchParams.get('done');
  if (done === 'added') {
    if (count('count') > 0) notices.push(t('comparison.done.added', { count: count('count') }));
    if (count('already') > 0) notices.push(t('comparison.done.already', { count: count('already') }));
  }
  if (done === 'removed') notices.push(t('comparison.done.removed'));
  if (done === 'cleared') notices.push(t('comparison.done.cleared'));
  if (count('refused') > 0)
    problems.push(t('comparison.problems.full', { count: count('refused'), max: MAX_COMPARED_COMPANIES }));
  const missing = (url.searchParams.get('missing') ?? '').slice(0, 200);
  if (missing) problems.push(t('comparison.problems.notFound', { refs: missing }));
  if (state.merged.added > 0) notices.push(t('comparison.merged', { count: state.merged.added }));
  if (state.merged.refused > 0)
    problems.push(t('comparison.problems.mergeFull', { count: state.merged.refused, max: MAX_COMPARED_COMPANIES }));
  const only = url.searchParams.get('show') === 'differences' && view.companies.length > 1;
  return data(
    {
      seo: {
        siteUrl: services.siteUrl,
        lang,
        path: '/companies/comparison/',
        title: t('comparison.title'),
        description: t('comparison.description', { max: MAX_COMPARED_COMPANIES }),
        noindex: true,
      },
      signedIn: context.get(authContext) !== null,
      max: MAX_COMPARED_COMPANIES,
      view: only
        ? {
            ...view,
            groups: view.groups
              .map((g) => ({ ...g, rows: g.rows.filter((r) => r.differs) }))
              .filter((g) => g.rows.length > 0),
          }
        : view,
      only,
      notices,
      problems,
      base,
      pdfHref: localePath(lang, '/companies/comparison/pdf/'),
      searchHref: localePath(lang, '/companies/search/'),
    },
    { headers: cookieHeaders(state.setCookies) },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

type Problem = { problem: 'select' | 'notFound' | 'full'; refs: string; missing?: string; refused?: number };

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langOf(params);
  const { db } = context.get(servicesContext);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const here = localePath(lang, '/companies/comparison/');
  const state = await readComparison(context, request);
  const back = (query: Record<string, string | number>, setCookies: string[]) => {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    return redirect(`${here}?${search}`, { status: 303, headers: cookieHeaders(setCookies) });
  };
  const refuse = (problem: Problem, status: number, setCookies = state.setCookies) =>
    data(problem, { status, headers: cookieHeaders(setCookies) });

  switch (intent) {
    case 'add': {
      const ids = formIds(form, 'ids').slice(0, MAX_POSTED_IDS);
      const refsText = formText(form, 'refs').slice(0, 2000);
      const refs = parseCompanyRefs(refsText).slice(0, MAX_TYPED_REFS);
      if (ids.length === 0 && refs.length === 0) return refuse({ problem: 'select', refs: refsText }, 400);
      const existing = await existingCompanyIds(db, ids);
      const resolved = refs.length > 0 ? await resolveCompanyRefs(db, refs) : { ids: [], notFound: [] };
      const wanted = [...ids.filter((id) => existing.has(id)), ...resolved.ids];
      const missing = [...ids.filter((id) => !existing.has(id)).map(String), ...resolved.notFound].join(', ');
      if (wanted.length === 0) return refuse({ problem: 'notFound', refs: refsText, missing }, 400);
      const { result, setCookies } = await changeComparison(context, state, (current) => addCompanies(current, wanted));
      // Nothing fitted: say so here, with what was typed kept in the field (spec: not silent).
      if (result.added.length === 0 && result.refused.length > 0)
        return refuse({ problem: 'full', refs: refsText, refused: result.refused.length }, 409, setCookies);
      return back(
        {
          done: 'added',
          count: result.added.length,
          ...(result.already.length > 0 ? { already: result.already.length } : {}),
          ...(result.refused.length > 0 ? { refused: result.refused.length } : {}),
          ...(missing ? { missing: missing.slice(0, 200) } : {}),
        },
        setCookies,
      );
    }
    case 'remove': {
      const id = formInt(form, 'id');
      if (id === null) return refuse({ problem: 'select', refs: '' }, 400);
      const { setCookies } = await changeComparison(context, state, (current) => ({
        ids: removeCompany(current, id),
      }));
      return back({ done: 'removed' }, setCookies);
    }
    case 'clear': {
      const { setCookies } = await changeComparison(context, state, () => ({ ids: [] as number[] }));
      return back({ done: 'cleared' }, setCookies);
    }
  }
  throw data({ message: 'unknown action' }, { status: 400 });
}

export default function ComparisonPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { view, base, max } = loaderData;
  const companies = view.companies;
  const problem = actionData as Problem | undefined;
  const problemText = problem
    ? problem.problem === 'full'
      ? t('comparison.problems.full', { count: problem.refused ?? 1, max })
      : problem.problem === 'notFound'
        ? t('comparison.problems.notFound', { refs: problem.missing ?? '' })
        : t('comparison.problems.select')
    : null;
  return (
    <div className="comparison-page">
      <h1>{t('comparison.title')}</h1>
      <p className="count">{t('comparison.count', { count: companies.length, max })}</p>
      {loaderData.notices.map((text) => (
        <Notice key={text}>{text}</Notice>
      ))}
      {[...loaderData.problems, ...(problemText ? [problemText] : [])].map((text) => (
        <p key={text} role="alert" className="form-alert">
          {text}
        </p>
      ))}

      {companies.length === 0 ? (
        <div className="empty">
          <p>
            <strong>{t('comparison.emptyTitle')}</strong>
          </p>
          <p>{t('comparison.emptyText', { max })}</p>
          <p>
            <a href={loaderData.searchHref}>{t('comparison.searchLink')}</a>
          </p>
        </div>
      ) : (
        <>
          <p id="comparison-legend" className="comparison-legend">
            {companies.length > 1 ? t('comparison.legend', { count: view.differing }) : t('comparison.addMore')}
          </p>
          <div className="user-actions comparison-tools">
            {companies.length > 1 ? (
              <a href={loaderData.only ? base : `${base}?show=differences`}>
                {loaderData.only ? t('comparison.showAll') : t('comparison.onlyDifferences')}
              </a>
            ) : null}
            {loaderData.signedIn ? (
              <form method="get" action={loaderData.pdfHref} data-pending="export-comparison">
                <button type="submit">{t('comparison.exportPdf')}</button>
              </form>
            ) : (
              <>
                <GatedLink action="export-comparison" text={t('comparison.gate')}>
                  {t('comparison.exportPdf')}
                </GatedLink>
                <SignInGate />
              </>
            )}
            <form method="post" action={base}>
              <CsrfField />
              <input type="hidden" name="intent" value="clear" />
              <button type="submit" className="secondary">
                {t('comparison.clear')}
              </button>
            </form>
          </div>
          {/* Scrolls sideways on narrow screens, where this line says so: focusable, so the keyboard can scroll it too. */}
          <p className="comparison-scroll-hint">{t('comparison.scrollHint')}</p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
          <section className="table-wrap comparison-wrap" aria-labelledby="comparison-caption" tabIndex={0}>
            <table className="comparison-table" aria-describedby="comparison-legend">
              <caption id="comparison-caption" className="visually-hidden">
                {t('comparison.caption', { names: companies.map((c) => c.name).join(', ') })}
              </caption>
              <thead>
                <tr>
                  <th scope="col" className="comparison-corner">
                    {t('comparison.compared')}
                  </th>
                  {companies.map((c) => (
                    <th key={c.id} scope="col">
                      <a href={c.href}>{c.name}</a>
                      <RowAction
                        action={base}
                        intent="remove"
                        fields={{ id: c.id }}
                        label={t('comparison.removeLabel', { name: c.name })}
                        className="comparison-remove"
                      >
                        {t('comparison.remove')}
                      </RowAction>
                    </th>
                  ))}
                </tr>
              </thead>
              {view.groups.map((group) => (
                <tbody key={group.id}>
                  <tr className="comparison-group">
                    <th scope="rowgroup" colSpan={companies.length + 1}>
                      {group.title}
                    </th>
                  </tr>
                  {group.rows.map((row) => (
                    <tr key={row.key} className={row.differs ? 'differs' : undefined} data-row={row.key}>
                      <th scope="row">
                        {row.label}
                        {row.differs ? (
                          <span className="differs-mark">
                            <span aria-hidden="true">≠ </span>
                            {t('comparison.differs')}
                          </span>
                        ) : null}
                      </th>
                      {row.values.map((lines, i) => (
                        <td key={companies[i].id}>
                          {lines.length === 0 ? (
                            <>
                              <span aria-hidden="true" className="muted">
                                —
                              </span>
                              <span className="visually-hidden">{t('comparison.notKnown')}</span>
                            </>
                          ) : (
                            lines.map((line, j) => (
                              <span key={j} className="comparison-line">
                                {line}
                              </span>
                            ))
                          )}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              ))}
            </table>
          </section>
          {view.emptyRecordTypes.length > 0 && !loaderData.only ? (
            <p className="muted">{t('comparison.noRecordsOf', { types: view.emptyRecordTypes.join(', ') })}</p>
          ) : null}
        </>
      )}

      <section aria-labelledby="comparison-add" className="user-data-form">
        <h2 id="comparison-add">{t('comparison.add.title')}</h2>
        {companies.length >= max ? <p className="muted">{t('comparison.full', { max })}</p> : null}
        <form method="post" action={base} className="account-form">
          <CsrfField />
          <input type="hidden" name="intent" value="add" />
          <div className={`field${problem ? ' field-invalid' : ''}`}>
            <label htmlFor="comparison-refs">{t('comparison.add.label')}</label>
            <input
              id="comparison-refs"
              name="refs"
              type="text"
              required
              maxLength={2000}
              defaultValue={problem?.refs ?? ''}
              aria-describedby="comparison-refs-hint"
              aria-invalid={problem ? true : undefined}
            />
            <span id="comparison-refs-hint" className="field-hint">
              {t('comparison.add.hint')} <a href={loaderData.searchHref}>{t('comparison.searchLink')}</a>
            </span>
          </div>
          <button type="submit">{t('comparison.addThis')}</button>
        </form>
      </section>
      {companies.length > 0 ? <GateScript /> : null}
    </div>
  );
}
