// The export job's memory (docs/decisions/0031-export-jobs.md): rows through the real CSV writer
// into the database's chunk sink, as the worker writes an export's file, with the process's peak
// RSS and heap sampled every 50 ms. 1,000,000 rows on the bench database when it is there
// (DATABASE_URL, default registra_bench; migrated, and the rows deleted after), else 100,000 rows
// on a PGlite in a temporary directory. The goal: RSS and heap flat — their growth independent of the rows.
// `node --expose-gc bench/export-job-memory.ts [rows]`
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportFileSink } from '../core/export/export-files.ts';
import { type Cell, createWriter, type ExportColumn } from '../core/export/writers.ts';
import { type Db, openPglite, openPostgres } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/registra_bench';

async function open(): Promise<{ db: Db; where: string }> {
  try {
    const db = await openPostgres(url, 2);
    await migrate(db);
    return { db, where: url.replace(/\/\/[^@]*@/, '//') };
  } catch {
    // On disk: an in-memory PGlite would count the stored file (and its WAL) in this process's RSS.
    const db = await openPglite({ dataDir: await mkdtemp(join(tmpdir(), 'registra-bench-export-job-')) });
    await migrate(db);
    return { db, where: 'PGlite on disk (no bench database)' };
  }
}

const columns: ExportColumn[] = [
  { key: 'id', label: 'ID', type: 'number' },
  { key: 'name', label: 'Name', type: 'text' },
  { key: 'address', label: 'Address', type: 'text' },
  { key: 'registered', label: 'Registered', type: 'date' },
];
const rowOf = (i: number): Cell[] => [i, `Company number ${i} Ltd`, `${i} Long Street, Some Town`, '2020-01-31'];

const { db, where } = await open();
const rows = Number(process.argv[2] ?? (where.startsWith('PGlite') ? 100_000 : 1_000_000));
const user = await db.kysely
  .insertInto('users')
  .values({ email: `bench-export-${Date.now()}@example.com`, name: 'Bench', password_hash: 'x' })
  .returning('id')
  .executeTakeFirstOrThrow();
const job = await db.kysely
  .insertInto('export_jobs')
  .values({
    user_id: Number(user.id),
    section: 'companies',
    params: '',
    file_name: 'bench.csv',
    content_type: 'text/csv',
    rows_total: rows,
    expires_at: new Date(Date.now() + 3_600_000),
  })
  .returning('id')
  .executeTakeFirstOrThrow();

globalThis.gc?.();
const base = process.memoryUsage();
let peakRss = base.rss;
let peakHeap = base.heapUsed;
/** Sampled every 1,000 rows (the writes' awaits leave no turn for a timer). */
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
};
const started = performance.now();
const { sink, stored } = exportFileSink(db, Number(job.id));
const writer = createWriter('csv', sink, columns, {
  separator: 'comma',
  entity: { plural: 'legal_entities', singular: 'legal_entity' },
  title: 'Bench',
});
const rssAt: number[] = [];
/** Memory kept after a full collection (heap and buffers, PGlite's memory among them): what must stay flat. */
const keptAt: number[] = [];
for (let i = 0; i < rows; i += 100) {
  await writer.writeRows(Array.from({ length: Math.min(100, rows - i) }, (_, k) => rowOf(i + k)));
  if (i % 1_000 === 0) sample();
  if (i % Math.floor(rows / 4) === 0) {
    rssAt.push(process.memoryUsage().rss);
    globalThis.gc?.();
    const m = process.memoryUsage();
    keptAt.push(m.heapUsed + m.arrayBuffers);
  }
}
await writer.finish();
const file = await stored;
sample();
const seconds = (performance.now() - started) / 1000;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
console.log(`export job memory, ${rows.toLocaleString('en')} rows on ${where}`);
console.log(`  file ${mb(file.size)} in ${file.chunks} chunks, ${seconds.toFixed(1)} s`);
console.log(`  RSS at each quarter: ${rssAt.map(mb).join(', ')}`);
console.log(`  kept after a collection at each quarter: ${keptAt.map(mb).join(', ')}`);
console.log(`  peak RSS +${mb(peakRss - base.rss)} (of ${mb(peakRss)}), peak heap +${mb(peakHeap - base.heapUsed)}`);
await db.kysely.deleteFrom('export_jobs').where('id', '=', Number(job.id)).execute();
await db.kysely.deleteFrom('users').where('id', '=', Number(user.id)).execute();
await db.close();
