import { loadReference } from '../core/reference/reference-data.ts';
import { openPostgres } from '../db/client.ts';
import { buildApp } from '../server/app.ts';

const db = await openPostgres(process.env.DATABASE_URL!);
const reference = await loadReference(db);
const app = await buildApp({ db, reference, siteUrl: 'http://x', pages: 'build', logLevel: 'silent' });
const url = process.argv[2];
for (let i = 0; i < 30; i++) await app.inject({ url });
const t = performance.now();
const N = 300;
for (let i = 0; i < N; i++) {
  const r = await app.inject({ url });
  if (i === 0) console.log(r.statusCode, r.body.length);
}
console.log(((performance.now() - t) / N).toFixed(2), 'ms/req');
await app.close();
await db.close();
