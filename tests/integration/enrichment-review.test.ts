import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../core/billing/ledger.ts';
import { enrichmentJob } from '../../jobs/enrichment.job.ts';
import { drainJobs, type JobServices } from '../../jobs/worker.ts';
import { postForm, postJson } from '../support/accounts.ts';
import { quietLog, testJobServices } from '../support/job-services.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// The enrichment's review (ADR 0032): candidates as a table with number, town, status, score and
// the match API's explanation in the reader's language; a decision answered as JSON for the
// island or redirected back to the row without script; "accept all at or above N %"; and the
// decisions used by POST /api/match for the same user only.

let t: TestApp;
let services: JobServices;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  services = testJobServices(t.db, t.reference);
  alice = await createSignedInUser(t.db, 'review-alice');
  bob = await createSignedInUser(t.db, 'review-bob');
  await grantCredits(t.db, alice.id, 1_000);
  await grantCredits(t.db, bob.id, 1_000);
});
afterAll(async () => {
  await services?.mailer.close();
  await t?.close();
});

const get = async (url: string, user: TestUser) => {
  const res = await t.app.inject({ url, headers: { cookie: user.cookie } });
  return Object.assign(res, { text: res.body.replaceAll('<!-- -->', '') });
};
const post = (url: string, fields: Record<string, string>, user: TestUser, headers?: Record<string, string>) =>
  postForm(t.app, url, { _csrf: user.csrf, ...fields }, { cookie: user.cookie, headers });
const drain = () =>
  drainJobs({ services, log: quietLog, definitions: [enrichmentJob as never], daily: false, retryDelay: () => 0 });
const match = (user: TestUser, queries: Record<string, string>[]) =>
  postJson(t.app, 'POST', '/api/match', { queries }, user);
const countryOf = async (id: number) => {
  const row = await t.db.kysely
    .selectFrom('legal_entities')
    .select('jurisdiction_id')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return t.reference.locations.byId.get(Number(row.jurisdiction_id))?.country_code ?? '';
};
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;');

