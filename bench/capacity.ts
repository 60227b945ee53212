// Capacity model (docs/scaling.md): what a company and a record cost on disk, and which part of each
// query class's cost grows with the data, measured at a few sizes of the same generated data.
//
//   node bench/capacity.ts --url postgres://…/cap --companies 100000   seeds up to N companies when fewer
//                                                                       (db/seed, seed 1), VACUUM ANALYZE,
//                                                                       measures, writes bench/capacity/N.json
//   node bench/capacity.ts --report                                     the table of every bench/capacity/*.json
//                                                                       with the extrapolation (markdown)
//
// Sizes: pg_table_size (heap, TOAST, free-space and visibility maps) and pg_indexes_size per table,
// grouped as company tables (legal_entities and every table keyed by legal_entity_id that is not a
// record section or a user's), record-section tables (the records), and the rest (people, name
// lexicon, reference data, user data). Queries: bench/query-classes.ts, each input run 3 times
// (median of all), and one EXPLAIN (ANALYZE, BUFFERS) of every statement each input issues: the
// buffers a call touches are the part of its cost that grows with the data.

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadReference } from '../core/reference/reference-data.ts';
import { SECTIONS } from '../core/sections/sections.ts';
import { type Db, openPostgres } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadReferenceData } from '../db/reference/load-reference-data.ts';
import { seedCompanies } from '../db/seed/seed-companies.ts';
import { type Captured, capturingDb, inputsFrom, percentile, queryClasses } from './query-classes.ts';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    companies: { type: 'string' },
    report: { type: 'boolean', default: false },
    inputs: { type: 'string', default: '10' },
  },
});
const OUT = new URL('capacity/', import.meta.url);
/** The spec's scale (docs/scaling.md). */
const SPEC_COMPANIES = 250_000_000;
const SPEC_RECORDS = 10_000_000_000;

type Group = 'company' | 'records' | 'other';
type TableSize = { table: string; group: Group; rows: number; tableBytes: number; indexBytes: number };
type ClassCost = { name: string; shards: string; ms: number; p95: number; buffers: number; statements: number };
type Measurement = {
  at: string;
  load: number;
  companies: number;
  records: number;
  databaseBytes: number;
  tables: TableSize[];
  classes: ClassCost[];
};

const log = (m: string) => console.log(`[capacity ${new Date().toISOString().slice(11, 19)}] ${m}`);

const RECORD_TABLES = new Set(SECTIONS.filter((s) => s.record).map((s) => s.baseTable));

async function measureSizes(db: Db): Promise<TableSize[]> {
  const rows = await sql<{
    table: string;
    rows: number;
    table_bytes: string;
    index_bytes: string;
    company: boolean;
    user: boolean;
  }>`
    select c.relname as table, greatest(c.reltuples, 0)::float8 as rows,
      pg_table_size(c.oid)::text as table_bytes, pg_indexes_size(c.oid)::text as index_bytes,
      exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'legal_entity_id' and not a.attisdropped) as company,
      exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'user_id' and not a.attisdropped) as user
    from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
    order by pg_total_relation_size(c.oid) desc`.execute(db.kysely);
  return rows.rows.map((r) => ({
    table: r.table,
    group: RECORD_TABLES.has(r.table)
      ? 'records'
      : r.table === 'legal_entities' || (r.company && !r.user && r.table !== 'members')
        ? 'company'
        : 'other',
    rows: Math.round(r.rows),
    tableBytes: Number(r.table_bytes),
    indexBytes: Number(r.index_bytes),
  }));
}

async function measureClasses(db: Db, n: number): Promise<ClassCost[]> {
  const reference = await loadReference(db);
  const classes = queryClasses(await inputsFrom(db, n));
  const out: ClassCost[] = [];
  for (const c of classes) {
    for (const input of c.inputs) await c.run(db, reference, input); // warm data and the app's caches
    const times: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const input of c.inputs) {
        const started = performance.now();
        await c.run(db, reference, input);
        times.push(performance.now() - started);
      }
    }
    let buffers = 0;
    let statements = 0;
    // One recording Db for the class, its caches warmed first (counts kept per Db, as the app keeps
    // them per process): the plans are of what a warm process runs for each input.
    const captured: Captured[] = [];
    const recording = capturingDb(db, captured);
    for (const input of c.inputs) await c.run(recording, reference, input);
    for (const input of c.inputs) {
      captured.length = 0;
      await c.run(recording, reference, input);
      for (const s of captured) {
        if (!/^\s*(select|with)\b/i.test(s.sql)) continue;
        const plan = await db.pool!.query(
          `explain (analyze, buffers, format json) ${s.sql}`,
          s.parameters as unknown[],
        );
        const top = (plan.rows[0]['QUERY PLAN'] as { Plan: Record<string, number> }[])[0].Plan;
        buffers += (top['Shared Hit Blocks'] ?? 0) + (top['Shared Read Blocks'] ?? 0);
        statements++;
      }
    }
    const cost = {
      name: c.name,
      shards: c.shards,
      ms: percentile(times, 50),
      p95: percentile(times, 95),
      buffers: Math.round(buffers / c.inputs.length),
      statements: statements / c.inputs.length,
    };
    log(`${c.name}: p50 ${cost.ms.toFixed(2)} ms, p95 ${cost.p95.toFixed(2)} ms, ${cost.buffers} buffers a call`);
    out.push(cost);
  }
  return out;
}

