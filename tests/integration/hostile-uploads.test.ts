import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Measured, measureWhile, postChunked, settledHeldBytes } from '../support/server-probe.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import {
  hugeSharedStringBomb,
  inflationBomb,
  longCellWorkbook,
  rowsBomb,
  rowsWithoutReferencesBomb,
  sharedStringsBomb,
  wideCsv,
  wideWorkbook,
  zipEntriesBomb,
} from '../support/upload-bombs.ts';
import { createSignedInUser, type TestUser } from '../support/users.ts';

// Hostile enrichment uploads (ADR 0020 "Enrichment", "Limits while reading"): each kind of bomb is refused
// with a 4xx naming its limit in the reader's language, and the big ones are read in a worker
// thread that stops at the limit — measured on a real listening server: /api/health answers within
// 100 ms throughout, the process grows by at most 200 MB, and gives the memory back afterwards.
// A body sent without Content-Length is cut off at the limit as it streams.

let t: TestApp;
let alice: TestUser;
let base: string;
/** What the process's JavaScript held, settled, before the first bomb. */
let baseline: number;

beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  alice = await createSignedInUser(t.db, 'hostile-uploads');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // One ordinary upload first, so that the baseline holds what any upload needs once (pages, the worker's code).
  expect((await upload('warm.csv', 'Name\nAcme\n')).status).toBe(303);
  baseline = await settledHeldBytes();
});
afterAll(async () => {
  await t?.close();
});

/** The multipart body of the upload form, as a browser sends it. */
async function formBody(name: string, content: string | Uint8Array) {
  const form = new FormData();
  form.append('_csrf', alice.csrf);
  form.append('file', new Blob([content as BlobPart]), name);
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get('content-type') ?? '' };
}

/** Uploads through app.inject (no socket): the status and the page's text. */
async function upload(name: string, content: string | Uint8Array, lang = '') {
  const { body, type } = await formBody(name, content);
  const res = await t.app.inject({
    method: 'POST',
    url: `${lang}/companies/enrichment/`,
    payload: body,
    headers: { 'content-type': type, cookie: alice.cookie },
  });
  return { status: res.statusCode, text: res.body.replaceAll('<!-- -->', '') };
}

const MB = 1024 * 1024;
/**
 * What a busy machine may add to a request's time whatever the server does: with a load of 15 on
 * two cores, an idle server's health requests took up to 250 ms, and up to 900 ms beside a worker
 * thread reading. The server's own share is held to 100 ms by the CPU measure below; the old reading
 * in the request's thread stalled them for 8 to 23 s.
 */
const LOAD_ALLOWANCE_MS = 1_900;
/**
 * CPU time inflates too on a busy machine (shared caches, a core's frequency): the server's thread
 * spent at most 69 ms during a health wait in bench/hostile-uploads.ts, and 103 ms once in this test
 * right after a full test run. The bound keeps the 100 ms of the goal and this margin; the old
 * reading spent 0.4 to 12 s of it.
 */
const CPU_LOAD_ALLOWANCE_MS = 50;

const measured = (send: () => Promise<{ status: number; text: string }>) => measureWhile(base, send);

/** The upload form for the listening server (built before it is measured), and how to post it (with its Content-Length). */
async function poster(name: string, content: string | Uint8Array, lang = '') {
  const { body, type } = await formBody(name, content);
  return async () => {
    const res = await fetch(`${base}${lang}/companies/enrichment/`, {
      method: 'POST',
      body,
      headers: { 'content-type': type, cookie: alice.cookie, origin: base },
      redirect: 'manual',
    });
    return { status: res.status, text: (await res.text()).replaceAll('<!-- -->', '') };
  };
}

/** The limits of every big bomb: the server stayed responsive and gave its memory back. */
function expectHarmless(m: Measured) {
  expect(m.probes, 'health was asked while the upload was read').toBeGreaterThan(0);
  // The server's thread never worked more than 100 ms while a health request waited; and the
  // request itself answered within 100 ms, give or take what a loaded machine adds.
  expect(m.healthMaxCpuMs, '/api/health waited for at most 100 ms of server work').toBeLessThan(
    100 + CPU_LOAD_ALLOWANCE_MS,
  );
  expect(m.healthMaxMs, '/api/health answered throughout').toBeLessThan(100 + LOAD_ALLOWANCE_MS);
  expect(m.peakGrowthMb, 'RSS grew by at most 200 MB').toBeLessThanOrEqual(200);
  // Settled, the process keeps what its allocators hold for the next read (up to about 100 MB
  // after the first big one, measured; the old reading kept 1.4 GB): the last test checks that
  // this does not add up from one bomb to the next.
  expect(m.afterMb, 'the memory was given back').toBeLessThanOrEqual(150);
}

