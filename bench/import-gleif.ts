// Benchmark of the GLEIF LEI-CDF import (docs/decisions/0014-importers.md): writes a file of N
// LEI records (the real fixture's first record with N distinct LEIs, names and register numbers:
// CONSTRUCTED, for volume only), imports it into a fresh PostgreSQL database, imports it again
// (nothing changes), then a delta touching 1% of the records, and prints rows/s, peak RSS and the
// change rows written.
//
//   npx node --expose-gc bench/import-gleif.ts [--records N]      (default 100,000)
//   DATABASE_URL  default postgres://postgres@127.0.0.1:5432/registra_bench_import (dropped and created)
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runImport } from '../core/imports/run-import.ts';
import { gleifLei } from '../core/imports/sources/gleif-lei.ts';
import { openPostgres } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadReferenceData } from '../db/reference/load-reference-data.ts';

const { values: args } = parseArgs({ options: { records: { type: 'string' } } });
const RECORDS = Number(args.records ?? 100_000);
const URL_ = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/registra_bench_import';
const FIXTURE = new URL('../../shared/fixtures/gleif/lei-cdf-2.1.top10.xml', import.meta.url);

const lei = (i: number) => `BENCH${String(i).padStart(13, '0')}00`;

async function writeFile(path: string, changedEvery: number | null): Promise<void> {
  const text = await readFile(FIXTURE, 'utf8');
  const template = text.slice(
    text.indexOf('<lei:LEIRecord>'),
    text.indexOf('</lei:LEIRecord>') + '</lei:LEIRecord>'.length,
  );
  const out = createWriteStream(path);
  const write = (s: string) =>
    out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r()));
  await write(`${text.slice(0, text.indexOf('<lei:LEIRecords>'))}<lei:LEIRecords>\n`);
  for (let i = 0; i < RECORDS; i += 1) {
    const renamed = changedEvery !== null && i % changedEvery === 0;
    await write(
      template
        .replaceAll('029200013A5N6ZD0F605', lei(i))
        .replace(
          'AFRINVEST SECURITIES LIMITED</lei:LegalName>',
          `BENCH ${renamed ? 'RENAMED ' : ''}SECURITIES ${i} LIMITED</lei:LegalName>`,
        )
        .replace('RC603315', `RC${i}`),
    );
  }
  await write('</lei:LEIRecords>\n</lei:LEIData>\n');
  await new Promise((resolve) => out.end(resolve));
}

const admin = new URL(URL_);
const name = admin.pathname.slice(1);
admin.pathname = '/postgres';
const client = new pg.Client({ connectionString: admin.toString() });
await client.connect();
await client.query(`drop database if exists "${name}" with (force)`);
await client.query(`create database "${name}"`);
await client.end();

const dir = await mkdtemp(join(tmpdir(), 'registra-bench-import-'));
const file = join(dir, 'lei.xml');
const delta = join(dir, 'lei-delta.xml');
await writeFile(file, null);
await writeFile(delta, 100);
const db = await openPostgres(URL_);
try {
  await migrate(db);
  await loadReferenceData(db);
  const rssBefore = process.resourceUsage().maxRSS;
  // Heap in use sampled after every batch: flat when nothing accumulates per record.
  const heap: number[] = [];
  const first = await runImport(db, gleifLei, [file], {
    onProgress: () => {
      // With --expose-gc, what is live (not garbage V8 has not collected yet).
      (globalThis as { gc?: () => void }).gc?.();
      heap.push(process.memoryUsage().heapUsed);
    },
  });
  const rssFirst = process.resourceUsage().maxRSS;
  const again = await runImport(db, gleifLei, [file]);
  const update = await runImport(db, gleifLei, [delta]);
  const changeRows = await db.kysely
    .selectFrom('company_changes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('import_id', '=', update.importIds[0] as number)
    .executeTakeFirstOrThrow();
  const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
  const lines = [
    `| GLEIF LEI-CDF import, ${RECORDS.toLocaleString('en')} records, PostgreSQL | value |`,
    '|---|---|',
    `| first import | ${first.seconds.toFixed(1)} s, ${Math.round(first.read / first.seconds).toLocaleString('en')} records/s (${first.new.toLocaleString('en')} new; refreshing export documents and lexicon ${first.refreshSeconds.toFixed(1)} s of it) |`,
    `| peak RSS (process, before → after the first import) | ${mb(rssBefore)} → ${mb(rssFirst)} |`,
    `| heap in use after the first / middle / last batch | ${[heap[0], heap[Math.floor(heap.length / 2)], heap.at(-1)].map((b) => `${((b ?? 0) / 2 ** 20).toFixed(0)} MB`).join(' / ')} |`,
    `| same file again | ${again.seconds.toFixed(1)} s (${(again.seconds / first.seconds).toFixed(2)}× the first), ${again.changed} changed, ${again.unchanged.toLocaleString('en')} unchanged |`,
    `| delta renaming 1% | ${update.seconds.toFixed(1)} s, ${update.changed.toLocaleString('en')} changed, ${Number(changeRows.n).toLocaleString('en')} change rows |`,
  ];
  console.log(lines.join('\n'));
} finally {
  await db.close();
  await rm(dir, { recursive: true, force: true });
}