async function measure(url: string, target: number | undefined): Promise<void> {
  const db = await openPostgres(url, 4);
  try {
    await migrate(db);
    await loadReferenceData(db);
    const count = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from legal_entities`.execute(db.kysely)).rows[0].n;
    let companies = await count();
    if (target && companies < target) {
      log(`seeding ${(target - companies).toLocaleString('en')} companies (have ${companies.toLocaleString('en')})…`);
      await seedCompanies(db, { companies: target - companies, seed: 1 });
      companies = await count();
    }
    log('vacuum analyze…');
    await sql`vacuum analyze`.execute(db.kysely);
    const tables = await measureSizes(db);
    const records = tables.filter((t) => t.group === 'records').reduce((s, t) => s + t.rows, 0);
    const databaseBytes = Number(
      (await sql<{ b: string }>`select pg_database_size(current_database())::text as b`.execute(db.kysely)).rows[0].b,
    );
    log(
      `${companies.toLocaleString('en')} companies, ${records.toLocaleString('en')} records, ${(databaseBytes / 2 ** 30).toFixed(2)} GiB`,
    );
    const classes = await measureClasses(db, Number(args.inputs));
    const result: Measurement = {
      at: new Date().toISOString(),
      load: loadavg()[0],
      companies,
      records,
      databaseBytes,
      tables,
      classes,
    };
    await mkdir(OUT, { recursive: true });
    await writeFile(new URL(`${companies}.json`, OUT), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await db.close();
  }
}

const gib = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;
const tib = (b: number) => `${(b / 2 ** 40).toFixed(1)} TiB`;

/** Bytes of a group's heap and indexes. */
function groupBytes(m: Measurement, group: Group) {
  const t = m.tables.filter((x) => x.group === group);
  return { table: t.reduce((s, x) => s + x.tableBytes, 0), index: t.reduce((s, x) => s + x.indexBytes, 0) };
}

async function report(): Promise<void> {
  const files = (await readdir(OUT)).filter((f) => f.endsWith('.json'));
  const runs: Measurement[] = [];
  for (const f of files) runs.push(JSON.parse(await readFile(new URL(f, OUT), 'utf8')) as Measurement);
  runs.sort((a, b) => a.companies - b.companies);
  const lines: string[] = [];
  lines.push(
    '| companies | records | records / company | company tables (heap + index) | B / company | record tables (heap + index) | B / record | other | database |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const m of runs) {
    const c = groupBytes(m, 'company');
    const r = groupBytes(m, 'records');
    const o = groupBytes(m, 'other');
    lines.push(
      `| ${m.companies.toLocaleString('en')} | ${m.records.toLocaleString('en')} | ${(m.records / m.companies).toFixed(1)} | ${gib(c.table)} + ${gib(c.index)} | ${Math.round(c.table / m.companies)} + ${Math.round(c.index / m.companies)} | ${gib(r.table)} + ${gib(r.index)} | ${Math.round(r.table / m.records)} + ${Math.round(r.index / m.records)} | ${gib(o.table + o.index)} | ${gib(m.databaseBytes)} |`,
    );
  }
  const last = runs.at(-1);
  if (last) {
    const c = groupBytes(last, 'company');
    const r = groupBytes(last, 'records');
    const o = groupBytes(last, 'other');
    const perCompany = (c.table + c.index) / last.companies;
    const perRecord = (r.table + r.index) / last.records;
    const perOther = (o.table + o.index) / last.companies;
    const total = SPEC_COMPANIES * (perCompany + perOther) + SPEC_RECORDS * perRecord;
    lines.push(
      '',
      `Extrapolated from the largest run (${last.companies.toLocaleString('en')} companies): 250M companies × ${Math.round(perCompany)} B = ${tib(SPEC_COMPANIES * perCompany)} (company tables), 10B records × ${Math.round(perRecord)} B = ${tib(SPEC_RECORDS * perRecord)} (record tables), other tables scaled per company ${tib(SPEC_COMPANIES * perOther)}; in all **${tib(total)}** on one copy, before replicas.`,
    );
  }
  lines.push(
    '',
    `| query class | shards | ${runs.map((m) => `${(m.companies / 1e6).toLocaleString('en')}M p50 ms / buffers`).join(' | ')} |`,
  );
  lines.push(`|---|---|${runs.map(() => '---:').join('|')}|`);
  for (const c of runs[0]?.classes ?? []) {
    const cells = runs.map((m) => {
      const x = m.classes.find((y) => y.name === c.name);
      return x ? `${x.ms.toFixed(2)} / ${x.buffers.toLocaleString('en')}` : '—';
    });
    lines.push(`| ${c.name} | ${c.shards} | ${cells.join(' | ')} |`);
  }
  lines.push('', `Load (1 min) at each run's end: ${runs.map((m) => m.load.toFixed(1)).join(', ')} on 2 cores.`);
  console.log(lines.join('\n'));
}

if (args.report) await report();
else {
  if (!args.url) throw new Error('--url is required (or --report)');
  await measure(args.url, args.companies ? Number(args.companies) : undefined);
}
