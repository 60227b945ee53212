// Valid HTML (ADR 0022): the Nu HTML Checker (the npm package vnu-jar, run by Java 17) finds no
// error in the server-rendered HTML of the main reading pages — home, search, profile, person page,
// both directories and the advanced search — in English and in German.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personPath } from '../../core/people/person-path.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { someCompanies } from '../support/users.ts';

const VNU_JAR = createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar');

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  dir = await mkdtemp(join(tmpdir(), 'registra-vnu-'));
});
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

type VnuMessage = {
  type: string;
  subType?: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
};

/** Runs the checker once over every page (one Java start-up); returns its errors, by page. */
async function checkHtml(pages: Map<string, string>): Promise<string[]> {
  const files = new Map<string, string>();
  let n = 0;
  for (const [path, html] of pages) {
    const file = join(dir, `page-${++n}.html`);
    await writeFile(file, html);
    files.set(`file:${file}`, path);
  }
  // The checker reports on stderr and exits 1 when it finds errors.
  const { stderr } = await promisify(execFile)(
    'java',
    ['-jar', VNU_JAR, '--format', 'json', '--errors-only', ...[...files.keys()].map((f) => f.slice(5))],
    { maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stderr?: string }) => ({ stderr: error.stderr ?? '' }));
  const { messages } = JSON.parse(stderr) as { messages: VnuMessage[] };
  return messages
    .filter((m) => m.type === 'error' || m.type === 'non-document-error')
    .map((m) => `${files.get(m.url ?? '') ?? m.url}:${m.lastLine ?? ''}: ${m.message} ${m.extract ?? ''}`.trim());
}

describe('the Nu HTML Checker', () => {
  it('finds no error on home, search, profile, person, directories and advanced search', async () => {
    const [company] = await someCompanies(t.db, 1);
    const person = await t.db.kysely
      .selectFrom('members as m')
      .innerJoin('legal_entity_members as lem', 'lem.member_id', 'm.id')
      .select(['m.id', 'm.name'])
      .where('m.legal_entity_id', 'is', null)
      .orderBy('m.id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const paths = [
      '/',
      '/companies/search/',
      // Chips, facets and links that carry typed filters and lists.
      '/companies/search/?q=bank&status=1|2&dates[registration]:from=2000&identifiers[lei]:is_known=&sort=name_asc',
      '/vessels/search/?company_status=1',
      `/companies/details/${company.uri}/`,
      // The profile as of a day, with its banner and date picker, and the compare view.
      `/companies/details/${company.uri}/?as_of=2026-01-01`,
      `/companies/details/${company.uri}/compare/?from=2026-01-01`,
      personPath(person.name, Number(person.id)),
      '/companies/directories/jurisdictions/',
      '/companies/directories/industries/',
      '/companies/search/advanced/?status=1&contacts[website]:is_known=',
      '/vessels/search/advanced/',
      // A long filter list whole (ADR 0043), with the search it belongs to.
      '/companies/search/choices/jurisdiction/?q=bank&status=1',
      '/de/',
      '/de/companies/search/?status=1',
      '/de/companies/search/advanced/',
    ];
    const pages = new Map<string, string>();
    for (const path of paths) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(200);
      pages.set(path, res.body);
    }
    // A control: a link with brackets in its query (what the grammar printed before) is an error,
    // so a checker that did not run could not pass this test.
    pages.set(
      'control',
      '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><a href="/?a[b]=1">x</a></body></html>',
    );
    const errors = await checkHtml(pages);
    expect(errors.filter((e) => e.startsWith('control:'))).toHaveLength(1);
    expect(errors.filter((e) => !e.startsWith('control:'))).toEqual([]);
  }, 120_000);
});
