// Benchmark of the Companies House BasicCompanyData import (docs/decisions/0014-importers.md,
// 0016-national-registers.md): writes a file of N demo companies in the real layout
// (db/seed/companies-house-file.ts) and an update file in which 1% of them differ (two fields each),
// then, as steps:
//   first import  into a fresh database A, between two runs of floor (a): a raw COPY of the file into
//                 an unindexed table of 55 text columns (pg_stat_statements profile, when loaded)
//   floor b       a COPY of the rows the first import wrote (normalised) into our own tables with their
//                 indexes, in a fresh database
//   re-import     the same file into A again (nothing changes)
//   update        B = CREATE DATABASE … TEMPLATE A (a file copy: one load serves both); TRACKINGS
//                 active company trackings in B (every 50th company: half of them change); the update
//                 file imported into B; the monitoring-reports job the import queued run as the worker
//                 would, timed from the import's end; the change rows checked against the real
//                 differences of the two files (lines and columns, then each field's old and new value)
//   search        search p95 (the query classes of bench/run.ts) on A (fresh) and B (updated),
//                 alternated for ROUNDS rounds; the medians and their ratio
// and prints the figures (rows/s against both floors, peak RSS, change rows, reports, search).
//
//   npx node bench/import-companies-house.ts [--rows N] [--trackings 10000] [--rounds 5]
//                 [--data-dir DIR [--resume]]
//   --data-dir    keeps the files and each finished step's figures (steps-N.json) in DIR; --resume
//                 skips the steps done there before (a 1M run is an hour or more: it can be resumed)
//   DATABASE_URL  default postgres://postgres@127.0.0.1:5432/registra_bench_ch: A, and B with "_upd"
//                 (dropped and created; left after the run, e.g. for bench/monitoring-reports.ts)
//   npm run bench -- --only import [--companies N]   runs it on the bench database's name + "_ch"
import { createReadStream, createWriteStream, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { findCompanies } from '../core/companies/find-companies.ts';
import { createMailer } from '../core/email/mailer.ts';
import { i18nFor } from '../core/i18n/i18n.ts';
import { type CompanyFacts, companyFactsSchema, keyStrings } from '../core/imports/company-facts.ts';
import { factValues } from '../core/imports/company-fields.ts';
import { runImport } from '../core/imports/run-import.ts';
import { chCompaniesSource, companyRegisterKey } from '../core/imports/sources/companies-house/ch-companies-source.ts';
import { canonicalJson } from '../core/imports/sql-rows.ts';
import { IMPORTED_TABLES } from '../core/imports/vacuum-imported.ts';
import { NEWEST_CHANGE_SQL } from '../core/monitoring/tracking-status.ts';
import { type Lang, loadReference, type Reference } from '../core/reference/reference-data.ts';
import { parseSearchState } from '../core/search/search-state.ts';
import { companiesSection } from '../core/sections/companies.ts';
import { type Db, openPostgres } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadReferenceData } from '../db/reference/load-reference-data.ts';
import { BASIC_COMPANY_DATA_HEADER, writeCompaniesHouseFile } from '../db/seed/companies-house-file.ts';
import { drainJobs } from '../jobs/worker.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string' },
    'data-dir': { type: 'string' },
    resume: { type: 'boolean', default: false },
    trackings: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '5' },
    steps: { type: 'string' },
  },
});
const ROWS = Number(args.rows ?? 1_000_000);
const TRACKINGS = Number(args.trackings);
const ROUNDS = Number(args.rounds);
const URL_ = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/registra_bench_ch';
const CHANGED_EVERY = 100;

const admin = new URL(URL_);
const name = admin.pathname.slice(1);
admin.pathname = '/postgres';
const urlOf = (database: string) => {
  const url = new URL(URL_);
  url.pathname = `/${database}`;
  return url.toString();
};
/** A: the fresh load (and the re-import); B: a file copy of A (CREATE DATABASE … TEMPLATE) that takes the update. */
const updatedName = `${name}_upd`;
const copyUrl = urlOf(`${name}_copy`);

