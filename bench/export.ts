// The export benchmark: 10,000 companies of the 1M-company PostgreSQL set written as csv,
// json, xml (goal ≤ 0.5 s) and xlsx (≤ 2 s) with under 150 MB of extra memory, beside the floor of
// PostgreSQL's own COPY … TO STDOUT of the same rows as the export reads them (their export
// documents), and, for context, of the same data from the normalised tables; and 10,000 rows of a
// record section.
// Part of `npm run bench` (bench/run.ts), or alone, read-only: `node --expose-gc bench/export.ts`
// (DATABASE_URL, default registra_bench; EXPORT_RUNS rounds, default 5; EXPORT_RECORDS=0 leaves
// out the record section; EXPORT_FORMAT=csv measures one format). Each company export follows a
// COPY of its documents, call by call, and its ratio to COPY is the median of the per-pair ratios
// (ADR 0041).
import os from 'node:os';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import pgCopy from 'pg-copy-streams';
import {
  DEFAULT_COMPANY_SECTIONS,
  EXPORT_FORMATS,
  EXPORT_ROW_LIMIT,
  type ExportFormat,
} from '../core/export/export-options.ts';
import { companyRowsQuery, exportDocumentVersion } from '../core/export/read-company-rows.ts';
import { prepareExport } from '../core/export/run-export.ts';
import { loadReference, type Reference } from '../core/reference/reference-data.ts';
import { parseSearchState } from '../core/search/search-state.ts';
import { companiesSection } from '../core/sections/companies.ts';
import type { SectionDecl } from '../core/sections/section.ts';
import { sectionById } from '../core/sections/sections.ts';
import { type Db, openPostgres } from '../db/client.ts';

export type ExportBenchRow = { metric: string; value: string; target: string; pass: boolean | null };

/** Rounds per measurement (EXPORT_RUNS, default 5). */
const RUNS = Number(process.env.EXPORT_RUNS ?? 5);
/** The formats measured: EXPORT_FORMAT=csv (or a comma-separated list) measures those alone. */
const FORMATS = EXPORT_FORMATS.filter((f) => (process.env.EXPORT_FORMAT ?? f).split(',').includes(f));
const TARGET_MS: Record<ExportFormat, number> = { csv: 500, json: 500, xml: 500, xlsx: 2000 };
const MEMORY_LIMIT_MB = 150;
/** The record section measured besides companies: its table is among the largest. */
const RECORD_SECTION = 'registers';

/** A sink that counts bytes and keeps nothing. */
function sink(): Writable & { bytes: number } {
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out.bytes += chunk.length;
      done();
    },
  }) as Writable & { bytes: number };
  out.bytes = 0;
  return out;
}

const mb = (bytes: number) => bytes / 2 ** 20;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** One export of `all` (10,000) rows of the unfiltered search, newest first: time, bytes and peak memory over the start. */
async function exportOnce(db: Db, reference: Reference, section: SectionDecl, format: ExportFormat) {
  const parsed = parseSearchState(section, new URLSearchParams());
  if (!parsed.ok) throw new Error('bad state');
  gc();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 5);
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const prepared = await prepareExport(db, reference, {
    section,
    state: parsed.state,
    choices: { format, separator: 'comma', scope: 'all', count: EXPORT_ROW_LIMIT, sections: DEFAULT_COMPANY_SECTIONS },
    ids: [],
    lang: 'en',
    languageId: reference.languageIds.en,
    viewer: 'operator',
  });
  const out = sink();
  const rows = await prepared.write(out, sample);
  const ms = performance.now() - start;
  // The process's CPU over the export (user + system): steadier than its wall time on a loaded machine.
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(timer);
  sample();
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rows,
    bytes: out.bytes,
    rssMb: mb(peakRss - before.rss),
    heapMb: mb(peakHeap - before.heapUsed),
  };
}

/** The search's first 10,000 companies (unfiltered, newest first) as the relation `t (id, ord)`. */
const SEARCH_ROWS = sql`(select id, row_number() over (order by registration_sort desc, id desc) as ord
  from (select id, registration_sort from legal_entities order by registration_sort desc, id desc
  limit ${sql.lit(EXPORT_ROW_LIMIT)}) s) t`;

