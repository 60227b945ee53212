import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrichmentCredits } from '../../core/billing/catalogue.ts';
import { creditBalance, grantCredits } from '../../core/billing/ledger.ts';
import { guessColumns } from '../../core/enrichment/read-upload.ts';
import type { Reference } from '../../core/reference/reference-data.ts';
import { enrichmentJob } from '../../jobs/enrichment.job.ts';
import { drainJobs, type JobServices } from '../../jobs/worker.ts';
import { postForm } from '../support/accounts.ts';
import { quietLog, testJobServices } from '../support/job-services.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// Enrichment end to end (ADR 0020 "Enrichment"): upload (CSV and XLSX, columns guessed), the cost
// and one charge with the job, the job's outcomes, the review (accept another candidate, reject)
// remembered for the next upload, the download in every format with chosen sections; bad files
// refused with a message; a failed run refunded; another user's enrichment a 404.

let t: TestApp;
let services: JobServices;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  services = testJobServices(t.db, t.reference);
  alice = await createSignedInUser(t.db, 'enrich-alice');
  bob = await createSignedInUser(t.db, 'enrich-bob');
  await grantCredits(t.db, alice.id, 1_000);
});
afterAll(async () => {
  await services?.mailer.close();
  await t?.close();
});

/** A multipart upload of one file, as a browser's form sends it. */
async function upload(user: TestUser | null, name: string, content: string | Uint8Array, lang = '') {
  const form = new FormData();
  if (user) form.append('_csrf', user.csrf);
  form.append('file', new Blob([content as BlobPart]), name);
  const encoded = new Response(form);
  return t.app.inject({
    method: 'POST',
    url: `${lang}/companies/enrichment/`,
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: {
      'content-type': encoded.headers.get('content-type') ?? '',
      ...(user ? { cookie: user.cookie } : {}),
    },
  });
}

const get = async (url: string, user?: TestUser) => {
  const res = await t.app.inject({ url, headers: user ? { cookie: user.cookie } : {} });
  // React's text separators out of the way of the assertions on what the page says.
  return Object.assign(res, { text: res.body.replaceAll('<!-- -->', '') });
};
const post = (url: string, fields: Record<string, string>, user: TestUser) =>
  postForm(t.app, url, { _csrf: user.csrf, ...fields }, { cookie: user.cookie });
const drain = (reference: Reference = t.reference) =>
  drainJobs({
    services: { ...services, reference },
    log: quietLog,
    definitions: [enrichmentJob as never],
    daily: false,
    retryDelay: () => 0,
  });

async function ledger(userId: number) {
  return t.db.kysely
    .selectFrom('credit_ledger')
    .select(['delta', 'reason', 'note'])
    .where('user_id', '=', userId)
    .where('reason', 'in', ['enrichment', 'enrichment_refund'])
    .orderBy('id')
    .execute();
}

/** Uploads a CSV and returns the new enrichment's page path. */
async function uploaded(user: TestUser, name: string, csv: string): Promise<string> {
  const res = await upload(user, name, csv);
  expect(res.statusCode, res.body).toBe(303);
  const path = res.headers.location as string;
  expect(path).toMatch(/^\/companies\/enrichment\/\d+\/$/);
  return path;
}

describe('columns', () => {
  it('are guessed from headers in any order and language', () => {
    expect(guessColumns(['Notes', 'Land', 'Handelsregister', 'Firmenname', 'Webseite'])).toEqual({
      country: 1,
      registration_number: 2,
      name: 3,
      domain: 4,
    });
    expect(guessColumns(['Raison sociale', 'N° TVA', 'Pays', 'LEI', 'Adresse'])).toEqual({
      name: 0,
      vat: 1,
      country: 2,
      lei: 3,
      address: 4,
    });
    expect(guessColumns(['Company', 'Company number', 'Country'])).toEqual({
      name: 0,
      registration_number: 1,
      country: 2,
    });
  });
});

