// The bulk data build (ADR 0036): time and memory of a snapshot with its change files. Seeds an
// in-memory PGlite database with each size given (or reads DATABASE_URL's PostgreSQL database as
// it is, the merger's 1M run), builds a snapshot, changes nothing, builds the next one (its change
// files are the merge of both), and samples the process's RSS and JavaScript heap every 20 ms.
// Memory is flat when the heap's peak does not grow with the rows (PGlite's own memory, the
// database, is in the RSS and does).
//
//   node bench/bulk-build.ts --companies 5000,50000 [--results]
//   DATABASE_URL=postgres://…/registra_bench node bench/bulk-build.ts --results

import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBulkSnapshot } from '../core/bulk/build-bulk-snapshot.ts';
import { loadReference } from '../core/reference/reference-data.ts';
import { type Db, openPglite, openPostgres } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadReferenceData } from '../db/reference/load-reference-data.ts';
import { seedCompanies } from '../db/seed/seed-companies.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const url = process.env.DATABASE_URL;
const sizes = url ? [0] : (arg('companies') ?? '5000,50000').split(',').map(Number);
const lines: string[] = [];

for (const size of sizes) {
  let db: Db;
  if (url) db = await openPostgres(url, 2);
  else {
    db = await openPglite();
    await migrate(db);
    await loadReferenceData(db);
    await seedCompanies(db, { companies: size, seed: 1 });
  }
  const reference = await loadReference(db);
  const dir = await mkdtemp(join(tmpdir(), 'registra-bulk-bench-'));
  for (const label of ['snapshot', 'snapshot + changes']) {
    global.gc?.();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);
    const started = performance.now();
    const manifest = await buildBulkSnapshot(db, reference, { dir });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const companies = manifest.files.find((f) => f.name === 'companies.jsonl.gz')?.rows ?? 0;
    const rows = manifest.files
      .filter((f) => f.kind === 'snapshot' && f.format === 'jsonl')
      .reduce((n, f) => n + f.rows, 0);
    const mb = (n: number) => (n / 1e6).toFixed(0);
    const bytes = manifest.files.reduce((n, f) => n + f.bytes, 0);
    const line = `| ${companies.toLocaleString('en')} | ${rows.toLocaleString('en')} | ${label} | ${seconds.toFixed(1)} s | ${mb(bytes)} MB | ${mb(peakHeap)} MB (${mb(peakHeap - base.heapUsed)} over start) | ${mb(peakRss)} MB (${mb(peakRss - base.rss)} over start) |`;
    console.log(line);
    lines.push(line);
  }
  await rm(dir, { recursive: true, force: true });
  await db.close();
}

if (process.argv.includes('--results')) {
  const header = `\n## ${new Date().toUTCString()} — bulk data build (ADR 0036), ${url ? 'PostgreSQL' : 'PGlite in memory'}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}\n\n\`node --expose-gc bench/bulk-build.ts ${process.argv.slice(2).join(' ')}\`: a snapshot, then the next one with its change files (nothing changed between). Heap and RSS peaks sampled every 20 ms.\n\n| companies | rows (all sections) | build | time | files | peak JS heap | peak RSS |\n|---|---|---|---|---|---|---|\n`;
  await appendFile(new URL('RESULTS.md', import.meta.url), `${header}${lines.join('\n')}\n`);
}
