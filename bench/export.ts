// The export benchmark (issue 5): 10,000 companies of the 1M-company PostgreSQL set written as csv,
// json, xml (goal ≤ 0.5 s) and xlsx (≤ 2 s) with under 150 MB of extra memory, beside the floor of
// PostgreSQL's own COPY … TO STDOUT of the same rows. Part of `npm run bench` (bench/run.ts), or
// alone, read-only: `node --expose-gc bench/export.ts` (DATABASE_URL, default registra_bench).
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pgCopy from 'pg-copy-streams';
import {
  DEFAULT_COMPANY_SECTIONS,
  EXPORT_FORMATS,
  EXPORT_ROW_LIMIT,
  type ExportFormat,
} from '../core/export/export-options.ts';
import { prepareExport } from '../core/export/run-export.ts';
import { loadReference, type Reference } from '../core/reference/reference-data.ts';
import { parseSearchState } from '../core/search/search-state.ts';
import { companiesSection } from '../core/sections/companies.ts';
import { type Db, openPostgres } from '../db/client.ts';

export type ExportBenchRow = { metric: string; value: string; target: string; pass: boolean | null };

const RUNS = 3;
const TARGET_MS: Record<ExportFormat, number> = { csv: 500, json: 500, xml: 500, xlsx: 2000 };
const MEMORY_LIMIT_MB = 150;

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

/** One export of `all` (10,000) companies of the unfiltered search, newest first: time, bytes and peak memory over the start. */
async function exportOnce(db: Db, reference: Reference, format: ExportFormat) {
  const parsed = parseSearchState(companiesSection, new URLSearchParams());
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
  const start = performance.now();
  const prepared = await prepareExport(db, reference, {
    section: companiesSection,
    state: parsed.state,
    choices: { format, separator: 'comma', scope: 'all', count: EXPORT_ROW_LIMIT, sections: DEFAULT_COMPANY_SECTIONS },
    ids: [],
    lang: 'en',
    languageId: reference.languageIds.en,
    siteUrl: 'https://registra.example',
  });
  const out = sink();
  const rows = await prepared.write(out, sample);
  const ms = performance.now() - start;
  clearInterval(timer);
  sample();
  return { ms, rows, bytes: out.bytes, rssMb: mb(peakRss - before.rss), heapMb: mb(peakHeap - before.heapUsed) };
}

/** PostgreSQL's own COPY … TO STDOUT (csv) of the same 10,000 companies with their name, status, jurisdiction and date. */
async function copyOnce(db: Db) {
  if (!db.pool) throw new Error('COPY needs PostgreSQL');
  const client = await db.pool.connect();
  try {
    const out = sink();
    const start = performance.now();
    const stream = client.query(
      pgCopy.to(`copy (
        select b.id, b.name, s.uri as status, l.uri as jurisdiction, b.registered_on
        from (select id from legal_entities order by registration_sort desc, id desc limit ${EXPORT_ROW_LIMIT}) p
        join legal_entities b on b.id = p.id
        left join statuses s on s.id = b.status_id
        join locations l on l.id = b.jurisdiction_id
        order by b.registration_sort desc, b.id desc
      ) to stdout with (format csv, header, force_quote *)`),
    );
    await pipeline(stream, out);
    return { ms: performance.now() - start, bytes: out.bytes };
  } finally {
    client.release();
  }
}

export async function benchExport(db: Db, reference: Reference, log: (m: string) => void): Promise<ExportBenchRow[]> {
  const rows: ExportBenchRow[] = [];
  // Warm-up: plans, caches, the code paths of every writer.
  for (const format of EXPORT_FORMATS) await exportOnce(db, reference, format);
  await copyOnce(db);
  const copies: number[] = [];
  for (let i = 0; i < RUNS; i++) copies.push((await copyOnce(db)).ms);
  const copyMs = median(copies);
  rows.push({
    metric: `export baseline: COPY … TO STDOUT csv of the same ${EXPORT_ROW_LIMIT.toLocaleString('en')} companies (5 columns)`,
    value: `${copyMs.toFixed(0)} ms`,
    target: '—',
    pass: null,
  });
  for (const format of EXPORT_FORMATS) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await exportOnce(db, reference, format));
    const ms = median(runs.map((r) => r.ms));
    const rss = Math.max(...runs.map((r) => r.rssMb));
    const heap = Math.max(...runs.map((r) => r.heapMb));
    const { rows: n, bytes } = runs[0];
    log(
      `export ${format}: ${n} rows, ${(bytes / 2 ** 20).toFixed(1)} MB, ${runs.map((r) => r.ms.toFixed(0)).join(' / ')} ms`,
    );
    rows.push({
      metric: `export ${format}, ${n.toLocaleString('en')} companies, default sections (median of ${RUNS})`,
      value: `${ms.toFixed(0)} ms (${(ms / copyMs).toFixed(1)}× COPY), ${(bytes / 2 ** 20).toFixed(1)} MB`,
      target: `≤ ${TARGET_MS[format]} ms`,
      pass: ms <= TARGET_MS[format] && n === EXPORT_ROW_LIMIT,
    });
    rows.push({
      metric: `export ${format}: extra memory (peak RSS / heap over the start)`,
      value: `${rss.toFixed(0)} MB / ${heap.toFixed(0)} MB`,
      target: `< ${MEMORY_LIMIT_MB} MB`,
      pass: rss < MEMORY_LIMIT_MB && heap < MEMORY_LIMIT_MB,
    });
  }
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