describe('the enrichment page', () => {
  it('gives a guest the sign-in gate, and 401 for an upload', async () => {
    for (const url of ['/companies/enrichment/', '/de/companies/enrichment/', '/fr/companies/enrichment/']) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.text).toContain('data-gate="enrich"');
      expect(page.text).toContain('id="sign-in-gate"');
    }
    expect((await upload(null, 'a.csv', 'Name\nAcme\n')).statusCode).toBe(401);
  });

  it('refuses bad files with a message naming what is wrong', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    const cases: [string, string | Uint8Array, number, RegExp][] = [
      ['logo.png', png, 400, /not a CSV file or an XLSX workbook/],
      ['book.xlsx', 'Name\nAcme\n', 400, /not an XLSX workbook/],
      ['archive.zip', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 400, /ZIP archive/],
      ['header.csv', 'Name;Country\n', 400, /header but no rows/],
      ['blank.csv', 'Name,Country\n ,\n,\n', 400, /header but no rows with a value/],
      ['empty.csv', '', 400, /choose a CSV or XLSX file|file is empty/],
    ];
    for (const [name, content, status, message] of cases) {
      const res = await upload(alice, name, content);
      expect(res.statusCode, name).toBe(status);
      expect(res.body, name).toMatch(message);
    }
    const big = await upload(alice, 'big.csv', `Name\n${'Acme GmbH\n'.repeat(5_300_000)}`);
    expect(big.statusCode).toBe(413);
    expect(big.body).toMatch(/50 MB/);
    const count = await t.db.kysely
      .selectFrom('enrichments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('uploads, shows the cost, runs once, reviews, remembers and downloads', async () => {
    const [a, b, c] = await someCompanies(t.db, 3, 40);
    const country = (id: number) =>
      t.db.kysely
        .selectFrom('legal_entities')
        .select('jurisdiction_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
        .then((r) => t.reference.locations.byId.get(Number(r.jurisdiction_id))?.country_code ?? '');
    const otherCountry = (await country(c.id)) === 'FR' ? 'Japan' : 'France';
    // a: exact number and name (matched); b: nothing alike (unmatched); c: its exact name in
    // another country (uncertain: for review).
    const csv = [
      'Notiz;Firmenname;Registernummer;Land',
      `eins;${a.name};${a.companyNumber};${await country(a.id)}`,
      'zwei;Zzyzx Qwertyuiop Nonexistent Holdings;;',
      `drei;${c.name};;${otherCountry}`,
    ].join('\n');
    const path = await uploaded(alice, 'kunden.csv', csv);
    void b;

    const draft = await get(path, alice);
    expect(draft.statusCode).toBe(200);
    // Guessed: the name, number and country columns selected, the note not used.
    expect(draft.text).toMatch(/<select id="map-name" name="map.name">.*?<option value="1" selected="">Firmenname/s);
    expect(draft.text).toMatch(/<select id="map-registration_number"[^>]*>.*?<option value="2" selected="">/s);
    expect(draft.text).toMatch(/<select id="map-country"[^>]*>.*?<option value="3" selected="">/s);
    const cost = enrichmentCredits(3);
    expect(draft.text).toContain(`Enriching 3 rows costs ${cost} credit`);
    expect(draft.text).toContain('after this run: 999 credits');

    // Another user sees nothing of it.
    expect((await get(path, bob)).statusCode).toBe(404);
    expect((await post(path, { intent: 'run', 'map.name': '1' }, bob)).statusCode).toBe(404);

    // No usable column chosen: a 400 naming it, nothing charged.
    const unusable = await post(path, { intent: 'run', 'map.country': '3' }, alice);
    expect(unusable.statusCode).toBe(400);
    expect(unusable.body).toContain('mapping: choose the column');
    expect(await ledger(alice.id)).toEqual([]);

    const mapping = { 'map.name': '1', 'map.registration_number': '2', 'map.country': '3' };
    const run = await post(path, { intent: 'run', ...mapping }, alice);
    expect(run.statusCode, run.body).toBe(303);
    // Sent twice (a double click): charged once.
    expect((await post(path, { intent: 'run', ...mapping }, alice)).statusCode).toBe(409);
    expect(await ledger(alice.id)).toEqual([{ delta: -cost, reason: 'enrichment', note: expect.any(String) }]);
    const queued = await get(path, alice);
    expect(queued.text).toContain('http-equiv="refresh"');
    expect(queued.text).toContain('0 of 3 rows matched');

    expect(await drain()).toBe(1);
    const done = await get(path, alice);
    expect(done.statusCode).toBe(200);
    expect(done.text).not.toContain('http-equiv="refresh"');
    expect(done.text).toMatch(/Matched automatically: <strong>1<\/strong>/);
    expect(done.text).toMatch(/To review: <strong>1<\/strong>/);
    expect(done.text).toMatch(/No match found: <strong>1<\/strong>/);
    expect(done.text).toContain(
      `Candidates for row 3: drei · ${c.name}`.replace(/&/g, '&amp;').replace(/'/g, '&#x27;'),
    );
    expect(done.text).toContain(`value="${c.id}"`);

    // The review: pick the row's candidate (c itself), kept for next time.
    const candidates = await t.db.kysely
      .selectFrom('enrichment_rows')
      .select('candidates')
      .where('enrichment_id', '=', Number(path.split('/')[3]))
      .where('row_number', '=', 3)
      .executeTakeFirstOrThrow();
    const ids = (candidates.candidates as { id: number }[]).map((x) => x.id);
    expect(ids).toContain(c.id);
    expect((await post(path, { intent: 'decide', row: '3', decision: 'accept', company: '1' }, alice)).statusCode).toBe(
      400,
    );
    expect(
      (await post(path, { intent: 'decide', row: '3', decision: 'accept', company: String(c.id) }, bob)).statusCode,
    ).toBe(404);
    const decided = await post(path, { intent: 'decide', row: '3', decision: 'accept', company: String(c.id) }, alice);
    expect(decided.statusCode).toBe(303);
    expect(decided.headers.location).toBe(`${path}?done=decided&row=3#row-3`);
    const afterReview = await get(`${path}?done=decided&row=3`, alice);
    expect(afterReview.text).toMatch(/Accepted by you: <strong>1<\/strong>/);
    expect(afterReview.text).toContain('Nothing left to review.');

    // The download: the file's columns, the match, and the company's data as chosen.
    const csvFile = await get(`${path}download/?format=csv&sections=identifiers&sections=addresses`, alice);
    expect(csvFile.statusCode).toBe(200);
    expect(csvFile.headers['content-disposition']).toMatch(
      /^attachment; filename="registra_enriched_kunden[^"]*\.csv"$/,
    );
    const lines = csvFile.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      /^"Notiz","Firmenname","Registernummer","Land","Match","Match score","Registra URI","Registra: ID"/,
    );
    expect(lines[0]).toContain('Registra: Identifier');
    expect(lines[1]).toContain(`"matched"`);
    expect(lines[1]).toContain(`"${a.uri}"`);
    expect(lines[2]).toContain('"unmatched"');
    expect(lines[3]).toContain('"accepted"');
    expect(lines[3]).toContain(`"${c.uri}"`);
    const json = JSON.parse((await get(`${path}download/?format=json`, alice)).body);
    expect(json.rows).toHaveLength(3);
    expect(json.rows[0]).toMatchObject({ 'input.notiz': 'eins', 'match.outcome': 'matched', 'registra.id': a.id });
    const xml = (await get(`${path}download/?format=xml`, alice)).body;
    expect(xml).toContain('<data><rows>');
    expect(xml).toContain('<match.outcome>accepted</match.outcome>');
    const xlsx = await get(`${path}download/?format=xlsx&sections=names`, alice);
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('Notiz');
    expect(sheet.getRow(2).getCell(5).value).toBe('matched');
    expect((await get(`${path}download/?format=pdf`, alice)).statusCode).toBe(400);
    expect((await get(`${path}download/?sections=secrets`, alice)).statusCode).toBe(400);
    expect((await get(`${path}download/?format=csv`, bob)).statusCode).toBe(404);
    expect((await get(`${path}download/?format=csv`)).statusCode).toBe(401);

    // The same input in the next upload (written otherwise, as an XLSX) takes the decision.
    const workbook = new ExcelJS.Workbook();
    const ws = workbook.addWorksheet('Kunden');
    ws.addRow(['Company', 'Country']);
    ws.addRow([`  ${c.name.toUpperCase()} `, otherCountry]);
    const second = await upload(alice, 'kunden-2.xlsx', new Uint8Array(await workbook.xlsx.writeBuffer()));
    expect(second.statusCode, second.body).toBe(303);
    const secondPath = second.headers.location as string;
    expect((await post(secondPath, { intent: 'run', 'map.name': '0', 'map.country': '1' }, alice)).statusCode).toBe(
      303,
    );
    await drain();
    const remembered = await get(secondPath, alice);
    expect(remembered.text).toMatch(/Accepted by you: <strong>1<\/strong>/);
    expect(remembered.text).toContain('1 row took your earlier decision on the same input.');
  });

  it('refuses a run the balance does not cover (402), and refunds a run that fails for good', async () => {
    const carol = await createSignedInUser(t.db, 'enrich-carol');
    const [a, b] = await someCompanies(t.db, 2, 60);
    const path = await uploaded(carol, 'few.csv', `Name\n${a.name}\n${b.name}\n`);
    const poor = await post(path, { intent: 'run', 'map.name': '0' }, carol);
    expect(poor.statusCode).toBe(402);
    expect(await ledger(carol.id)).toEqual([]);
    expect(
      await t.db.kysely
        .selectFrom('jobs')
        .select('id')
        .where('dedupe_key', '=', `enrichment:${path.split('/')[3]}`)
        .execute(),
    ).toEqual([]);

    await grantCredits(t.db, carol.id, 5);
    expect((await post(path, { intent: 'run', 'map.name': '0' }, carol)).statusCode).toBe(303);
    expect(await creditBalance(t.db, carol.id)).toBe(4);
    // Every attempt fails (the engine's reference data broken): after the last, failed and refunded once.
    const broken = new Proxy(t.reference, {
      get() {
        throw new Error('the reference data is unavailable');
      },
    });
    expect(await drain(broken)).toBe(3);
    expect(await ledger(carol.id)).toEqual([
      { delta: -1, reason: 'enrichment', note: expect.any(String) },
      { delta: 1, reason: 'enrichment_refund', note: expect.stringContaining('failed') },
    ]);
    expect(await creditBalance(t.db, carol.id)).toBe(5);
    const page = await get(path, carol);
    expect(page.text).toContain('Failed (credits refunded)');
    expect(page.text).toContain('your 1 credit were refunded');
  });
});
