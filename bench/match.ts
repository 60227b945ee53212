// The matching engine at scale (docs/decisions/0020-api-keys-matching-reconciliation.md): on the
// PostgreSQL database of DATABASE_URL (with companies in it: `npm run cli -- db seed`), builds the
// hold-out of core/matching/holdout.ts (companies drawn at random, described with perturbed names
// and numbers), matches it in batches of 100 (one POST /api/match each) and prints top-1 accuracy,
// precision of the automatic matches, and the time per batch (p50, p95).
//
//   DATABASE_URL=postgres://… npx node bench/match.ts [--size 2000] [--seed 17]
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildHoldout, scoreHoldout } from '../core/matching/holdout.ts';
import { matchCompanies } from '../core/matching/match-companies.ts';
import { loadReference } from '../core/reference/reference-data.ts';
import { openDatabase } from '../db/open-database.ts';

const { values } = parseArgs({
  options: { size: { type: 'string', default: '2000' }, seed: { type: 'string', default: '17' } },
});
const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to a PostgreSQL database with companies.');
const db = await openDatabase({ databaseUrl: url, dataDir: '' });
try {
  const reference = await loadReference(db);
  const companies = Number(
    (await sql<{ n: number }>`select count(*)::int as n from legal_entities`.execute(db.kysely)).rows[0].n,
  );
  const { cases, ambiguous } = await buildHoldout(db, { size: Number(values.size), seed: Number(values.seed) });
  // Warm-up: one batch, not counted.
  await matchCompanies(
    db,
    reference,
    cases.slice(0, 100).map((c) => c.query),
  );
  const times: number[] = [];
  for (let at = 0; at < cases.length; at += 100) {
    const started = performance.now();
    await matchCompanies(
      db,
      reference,
      cases.slice(at, at + 100).map((c) => c.query),
    );
    times.push(performance.now() - started);
  }
  const score = await scoreHoldout(db, reference, cases);
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  console.log(
    `companies: ${companies.toLocaleString('en')}; hold-out ${score.cases} (${ambiguous} ambiguous left out)`,
  );
  console.log(`top-1 accuracy: ${(score.accuracy * 100).toFixed(2)}% (${score.top1}/${score.cases})`);
  console.log(
    `automatic matches: ${score.autoMatches} (${(score.recall * 100).toFixed(1)}%), precision ${(score.precision * 100).toFixed(2)}% (${score.autoCorrect}/${score.autoMatches})`,
  );
  console.log(`100 queries: p50 ${pct(0.5).toFixed(0)} ms, p95 ${pct(0.95).toFixed(0)} ms (${times.length} batches)`);
  for (const [kind, s] of Object.entries(score.byPerturbation).sort()) {
    console.log(`  ${kind}: ${s.top1}/${s.cases}`);
  }
  for (const miss of score.misses.slice(0, 15)) console.log(`  miss: ${JSON.stringify(miss)}`);
} finally {
  await db.close();
}
