// Benchmark of the Companies House BasicCompanyData import (docs/decisions/0016-national-registers.md):
// writes a file of N demo companies in the real layout (db/seed/companies-house-file.ts), times a raw
// COPY of it into a table of 55 text columns, imports it into a fresh PostgreSQL database, imports it
// again (nothing changes), then an update file in which 1% of the companies differ (two fields each),
// and prints rows/s against the COPY's, peak RSS and the change rows written.
//
//   npx node bench/import-companies-house.ts [--rows N]      (default 1,000,000)
//   DATABASE_URL  default postgres://postgres@127.0.0.1:5432/registra_bench_ch (dropped and created)
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { runImport } from '../core/imports/run-import.ts';
import { chCompaniesSource } from '../core/imports/sources/companies-house/ch-companies-source.ts';
import { openPostgres } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadReferenceData } from '../db/reference/load-reference-data.ts';
import { BASIC_COMPANY_DATA_HEADER, writeCompaniesHouseFile } from '../db/seed/companies-house-file.ts';

const { values: args } = parseArgs({ options: { rows: { type: 'string' } } });
const ROWS = Number(args.rows ?? 1_000_000);
const URL_ = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/registra_bench_ch';
const CHANGED_EVERY = 100;

const admin = new URL(URL_);
const name = admin.pathname.slice(1);
admin.pathname = '/postgres';
const client = new pg.Client({ connectionString: admin.toString() });
await client.connect();
await client.query(`drop database if exists "${name}" with (force)`);
await client.query(`create database "${name}"`);
await client.end();

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

const db = await openPostgres(URL_);
try {
  await migrate(db);
  await loadReferenceData(db);
  const copySeconds = await rawCopySeconds();
  const rssBefore = process.resourceUsage().maxRSS;
  const first = await runImport(db, chCompaniesSource, [file]);
  const rssFirst = process.resourceUsage().maxRSS;
  const again = await runImport(db, chCompaniesSource, [file]);
  const changed = await runImport(db, chCompaniesSource, [update]);
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
    `| raw COPY of the same file | ${copySeconds.toFixed(1)} s, ${perSecond(ROWS, copySeconds)} rows/s |`,
    `| first import | ${first.seconds.toFixed(1)} s, ${perSecond(first.read, first.seconds)} rows/s = ${(copySeconds / first.seconds).toFixed(2)}× COPY (${first.new.toLocaleString('en')} new, ${first.rejected} rejected; refreshing export documents and lexicon ${first.refreshSeconds.toFixed(1)} s of it) |`,
    `| peak RSS (process, before → after the first import) | ${mb(rssBefore)} → ${mb(rssFirst)} |`,
    `| same file again | ${again.seconds.toFixed(1)} s (${(again.seconds / first.seconds).toFixed(2)}× the first), ${again.changed} changed, ${again.unchanged.toLocaleString('en')} unchanged |`,
    `| update file changing 1% (${expected.toLocaleString('en')} companies × 2 fields) | ${changed.seconds.toFixed(1)} s, ${changed.changed.toLocaleString('en')} changed, ${Number(changeRows.n).toLocaleString('en')} change rows (expected ${(expected * 2).toLocaleString('en')}) |`,
  ];
  console.log(lines.join('\n'));
} finally {
  await db.close();
  await rm(dir, { recursive: true, force: true });
}
