// What one hostile enrichment upload costs the server (ADR 0020 "Enrichment", "Limits while reading"): each bomb
// of tests/support/upload-bombs.ts posted to /companies/enrichment/ on the app listening in this
// process (pages built: `npx react-router build` first), while /api/health is asked back to back.
// Prints, per bomb: the status, the time to the answer, the longest /api/health wait (wall clock,
// and the CPU the server's thread spent meanwhile), RSS growth at its peak and once settled.
//
//   node bench/hostile-uploads.ts [--only rows,chunked] [--timeout 180]
//
// An in-memory PGlite database (schema and reference data, no companies): the uploads are refused
// before any query but the session's.

import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { scaledApiLimits } from '../core/api-keys/api-limits.ts';
import { loadReference } from '../core/reference/reference-data.ts';
import { openPglite } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadReferenceData } from '../db/reference/load-reference-data.ts';
import { buildApp } from '../server/app.ts';
import { measureWhile, postChunked } from '../tests/support/server-probe.ts';
import {
  hugeSharedStringBomb,
  inflationBomb,
  longCellWorkbook,
  rowsBomb,
  rowsWithoutReferencesBomb,
  sharedStringsBomb,
  wideCsv,
  zipEntriesBomb,
} from '../tests/support/upload-bombs.ts';
import { createSignedInUser } from '../tests/support/users.ts';

const { values } = parseArgs({ options: { only: { type: 'string' }, timeout: { type: 'string', default: '180' } } });
const only = values.only?.split(',');
const timeoutMs = Number(values.timeout) * 1000;
const MB = 1024 * 1024;

const db = await openPglite();
await migrate(db);
await loadReferenceData(db);
const reference = await loadReference(db);
const app = await buildApp({
  db,
  reference,
  siteUrl: 'http://localhost:3000',
  pages: 'build',
  logLevel: 'silent',
  apiLimits: scaledApiLimits(10_000),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const user = await createSignedInUser(db, 'bench-hostile');

async function formBody(name: string, content: string | Uint8Array) {
  const form = new FormData();
  form.append('_csrf', user.csrf);
  form.append('file', new Blob([content as BlobPart]), name);
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get('content-type') ?? '' };
}

type Bomb = { name: string; describe: string; send: () => Promise<() => Promise<{ status: number; text: string }>> };

const posted = (file: string, make: () => Promise<string | Uint8Array> | string) => async () => {
  const { body, type } = await formBody(file, await make());
  return async () => {
    const res = await fetch(`${base}/companies/enrichment/`, {
      method: 'POST',
      body,
      headers: { 'content-type': type, cookie: user.cookie, origin: base },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, text: await res.text() };
  };
};

const bombs: Bomb[] = [
  { name: 'rows', describe: '2,000,000 rows with r=', send: posted('rows.xlsx', () => rowsBomb(2_000_000)) },
  {
    name: 'rows-no-r',
    describe: '2,000,000 rows without r=',
    send: posted('rows.xlsx', () => rowsWithoutReferencesBomb(2_000_000)),
  },
  {
    name: 'shared-string',
    describe: 'one 300 MB shared string',
    send: posted('huge.xlsx', () => hugeSharedStringBomb(300 * MB)),
  },
  {
    name: 'shared-string-60',
    describe: 'one 60 MB shared string',
    send: posted('huge.xlsx', () => hugeSharedStringBomb(60 * MB)),
  },
  {
    name: 'shared-strings',
    describe: '1,000,001 shared strings',
    send: posted('strings.xlsx', () => sharedStringsBomb(1_000_001)),
  },
  { name: 'entries', describe: '1,001 zip entries', send: posted('entries.xlsx', () => zipEntriesBomb(1_001)) },
  {
    name: 'inflated',
    describe: 'a part of 150 MB of spaces',
    send: posted('inflated.xlsx', () => inflationBomb(150, 1)),
  },
  {
    name: 'inflated-3',
    describe: 'three parts of 70 MB of spaces',
    send: posted('inflated.xlsx', () => inflationBomb(70, 3)),
  },
  {
    name: 'long-cell',
    describe: 'a cell of 32,768 characters',
    send: posted('long.xlsx', () => longCellWorkbook(32_768)),
  },
  { name: 'columns', describe: 'a CSV of 200,000 columns', send: posted('wide.csv', () => wideCsv(200_000)) },
  {
    name: 'chunked',
    describe: '300 MB sent without Content-Length',
    send: async () => {
      const { body } = await formBody('big.csv', 'Name\n');
      const boundary = /^--([^\r]+)/.exec(body.toString('latin1'))?.[1] as string;
      const head = body.subarray(0, body.indexOf('Name\n') + 5);
      return () =>
        postChunked(
          `${base}/companies/enrichment/`,
          { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: user.cookie, origin: base },
          head,
          300 * MB,
        );
    },
  },
];

const round = (n: number) => Math.round(n);
console.log(
  '| bomb | status | answer after (ms) | /api/health max (ms) | server CPU while it waited (ms) | RSS peak growth (MB) | RSS after (MB) | answer |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const bomb of bombs) {
  if (only && !only.includes(bomb.name)) continue;
  const send = await bomb.send();
  const m = await measureWhile(base, () =>
    send().catch((error: Error) => ({ status: 0, text: `no answer: ${error.message}` })),
  );
  const answer = m.text
    .replaceAll('<!-- -->', '')
    .match(/file ?: [^<]*|no answer[^<]*|Unexpected Server Error|Internal Server Error/)?.[0]
    ?.slice(0, 90);
  console.log(
    `| ${bomb.describe} | ${m.status} | ${round(m.tookMs)} | ${round(m.healthMaxMs)} | ${round(m.healthMaxCpuMs)} | ${round(m.peakGrowthMb)} | ${round(m.afterMb)} | ${answer ?? m.text.slice(0, 60).replaceAll('\n', ' ')} |`,
  );
}
await app.close();
await db.close();
process.exit(0);
