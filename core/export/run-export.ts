import type { Writable } from 'node:stream';
import type { Db } from '../../db/client.ts';
import { slugify } from '../../db/reference/slugify.ts';
import { findCompanyIds } from '../companies/find-companies.ts';
import { AppError } from '../errors/app-error.ts';
import { recordRowsFor, unlockedFor, type Viewer } from '../purchases/paywall.ts';
import type { Lang, Reference } from '../reference/reference-data.ts';
import { findRecords } from '../search/find-records.ts';
import type { SearchState } from '../search/search-state.ts';
import { companiesSection } from '../sections/companies.ts';
import type { SectionDecl } from '../sections/section.ts';
import { visibleCompanyId, visibleCompanyIds } from '../takedowns/visible.ts';
import { MAX_PAGE_SIZE } from '../user-data/list-query.ts';
import { listWatchlistObjects } from '../watchlists/watchlist-objects.ts';
import { requireWatchlist } from '../watchlists/watchlists.ts';
import { companyExportLayout, type ExportLayout, recordExportLayout } from './export-columns.ts';
import { EXPORT_ROW_LIMIT, type ExportChoices, exportFileName } from './export-options.ts';
import { readCompanyBatch } from './read-company-rows.ts';
import { type Cell, createWriter } from './writers.ts';

// One export, from request to stream (spec §7 "Export behaviour", §9): rows are read in batches
// — the search's own keyset pages (a cursor of the sort columns), a list's pages, or chunks of the
// selected ids — and each batch is written before the next is read, so that memory stays at one
// batch whatever the export's length. At most EXPORT_ROW_LIMIT rows.

/** Rows read and written at a time. */
export const EXPORT_BATCH = 1_000;

/** Rows turned into cells and handed to the writer at a time. */
const WRITE_SLICE = 100;

/**
 * Company batches read while the current one is written. One: from export documents a batch reads
 * in ~10 ms and is written in ~40, and every batch held besides is live data that each young-
 * generation GC copies (two ahead measured ~120 ms slower per 10,000 companies).
 */
const READ_AHEAD = 1;

export type ExportRequest = {
  section: SectionDecl;
  /** The search the export was asked from (its filters, query and sort; page and cursor for scope "page"). */
  state: SearchState;
  choices: ExportChoices;
  /** The selected rows (scope "selected"): company ids, or record ids of a record section. */
  ids: number[];
  /** A company list of the signed-in user: the export takes its companies instead of a search, and its name. */
  list?: { userId: number; watchlistId: number; name: string };
  lang: Lang;
  languageId: number;
  /** Who exports: the contact details they did not buy are left out (ADR 0029); 'operator' for the CLI. */
  viewer: Viewer;
  now?: Date;
};

/** What decides an export's rows (and so its price). */
export type ExportRows = Pick<ExportRequest, 'section' | 'state' | 'choices' | 'ids' | 'list'>;

export type PreparedExport = {
  fileName: string;
  contentType: string;
  /** Rows the export expects to write (for a progress bar); the last batch may bring fewer. */
  expectedRows: number;
  /** Writes the whole file to `out` (and ends it); resolves with the rows written. */
  write(out: Writable, onProgress?: (rows: number) => void): Promise<number>;
};

const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** What makes an export's rows impossible: a 400 naming the parameter (before anything is read or charged). */
function checkExportRows(request: ExportRows): void {
  const { choices, section } = request;
  if (choices.scope === 'selected' && request.ids.length === 0) {
    throw new AppError('bad_request', 'ids: select at least one row to export the selected rows', {
      parameter: 'ids',
    });
  }
  if (request.ids.length > EXPORT_ROW_LIMIT) {
    throw new AppError('bad_request', `ids: at most ${EXPORT_ROW_LIMIT} rows can be exported at once`, {
      parameter: 'ids',
    });
  }
  if (request.list && section.id !== 'companies') {
    throw new AppError('bad_request', 'list: a company list exports from the companies section', {
      parameter: 'list',
    });
  }
}

