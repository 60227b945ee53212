import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITEMAP_URLS_MAX } from '../../core/sitemaps/sitemaps.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { someCompanies } from '../support/users.ts';

// Crawlability (ADR 0021): robots.txt names a sitemap index per language; the indexes list the
// site's pages and blocks of at most 50,000 profiles; lastmod comes from the company's last
// change; companies taken down are left out; profiles carry schema.org JSON-LD.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build', siteUrl: 'https://registra.example' });
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

describe('robots.txt and the sitemap indexes', () => {
  it('points at one index per language, and keeps robots out of the API only', async () => {
    const robots = await get('/robots.txt');
    expect(robots.statusCode).toBe(200);
    expect(robots.body).toMatch(/^User-agent: \*\nDisallow: \/api\/$/m);
    for (const lang of ['en', 'de', 'fr']) {
      expect(robots.body).toContain(`Sitemap: https://registra.example/sitemaps/${lang}.xml`);
    }
  });

  it('lists the pages sitemap and the company blocks of a language', async () => {
    const index = await get('/sitemaps/de.xml');
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/^application\/xml/);
    expect(index.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex /);
    expect(locs(index.body)).toEqual([
      'https://registra.example/sitemaps/de/pages.xml',
      'https://registra.example/sitemaps/de/companies-1.xml',
      'https://registra.example/sitemaps/de/people-1.xml',
    ]);
    expect((await get('/sitemaps/xx.xml')).statusCode).toBe(404);
    expect((await get('/sitemaps/de/companies-0.xml')).statusCode).toBe(404);
  });

  it('lists the help and the directories in the pages sitemap', async () => {
    const pages = locs((await get('/sitemaps/fr/pages.xml')).body);
    expect(pages).toContain('https://registra.example/fr/');
    expect(pages).toContain('https://registra.example/fr/info/topics/13-monitoring/');
    expect(pages).toContain('https://registra.example/fr/info/pages/privacy-policy-101/');
    expect(pages).toContain('https://registra.example/fr/companies/directories/industries/');
    expect(pages.some((p) => p.startsWith('https://registra.example/fr/companies/search/f/jurisdiction-'))).toBe(true);
  });
});

