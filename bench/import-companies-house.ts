// Benchmark of the Companies House BasicCompanyData import (docs/decisions/0014-importers.md,
// 0016-national-registers.md): writes a file of N demo companies in the real layout
// (db/seed/companies-house-file.ts), times two floors — (a) a raw COPY of the file into a table of 55
// text columns, (b) a COPY of the rows the first import wrote (already normalised) into our own
// tables with their indexes, in a second database — imports the file into a fresh PostgreSQL
// database, imports it again (nothing changes), then an update file in which 1% of the companies
// differ (two fields each), and prints rows/s against both floors, peak RSS, the change rows written,
// and search p95 (the query classes of bench/run.ts) after the first import and after the update.
//
//   npx node bench/import-companies-house.ts [--rows N]      (default 1,000,000)
//   DATABASE_URL  default postgres://postgres@127.0.0.1:5432/registra_bench_ch (dropped and created;
//                 left after the run, e.g. for bench/monitoring-reports.ts)
//   npm run bench -- --only import   runs it on the bench database's name + "_ch"
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { findCompanies } from '../core/companies/find-companies.ts';
import { IMPORTED_TABLES } from '../core/imports/refresh-dependents.ts';
import { runImport } from '../core/imports/run-import.ts';
import { chCompaniesSource } from '../core/imports/sources/companies-house/ch-companies-source.ts';
import { loadReference, type Reference } from '../core/reference/reference-data.ts';
import { parseSearchState } from '../core/search/search-state.ts';
import { companiesSection } from '../core/sections/companies.ts';
import { type Db, openPostgres } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadReferenceData } from '../db/reference/load-reference-data.ts';
import { BASIC_COMPANY_DATA_HEADER, writeCompaniesHouseFile } from '../db/seed/companies-house-file.ts';

const { values: args } = parseArgs({
  options: { rows: { type: 'string' } },
});
const ROWS = Number(args.rows ?? 1_000_000);
const URL_ = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/registra_bench_ch';
const CHANGED_EVERY = 100;

const admin = new URL(URL_);
const name = admin.pathname.slice(1);
admin.pathname = '/postgres';
const copyUrl = new URL(URL_);
copyUrl.pathname = `/${name}_copy`;

async function freshDatabase(database: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`drop database if exists "${database}" with (force)`);
  await client.query(`create database "${database}"`);
  await client.end();
}
await freshDatabase(name);

const dir = await mkdtemp(join(tmpdir(), 'registra-bench-ch-'));
const file = join(dir, 'BasicCompanyData-2026-11-01.csv');
const update = join(dir, 'BasicCompanyData-2026-12-01.csv');
await writeCompaniesHouseFile({ rows: ROWS, out: file });
await writeCompaniesHouseFile({ rows: ROWS, out: update, changedEvery: CHANGED_EVERY });

/** The same bytes through COPY into an unlogged table of text columns: the floor an import is held to. */
async function rawCopySeconds(): Promise<number> {
  const raw = new pg.Client({ connectionString: URL_ });
  await raw.connect();
  try {
    const columns = BASIC_COMPANY_DATA_HEADER.split(',').map((_, i) => `c${i} text`);
    await raw.query(`create unlogged table bench_ch_raw (${columns.join(', ')})`);
    const started = performance.now();
    await pipeline(
      createReadStream(file),
      raw.query(copyFrom('copy bench_ch_raw from stdin with (format csv, header true)')),
    );
    const seconds = (performance.now() - started) / 1000;
    await raw.query('drop table bench_ch_raw');
    return seconds;
  } finally {
    await raw.end();
  }
}

/**
 * Floor (b): the rows the first import wrote, already normalised, COPYed into our own tables (their
 * indexes and foreign keys as they are) in a fresh database with the reference data: what writing
 * the data costs at the least. The rows are read out first; only the COPYs into the tables are timed.
 */
