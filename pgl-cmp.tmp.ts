import { openAsBlob } from 'node:fs';
import { openPglite } from './db/client.ts';
const files = process.argv.slice(2);
const times: number[][] = files.map(() => []);
for (let i = 0; i < 8; i++)
  for (const [k, file] of files.entries()) {
    const t0 = performance.now();
    const db = await openPglite({ loadDataDir: await openAsBlob(file, { type: 'application/x-tar' }) });
    await db.kysely.selectFrom('legal_entities').select('id').limit(1).execute();
    times[k].push(performance.now() - t0);
    await db.close();
  }
for (const [k, file] of files.entries()) {
  const s = times[k].slice(1).sort((a, b) => a - b);
  console.log(file.split('/').at(-2), 'median', s[Math.floor(s.length / 2)].toFixed(0), 'ms', s.map((x) => x.toFixed(0)).join(' '));
}
