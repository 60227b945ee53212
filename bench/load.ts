// Load benchmark: how long the demo data set takes to load into PostgreSQL, phase by phase, and how
// its load phase compares with raw COPY on the same server (the issue's goals: the 1M-company set
// with its ≥ 10M related records in ≤ 8 minutes, the load phase at ≥ half the rows/s of raw COPY).
//
//   node bench/load.ts [--companies N] [--raw-batches K] [--keep] [--no-results]
//
//   DATABASE_URL   server to use, default postgres://postgres@127.0.0.1:5432; the benchmark creates
//                  and drops its own database `registra_load_bench` there
//   --companies N  companies to seed (default 1,000,000)
//   --raw-batches  batches of 5,000 companies whose CSV is COPYed raw (default 20)
//   --keep         keep the database afterwards
//   --no-results   do not append to bench/RESULTS.md
//
// Raw COPY: the CSV text of the first batches, generated again (not timed), COPYed table by table
// into `create table raw_x (like x including generated)` copies (no indexes, keys or foreign keys),
// one transaction per batch on one connection, as the seed does.

import { execFileSync } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { RECORD_SECTIONS } from '../core/sections/records.ts';
import { openPostgres } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadReferenceData } from '../db/reference/load-reference-data.ts';
import {
  batchChunks,
  batchRowCount,
  COPY_TABLE_NAMES,
  type CsvBatch,
  copySql,
  copyText,
} from '../db/seed/copy-rows.ts';
import { createPersonPool } from '../db/seed/member-pool.ts';
import { loadSeedCatalog } from '../db/seed/seed-catalog.ts';
import { generateBatch, type SeedResult, seedCompanies } from '../db/seed/seed-companies.ts';

const { values: args } = parseArgs({
  options: {
    companies: { type: 'string' },
    'raw-batches': { type: 'string' },
    keep: { type: 'boolean', default: false },
    'no-results': { type: 'boolean', default: false },
  },
});
const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const DATABASE = 'registra_load_bench';
const COMPANIES = Number(args.companies ?? 1_000_000);
const RAW_BATCHES = Number(args['raw-batches'] ?? 20);
const BATCH = 5000;
const SEED = 1;
/** The goals: the whole load within 8 minutes, the load phase at ≥ half raw COPY's rows/s. */
const TOTAL_LIMIT_SECONDS = 480;
const RATIO_GOAL = 0.5;
for (const [name, n] of Object.entries({ COMPANIES, RAW_BATCHES })) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
}

const log = (message: string): void => console.log(`[load] ${message}`);
const since = (t: number): number => (performance.now() - t) / 1000;
const int = (n: number): string => Math.round(n).toLocaleString('en');
const urlOf = (database: string): string => {
  const url = new URL(SERVER);
  url.pathname = `/${database}`;
  return url.toString();
};

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlOf('postgres') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

