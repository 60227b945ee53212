import { data, type RouterContext, redirect } from 'react-router';
import { exportCredits } from '../../core/billing/catalogue.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { startExportJob } from '../../core/export/export-jobs.ts';
import {
  COMPANY_EXPORT_SECTIONS,
  EXPORT_FORMATS,
  EXPORT_ROW_LIMIT,
  EXPORT_SCOPES,
  EXPORT_SEPARATORS,
  type ExportChoices,
  type ExportScope,
} from '../../core/export/export-options.ts';
import { EXPORT_PARAMS, parseExportParams } from '../../core/export/export-request.ts';
import { choicesOf, getExportSetting, saveExportSetting } from '../../core/export/export-settings.ts';
import { expectedExportRows } from '../../core/export/run-export.ts';
import { printParams, toQueryString } from '../../core/filters/grammar.ts';
import { localePath, unprefixedPath } from '../../core/i18n/i18n.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { defaultSort, parseSearchState, printSearchState } from '../../core/search/search-state.ts';
import { getWatchlistByNumber } from '../../core/watchlists/watchlists.ts';
import type { ExportOptions } from '../components/export-choices.tsx';
import type { Seo } from '../meta.ts';
import { requireUser } from '../require-user.server.ts';
import { authContext, servicesContext } from '../services.ts';
import { balanceOf, creditsText } from './billing.server.ts';
import { type Presenter, presenter } from './present.server.ts';
import { sectionOfUrl } from './search-page.server.ts';

// The export page (/{section}/export/ with the search's query, or ?list=N for a company list):
// the form of format, separator, scope and sections, restored from the user's export view
// settings; and its action, which saves the choices, starts the export as a job (charged then)
// and sends the browser to its page, /dashboard/exports/{id}/ (docs/decisions/0031-export-jobs.md).
// Guests see the form with a gated control.

type ContextReader = { get: <T>(context: RouterContext<T>) => T };

/** The search's own parameters of a URL (the export's are left out). */
function searchParamsOf(url: URL): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of url.searchParams) {
    if (!(EXPORT_PARAMS as readonly string[]).includes(name)) out.append(name, value);
  }
  return out;
}

function badRequest(error: unknown): never {
  if (error instanceof AppError && error.code === 'bad_request')
    throw data({ message: error.message }, { status: 400 });
  if (error instanceof AppError && error.code === 'not_found') throw data({ message: error.message }, { status: 404 });
  throw error;
}

export async function loadExportPage(context: ContextReader, request: Request, lang: Lang, splat: string | undefined) {
  const services = context.get(servicesContext);
  const auth = context.get(authContext);
  const url = new URL(request.url);
  const section = sectionOfUrl(url);
  const p = presenter(services.reference, lang);
  const segments = splat ? splat.split('/').filter(Boolean) : [];
  const parsed = parseSearchState(section, searchParamsOf(url), segments);
  if (!parsed.ok) throw data({ message: parsed.errors[0].message }, { status: 400 });
  const state = parsed.state;
  // The search as the download's query: filters, name query, sort, and the page (scope "page").
  const pairs: [string, string][] = [];
  if (state.q) pairs.push(['q', state.q]);
  pairs.push(...printParams(state.filters));
  if (state.sort !== defaultSort(section, state.q)) pairs.push(['sort', state.sort]);
  if (state.page > 1) pairs.push(['page', String(state.page)]);
  if (state.after) pairs.push(['after', state.after]);
  const query = toQueryString(pairs).slice(1);

  const ids = (url.searchParams.get('ids') ?? '')
    .split(/[|,]/)
    .filter((v) => /^\d{1,15}$/.test(v))
    .slice(0, EXPORT_ROW_LIMIT);
  const listText = url.searchParams.get('list');
  let list: { number: number; name: string; href: string; userId: number; watchlistId: number } | null = null;
  if (listText !== null) {
    const user = requireUser(context);
    const found = /^\d{1,9}$/.test(listText)
      ? await getWatchlistByNumber(services.db, user.user.id, Number(listText))
      : null;
    if (!found || section.id !== 'companies') throw data({ message: 'list not found' }, { status: 404 });
    list = {
      number: found.number,
      name: found.name,
      href: p.path(`/companies/lists/${found.number}/`),
      userId: user.user.id,
      watchlistId: found.id,
    };
  }
  const saved = auth ? await getExportSetting(services.db, auth.user.id, section.id) : null;
  let choices: ExportChoices = choicesOf(saved);
  const scopeParam = url.searchParams.get('scope');
  if (ids.length > 0) choices = { ...choices, scope: 'selected' };
  else if (scopeParam && (EXPORT_SCOPES as readonly string[]).includes(scopeParam)) {
    choices = { ...choices, scope: scopeParam as ExportChoices['scope'] };
  }
  if (choices.scope === 'selected' && ids.length === 0) choices = { ...choices, scope: 'all' };
  if (choices.scope === 'page' && list) choices = { ...choices, scope: 'all' };

  const sectionTitle = p.label(section.title);
  const path = unprefixedPath(url.pathname);
  const seo: Seo = {
    siteUrl: services.siteUrl,
    lang,
    path,
    title: list ? p.t('export.listTitle', { name: list.name }) : p.t('export.title', { section: sectionTitle }),
    description: p.t('export.description'),
    // A form for one search: nothing for search engines.
    noindex: true,
  };
  const filters = state.filters.length;
  const scopes = EXPORT_SCOPES.filter((s) => (s === 'selected' ? ids.length > 0 : !(s === 'page' && list)));
  // The price of each scope before the download (docs/decisions/0019-billing.md): the rows the
  // export would write, counted as the download counts them, and the balance after.
  const balance = await balanceOf(services.db, auth?.user.id);
  const rows = new Map<ExportScope, number>();
  for (const scope of scopes) {
    rows.set(
      scope,
      await expectedExportRows(services.db, services.reference, {
        section,
        state,
        choices: { ...choices, scope },
        ids: ids.map(Number),
        list: list ? { userId: list.userId, watchlistId: list.watchlistId, name: list.name } : undefined,
      }),
    );
  }
  const priceOf = (scope: ExportScope) => {
    const count = rows.get(scope) ?? 0;
    return { rows: count, credits: exportCredits(count) };
  };
  const chosen = priceOf(choices.scope);
  const cost = {
    text: [
      p.t('billing.cost.export', {
        count: chosen.rows,
        rows: p.number(chosen.rows),
        cost: creditsText(p, chosen.credits),
      }),
      balance === null ? '' : p.t('billing.cost.exportBalance', { balance: creditsText(p, balance) }),
      balance === null || balance < chosen.credits
        ? ''
        : p.t('billing.cost.after', { after: creditsText(p, balance - chosen.credits) }),
    ]
      .filter(Boolean)
      .join(' '),
    // Too few credits: the page offers the pricing page before the download is refused.
    tooFew:
      balance !== null && balance < chosen.credits
        ? p.t('billing.cost.tooFew', { cost: creditsText(p, chosen.credits), balance: creditsText(p, balance) })
        : null,
    pricingHref: p.path('/info/pricing/'),
  };
  return {
    cost,
    seo,
    section: section.id,
    title: seo.title,
    list: list ? { number: list.number, name: list.name, href: list.href } : null,
    query,
    ids,
    summary:
      filters === 0 && !state.q
        ? p.t('export.noFilters')
        : [state.q ? `“${state.q}”` : null, filters > 0 ? p.t('export.filtersCount', { count: filters }) : null]
            .filter(Boolean)
            .join(', '),
    searchHref: p.path(`/${section.id}/search/${printSearchState(section, state)}`),
    action: `${url.pathname}${url.search}`,
    choices,
    saved: saved !== null,
    signedIn: auth !== null,
    options: exportOptionsOf(p, section.id, scopes, ids.length, (scope) => {
      const price = priceOf(scope);
      const text = p.t('billing.cost.exportScope', {
        count: price.rows,
        rows: p.number(price.rows),
        cost: creditsText(p, price.credits),
      });
      return balance === null || balance < price.credits
        ? text
        : `${text} ${p.t('billing.cost.after', { after: creditsText(p, balance - price.credits) })}`;
    }),
  };
}