/** The file an export writes: its name (spec §7) and media type. */
export function exportFileOf(request: Pick<ExportRequest, 'section' | 'list' | 'choices' | 'now'>): {
  fileName: string;
  contentType: string;
} {
  const { section, choices } = request;
  // A list's export is named after the list (`registra_example_key-accounts_2026-11-22_14-05.csv`).
  const fileName = exportFileName(
    request.list
      ? slugify(request.list.name) || 'list'
      : section.id === 'companies'
        ? 'legal_entities'
        : section.id.replace(/-/g, '_'),
    choices.format,
    request.now ?? new Date(),
  );
  return { fileName, contentType: CONTENT_TYPES[choices.format] };
}

type Batches<T> = { expected: number; first: T[]; rest: () => AsyncGenerator<T[]> };

/**
 * A batch's rows, handed out a slice at a time: a company batch turns its documents into rows only
 * then (ADR 0041), a record batch is its array.
 */
type Sliced<T> = { readonly length: number; rows(from: number, to: number): T[] };

function sliced<T>(rows: T[]): Sliced<T> {
  return { length: rows.length, rows: (from, to) => rows.slice(from, to) };
}

/**
 * Checks the request and reads the first batch (so that a bad request is a 400 before anything
 * is sent, and the expected row count is known for the download's header).
 */
export async function prepareExport(db: Db, reference: Reference, request: ExportRequest): Promise<PreparedExport> {
  checkExportRows(request);
  const { choices, section } = request;
  const { fileName } = exportFileOf(request);
  const title = section.id === 'companies' ? 'Legal entities' : (section.record?.title[request.lang] ?? section.id);
  if (section.id === 'companies') {
    const layout = companyExportLayout(reference, request.lang, request.languageId, choices.sections);
    const ids = await companyIdBatches(db, reference, request);
    const enrich = async (batch: number[]) =>
      readCompanyBatch(
        db,
        reference,
        batch,
        choices.sections,
        request.languageId,
        await unlockedFor(db, request.viewer, batch),
      );
    const first = await enrich(ids.first);
    return prepared(fileName, choices, title, layout, {
      expected: ids.expected,
      first,
      // The next batch (its search page and its documents) is read while one is written.
      rest: () => readAhead(ids.rest(), enrich, READ_AHEAD),
    });
  }
  const layout = recordExportLayout(section, reference, request.lang, request.languageId);
  const records = await recordBatches(db, reference, request, request.viewer);
  return prepared(fileName, choices, title, layout, {
    expected: records.expected,
    first: sliced(records.first),
    rest: async function* () {
      for await (const batch of records.rest()) yield sliced(batch);
    },
  });
}

/**
 * The rows an export would write, which is what it is charged for (docs/decisions/0019-billing.md),
 * without reading them: the export page states each scope's price before the download. Companies
 * take the export's own path (ids only); records count their search as the export would.
 */
export async function expectedExportRows(db: Db, reference: Reference, request: ExportRows): Promise<number> {
  checkExportRows(request);
  const batches =
    request.section.id === 'companies'
      ? await companyIdBatches(db, reference, request)
      : await recordBatches(db, reference, request);
  return batches.expected;
}

function prepared<T>(
  fileName: string,
  choices: ExportChoices,
  title: string,
  layout: ExportLayout<T>,
  batches: { expected: number; first: Sliced<T>; rest: () => AsyncGenerator<Sliced<T>> },
): PreparedExport {
  return {
    fileName,
    contentType: CONTENT_TYPES[choices.format],
    expectedRows: batches.expected,
    async write(out, onProgress) {
      const writer = createWriter(choices.format, out, layout.columns, {
        separator: choices.separator,
        entity: layout.entity,
        title,
      });
      let written = 0;
      const put = async (rows: Sliced<T>) => {
        // A slice at a time: the cells of a whole batch would be live data for every GC meanwhile.
        for (let i = 0; i < rows.length; i += WRITE_SLICE) {
          const values: Cell[][] = rows.rows(i, i + WRITE_SLICE).map(layout.values);
          await writer.writeRows(values);
        }
        written += rows.length;
        onProgress?.(written);
      };
      // The next batch is read while this one is written (two batches in memory at most).
      const rest = batches.rest();
      let next = rest.next();
      next.catch(() => {});
      await put(batches.first);
      for (;;) {
        const batch = await next;
        if (batch.done) break;
        next = rest.next();
        next.catch(() => {});
        await put(batch.value);
      }
      await writer.finish();
      return written;
    },
  };
}