/**
 * The floor: PostgreSQL's COPY … TO STDOUT of the same 10,000 companies as the export reads them,
 * their export documents (text format: the JSON as stored, no quoting), one line per company.
 * For context, the floor before export documents: the export's own query of the normalised
 * tables (core/export/read-company-rows.ts) under COPY csv, the core columns and every part of the
 * default sections as JSON arrays. COPY cannot turn either into the export's column per type, nor
 * look up names of reference data. JIT off, as the export runs its queries.
 */
async function copyOnce(db: Db, query: string, format = 'format csv, header, force_quote *') {
  if (!db.pool) throw new Error('COPY needs PostgreSQL');
  const client = await db.pool.connect();
  try {
    const out = sink();
    const start = performance.now();
    await client.query('begin');
    await client.query('set local jit = off');
    await pipeline(client.query(pgCopy.to(`copy (${query}) to stdout with (${format})`)), out);
    await client.query('commit');
    return { ms: performance.now() - start, bytes: out.bytes };
  } finally {
    client.release();
  }
}

/** The same 10,000 companies with only their own five columns: what reading the related data adds. */
const NARROW_COPY = `select b.id, b.name, s.uri as status, l.uri as jurisdiction, b.registered_on
  from (select id from legal_entities order by registration_sort desc, id desc limit ${EXPORT_ROW_LIMIT}) p
  join legal_entities b on b.id = p.id
  left join statuses s on s.id = b.status_id
  join locations l on l.id = b.jurisdiction_id
  order by b.registration_sort desc, b.id desc`;

async function measureFormats(
  db: Db,
  reference: Reference,
  section: SectionDecl,
  noun: string,
  /** The COPY floor, run before each export (alternating call by call): ratios are per pair. */
  copy: (() => Promise<number>) | null,
  log: (m: string) => void,
): Promise<ExportBenchRow[]> {
  const rows: ExportBenchRow[] = [];
  for (const format of FORMATS) {
    const runs = [];
    const ratios: number[] = [];
    const copies: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const copyMs = copy ? await copy() : null;
      const run = await exportOnce(db, reference, section, format);
      runs.push(run);
      if (copyMs !== null) {
        copies.push(copyMs);
        ratios.push(run.ms / copyMs);
      }
    }
    const ms = median(runs.map((r) => r.ms));
    const rss = Math.max(...runs.map((r) => r.rssMb));
    const heap = Math.max(...runs.map((r) => r.heapMb));
    const { rows: n, bytes } = runs[0];
    log(
      `export ${section.id} ${format}: ${n} rows, ${(bytes / 2 ** 20).toFixed(1)} MB, ${runs.map((r) => r.ms.toFixed(0)).join(' / ')} ms (load ${load()})`,
    );
    log(
      `  CPU of the export process: ${runs.map((r) => r.cpuMs.toFixed(0)).join(' / ')} ms (median ${median(runs.map((r) => r.cpuMs)).toFixed(0)})`,
    );
    if (copies.length > 0) log(`  COPY before each: ${copies.map((c) => c.toFixed(0)).join(' / ')} ms`);
    const ratio =
      ratios.length === 0
        ? ''
        : ` (${median(ratios).toFixed(2)}× COPY, median of per-pair ratios ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; COPY median ${median(copies).toFixed(0)} ms)`;
    rows.push({
      metric: `export ${format}, ${n.toLocaleString('en')} ${noun} (median of ${RUNS})`,
      value: `${ms.toFixed(0)} ms${ratio}, ${(bytes / 2 ** 20).toFixed(1)} MB`,
      target: `≤ ${TARGET_MS[format]} ms`,
      pass: ms <= TARGET_MS[format] && n === EXPORT_ROW_LIMIT,
    });
    rows.push({
      metric: `export ${format}, ${noun}: extra memory (peak RSS / heap over the start)`,
      value: `${rss.toFixed(0)} MB / ${heap.toFixed(0)} MB`,
      target: `< ${MEMORY_LIMIT_MB} MB`,
      pass: rss < MEMORY_LIMIT_MB && heap < MEMORY_LIMIT_MB,
    });
  }
  return rows;
}