/**
 * The export choices a form offers (app/components/export-choices.tsx), labelled in the page's
 * language: the formats, separators, these scopes (`selected` counts the rows ticked) and, for
 * companies, the data sections.
 */
export function exportOptionsOf(
  p: Presenter,
  section: string,
  scopes: readonly ExportScope[],
  selected = 0,
  /** What a scope would cost, stated beside it (the export page). */
  priceOf?: (scope: ExportScope) => string,
): ExportOptions {
  return {
    formats: EXPORT_FORMATS.map((value) => ({ value, label: p.t(`export.formats.${value}`) })),
    separators: EXPORT_SEPARATORS.map((value) => ({ value, label: p.t(`export.separators.${value}`) })),
    scopes: scopes.map((value) => ({
      value,
      label: p.t(`export.scopes.${value}`, { count: selected }),
      note: priceOf?.(value),
    })),
    sections:
      section === 'companies'
        ? COMPANY_EXPORT_SECTIONS.map((value) => ({ value, label: p.t(`export.sectionNames.${value}`) }))
        : null,
    limit: EXPORT_ROW_LIMIT,
  };
}

/** The export form sent: the choices saved for next time, the export started, and on to its page. */
export async function exportPageAction(context: ContextReader, request: Request, lang: Lang) {
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const section = sectionOfUrl(new URL(request.url));
  const form = await request.formData();
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : '';
  };
  const params = new URLSearchParams(text('query'));
  for (const name of ['format', 'separator', 'scope', 'count', 'list'] as const) {
    const value = text(name);
    if (value !== '') params.set(name, value);
  }
  const ids = text('ids');
  if (ids !== '') params.set('ids', ids);
  if (section.id === 'companies') {
    params.set(
      'sections',
      form
        .getAll('sections')
        .filter((v): v is string => typeof v === 'string' && v !== '')
        .join('|'),
    );
  }
  params.set('lang', lang);
  let id: number;
  try {
    const parsed = parseExportParams(section, params);
    if (parsed.list !== undefined && !(await getWatchlistByNumber(services.db, auth.user.id, parsed.list))) {
      throw new AppError('not_found', 'list not found');
    }
    await saveExportSetting(services.db, auth.user.id, section.id, parsed.choices);
    // The export runs as a job, charged now (docs/decisions/0031-export-jobs.md): its page follows it.
    ({
      job: { id },
    } = await startExportJob(services.db, services.reference, auth.user.id, section.id, params));
  } catch (error) {
    if (error instanceof AppError && error.code === 'payment_required') {
      const p = presenter(services.reference, lang);
      const { credits, balance } = error.details as { credits: number; balance: number };
      throw data(
        { message: p.t('billing.cost.tooFew', { cost: creditsText(p, credits), balance: creditsText(p, balance) }) },
        { status: 402 },
      );
    }
    badRequest(error);
  }
  return redirect(localePath(lang, `/dashboard/exports/${id}/`), 303);
}