log(`creating database ${DATABASE}`);
await admin(`drop database if exists ${DATABASE} with (force)`);
await admin(`create database ${DATABASE}`);
const db = await openPostgres(urlOf(DATABASE));
const pool = db.pool!;
try {
  const setupFrom = performance.now();
  await migrate(db);
  await loadReferenceData(db);
  const setupSeconds = since(setupFrom);
  log(`migrated and loaded reference data in ${setupSeconds.toFixed(1)} s; seeding ${int(COMPANIES)} companies…`);

  let lastReport = performance.now();
  const seeded: SeedResult = await seedCompanies(db, {
    companies: COMPANIES,
    seed: SEED,
    batchSize: BATCH,
    onProgress: (done, total) => {
      if (performance.now() - lastReport < 15_000 && done < total) return;
      lastReport = performance.now();
      log(`  ${int(done)} / ${int(total)} companies`);
    },
  });
  const s = seeded.seconds;
  const loadRate = seeded.rows / s.load;
  log(
    `loaded ${int(seeded.rows)} rows in ${s.load.toFixed(1)} s (${int(loadRate)} rows/s); indexes ${s.indexes.toFixed(1)} s, lexicon ${s.lexicon.toFixed(1)} s, vacuum ${s.vacuum.toFixed(1)} s, export documents ${s.documents.toFixed(1)} s; total ${s.total.toFixed(1)} s`,
  );
  const size = await pool.query<{ size: string }>(
    'select pg_size_pretty(pg_database_size(current_database())) as size',
  );

  // Raw COPY of the same CSV into unindexed copies of the tables.
  log(`raw COPY of ${RAW_BATCHES} batches of ${int(BATCH)} companies…`);
  const catalog = await loadSeedCatalog(db);
  const people = createPersonPool(catalog.personCountries);
  const batches: CsvBatch[] = [];
  for (let k = 0; k < RAW_BATCHES; k++)
    batches.push(generateBatch(catalog, people, SEED, k * BATCH + 1, (k + 1) * BATCH));
  for (const table of COPY_TABLE_NAMES)
    await pool.query(`create table raw_${table} (like ${table} including generated)`);
  const client = await pool.connect();
  let rawRows = 0;
  const rawFrom = performance.now();
  try {
    for (const batch of batches) {
      await client.query('begin');
      for (const table of COPY_TABLE_NAMES) {
        if (batch.rows[table] > 0)
          await copyText(client, copySql(table, 'stdin', `raw_${table}`), batchChunks(batch, table));
      }
      await client.query('commit');
      rawRows += batchRowCount(batch);
    }
  } finally {
    client.release();
  }
  const rawSeconds = since(rawFrom);
  const rawRate = rawRows / rawSeconds;
  for (const table of COPY_TABLE_NAMES) await pool.query(`drop table raw_${table}`);
  const ratio = loadRate / rawRate;
  log(
    `raw COPY: ${int(rawRows)} rows in ${rawSeconds.toFixed(1)} s (${int(rawRate)} rows/s); load/raw ${ratio.toFixed(2)}`,
  );

  // Report
  const sections = new Set(RECORD_SECTIONS.map((x) => x.table));
  const sectionRows = COPY_TABLE_NAMES.filter((t) => sections.has(t)).reduce((n, t) => n + seeded.rowsByTable[t], 0);
  const pg15 = (await pool.query<{ v: string }>('select version() as v')).rows[0].v.split(' on ')[0];
  const settings = await pool.query<{ name: string; setting: string }>(
    `select name, current_setting(name) as setting from pg_settings
      where name in ('shared_buffers', 'max_wal_size', 'maintenance_work_mem', 'synchronous_commit') order by name`,
  );
  const cpu = os.cpus();
  const machine = `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; ${pg15} (${settings.rows.map((r) => `${r.name} ${r.setting}`).join(', ')}); Node ${process.version}`;
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    if (execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim()) commit += ' + uncommitted changes';
  } catch {}
  const mark = (pass: boolean): string => (pass ? 'PASS' : 'FAIL');
  const rows: [string, string, string, string][] = [
    ['companies', int(seeded.companies), '', ''],
    ['rows loaded (all tables)', int(seeded.rows), '', ''],
    [
      `related records (${sections.size} section tables)`,
      `${int(sectionRows)} (${(sectionRows / seeded.companies).toFixed(1)} per company)`,
      '≥ 11 per company',
      mark(sectionRows >= 11 * seeded.companies),
    ],
    [
      'generate + COPY (indexes and child-table keys dropped)',
      `${s.load.toFixed(1)} s, ${int(loadRate)} rows/s`,
      '',
      '',
    ],
    ['index rebuild (two sessions)', `${s.indexes.toFixed(1)} s`, '', ''],
    ['name lexicon', `${s.lexicon.toFixed(1)} s`, '', ''],
    ['vacuum analyze (two sessions)', `${s.vacuum.toFixed(1)} s`, '', ''],
    ['export documents (two sessions, then vacuum analyze)', `${s.documents.toFixed(1)} s`, '', ''],
    ['total seed time', `${s.total.toFixed(1)} s`, `≤ ${TOTAL_LIMIT_SECONDS} s`, mark(s.total <= TOTAL_LIMIT_SECONDS)],
    [
      'raw COPY into unindexed copies',
      `${int(rawRate)} rows/s (${int(rawRows)} rows, ${rawSeconds.toFixed(1)} s)`,
      '',
      '',
    ],
    ['load phase rows/s ÷ raw COPY rows/s', ratio.toFixed(2), `≥ ${RATIO_GOAL}`, mark(ratio >= RATIO_GOAL)],
    ['database size', size.rows[0].size, '', ''],
  ];
  console.log('');
  for (const [metric, value, target, result] of rows)
    console.log(`${metric.padEnd(56)} ${value.padEnd(44)} ${target.padEnd(18)} ${result}`);
  const perTable = COPY_TABLE_NAMES.map((t) => `${t} ${int(seeded.rowsByTable[t])}`).join(', ');
  console.log(`\nrows per table: ${perTable}`);

  if (!args['no-results']) {
    const date = execFileSync('date', ['-u'], { encoding: 'utf8' }).trim();
    const markdown = [
      `\n## Load: ${date}\n`,
      `- Machine: ${machine}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')} at the end (1/5/15 min)`,
      `- Data: ${int(seeded.companies)} companies, seed ${SEED}, batches of ${int(BATCH)} (\`${DATABASE}\`, created for the run), commit ${commit}`,
      '- Method: `node bench/load.ts` — `seedCompanies` on an empty, migrated database with the reference data ' +
        '(secondary indexes and the keys of child tables dropped during the load and rebuilt two at a time); ' +
        `then the CSV of the first ${RAW_BATCHES} batches COPYed again into ` +
        '`create table raw_x (like x including generated)` copies (no indexes, keys or foreign keys), ' +
        'one transaction per batch on one connection.',
      '',
      '| metric | value | target | result |',
      '|---|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
      `Rows per table: ${perTable}.`,
      '',
    ].join('\n');
    await appendFile(new URL('RESULTS.md', import.meta.url), markdown);
    log('appended to bench/RESULTS.md');
  }
} finally {
  await db.close();
  if (!args.keep) {
    await admin(`drop database if exists ${DATABASE} with (force)`);
    log(`dropped ${DATABASE}`);
  }
}