/**
 * `map` of each item of `source`, in order, with up to `depth` of them under way at once (a
 * failure surfaces when its turn comes; the others are left to settle).
 */
async function* readAhead<T, R>(source: AsyncIterable<T>, map: (item: T) => Promise<R>, depth: number) {
  const iterator = source[Symbol.asyncIterator]();
  const pending: Promise<R>[] = [];
  let done = false;
  const fill = async () => {
    while (!done && pending.length < depth) {
      const next = await iterator.next();
      if (next.done) {
        done = true;
        break;
      }
      const result = map(next.value);
      result.catch(() => {});
      pending.push(result);
    }
  };
  for (;;) {
    await fill();
    const head = pending.shift();
    if (!head) return;
    yield await head;
  }
}

/** How many rows the scope asks for, at most EXPORT_ROW_LIMIT. */
function rowLimit(choices: ExportChoices): number {
  return choices.scope === 'first' ? Math.min(Math.max(1, choices.count), EXPORT_ROW_LIMIT) : EXPORT_ROW_LIMIT;
}

/** Splits ids into batches. */
function chunks(ids: number[]): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += EXPORT_BATCH) out.push(ids.slice(i, i + EXPORT_BATCH));
  return out;
}

function fromChunks(ids: number[]): Batches<number> {
  const all = chunks(ids);
  return {
    expected: ids.length,
    first: all[0] ?? [],
    rest: async function* () {
      for (const batch of all.slice(1)) yield batch;
    },
  };
}

/** The state of the search from its first row (the export's own paging replaces the page's). */
function fromStart(state: SearchState): SearchState {
  return { ...state, page: 1, after: undefined };
}

/**
 * The rows of a search until `limit`: a first page of one batch (checked before the response
 * starts), then the rest by the keyset cursor the search returns; by page number, a batch per
 * page, where the order has no cursor (relevance, which ranks at most 2,000 candidates). With
 * `pageByBatch` the rest comes a batch per keyset page (companies: each page's search overlaps
 * the reading and writing of the batches before it, which one read of 9,000 rows cannot);
 * without it in one read, handed on a batch at a time (records, whose rows need no more reading:
 * a search and its bounded count per thousand rows saved). It holds at most EXPORT_ROW_LIMIT rows.
 */
async function searchBatches<R>(
  limit: number,
  find: (
    state: SearchState,
    size: number,
  ) => Promise<{ rows: R[]; total: number; totalIsEstimate: boolean; next?: string }>,
  start: SearchState,
  pageByBatch = false,
): Promise<Batches<R>> {
  const size = Math.min(EXPORT_BATCH, limit);
  const firstPage = await find(start, size);
  const first = firstPage.rows.slice(0, limit);
  const batches: Batches<R> = {
    expected: Math.min(firstPage.total, limit),
    first,
    rest: async function* () {
      if (first.length >= limit || firstPage.rows.length < size) return;
      if (firstPage.next && !pageByBatch) {
        const rest = await find({ ...start, after: firstPage.next, page: 2 }, limit - first.length);
        for (let i = 0; i < rest.rows.length; i += EXPORT_BATCH) yield rest.rows.slice(i, i + EXPORT_BATCH);
        return;
      }
      let taken = first.length;
      let page = firstPage;
      let number = 1;
      while (taken < limit && page.rows.length === size) {
        number += 1;
        if (firstPage.next) {
          // Keyset: the page after the last one (its size what is left, so the last page reads no more).
          if (!page.next) return;
          page = await find({ ...start, after: page.next, page: number }, Math.min(size, limit - taken));
        } else page = await find({ ...start, page: number }, size);
        const rows = page.rows.slice(0, limit - taken);
        if (rows.length === 0) return;
        taken += rows.length;
        yield rows;
      }
    },
  };
  // An estimated total ("about 52,000") is no price (docs/decisions/0019-billing.md): the rest is
  // read before the first byte and counted (ids, or at most EXPORT_ROW_LIMIT records).
  if (!firstPage.totalIsEstimate) return batches;
  if (first.length >= limit || firstPage.rows.length < size) return { ...batches, expected: first.length };
  const rest: R[][] = [];
  for await (const batch of batches.rest()) rest.push(batch);
  return {
    expected: first.length + rest.reduce((n, batch) => n + batch.length, 0),
    first,
    rest: async function* () {
      yield* rest;
    },
  };
}

