// Enrichment at scale (docs/decisions/0020-api-keys-matching-reconciliation.md "Enrichment"): on the
// PostgreSQL database of DATABASE_URL (with companies in it: `npm run cli -- db seed`, or the
// bench database of bench/run.ts), builds a file of ROWS companies described as a user's file would
// (names upper-cased, without their last word — mostly the legal form —, without accents, with
// two words swapped, or exact; every country; a registration number on half the rows, with spaces
// on a quarter; a VAT number or website on some), uploads it for a bench user (read and kept as a draft), runs it as the job the page
// runs (charge and job in one transaction, then the worker's handler), and writes the enriched
// CSV. Prints each step's time, the outcomes, and the automatic matches' precision.
//
//   DATABASE_URL=postgres://… npx node bench/enrich.ts [--rows 10000] [--seed 17] [--parallel N] [--json]
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { grantCredits } from '../core/billing/ledger.ts';
import { prepareEnrichedFile } from '../core/enrichment/enriched-file.ts';
import { createEnrichment, outcomeCounts, startEnrichment } from '../core/enrichment/enrichments.ts';
import { guessColumns, readUpload } from '../core/enrichment/read-upload.ts';
import { runEnrichment } from '../core/enrichment/run-enrichment.ts';
import { DEFAULT_COMPANY_SECTIONS } from '../core/export/export-options.ts';
import type { MatchQuery } from '../core/matching/match-companies.ts';
import { loadReference } from '../core/reference/reference-data.ts';
import type { Db } from '../db/client.ts';
import { openDatabase } from '../db/open-database.ts';
import { enrichmentJob } from '../jobs/enrichment.job.ts';
import { type JobDefinition, type JobServices, runOneJob } from '../jobs/worker.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '17' },
    json: { type: 'boolean', default: false },
    // Batches matched side by side (default: the job's, PARALLEL_BATCHES), for comparing settings.
    parallel: { type: 'string' },
  },
});
const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to a PostgreSQL database with companies.');
const ROWS = Number(values.rows);
const db = await openDatabase({ databaseUrl: url, dataDir: '' });
/**
 * ROWS companies drawn at random (seeded), described as a user's file would. Not the hold-out of
 * core/matching/holdout.ts (whose check for companies sharing every word with another reads the
 * whole lexicon's companies: minutes at this size); bench/match.ts measures accuracy on that.
 */
async function describedCompanies(count: number, seed: number) {
  const found = await sql<{
    id: number;
    name: string;
    country: string;
    number: string | null;
    vat: string | null;
    website: string | null;
  }>`
    select b.id, b.name, l.country_code as country,
      (select i.identifier from legal_entity_identifiers i where i.legal_entity_id = b.id and i.identifier_type_id = 2 order by position limit 1) as number,
      (select i.identifier from legal_entity_identifiers i where i.legal_entity_id = b.id and i.identifier_type_id = 4 order by position limit 1) as vat,
      (select c.contact from legal_entity_contacts c where c.legal_entity_id = b.id and c.contact_type_id = 3 order by position limit 1) as website
    from legal_entities b join locations l on l.id = b.jurisdiction_id
    order by md5(b.id::text || ${String(seed)}) limit ${count}`.execute((db as Db).kysely);
  return found.rows.map((c, i) => {
    const words = c.name.split(' ');
    const name = [
      () => c.name.toUpperCase(),
      () => (words.length > 2 ? words.slice(0, -1).join(' ') : c.name),
      () => c.name.normalize('NFKD').replace(/\p{M}+/gu, ''),
      () => (words.length > 2 ? [words[1], words[0], ...words.slice(2)].join(' ') : c.name),
      () => c.name,
    ][i % 5]();
    const query: MatchQuery = { name, country: c.country };
    if (i % 2 === 0 && c.number)
      query.registration_number = i % 4 === 0 ? c.number.replace(/(.{3})/g, '$1 ') : c.number;
    if (i % 6 === 1 && c.vat) query.vat = c.vat;
    if (i % 7 === 3 && c.website) query.domain = c.website;
    return { truth: Number(c.id), query };
  });
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const quote = (v: string | undefined) => `"${(v ?? '').replaceAll('"', '""')}"`;
try {
  const reference = await loadReference(db);
  const companies = Number(
    (await sql<{ n: number }>`select count(*)::int as n from legal_entities`.execute(db.kysely)).rows[0].n,
  );
  let started = performance.now();
  const rows = await describedCompanies(ROWS, Number(values.seed));
  const file = [
    'Company,Country,Company number,VAT,Website',
    ...rows.map((c) =>
      [c.query.name, c.query.country, c.query.registration_number, c.query.vat, c.query.domain].map(quote).join(','),
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
  if (values.parallel) {
    // The run itself with another setting; the job then finds it done.
    await runEnrichment(db, reference, id, undefined, { parallel: Number(values.parallel) });
  }
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
