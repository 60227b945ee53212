import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../core/billing/ledger.ts';
import { drainJobs, type JobServices } from '../../jobs/worker.ts';
import { postForm } from '../support/accounts.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, type TestUser } from '../support/users.ts';

// The export page: every section has one, carrying its search; guests get the gated
// control and a 401 for the form; a signed-in user's choices are saved and restored, and the form
// starts the export as a job whose file is then downloaded.

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  user = await createSignedInUser(t.db, 'export-pages');
  await grantCredits(t.db, user.id, 100_000);
});
afterAll(() => t?.close());
const quiet = { info: () => {}, error: () => {} };

/** Whether the page's input of that name and value is checked. */
function isChecked(body: string, name: string, value: string): boolean {
  const tag = [...body.matchAll(/<input [^>]*>/g)]
    .map((m) => m[0])
    .find((t) => t.includes(`name="${name}"`) && t.includes(`value="${value}"`));
  if (!tag) throw new Error(`no input ${name}=${value}`);
  return /\schecked=""/.test(tag);
}

const get = (url: string, cookie?: string) => t.app.inject({ url, headers: cookie ? { cookie } : {} });

describe('the export page', () => {
  it('exists for every section, in every language, out of search engines', async () => {
    for (const url of ['/companies/export/', '/vessels/export/', '/de/real-estate/export/', '/fr/companies/export/']) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
    }
    const filtered = await get('/companies/export/f/jurisdiction-germany-276/');
    expect(filtered.statusCode).toBe(200);
    expect(filtered.body).toContain('name="query" value="jurisdiction=276"');
    expect((await get('/companies/export/?jurisdiction=abc')).statusCode).toBe(400);
  });

  it('gives a guest the sign-in gate instead of the download, and 401 for the form', async () => {
    const page = await get('/companies/export/?status=1');
    expect(page.body).toContain('data-gate="export"');
    expect(page.body).toContain('id="sign-in-gate"');
    expect(page.body).not.toContain('<button type="submit">Download</button>');
    const post = await postForm(t.app, '/companies/export/?status=1', { query: 'status=1', format: 'csv' });
    expect(post.statusCode).toBe(401);
  });

  it('saves a user’s choices, answers with the download, and restores them next time', async () => {
    const form = await get('/companies/export/?status=1', user.cookie);
    expect(form.body).toContain('<button type="submit">Download</button>');
    expect(isChecked(form.body, 'format', 'csv')).toBe(true);
    const post = await postForm(
      t.app,
      '/companies/export/?status=1',
      {
        _csrf: user.csrf,
        query: 'status=1',
        format: 'xml',
        separator: 'tab',
        scope: 'first',
        count: '25',
        sections: 'dates',
      },
      { cookie: user.cookie },
    );
    expect(post.statusCode, post.body).toBe(303);
    // The export runs as a job (docs/decisions/0031-export-jobs.md): on to its page, with the choices.
    const location = post.headers.location as string;
    expect(location).toMatch(/^\/dashboard\/exports\/\d+\/$/);
    const job = await t.db.kysely
      .selectFrom('export_jobs')
      .select(['params', 'rows_total', 'file_name'])
      .where('id', '=', Number(location.split('/')[3]))
      .executeTakeFirstOrThrow();
    expect(Object.fromEntries(new URLSearchParams(job.params))).toMatchObject({
      status: '1',
      format: 'xml',
      scope: 'first',
      count: '25',
      sections: 'dates',
    });
    expect(job.rows_total).toBe(25);
    expect(job.file_name).toMatch(/\.xml$/);
    await drainJobs({ services: { db: t.db, reference: t.reference } as JobServices, log: quiet, daily: false });
    const file = await get(`/api/exports/${location.split('/')[3]}/file`, user.cookie);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/\.xml"$/);
    expect((file.body.match(/<legal_entity>/g) ?? []).length).toBe(25);

    const again = await get('/companies/export/', user.cookie);
    expect(isChecked(again.body, 'format', 'xml')).toBe(true);
    expect(isChecked(again.body, 'format', 'csv')).toBe(false);
    expect(isChecked(again.body, 'scope', 'first')).toBe(true);
    expect(isChecked(again.body, 'sections', 'dates')).toBe(true);
    expect(isChecked(again.body, 'sections', 'members')).toBe(false);
    expect(again.body).toContain('value="25"');
    expect(again.body).toMatch(/<option value="tab" selected="">/);
  });

  it('refuses a form without the CSRF token and a bad format with a 400', async () => {
    const noToken = await postForm(t.app, '/companies/export/', { query: '', format: 'csv' }, { cookie: user.cookie });
    expect(noToken.statusCode).toBe(403);
    const bad = await postForm(
      t.app,
      '/companies/export/',
      { _csrf: user.csrf, query: '', format: 'pdf' },
      { cookie: user.cookie },
    );
    expect(bad.statusCode).toBe(400);
  });

  it('is linked from search results and lists', async () => {
    const search = await get('/companies/search/f/jurisdiction-germany-276/?sort=name_asc');
    expect(search.body).toContain('href="/companies/export/f/jurisdiction-germany-276/?sort=name_asc"');
    const vessels = await get('/de/vessels/search/');
    expect(vessels.body).toContain('href="/de/vessels/export/"');
  });
});