describe('company sitemaps', () => {
  it('list every visible profile once, with the day of its last change', async () => {
    const total = Number(
      (
        await t.db.kysely
          .selectFrom('legal_entities')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const [changed] = await someCompanies(t.db, 1, 5);
    await t.db.kysely
      .insertInto('company_changes')
      .values({
        legal_entity_id: changed.id,
        field: 'name',
        old_value: JSON.stringify('Old'),
        new_value: JSON.stringify('New'),
        source: 'test',
        observed_at: new Date('2026-03-04T10:00:00Z'),
      })
      .execute();
    const xml = (await get('/sitemaps/en/companies-1.xml')).body;
    const urls = locs(xml);
    expect(urls).toHaveLength(total);
    expect(new Set(urls).size).toBe(total);
    expect(urls[0]).toMatch(/^https:\/\/registra\.example\/companies\/details\/[^/]+\/$/);
    expect(xml).toContain(
      `<url><loc>https://registra.example/companies/details/${encodeURIComponent(changed.uri)}/</loc><lastmod>2026-03-04</lastmod></url>`,
    );
  });

  it('keep a block to its 50,000 ids, skip empty blocks, and leave out companies taken down', async () => {
    const far = 2 * SITEMAP_URLS_MAX + 7;
    await sql`insert into legal_entities (id, uri, name, search_name, jurisdiction_id)
      select ${far}, uri || '-far', name, search_name, jurisdiction_id from legal_entities where id = 1`.execute(
      t.db.kysely,
    );
    expect(locs((await get('/sitemaps/en.xml')).body)).toEqual([
      'https://registra.example/sitemaps/en/pages.xml',
      'https://registra.example/sitemaps/en/companies-1.xml',
      'https://registra.example/sitemaps/en/companies-3.xml',
      'https://registra.example/sitemaps/en/people-1.xml',
    ]);
    const third = locs((await get('/sitemaps/en/companies-3.xml')).body);
    expect(third).toHaveLength(1);
    expect(third[0]).toMatch(/-far\/$/);
    await t.db.kysely.updateTable('legal_entities').set({ taken_down_at: new Date() }).where('id', '=', far).execute();
    expect(locs((await get('/sitemaps/en.xml')).body)).not.toContain(
      'https://registra.example/sitemaps/en/companies-3.xml',
    );
    // Its block now lists nothing: a 404, not an empty urlset (which the sitemap schema refuses).
    expect((await get('/sitemaps/en/companies-3.xml')).statusCode).toBe(404);
  });
});

describe('sitemaps past the last', () => {
  it('are a 404 for every family and language, while the last of each is a whole urlset', async () => {
    for (const lang of ['en', 'de', 'fr']) {
      const listed = locs((await get(`/sitemaps/${lang}.xml`)).body).map((l) =>
        l.replace('https://registra.example', ''),
      );
      for (const family of ['companies', 'people']) {
        const numbers = listed
          .map((l) => new RegExp(`^/sitemaps/${lang}/${family}-(\\d+)\\.xml$`).exec(l)?.[1])
          .filter((n): n is string => n !== undefined)
          .map(Number);
        expect(numbers.length, `${lang} ${family}`).toBeGreaterThan(0);
        const last = Math.max(...numbers);
        const whole = await get(`/sitemaps/${lang}/${family}-${last}.xml`);
        expect(whole.statusCode).toBe(200);
        expect(whole.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset [^>]*>\n<url>/);
        expect(whole.body.endsWith('</url>\n</urlset>\n')).toBe(true);
        for (const past of [last + 1, 99, 9_999_999]) {
          const response = await get(`/sitemaps/${lang}/${family}-${past}.xml`);
          expect(response.statusCode, `${family}-${past}.xml`).toBe(404);
          expect(response.body).not.toContain('<urlset');
          expect(response.headers['cache-control'] ?? '').not.toContain('max-age=3600');
        }
      }
      // The pages sitemap is one file: numbered ones do not exist.
      expect((await get(`/sitemaps/${lang}/pages.xml`)).statusCode).toBe(200);
      expect((await get(`/sitemaps/${lang}/pages-2.xml`)).statusCode).toBe(404);
    }
  });
});

describe('person sitemaps', () => {
  it('list every visible person page once, in the page’s language, and leave out people taken down', async () => {
    const people = await t.db.kysely.selectFrom('members').select(['id', 'name']).orderBy('id').execute();
    expect(people.length).toBeGreaterThan(0);
    const urls = locs((await get('/sitemaps/de/people-1.xml')).body);
    expect(urls).toHaveLength(people.length);
    expect(urls[0]).toMatch(new RegExp(`^https://registra\\.example/de/members/details/[^/]+/${people[0].id}/$`));
    // The page each URL names is the person's (not a redirect to another name).
    const page = await get(urls[0].replace('https://registra.example', ''));
    expect(page.statusCode).toBe(200);
    await t.db.kysely
      .updateTable('members')
      .set({ taken_down_at: new Date() })
      .where('id', '=', people[0].id)
      .execute();
    const after = locs((await get('/sitemaps/de/people-1.xml')).body);
    expect(after).toHaveLength(people.length - 1);
    expect(after).not.toContain(urls[0]);
    expect((await get('/sitemaps/de/people-0.xml')).statusCode).toBe(404);
  });
});

describe('schema.org on profiles', () => {
  it('describes the company as an Organization with its identifiers and address', async () => {
    const [company] = await someCompanies(t.db, 1, 3);
    const html = (await get(`/de/companies/details/${company.uri}/`)).body;
    const block = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(block).toBeDefined();
    const data = JSON.parse(block as string);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Organization',
      url: `https://registra.example/de/companies/details/${company.uri}/`,
    });
    const row = await t.db.kysely
      .selectFrom('legal_entities')
      .select('name')
      .where('id', '=', company.id)
      .executeTakeFirstOrThrow();
    expect(data.legalName).toBe(row.name);
    const identifiers = await t.db.kysely
      .selectFrom('legal_entity_identifiers')
      .select('identifier')
      .where('legal_entity_id', '=', company.id)
      .execute();
    expect(data.identifier.map((i: { value: string }) => i.value).sort()).toEqual(
      identifiers.map((i) => i.identifier).sort(),
    );
    expect(data.address['@type']).toBe('PostalAddress');
    expect(data.address.addressCountry).toMatch(/^[A-Z]{2}$/);
  });
});