describe('hostile uploads', () => {
  it('refuses rows past the row limit, with r= and without, the server answering meanwhile', async () => {
    const withReferences = await rowsBomb(200_000);
    const m = await measured(await poster('rows.xlsx', withReferences));
    expect(m.status).toBe(400);
    expect(m.text).toContain('the file has more than 100,000 rows; at most 100,000 can be enriched at once');
    expectHarmless(m);

    const withoutReferences = await rowsWithoutReferencesBomb(1_000_000);
    const n = await measured(await poster('rows.xlsx', withoutReferences, '/de'));
    expect(n.status).toBe(400);
    expect(n.text).toContain('Die Datei hat mehr als 100.000 Zeilen');
    expectHarmless(n);
  });

  it('refuses a huge shared string at the cell limit, and too many shared strings', async () => {
    const huge = await hugeSharedStringBomb(60 * MB);
    const m = await measured(await poster('huge.xlsx', huge, '/fr'));
    expect(m.status).toBe(400);
    expect(m.text).toContain('une cellule a plus de 32\u202f767 caractères');
    expectHarmless(m);

    const many = await sharedStringsBomb(1_000_001);
    const n = await measured(await poster('strings.xlsx', many));
    expect(n.status).toBe(400);
    expect(n.text).toContain('the workbook has more than 1,000,000 distinct texts');
    expectHarmless(n);
  });

  it('refuses parts that inflate far beyond their compressed size, each and together', async () => {
    const one = await inflationBomb(110, 1);
    expect(one.byteLength).toBeLessThan(2 * MB);
    const m = await measured(await poster('inflated.xlsx', one));
    expect(m.status).toBe(413);
    expect(m.text).toContain('a part of the workbook unpacks to more than 100 MB');
    expectHarmless(m);

    const three = await inflationBomb(70, 3);
    const n = await measured(await poster('inflated.xlsx', three));
    expect(n.status).toBe(413);
    expect(n.text).toContain('the workbook unpacks to more than 200 MB');
    expectHarmless(n);
  });

  it('refuses too many entries in the archive', async () => {
    const res = await upload('entries.xlsx', await zipEntriesBomb(1_001));
    expect(res.status).toBe(400);
    expect(res.text).toContain('the workbook holds more than 1,000 files');
    // A workbook just under the limits is read.
    expect((await upload('entries.xlsx', await zipEntriesBomb(900))).status).toBe(303);
  });

  it('refuses a cell over 32,767 characters, in a workbook and in a CSV', async () => {
    const xlsx = await upload('long.xlsx', await longCellWorkbook(32_768));
    expect(xlsx.status).toBe(400);
    expect(xlsx.text).toContain('a cell has more than 32,767 characters');
    const csv = await upload('long.csv', `Name\n"${'a'.repeat(32_768)}"\n`);
    expect(csv.status).toBe(400);
    expect(csv.text).toContain('a cell has more than 32,767 characters');
    expect((await upload('long.xlsx', await longCellWorkbook(32_767))).status).toBe(303);
  });

  it('refuses too many columns, in a CSV (200,000 of them) and in a workbook, rendering no wide page', async () => {
    const csv = await upload('wide.csv', wideCsv(200_000));
    expect(csv.status).toBe(400);
    expect(csv.text).toContain('the file has more than 200 columns; at most 200 can be enriched');
    expect(csv.text.length).toBeLessThan(200_000);
    const xlsx = await upload('wide.xlsx', await wideWorkbook(201), '/de');
    expect(xlsx.status).toBe(400);
    expect(xlsx.text).toContain('Die Datei hat mehr als 200 Spalten');
    // 200 columns are read, and the mapping page shows them.
    expect((await upload('wide.csv', wideCsv(200))).status).toBe(303);
  });

  it('cuts off a body sent without Content-Length at the limit, as it streams', async () => {
    const { body } = await formBody('big.csv', 'Name\n');
    const boundary = /^--([^\r]+)/.exec(body.toString('latin1'))?.[1] as string;
    const head = body.subarray(0, body.indexOf('Name\n') + 5);
    let sent = 0;
    const m = await measured(async () => {
      const answer = await postChunked(
        `${base}/companies/enrichment/`,
        { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: alice.cookie, origin: base },
        head,
        300 * MB,
      );
      sent = answer.sent;
      return answer;
    });
    expect(m.status).toBe(413);
    expect(m.text).toContain('at most 50 MB can be enriched');
    // Refused near the limit, long before the 300 MB were sent.
    expect(sent).toBeLessThan(120 * MB);
    expectHarmless(m);
  });

  it('gives the memory back: after every bomb, the process holds what it held before the first', async () => {
    // Nothing of the bombs is kept: no file, rows or parser. (RSS, which also counts the pages the
    // allocators keep for the next read — the worker threads' arenas among them — is bounded per
    // bomb above; after all of them it depends on what else this test process ran.)
    expect(((await settledHeldBytes()) - baseline) / MB).toBeLessThanOrEqual(50);
  });
});
