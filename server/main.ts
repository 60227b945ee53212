import { loadReference } from '../core/reference/reference-data.ts';
import { openDatabase } from '../db/open-database.ts';
import { loadReferenceData } from '../db/reference/load-reference-data.ts';
import { seedCompanies } from '../db/seed/seed-companies.ts';
import { buildApp } from './app.ts';
import { readEnv } from './env.ts';

const env = readEnv();
const dev = process.argv.includes('--dev');
const started = Date.now();
const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
await loadReferenceData(db);
const existing = await db.kysely
  .selectFrom('legal_entities')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
if (Number(existing.n) === 0 && env.SEED_COMPANIES > 0) {
  console.log(`First start: generating ${env.SEED_COMPANIES.toLocaleString('en')} demo companies…`);
  const seeded = await seedCompanies(db, { companies: env.SEED_COMPANIES, seed: env.SEED });
  console.log(`Seeded ${seeded.companies.toLocaleString('en')} companies (${seeded.rows.toLocaleString('en')} rows).`);
}
const reference = await loadReference(db);
const app = await buildApp({
  db,
  reference,
  siteUrl: env.SITE_URL,
  pages: dev ? 'dev' : 'build',
  logLevel: env.LOG_LEVEL,
});

const shutdown = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

await app.listen({ port: env.PORT, host: env.HOST });
console.log(
  `Registra is ready at http://localhost:${env.PORT} (${db.kind === 'pglite' ? `PGlite in ${env.DATA_DIR}` : 'PostgreSQL'}, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
);
