// The header's search box (ADR 0022): every page route, for a guest and a signed-in user, in each
// language, carries one search form to the companies search in its header — a plain GET form that
// works without script, its box marked for the suggestions island, inlined once. The home page's
// big box stands in for it there (one box, not two).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localePath } from '../../core/i18n/i18n.ts';
import { personPath } from '../../core/people/person-path.ts';
import { fillPattern, pageRoutes } from '../support/page-routes.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  user = await createSignedInUser(t.db, 'header-search');
});
afterAll(async () => {
  await t?.close();
});

type Page = { status: number; html: string | null; location: string };

/** A page as the browser ends up on it: redirects followed (three at most); html null when it is no HTML page. */
async function open(path: string, cookie?: string): Promise<Page> {
  let url = path;
  for (let hops = 0; ; hops++) {
    const res = await t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
    const next = res.headers.location;
    if (res.statusCode >= 300 && res.statusCode < 400 && typeof next === 'string' && hops < 3) {
      const target = new URL(next, 'http://localhost:3000');
      if (target.origin !== 'http://localhost:3000') return { status: res.statusCode, html: null, location: url };
      url = `${target.pathname}${target.search}`;
      continue;
    }
    const html = String(res.headers['content-type'] ?? '').startsWith('text/html') ? res.body : null;
    return { status: res.statusCode, html, location: url };
  }
}

/** The header's search panel, or null when the page has none. */
function headerSearch(html: string): string | null {
  const header = /<header class="site-header">([\s\S]*?)<\/header>/.exec(html)?.[1] ?? '';
  return /<details class="site-search"[^>]*>([\s\S]*?)<\/details>/.exec(header)?.[0] ?? null;
}

/** The attributes of the first `<name …>` tag in `html` for which `match` holds; null when none does. */
function tag(html: string, name: string, match: (a: Record<string, string>) => boolean): Record<string, string> | null {
  for (const [, text] of html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'g'))) {
    const attributes = Object.fromEntries(
      [...text.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(([, key, value]) => [
        key,
        (value ?? '').replace(/&quot;/g, '"'),
      ]),
    );
    if (match(attributes)) return attributes;
  }
  return null;
}

/** The search form in `html` with the box `id`: its form and box attributes, its label's text. */
function searchForm(html: string, id: string) {
  const form = new RegExp(`<form\\b[^>]*>(?:(?!</form>)[\\s\\S])*id="${id}"[\\s\\S]*?</form>`).exec(html)?.[0] ?? '';
  return {
    form: tag(form, 'form', () => true),
    box: tag(form, 'input', (a) => a.id === id),
    label: new RegExp(`<label\\b[^>]*for="${id}"[^>]*>([^<]*)</label>`).exec(form)?.[1] ?? null,
    submit: /<button type="submit">([^<]*)<\/button>/.exec(form)?.[1] ?? null,
  };
}

/** True when the box is a plain GET form's `q` to `action`, marked for the suggestions island. */
function suggesting({ form, box }: ReturnType<typeof searchForm>, action: string): boolean {
  return (
    form?.method === 'get' &&
    form.action === action &&
    box?.name === 'q' &&
    box.type === 'search' &&
    JSON.parse(box['data-suggest'] ?? 'null')?.label !== undefined
  );
}

/** How many times the suggestions island is inlined (its first statement, as the page carries it). */
const islands = (html: string) => html.split("document.querySelectorAll('input[data-suggest]')").length - 1;

describe('the header search box', () => {
  it('is on every page route, a GET form to the companies search with suggestions, the home page keeping its own', async () => {
    const [company] = await someCompanies(t.db, 1);
    const person = await t.db.kysely
      .selectFrom('members as m')
      .innerJoin('legal_entity_members as lem', 'lem.member_id', 'm.id')
      .select(['m.id', 'm.name'])
      .where('m.legal_entity_id', 'is', null)
      .orderBy('m.id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const values: Record<string, string> = { uri: company.uri, id: String(person.id), name: 'x', '*': 'status-1' };
    const routes = await pageRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const seen = new Map<string, number>();
    const problems: string[] = [];
    for (const route of routes) {
      const path =
        route.id === 'routes/members/details'
          ? personPath(person.name, Number(person.id))
          : fillPattern(route.pattern, (name) => values[name] ?? '1');
      for (const [who, cookie] of [
        ['guest', undefined],
        ['user', user.cookie],
      ] as const) {
        const page = await open(path, cookie);
        if (page.html === null) continue;
        const where = `${path} (${who}, ${page.status} at ${page.location})`;
        seen.set(`${route.id} ${who}`, page.status);
        if (islands(page.html) !== 1) problems.push(`${where}: the suggestions island ${islands(page.html)} times`);
        const panel = headerSearch(page.html);
        if (page.location === '/') {
          if (panel !== null) problems.push(`${where}: a header box beside the home page's own`);
          if (!suggesting(searchForm(page.html, 'home-q'), '/companies/search/'))
            problems.push(`${where}: no home page box`);
          continue;
        }
        if (panel === null) {
          problems.push(`${where}: no header search`);
          continue;
        }
        const found = searchForm(panel, 'site-q');
        if (!suggesting(found, '/companies/search/'))
          problems.push(`${where}: no GET form to the companies search with a suggesting box`);
        if (found.label !== 'Find a company') problems.push(`${where}: no label`);
        if (page.html.split('id="site-q"').length !== 2) problems.push(`${where}: the box's id twice`);
      }
    }
    expect(problems).toEqual([]);
    // The walk read real pages, not only error pages: the profile, a person and the dashboard among them.
    expect(seen.get('routes/companies/details guest')).toBe(200);
    expect(seen.get('routes/members/details guest')).toBe(200);
    expect(seen.get('routes/dashboard/overview user')).toBe(200);
    expect([...seen.values()].filter((status) => status === 200).length).toBeGreaterThan(60);
    // About 160 page renders, one after another.
  }, 180_000);

  it('speaks the page language and searches in it', async () => {
    const [company] = await someCompanies(t.db, 1);
    for (const [lang, label, submit] of [
      ['de', 'Unternehmen finden', 'Suchen'],
      ['fr', 'Trouver une entreprise', 'Rechercher'],
    ] as const) {
      const { status, html } = await open(localePath(lang, `/companies/details/${company.uri}/`));
      expect(status).toBe(200);
      const found = searchForm(headerSearch(html ?? '') ?? '', 'site-q');
      expect(suggesting(found, `/${lang}/companies/search/`)).toBe(true);
      expect(found.label).toBe(label);
      expect(found.submit).toBe(submit);
    }
  });

  it('finds the company it was given without script: the form sends q to the search', async () => {
    const [company] = await someCompanies(t.db, 1);
    const { html } = await open(`/companies/search/?q=${encodeURIComponent(company.name)}`);
    expect(html).toContain(`/companies/details/${company.uri}/`);
  });
});