async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function freshDatabase(database: string, template?: string): Promise<void> {
  await adminQuery(`drop database if exists "${database}" with (force)`);
  await adminQuery(`create database "${database}"${template ? ` template "${template}"` : ''}`);
}

const log = (message: string) => console.error(`[import bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

// --data-dir keeps the generated files and each finished step's figures (steps.json) there;
// --resume then skips the steps already done (the databases are left as those steps left them).
const dir = args['data-dir'] ?? (await mkdtemp(join(tmpdir(), 'registra-bench-ch-')));
await mkdir(dir, { recursive: true });
const file = join(dir, `BasicCompanyData-2026-11-01-${ROWS}.csv`);
const update = join(dir, `BasicCompanyData-2026-12-01-${ROWS}.csv`);
const stepsFile = join(dir, `steps-${ROWS}.json`);
const done: Record<string, unknown> =
  args.resume && existsSync(stepsFile) ? JSON.parse(readFileSync(stepsFile, 'utf8')) : {};
/** --steps runs only the steps named (comma-separated), e.g. a floor in a process of its own. */
const only = args.steps?.split(',').map((x) => x.trim());
async function step<T>(key: string, run: () => Promise<T>): Promise<T | undefined> {
  if (key in done) {
    log(`${key}: done before (${stepsFile})`);
    return done[key] as T;
  }
  if (only && !only.includes(key)) return undefined;
  log(`${key}…`);
  const value = await run();
  // Another process may have finished a step meanwhile: its figures are kept.
  const now = existsSync(stepsFile) ? JSON.parse(readFileSync(stepsFile, 'utf8')) : {};
  Object.assign(done, now, { [key]: value });
  writeFileSync(stepsFile, JSON.stringify(done, null, 1));
  log(`${key} done`);
  return value;
}

for (const [out, changedEvery] of [
  [file, 0],
  [update, CHANGED_EVERY],
] as const) {
  if (existsSync(out)) continue;
  log(`writing ${out}…`);
  await writeCompaniesHouseFile({ rows: ROWS, out: `${out}.part`, changedEvery });
  renameSync(`${out}.part`, out);
}

/** CPU seconds of a client's backend (when PostgreSQL runs on this machine): call the function returned to read the time used since. */
async function backendCpu(client: pg.Client): Promise<(() => Promise<number>) | null> {
  try {
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
    const read = () => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parts = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(parts[11]) + Number(parts[12])) / 100;
    };
    const before = read();
    return async () => read() - before;
  } catch {
    return null;
  }
}

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
async function normalisedCopySeconds(): Promise<{ seconds: number; rows: number; cpu: number | null }> {
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
    const backend = await backendCpu(dst);
    const started = performance.now();
    for (const { table, columns, file: from } of tables) {
      const copy = dst.query(copyFrom(`copy ${table} (${columns}) from stdin`));
      await pipeline(createReadStream(from), copy);
      rows += Number(copy.rowCount);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = backend ? await backend() : null;
    for (const { file: from } of tables) await rm(from);
    return { seconds, rows, cpu };
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

type Timed = Awaited<ReturnType<typeof runImport>> & { cpu: string; rssBefore: number; rssAfter: number };

async function timedImport(db: Db, path: string): Promise<Timed> {
  const before = await cpuNow(db);
  const rssBefore = process.resourceUsage().maxRSS;
  let shown = performance.now();
  const summary = await runImport(db, chCompaniesSource, [path], {
    onProgress: (p) => {
      if (performance.now() - shown < 60_000) return;
      shown = performance.now();
      log(
        `${p.read.toLocaleString('en')} read (${((100 * p.bytes) / p.totalBytes).toFixed(1)}%), ${p.new} new, ${p.changed} changed`,
      );
    },
  });
  const after = await cpuNow(db);
  const pg = before.pg === null || after.pg === null ? 'n/a' : `${(after.pg - before.pg).toFixed(1)} s`;
  return {
    ...summary,
    rejects: summary.rejects.slice(0, 3),
    cpu: `CPU node ${(after.node - before.node).toFixed(1)} s, PostgreSQL ${pg}`,
    rssBefore,
    rssAfter: process.resourceUsage().maxRSS,
  };
}

/** The statements that took the most time since the last reset, when pg_stat_statements is loaded (profiling). */
async function topStatements(db: Db): Promise<string[]> {
  try {
    const rows = await sql<{ query: string; calls: number; total: number; mean: number; rows: number }>`
      select left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 140) as query, calls::int as calls,
        total_exec_time / 1000 as total, mean_exec_time as mean, rows::bigint as rows
      from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
      order by total_exec_time desc limit 12`.execute(db.kysely);
    return rows.rows.map(
      (r) => `${Number(r.total).toFixed(1)} s, ${r.calls} calls, ${Number(r.mean).toFixed(1)} ms each: ${r.query}`,
    );
  } catch {
    return [];
  }
}

async function resetStatements(db: Db): Promise<void> {
  try {
    await sql`create extension if not exists pg_stat_statements`.execute(db.kysely);
    await sql`select pg_stat_statements_reset()`.execute(db.kysely);
  } catch {
    // not loaded on this server (shared_preload_libraries): no profile
  }
}

/** p95 (ms) of findCompanies over 200 runs of the given searches (after 20 warm-up runs). */
async function p95Of(db: Db, reference: Reference, queries: string[]): Promise<number> {
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
  return samples[Math.floor(samples.length * 0.95)] as number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** The search classes of bench/run.ts: exact word, frequent word, filter + sort. */
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

/** Size, dead rows and last (auto)vacuum/analyze of the tables search reads: what differs between A and B. */
async function tableHealth(db: Db): Promise<string> {
  const rows = await sql<{ t: string; size: string; dead: number; live: number }>`
    select relname as t, pg_size_pretty(pg_total_relation_size(relid)) as size, n_dead_tup::int as dead, n_live_tup::int as live
    from pg_stat_user_tables where relname in ('legal_entities', 'legal_entity_names', 'name_words', 'legal_entity_identifiers')
    order by relname`.execute(db.kysely);
  return rows.rows.map((r) => `${r.t} ${r.size} (${r.dead.toLocaleString('en')} dead)`).join(', ');
}

const registerKey = (number: string) =>
  (keyStrings({ register: companyRegisterKey(number) })[0] as { key: string }).key;

/** Every UK company number (8 digits) whose row is tracked: every 50th company, so half of them change in the update. */
const TRACK_EVERY = CHANGED_EVERY / 2;

async function makeTrackings(db: Db): Promise<{ users: number; trackings: number }> {
  const k = db.kysely;
  const numbers = Array.from({ length: Math.min(TRACKINGS, Math.floor(ROWS / TRACK_EVERY)) }, (_, i) =>
    String((i + 1) * TRACK_EVERY).padStart(8, '0'),
  );
  const ids = (
    await sql<{ id: number }>`select legal_entity_id as id from company_keys
      where scheme = 'register' and key = any(${numbers.map(registerKey)}::text[])`.execute(k)
  ).rows.map((r) => Number(r.id));
  if (ids.length !== numbers.length) throw new Error(`found ${ids.length} of ${numbers.length} tracked companies`);
  const start = Number((await sql<{ m: number }>`select ${sql.raw(NEWEST_CHANGE_SQL)} as m`.execute(k)).rows[0].m);
  const perUser = 1000;
  let users = 0;
  for (let from = 0; from < ids.length; from += perUser) {
    const user = await k
      .insertInto('users')
      .values({
        email: `bench.${users}@example.com`,
        name: `Bench ${users}`,
        password_hash: 'x',
        activated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    users += 1;
    await sql`insert into existing_objects_tracking (user_id, legal_entity_id, last_change_id)
      select ${user.id}, unnest(${ids.slice(from, from + perUser)}::bigint[]), ${start}`.execute(k);
    // and 10 new-company trackings each (none match: the update adds no company)
    for (let i = 0; i < 10; i++)
      await k
        .insertInto('new_objects_tracking')
        .values({
          user_id: user.id,
          name: `Bench ${i}`,
          query: '/companies/search/?jurisdiction=826',
          last_change_id: start,
        })
        .execute();
  }
  return { users, trackings: ids.length };
}

/** The CSV fields of a line of the file (every value quoted, as Companies House writes them). */
function csvFields(line: string): string[] {
  return [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => (m[1] as string).replace(/""/g, '"'));
}

async function* lines(path: string): AsyncGenerator<string> {
  yield* createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
}

async function* companies(path: string): AsyncGenerator<CompanyFacts> {
  for await (const item of chCompaniesSource.read(createReadStream(path), { name: basename(path) }))
    if (item.kind === 'company') yield companyFactsSchema.parse(item.facts);
}

/**
 * The real differences between the two files, found without the importer's writer: (1) the lines
 * that differ and in which columns, (2) for those companies, each field whose value (as the source
 * reads it) differs — then compared with the change rows the update import wrote: the same
 * (company, field) pairs, and the same old and new values.
 */
async function checkChanges(db: Db, importId: number) {
  const header = BASIC_COMPANY_DATA_HEADER.split(',').map((h) => h.trim());
  const columns: Record<string, number> = {};
  let differentLines = 0;
  const a = lines(file);
  const b = lines(update);
  for (;;) {
    const [x, y] = await Promise.all([a.next(), b.next()]);
    if (x.done || y.done) {
      if (!x.done || !y.done) throw new Error('the files have different line counts');
      break;
    }
    if (x.value === y.value) continue;
    differentLines += 1;
    const fx = csvFields(x.value);
    const fy = csvFields(y.value);
    header.forEach((h, i) => {
      if (fx[i] !== fy[i]) columns[h] = (columns[h] ?? 0) + 1;
    });
  }
  const expected = new Map<string, string>();
  const fa = companies(file);
  const fb = companies(update);
  const isEmpty = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0);
  for (;;) {
    const [x, y] = await Promise.all([fa.next(), fb.next()]);
    if (x.done || y.done) break;
    const before = factValues(x.value);
    const after = factValues(y.value);
    for (const field of new Set([...before.keys(), ...after.keys()])) {
      const old = before.get(field) ?? null;
      const now = after.get(field) ?? null;
      if (canonicalJson(old) === canonicalJson(now) || (isEmpty(old) && isEmpty(now))) continue;
      const number = keyStrings(y.value.keys)[0]?.key ?? '?';
      expected.set(
        `${number} ${field}`,
        canonicalJson({ old: isEmpty(old) ? null : old, new: isEmpty(now) ? null : now }),
      );
    }
  }
  const written = await sql<{ key: string; field: string; old_value: unknown; new_value: unknown }>`
    select k.key, c.field, c.old_value, c.new_value from company_changes c
    join company_keys k on k.legal_entity_id = c.legal_entity_id and k.scheme = 'register'
    where c.import_id = ${importId}`.execute(db.kysely);
  let same = 0;
  const wrong: string[] = [];
  const seen = new Set<string>();
  for (const r of written.rows) {
    const key = `${r.key} ${r.field}`;
    seen.add(key);
    const want = expected.get(key);
    if (want === canonicalJson({ old: r.old_value, new: r.new_value })) same += 1;
    else if (wrong.length < 3)
      wrong.push(`${key}: wrote ${canonicalJson([r.old_value, r.new_value])}, expected ${want}`);
  }
  const missing = [...expected.keys()].filter((key) => !seen.has(key));
  const fields: Record<string, number> = {};
  for (const key of expected.keys()) {
    const field = key.slice(key.indexOf(' ') + 1);
    fields[field] = (fields[field] ?? 0) + 1;
  }
  return {
    differentLines,
    columns,
    expected: expected.size,
    fields,
    written: written.rows.length,
    same,
    missing: missing.length,
    wrong: [...wrong, ...missing.slice(0, 3).map((key) => `${key}: not written`)],
    exact: same === expected.size && written.rows.length === expected.size,
  };
}

const quiet = { info: () => {}, error: () => {} };
const translate = (lang: Lang) => {
  const { t } = i18nFor(lang);
  return (key: string, v?: Record<string, unknown>) => (v ? t(key, v) : t(key));
};

// ---------- the steps ----------

const first = await step('first import', async () => {
  await freshDatabase(name);
  const db = await openPostgres(URL_);
  try {
    await migrate(db);
    await loadReferenceData(db);
    const rawBefore = await rawCopySeconds();
    await resetStatements(db);
    const result = await timedImport(db, file);
    const statements = await topStatements(db);
    const rawAfter = await rawCopySeconds();
    return { ...result, rawBefore, rawAfter, statements };
  } finally {
    await db.close();
  }
});
const updated = await step('update', async () => {
  await freshDatabase(updatedName, name);
  const db = await openPostgres(urlOf(updatedName));
  const mailer = createMailer({ db, settings: { from: 'bench <b@localhost>' }, log: quiet, translate });
  try {
    log(`${updatedName} made from ${name}`);
    const tracked = await makeTrackings(db);
    const imported = await timedImport(db, update);
    const importEnd = performance.now();
    // What the in-process worker does on its next tick (jobs/worker.ts): the job the import queued.
    const reference = await loadReference(db);
    const jobs = await drainJobs({
      services: { db, reference, mailer, siteUrl: 'http://localhost:3000', translate },
      log: quiet,
    });
    const reportsSeconds = (performance.now() - importEnd) / 1000;
    const reports = await sql<{ reports: number; changes: number; users: number }>`
      select count(*)::int as reports, coalesce(sum(jsonb_array_length(changes)), 0)::int as changes,
        count(distinct user_id)::int as users from existing_objects_reports`
      .execute(db.kysely)
      .catch(() =>
        sql<{ reports: number; changes: number; users: number }>`
      select count(*)::int as reports, 0 as changes, count(distinct user_id)::int as users from existing_objects_reports`.execute(
          db.kysely,
        ),
      );
    const emails = await sql<{ n: number }>`select count(*)::int as n from email_outbox`.execute(db.kysely);
    log('checking the change rows against the files…');
    const check = await checkChanges(db, imported.importIds[0] as number);
    return {
      ...imported,
      ...tracked,
      jobs,
      reportsSeconds,
      ...reports.rows[0],
      emails: emails.rows[0]?.n,
      check,
    };
  } finally {
    await mailer.close();
    await db.close();
  }
});
const search = await step('search', async () => {
  const dbA = await openPostgres(URL_);
  const dbB = await openPostgres(urlOf(updatedName));
  try {
    const refA = await loadReference(dbA);
    const refB = await loadReference(dbB);
    const inputs = await searchInputs(dbA);
    const p95s: Record<string, { a: number[]; b: number[] }> = {};
    for (let round = 0; round < ROUNDS; round++)
      for (const [kind, queries] of Object.entries(inputs)) {
        p95s[kind] ??= { a: [], b: [] };
        const runs = p95s[kind];
        // A then B in even rounds, B then A in odd ones: neither always runs second.
        if (round % 2 === 0) {
          runs.a.push(await p95Of(dbA, refA, queries));
          runs.b.push(await p95Of(dbB, refB, queries));
        } else {
          runs.b.push(await p95Of(dbB, refB, queries));
          runs.a.push(await p95Of(dbA, refA, queries));
        }
      }
    return { p95s, healthA: await tableHealth(dbA), healthB: await tableHealth(dbB) };
  } finally {
    await dbA.close();
    await dbB.close();
  }
});

const floor = await step('floor b', () => normalisedCopySeconds());
const again = await step('re-import', async () => {
  const db = await openPostgres(URL_);
  try {
    return await timedImport(db, file);
  } finally {
    await db.close();
  }
});
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const perSecond = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString('en');
const n = (x: number) => x.toLocaleString('en');
const expected = Math.floor(ROWS / CHANGED_EVERY);
const load = loadavg().map((x) => x.toFixed(1));
const rows: string[] = [];
const rawSeconds = first ? median([first.rawBefore, first.rawAfter]) : 0;
if (first)
  rows.push(
    `| (a) raw COPY of the same file into an unindexed table of text columns (before / after the import) | ${first.rawBefore.toFixed(1)} s / ${first.rawAfter.toFixed(1)} s, ${perSecond(ROWS, rawSeconds)} rows/s |`,
  );
if (floor)
  rows.push(
    `| (b) COPY of the rows the import wrote (${n(floor.rows)}, normalised) into our tables with their indexes | ${floor.seconds.toFixed(1)} s, ${perSecond(ROWS, floor.seconds)} companies/s${floor.cpu ? `; CPU PostgreSQL ${floor.cpu.toFixed(1)} s` : ''} |`,
  );
if (first)
  rows.push(
    `| first import | ${first.seconds.toFixed(1)} s, ${perSecond(first.read, first.seconds)} rows/s = ${(rawSeconds / first.seconds).toFixed(3)}× (a)${floor ? `, ${(floor.seconds / first.seconds).toFixed(2)}× (b)` : ''} (${n(first.new)} new, ${first.rejected} rejected; refreshing export documents, lexicon and vacuum ${first.refreshSeconds.toFixed(1)} s of it; ${first.cpu}) |`,
    `| peak RSS (process, before → after the first import) | ${mb(first.rssBefore)} → ${mb(first.rssAfter)} |`,
  );
const cpuOf = (timed: { cpu: string }) => {
  const m = /node ([\d.]+) s, PostgreSQL ([\d.]+) s/.exec(timed.cpu);
  return m ? Number(m[1]) + Number(m[2]) : null;
};
const firstCpu = first ? cpuOf(first) : null;
if (floor?.cpu && firstCpu)
  rows.push(
    `| first import against (b) in CPU seconds (steadier than wall time under load) | ${floor.cpu.toFixed(1)} s / ${firstCpu.toFixed(1)} s = ${(floor.cpu / firstCpu).toFixed(2)}× |`,
  );
if (again && first)
  rows.push(
    `| same file again | ${again.seconds.toFixed(1)} s (${(again.seconds / first.seconds).toFixed(2)}× the first), ${again.changed} changed, ${n(again.unchanged)} unchanged; ${again.cpu} |`,
  );
if (updated) {
  const { check } = updated;
  const list = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([k, v]) => `${k} ${n(v)}`)
      .join(', ');
  rows.push(
    `| update file changing 1% (${n(expected)} companies × 2 fields), into B = a copy of A | ${updated.seconds.toFixed(1)} s, ${n(updated.changed)} changed; ${updated.cpu} |`,
    `| the files differ in (raw lines, by column) | ${n(check.differentLines)} lines: ${list(check.columns)} |`,
    `| change rows written = the real differences | ${check.exact ? 'yes' : 'NO'}: ${n(check.written)} written, ${n(check.expected)} expected (${list(check.fields)}), ${n(check.same)} equal in old and new value${check.wrong.length ? `; ${check.wrong.join('; ')}` : ''} |`,
    `| update reports after the import, ${n(updated.trackings)} active trackings (${updated.users} users, half of the tracked companies changed) | ${updated.reportsSeconds.toFixed(1)} s from the import's end (${updated.jobs} job), ${n(updated.reports ?? 0)} reports, ${n(updated.emails ?? 0)} digest emails |`,
  );
}
if (search) {
  for (const [kind, { a, b }] of Object.entries(search.p95s)) {
    const ma = median(a);
    const mb_ = median(b);
    rows.push(
      `| search p95, ${kind}: fresh load A vs updated B (median of ${a.length} alternated rounds of 200) | ${ma.toFixed(1)} ms vs ${mb_.toFixed(1)} ms (${(mb_ / ma).toFixed(2)}×; rounds A ${a.map((x) => x.toFixed(1)).join('/')}, B ${b.map((x) => x.toFixed(1)).join('/')}) |`,
    );
  }
  rows.push(`| tables A / B | ${search.healthA} / ${search.healthB} |`);
}
console.log(
  [
    `load average at the end: ${load.join(' ')}`,
    `| Companies House BasicCompanyData import, ${n(ROWS)} rows, PostgreSQL | value |`,
    '|---|---|',
    ...rows,
  ].join('\n'),
);
if (first && first.statements.length > 0)
  console.log(`\nThe first import's statements by time:\n${first.statements.map((s) => `- ${s}`).join('\n')}`);
if (!args['data-dir']) await rm(dir, { recursive: true, force: true });