describe('the enrichment review', () => {
  it('shows a table per row, decides with and without script, accepts all at or above N %, and answers /api/match', async () => {
    const [a, c, d, e] = await someCompanies(t.db, 4, 120);
    const elsewhere = async (id: number) => ((await countryOf(id)) === 'FR' ? 'Japan' : 'France');
    const elsewhereCode = async (id: number) => ((await countryOf(id)) === 'FR' ? 'JP' : 'FR');
    // Row 1 matched; rows 2–4: an exact name in another country, for review.
    const csv = [
      'Firma;Nummer;Land',
      `${a.name};${a.companyNumber};${await countryOf(a.id)}`,
      `${c.name};;${await elsewhere(c.id)}`,
      `${d.name};;${await elsewhere(d.id)}`,
      `${e.name};;${await elsewhere(e.id)}`,
    ].join('\n');
    const form = new FormData();
    form.append('_csrf', alice.csrf);
    form.append('file', new Blob([csv]), 'review.csv');
    const encoded = new Response(form);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/companies/enrichment/',
      payload: Buffer.from(await encoded.arrayBuffer()),
      headers: { 'content-type': encoded.headers.get('content-type') ?? '', cookie: alice.cookie },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(303);
    const path = uploaded.headers.location as string;
    const run = await post(
      path,
      { intent: 'run', 'map.name': '0', 'map.registration_number': '1', 'map.country': '2' },
      alice,
    );
    expect(run.statusCode, run.body).toBe(303);
    expect(await drain()).toBe(1);

    // The table: a caption per row, column headers with scope, each candidate's number, town,
    // status, score and the explanation of POST /api/match.
    const page = await get(path, alice);
    expect(page.statusCode).toBe(200);
    expect(page.text).toMatch(/To review: <strong>3<\/strong>/);
    expect(page.text).toContain(`<caption>Candidates for row 2: ${escaped(c.name)}`);
    for (const header of ['Choice', 'Legal name', 'Company number', 'Town', 'Status', 'Score', 'Why']) {
      expect(page.text).toMatch(new RegExp(`<th scope="col"[^>]*>${header}</th>`));
    }
    expect(page.text).toContain(`data-label="Company number">${escaped(c.companyNumber)}</td>`);
    expect(page.text).toMatch(/data-label="Status" class="status-(active|inactive)">(Active|Inactive)<\/td>/);
    expect(page.text).toMatch(/data-label="Score">\d+% alike<\/td>/);
    const cc = await countryOf(c.id);
    expect(page.text).toContain(`Country or jurisdiction: Registered in ${cc}, not ${await elsewhereCode(c.id)}`);
    expect(page.text).toMatch(/Company name: “[^”]+” and “[^”]+” \(legal forms[^)]*\): 100% alike/);
    expect(page.text).toContain('name="company" value="none"');
    expect(page.text).toContain(`aria-label="Choose ${escaped(c.name)}"`);
    expect(page.text).toContain(`data-review-row="${path}review/"`);
    // The same explanation in German and French.
    const de = await get(`/de${path}`, alice);
    expect(de.text).toContain(`Land oder Rechtsraum: Eingetragen in ${cc}, nicht ${await elsewhereCode(c.id)}`);
    expect(de.text).toMatch(/Firmenname: „[^“]+“ und „[^“]+“ \([^)]*\): 100 % ähnlich/);
    const fr = await get(`/fr${path}`, alice);
    expect(fr.text).toContain(`, pas ${await elsewhereCode(c.id)}`);
    expect(fr.text).toContain('100 % de ressemblance');

    // A row matched before the features were kept: its candidates say so instead of explaining.
    const enrichmentId = Number(path.split('/')[3]);
    const old = await t.db.kysely
      .selectFrom('enrichment_rows')
      .select('candidates')
      .where('enrichment_id', '=', enrichmentId)
      .where('row_number', '=', 4)
      .executeTakeFirstOrThrow();
    const stripped = (old.candidates as { features?: unknown }[]).map(({ features: _features, ...c }) => c);
    await t.db.kysely
      .updateTable('enrichment_rows')
      .set({ candidates: JSON.stringify(stripped) })
      .where('enrichment_id', '=', enrichmentId)
      .where('row_number', '=', 4)
      .execute();
    const withOld = await get(path, alice);
    const row4 = withOld.text.slice(withOld.text.indexOf('id="row-4"'));
    expect(row4).toContain('Matched before explanations were kept.');
    expect(row4).not.toContain('Company name: “');

    // The island's post (…/review/): JSON with the row's new state and the counts; bad input a 4xx naming it.
    const review = `${path}review/`;
    const runViaReview = await post(review, { intent: 'run', 'map.name': '0' }, alice);
    expect(runViaReview.statusCode).toBe(400);
    expect(runViaReview.json().error).toBe('intent: decide or accept-all');
    const noToken = await postForm(
      t.app,
      review,
      { intent: 'decide', row: '2', company: String(c.id) },
      { cookie: alice.cookie },
    );
    expect(noToken.statusCode).toBe(403);
    const bad = await post(review, { intent: 'decide', row: '2', company: 'abc' }, alice);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^company: /);
    const notCandidate = await post(review, { intent: 'decide', row: '2', company: String(a.id + 999_999) }, alice);
    expect(notCandidate.statusCode).toBe(400);
    expect((await post(review, { intent: 'decide', row: '2', company: String(c.id) }, bob)).statusCode).toBe(404);
    const viaFetch = await post(review, { intent: 'decide', row: '2', company: String(c.id) }, alice);
    expect(viaFetch.statusCode, viaFetch.body).toBe(200);
    expect(viaFetch.headers['content-type']).toMatch(/^application\/json/);
    expect(viaFetch.json()).toMatchObject({
      row: 2,
      anchor: 'row-2',
      outcome: 'accepted',
      company: { id: c.id, name: c.name },
      text: `Row 2: ${c.name} accepted.`,
    });
    expect(viaFetch.json().counts).toContainEqual({ outcome: 'accepted', label: 'Accepted by you', count: '1' });
    expect(viaFetch.json().counts).toContainEqual({ outcome: 'review', label: 'To review', count: '2' });

    // Without script: "none of these" is posted and redirected back to the row's place.
    const plain = await post(path, { intent: 'decide', row: '3', company: 'none' }, alice);
    expect(plain.statusCode).toBe(303);
    expect(plain.headers.location).toBe(`${path}?done=decided&row=3#row-3`);
    const back = await get(`${path}?done=decided&row=3`, alice);
    expect(back.text).toMatch(
      /<p class="enrichment-decided" id="row-3" tabindex="-1">Row 3: none of the candidates\.<\/p>/,
    );
    expect(back.text).toContain('id="row-4"');
    expect(back.text).not.toMatch(/<form[^>]*id="row-3"/);

    // Accept all at or above N %: a bad N is a 400 naming it; too high accepts none; 50 % the rest.
    for (const threshold of ['', 'abc', '101', '10', '-5', '60.5']) {
      const refused = await post(path, { intent: 'accept-all', threshold }, alice);
      expect(refused.statusCode, threshold).toBe(400);
      expect(refused.body, threshold).toContain('threshold: a whole percentage from 50 to 100');
    }
    const thresholdInput = /<input[^>]*id="accept-all-threshold"[^>]*>/.exec(page.text)?.[0] ?? '';
    expect(thresholdInput).toContain('value="90"');
    expect(thresholdInput).toContain('min="50"');
    const none = await post(path, { intent: 'accept-all', threshold: '100' }, alice);
    expect(none.statusCode).toBe(303);
    expect(none.headers.location).toBe(`${path}?done=accepted&count=0&threshold=100#enrichment-review`);
    expect((await get(`${path}?done=accepted&count=0&threshold=100`, alice)).text).toContain(
      'No row to review has a best candidate at or above 100%.',
    );
    // Through the island's route: JSON naming each row accepted, in words, with the new counts.
    const badViaReview = await post(review, { intent: 'accept-all', threshold: '10' }, alice);
    expect(badViaReview.statusCode).toBe(400);
    expect(badViaReview.json().error).toBe('threshold: a whole percentage from 50 to 100');
    const all = await post(review, { intent: 'accept-all', threshold: '50' }, alice);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toMatchObject({
      text: '1 row was accepted.',
      rows: [{ anchor: 'row-4', text: `Row 4: ${e.name} accepted.` }],
    });
    expect(all.json().counts).toContainEqual({ outcome: 'accepted', label: 'Accepted by you', count: '2' });
    expect((await post(review, { intent: 'accept-all', threshold: '50' }, alice)).json()).toMatchObject({ rows: [] });
    const afterAll = await get(`${path}?done=accepted&count=1&threshold=50`, alice);
    expect(afterAll.text).toContain('1 row was accepted.');
    expect(afterAll.text).toMatch(/Accepted by you: <strong>2<\/strong>/);
    expect(afterAll.text).toMatch(/Rejected by you: <strong>1<\/strong>/);
    expect(afterAll.text).toContain('Nothing left to review.');
    const rows = await t.db.kysely
      .selectFrom('enrichment_rows')
      .select(['row_number', 'outcome', 'company_id'])
      .where('enrichment_id', '=', Number(path.split('/')[3]))
      .orderBy('row_number')
      .execute();
    expect(rows.map((r) => [r.row_number, r.outcome, r.company_id === null ? null : Number(r.company_id)])).toEqual([
      [1, 'matched', a.id],
      [2, 'accepted', c.id],
      [3, 'rejected', null],
      [4, 'accepted', e.id],
    ]);

    // POST /api/match: the same input, written otherwise, answers Alice's decisions; Bob's call does not.
    const queries = [
      { name: `  ${c.name.toUpperCase()} `, country: await elsewhereCode(c.id) },
      { name: d.name, country: await elsewhere(d.id) },
      { name: e.name, country: await elsewhere(e.id) },
    ];
    const mine = await match(alice, queries);
    expect(mine.statusCode, mine.body).toBe(200);
    const [chosen, rejected, acceptedAll] = mine.json().results;
    expect(chosen.decision).toBe('chosen');
    expect(chosen.candidates[0]).toMatchObject({ id: c.id, decided: true, match: true });
    expect(chosen.match).toMatchObject({ id: c.id, decided: true });
    expect(chosen.candidates.slice(1).every((x: { decided: boolean }) => !x.decided)).toBe(true);
    expect(chosen.candidates[0].features[0]).not.toHaveProperty('reason');
    expect(rejected.decision).toBe('none');
    expect(rejected.match).toBeNull();
    expect(rejected.candidates.map((x: { id: number }) => x.id)).not.toContain(d.id);
    expect(acceptedAll).toMatchObject({ decision: 'chosen', match: { id: e.id, decided: true } });

    const theirs = await match(bob, queries);
    expect(theirs.statusCode).toBe(200);
    const [bobC, bobD] = theirs.json().results;
    expect(bobC.decision).toBeNull();
    expect(bobC.match).toBeNull();
    expect(bobC.candidates.some((x: { decided: boolean }) => x.decided)).toBe(false);
    expect(bobD.decision).toBeNull();
    expect(bobD.candidates.map((x: { id: number }) => x.id)).toContain(d.id);
  }, 120_000);
});