async function companyIdBatches(db: Db, reference: Reference, request: ExportRows): Promise<Batches<number>> {
  const { choices, state } = request;
  const ids = [...new Set(request.ids)];
  if (request.list) return listIdBatches(db, request.list, choices, ids);
  // Charged for the rows written: a company taken down is neither written nor counted (ADR 0021).
  if (choices.scope === 'selected') return fromChunks(await visibleCompanyIds(db, ids));
  const find = async (s: SearchState, size: number) => {
    const { ids: rows, ...result } = await findCompanyIds(db, reference, s, size);
    return { ...result, rows };
  };
  if (choices.scope === 'page') {
    const page = await findCompanyIds(db, reference, state, companiesSection.pageSize);
    return fromChunks(page.ids);
  }
  return searchBatches(rowLimit(choices), find, fromStart(state), true);
}

/** A list's companies (newest first, as its page shows them), or the selected ones of it. */
async function listIdBatches(
  db: Db,
  list: { userId: number; watchlistId: number },
  choices: ExportChoices,
  selected: number[],
): Promise<Batches<number>> {
  const watchlist = await requireWatchlist(db, list.userId, list.watchlistId);
  if (choices.scope === 'selected') {
    // Only companies of the list: a list's export never reaches beyond it.
    const kept = await db.kysely
      .selectFrom('watchlist_objects')
      .select('legal_entity_id')
      .where('user_id', '=', list.userId)
      .where('watchlist_id', '=', list.watchlistId)
      .where('legal_entity_id', 'in', selected)
      .where(visibleCompanyId('legal_entity_id'))
      .execute();
    const inList = new Set(kept.map((k) => Number(k.legal_entity_id)));
    return fromChunks(selected.filter((id) => inList.has(id)));
  }
  const limit = choices.scope === 'first' ? rowLimit(choices) : EXPORT_ROW_LIMIT;
  const page = (after?: number) =>
    listWatchlistObjects(db, list.userId, list.watchlistId, { count: MAX_PAGE_SIZE, after });
  const firstPage = await page();
  const first = firstPage.data.map((o) => o.id).slice(0, limit);
  return {
    expected: Math.min(watchlist.total_objects, limit),
    first,
    rest: async function* () {
      let taken = first.length;
      let next = firstPage.next;
      while (taken < limit && next !== null) {
        const p = await page(next);
        const ids = p.data.map((o) => o.id).slice(0, limit - taken);
        if (ids.length === 0) return;
        taken += ids.length;
        next = p.next;
        yield ids;
      }
    },
  };
}

async function recordBatches(
  db: Db,
  reference: Reference,
  request: ExportRows,
  /** Who exports (ADR 0029); none when only counting. */
  viewer: Viewer = null,
): Promise<Batches<Record<string, string | number | null>>> {
  const { choices, section, state } = request;
  const find = async (s: SearchState, size: number) => {
    const page = await findRecords(db, reference, section, s, size);
    return { ...page, rows: await recordRowsFor(db, viewer, section.baseTable, page.rows) };
  };
  if (choices.scope === 'page') {
    const page = await find(state, section.pageSize);
    return { expected: page.rows.length, first: page.rows, rest: async function* () {} };
  }
  if (choices.scope === 'selected') {
    const ids = [...new Set(request.ids)].map(String);
    const selected = selectedRecords(section, ids);
    return searchBatches(ids.length, find, selected);
  }
  return searchBatches(rowLimit(choices), find, fromStart(state));
}

/** The selected records, by id (their own filter), newest first like the search. */
function selectedRecords(section: SectionDecl, ids: string[]): SearchState {
  return { q: '', filters: [{ field: 'id', keys: [], op: 'eq', values: ids }], sort: section.defaultSort, page: 1 };
}
