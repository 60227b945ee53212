// Enrichment at scale (docs/decisions/0020-api-keys-matching-reconciliation.md "Enrichment"): on the
// PostgreSQL database of DATABASE_URL (with companies in it: `npm run cli -- db seed`, or the
// bench database of bench/run.ts), builds a file of ROWS companies described as a user's file would
// (core/matching/holdout.ts: perturbed names, numbers with and without spaces, some with a number
// alone), uploads it for a bench user (read and kept as a draft), runs it as the job the page
// runs (charge and job in one transaction, then the worker's handler), and writes the enriched
// CSV. Prints each step's time, the outcomes, and the automatic matches' precision.
//
//   DATABASE_URL=postgres://… npx node bench/enrich.ts [--rows 10000] [--seed 17] [--json]
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { grantCredits } from '../core/billing/ledger.ts';
import { prepareEnrichedFile } from '../core/enrichment/enriched-file.ts';
import { createEnrichment, outcomeCounts, startEnrichment } from '../core/enrichment/enrichments.ts';
import { guessColumns, readUpload } from '../core/enrichment/read-upload.ts';
import { DEFAULT_COMPANY_SECTIONS } from '../core/export/export-options.ts';
import { buildHoldout } from '../core/matching/holdout.ts';
import { loadReference } from '../core/reference/reference-data.ts';
import { openDatabase } from '../db/open-database.ts';
import { enrichmentJob } from '../jobs/enrichment.job.ts';
import { type JobDefinition, type JobServices, runOneJob } from '../jobs/worker.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '17' },
    json: { type: 'boolean', default: false },
  },
});
const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to a PostgreSQL database with companies.');
const ROWS = Number(values.rows);
const db = await openDatabase({ databaseUrl: url, dataDir: '' });
const seconds = (since: number) => (performance.now() - since) / 1000;
const quote = (v: string | undefined) => `"${(v ?? '').replaceAll('"', '""')}"`;
try {
  const reference = await loadReference(db);
  const companies = Number(
    (await sql<{ n: number }>`select count(*)::int as n from legal_entities`.execute(db.kysely)).rows[0].n,
  );
  let started = performance.now();
  // More drawn than needed: the companies another shares every word and the country with are left out.
  const { cases } = await buildHoldout(db, { size: Math.ceil(ROWS * 1.45), seed: Number(values.seed) });
  const rows = cases.slice(0, ROWS);
  const file = [
    'Company,Country,Company number,LEI,VAT,Website,Address',
    ...rows.map((c) =>
      [
        c.query.name,
        c.query.country,
        c.query.registration_number,
        c.query.lei,
        c.query.vat,
        c.query.domain,
        c.query.address,
      ]
        .map(quote)
        .join(','),
    ),
  ].join('\n');
  const built = seconds(started);

  const user = await db.kysely
    .insertInto('users')
    .values({
      email: `bench-enrich-${Date.now()}@example.com`,
      name: 'Bench enrichment',
      password_hash: 'not-a-password-hash',
      activated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const userId = Number(user.id);
  await grantCredits(db, userId, ROWS);

  started = performance.now();
  const upload = await readUpload('bench.csv', new TextEncoder().encode(file));
  const mapping = guessColumns(upload.columns);
  const id = await createEnrichment(db, userId, upload, mapping);
  const uploaded = seconds(started);

  started = performance.now();
  await startEnrichment(db, userId, id, mapping);
  const services = { db, reference } as JobServices;
  const log = { info: () => {}, error: (o: Record<string, unknown>, m: string) => console.error(m, o) };
  while (await runOneJob({ services, log, definitions: [enrichmentJob as JobDefinition<never>] }, 'bench-enrich')) {
    // Runs the queued enrichment jobs (this one, and any left by an earlier run).
  }
  const ran = seconds(started);

  started = performance.now();
  const prepared = await prepareEnrichedFile(db, reference, {
    userId,
    id,
    format: 'csv',
    sections: DEFAULT_COMPANY_SECTIONS,
    lang: 'en',
    siteUrl: 'http://localhost',
  });
  let bytes = 0;
  await prepared.write(
    new Writable({
      write(chunk, _encoding, done) {
        bytes += chunk.length;
        done();
      },
    }),
  );
  const downloaded = seconds(started);

  const counts = await outcomeCounts(db, id);
  const matched = await db.kysely
    .selectFrom('enrichment_rows')
    .select(['row_number', 'company_id'])
    .where('enrichment_id', '=', id)
    .where('outcome', '=', 'matched')
    .execute();
  const correct = matched.filter((r) => Number(r.company_id) === rows[r.row_number - 1].truth).length;
  const result = {
    companies,
    rows: rows.length,
    buildSeconds: built,
    uploadSeconds: uploaded,
    runSeconds: ran,
    downloadSeconds: downloaded,
    downloadMb: bytes / 1024 / 1024,
    counts,
    autoPrecision: matched.length > 0 ? correct / matched.length : 1,
    autoShare: matched.length / rows.length,
  };
  if (values.json) console.log(JSON.stringify(result));
  else {
    console.log(`companies: ${companies.toLocaleString('en')}; file of ${rows.length.toLocaleString('en')} rows`);
    console.log(`upload (read ${(file.length / 1024 / 1024).toFixed(1)} MB CSV, keep rows): ${uploaded.toFixed(1)} s`);
    console.log(`run (charge + job: match every row, write outcomes): ${ran.toFixed(1)} s (target ≤ 60 s)`);
    console.log(
      `download (enriched CSV, default sections, ${result.downloadMb.toFixed(1)} MB): ${downloaded.toFixed(1)} s`,
    );
    console.log(
      `outcomes: ${JSON.stringify(counts)}; automatic ${(result.autoShare * 100).toFixed(1)}%, precision ${(result.autoPrecision * 100).toFixed(2)}% (${correct}/${matched.length})`,
    );
  }
} finally {
  await db.close();
}