export async function benchExport(db: Db, reference: Reference, log: (m: string) => void): Promise<ExportBenchRow[]> {
  const rows: ExportBenchRow[] = [];
  const records = sectionById(RECORD_SECTION);
  if (!records) throw new Error(`no section ${RECORD_SECTION}`);
  const compiled = companyRowsQuery(SEARCH_ROWS, DEFAULT_COMPANY_SECTIONS).compile(db.kysely);
  if (compiled.parameters.length > 0) throw new Error('the COPY query must not take parameters');
  const version = exportDocumentVersion(db);
  const documents = `select d.document from ${SEARCH_ROWS.compile(db.kysely).sql}
    join export_documents d on d.legal_entity_id = t.id and d.version = ${version} order by t.ord`;
  log(`load average at the start: ${load()}`);
  // Without documents the export reads the normalised tables: say so, it is another measurement.
  const stored = await sql<{ n: number }>`select count(*)::int as n from ${SEARCH_ROWS}
    join export_documents d on d.legal_entity_id = t.id and d.version = ${sql.lit(version)}`.execute(db.kysely);
  const withDocuments = stored.rows[0]?.n ?? 0;
  log(`companies of the export with a current export document: ${withDocuments} of ${EXPORT_ROW_LIMIT}`);
  // Warm-up: plans, caches, the code paths of every writer.
  for (const format of FORMATS) await exportOnce(db, reference, companiesSection, format);
  await copyOnce(db, documents, 'format text');
  await copyOnce(db, compiled.sql);
  const copies: number[] = [];
  const normalised: number[] = [];
  const narrow: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    copies.push((await copyOnce(db, documents, 'format text')).ms);
    normalised.push((await copyOnce(db, compiled.sql)).ms);
    narrow.push((await copyOnce(db, NARROW_COPY)).ms);
  }
  const copyMs = median(copies);
  log(`COPY of the documents: ${copies.map((ms) => ms.toFixed(0)).join(' / ')} ms (load ${load()})`);
  log(`COPY of the same data from the normalised tables: ${normalised.map((ms) => ms.toFixed(0)).join(' / ')} ms`);
  rows.push({
    metric: `export documents present for the ${EXPORT_ROW_LIMIT.toLocaleString('en')} companies (else read live)`,
    value: `${withDocuments.toLocaleString('en')}`,
    target: '—',
    pass: null,
  });
  rows.push({
    metric: `export baseline: COPY … TO STDOUT (text) of the export documents of the same ${EXPORT_ROW_LIMIT.toLocaleString('en')} companies (median of ${RUNS})`,
    value: `${copyMs.toFixed(0)} ms`,
    target: '—',
    pass: null,
  });
  rows.push({
    metric:
      'export reference: COPY csv of the same companies and data from the normalised tables (the floor before export documents)',
    value: `${median(normalised).toFixed(0)} ms`,
    target: '—',
    pass: null,
  });
  rows.push({
    metric: 'export reference: COPY of the same companies, their own 5 columns only',
    value: `${median(narrow).toFixed(0)} ms`,
    target: '—',
    pass: null,
  });
  // Each export right after a COPY of its documents, call by call: on a loaded machine the two
  // meet the same load, and the ratio is taken per pair (ADR 0041).
  const copy = async () => (await copyOnce(db, documents, 'format text')).ms;
  rows.push(...(await measureFormats(db, reference, companiesSection, 'companies, default sections', copy, log)));
  // EXPORT_RECORDS=0 measures the companies alone.
  if (process.env.EXPORT_RECORDS === '0') return rows;
  for (const format of FORMATS) await exportOnce(db, reference, records, format);
  rows.push(...(await measureFormats(db, reference, records, `${RECORD_SECTION} records`, null, log)));
  log(`load average at the end: ${load()}`);
  return rows;
}

if (import.meta.main) {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/registra_bench';
  const db = await openPostgres(url);
  try {
    const reference = await loadReference(db);
    const results = await benchExport(db, reference, (m) => console.log(`[bench] ${m}`));
    const width = Math.max(...results.map((r) => r.metric.length));
    for (const r of results) {
      console.log(
        `${r.metric.padEnd(width)}  ${r.value.padEnd(34)} ${r.target.padEnd(10)} ${r.pass === null ? '' : r.pass ? 'PASS' : 'FAIL'}`,
      );
    }
  } finally {
    await db.close();
  }
}