async function normalisedCopySeconds(): Promise<{ seconds: number; rows: number }> {
  await freshDatabase(`${name}_copy`);
  const target = await openPostgres(copyUrl.toString());
  await migrate(target);
  await loadReferenceData(target);
  await target.close();
  const src = new pg.Client({ connectionString: URL_ });
  const dst = new pg.Client({ connectionString: copyUrl.toString() });
  await src.connect();
  await dst.connect();
  try {
    const tables: { table: string; columns: string; file: string }[] = [];
    for (const table of WRITTEN_TABLES) {
      const columns = (
        await src.query<{ c: string }>(
          `select column_name as c from information_schema.columns
           where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
          [table],
        )
      ).rows
        .map((r) => `"${r.c}"`)
        .join(', ');
      const out = join(dir, `${table}.copy`);
      await pipeline(src.query(copyTo(`copy (select ${columns} from ${table}) to stdout`)), createWriteStream(out));
      tables.push({ table, columns, file: out });
    }
    let rows = 0;
    const started = performance.now();
    for (const { table, columns, file: from } of tables) {
      const copy = dst.query(copyFrom(`copy ${table} (${columns}) from stdin`));
      await pipeline(createReadStream(from), copy);
      rows += Number(copy.rowCount);
    }
    const seconds = (performance.now() - started) / 1000;
    for (const { file: from } of tables) await rm(from);
    return { seconds, rows };
  } finally {
    await src.end();
    await dst.end();
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`drop database if exists "${name}_copy" with (force)`);
    await client.end();
  }
}

/** What an import writes, parents first (its import row first); the copy database has the reference data. */
const WRITTEN_TABLES = ['imports', ...IMPORTED_TABLES];

/**
 * CPU seconds so far of this process and of the PostgreSQL server when it runs on this machine (its
 * backends of the bench database alive now, plus every child the postmaster reaped): the difference
 * over an import is what the import cost each side (autovacuum and other sessions' exits included).
 */
async function cpuNow(db: Db): Promise<{ node: number; pg: number | null }> {
  const usage = process.cpuUsage();
  const node = (usage.user + usage.system) / 1e6;
  try {
    const ticks = (pid: number | string, fields: [number, number]) => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parts = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(parts[fields[0] - 3]) + Number(parts[fields[1] - 3])) / 100;
    };
    const backend = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely)).rows[0]?.pid;
    const stat = readFileSync(`/proc/${backend}/stat`, 'utf8');
    const postmaster = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const backends = await sql<{
      pid: number;
    }>`select pid from pg_stat_activity where datname = current_database()`.execute(db.kysely);
    let pg = ticks(postmaster, [16, 17]);
    for (const { pid } of backends.rows) pg += ticks(pid, [14, 15]);
    return { node, pg };
  } catch {
    return { node, pg: null };
  }
}

async function timedImport(db: Db, path: string) {
  const before = await cpuNow(db);
  const summary = await runImport(db, chCompaniesSource, [path]);
  const after = await cpuNow(db);
  const pg = before.pg === null || after.pg === null ? 'n/a' : `${(after.pg - before.pg).toFixed(1)} s`;
  return { ...summary, cpu: `CPU node ${(after.node - before.node).toFixed(1)} s, PostgreSQL ${pg}` };
}

type P95s = Record<string, number>;

/** p95 (ms) of findCompanies for the search classes of bench/run.ts: exact word, frequent word, filter + sort. */
async function searchP95(db: Db, reference: Reference, inputs: Record<string, string[]>): Promise<P95s> {
  const out: P95s = {};
  for (const [kind, queries] of Object.entries(inputs)) {
    const states = queries.map((q) => {
      const parsed = parseSearchState(companiesSection, new URLSearchParams(q));
      if (!parsed.ok) throw new Error(`bad search ${q}`);
      return parsed.state;
    });
    for (const st of states.slice(0, 20)) await findCompanies(db, reference, st);
    const samples: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = performance.now();
      await findCompanies(db, reference, states[i % states.length] as (typeof states)[number]);
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    out[kind] = samples[Math.floor(samples.length * 0.95)] as number;
  }
  return out;
}

async function searchInputs(db: Db): Promise<Record<string, string[]>> {
  const words = await sql<{ word: string }>`select word from name_words
    where documents between 5 and 500 order by md5(word) limit 200`.execute(db.kysely);
  const frequent = await sql<{ word: string }>`select word from name_words
    where length(word) >= 2 order by documents desc, word limit 50`.execute(db.kysely);
  const big = await sql<{ j: number }>`select jurisdiction_id as j from legal_entities where status_id = 1
    group by 1 order by count(*) desc limit 5`.execute(db.kysely);
  return {
    'exact word': words.rows.map((r) => `q=${encodeURIComponent(r.word)}`),
    'frequent word': frequent.rows.map((r) => `q=${encodeURIComponent(r.word)}`),
    'filter + sort': big.rows.map((r) => `jurisdiction=${r.j}&status=1`),
  };
}

const db = await openPostgres(URL_);
try {
  await migrate(db);
  await loadReferenceData(db);
  const copySeconds = await rawCopySeconds();
  const rssBefore = process.resourceUsage().maxRSS;
  const first = await timedImport(db, file);
  const rssFirst = process.resourceUsage().maxRSS;
  const floor = await normalisedCopySeconds();
  const reference = await loadReference(db);
  const inputs = await searchInputs(db);
  const fresh = await searchP95(db, reference, inputs);
  const again = await timedImport(db, file);
  const changed = await timedImport(db, update);
  const afterUpdate = await searchP95(db, reference, inputs);
  const changeRows = await db.kysely
    .selectFrom('company_changes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('import_id', '=', changed.importIds[0] as number)
    .executeTakeFirstOrThrow();
  const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
  const perSecond = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString('en');
  const expected = Math.floor(ROWS / CHANGED_EVERY);
  const load = (await import('node:os')).loadavg().map((x) => x.toFixed(1));
  const lines = [
    `load average at the end: ${load.join(' ')}`,
    `| Companies House BasicCompanyData import, ${ROWS.toLocaleString('en')} rows, PostgreSQL | value |`,
    '|---|---|',
    `| (a) raw COPY of the same file into an unindexed table of text columns | ${copySeconds.toFixed(1)} s, ${perSecond(ROWS, copySeconds)} rows/s |`,
    `| (b) COPY of the rows the import wrote (${floor.rows.toLocaleString('en')}, normalised) into our tables with their indexes | ${floor.seconds.toFixed(1)} s, ${perSecond(ROWS, floor.seconds)} companies/s |`,
    `| first import | ${first.seconds.toFixed(1)} s, ${perSecond(first.read, first.seconds)} rows/s = ${(copySeconds / first.seconds).toFixed(3)}× (a), ${(floor.seconds / first.seconds).toFixed(2)}× (b) (${first.new.toLocaleString('en')} new, ${first.rejected} rejected; refreshing export documents, lexicon and vacuum ${first.refreshSeconds.toFixed(1)} s of it; ${first.cpu}) |`,
    `| peak RSS (process, before → after the first import) | ${mb(rssBefore)} → ${mb(rssFirst)} |`,
    `| same file again | ${again.seconds.toFixed(1)} s (${(again.seconds / first.seconds).toFixed(2)}× the first), ${again.changed} changed, ${again.unchanged.toLocaleString('en')} unchanged; ${again.cpu} |`,
    `| update file changing 1% (${expected.toLocaleString('en')} companies × 2 fields) | ${changed.seconds.toFixed(1)} s, ${changed.changed.toLocaleString('en')} changed, ${Number(changeRows.n).toLocaleString('en')} change rows (expected ${(expected * 2).toLocaleString('en')}); ${changed.cpu} |`,
    ...Object.keys(fresh).map(
      (kind) =>
        `| search p95, ${kind}: after the first import → after the update | ${fresh[kind]?.toFixed(1)} ms → ${afterUpdate[kind]?.toFixed(1)} ms (${((afterUpdate[kind] as number) / (fresh[kind] as number)).toFixed(2)}×) |`,
    ),
  ];
  console.log(lines.join('\n'));
} finally {
  await db.close();
  await rm(dir, { recursive: true, force: true });
}
