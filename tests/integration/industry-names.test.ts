// Every industry level the product shows is named in English, German and French from NACE Rev. 2's
// official titles (docs/decisions/0017-industry-classification.md): the search facets, the
// industry filter and its drill-down down to NACE's classes, and the profile.
import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { industryForSourceCode } from '../../core/industries/source-codes.ts';
import { displayName, type Lang } from '../../core/reference/reference-data.ts';
import { loadReferenceData } from '../../db/reference/load-reference-data.ts';
import { NACE_REV2, naceIndustryId } from '../../db/reference/nace-rev2.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const text = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"');
const TITLE: Record<Lang, 2 | 3 | 4> = { en: 2, de: 3, fr: 4 };
const title = (code: string, lang: Lang) => NACE_REV2.find((r) => r[0] === code)![TITLE[lang]];

describe('industry names (NACE Rev. 2)', () => {
  it('gives every industry of every level its official title in English, German and French', () => {
    const items = t.reference.industries.items;
    expect(new Set(items.map((i) => i.level))).toEqual(new Set([1, 2, 3, 4]));
    expect(items).toHaveLength(NACE_REV2.length);
    for (const industry of items) {
      expect(industry.id).toBe(naceIndustryId(industry.code));
      for (const lang of ['en', 'de', 'fr'] as const) {
        expect(industry.translations.get(t.reference.languageIds[lang])?.name).toBe(title(industry.code, lang));
      }
    }
    // Not English in disguise: the German and French titles differ from the English ones.
    const software = t.reference.industries.items.find((i) => i.code === '62')!;
    expect(displayName(software, t.reference.languageIds.de)).toBe(
      'Erbringung von Dienstleistungen der Informationstechnologie',
    );
    expect(displayName(software, t.reference.languageIds.fr)).toBe(
      'Programmation, conseil et autres activités informatiques',
    );
  });

  it('names the industry facet’s sections in the page’s language', async () => {
    for (const lang of ['de', 'fr'] as const) {
      const page = await get(`/${lang}/companies/search/`);
      expect(page.statusCode).toBe(200);
      const facet = /<h3 id="facet-industry">.*?<\/ul>/s.exec(page.body)?.[0] ?? '';
      const labels = [...facet.matchAll(/<span class="facet-label">([^<]*)<\/span>/g)].map((m) => text(m[1]));
      expect(labels.length).toBeGreaterThan(1);
      const sections = new Set(NACE_REV2.filter((r) => r[1] === null).map((r) => r[TITLE[lang]]));
      for (const label of labels) expect(sections).toContain(label);
    }
  });

  it('names a section’s divisions in the industry filter’s drill-down in German and French', async () => {
    const section = t.reference.industries.items.find((i) => i.code === 'C')!;
    for (const lang of ['de', 'fr'] as const) {
      const page = await get(`/${lang}/companies/search/?industry=${section.id}`);
      expect(page.statusCode).toBe(200);
      // The panel's industry boxes (ADR 0022), each labelled with its name.
      const boxes = text(page.body);
      for (const division of ['10', '26', '29']) {
        const id = naceIndustryId(division);
        expect(boxes).toMatch(
          new RegExp(`name="industry" value="${id}"/> (<!-- -->)?${escapeRegExp(title(division, lang))}<`),
        );
      }
    }
  });

  it('names a group’s classes in the industry filter’s drill-down in German and French', async () => {
    const group = naceIndustryId('62.0');
    for (const lang of ['de', 'fr'] as const) {
      const page = await get(`/${lang}/companies/search/?industry=${group}`);
      expect(page.statusCode).toBe(200);
      const boxes = text(page.body);
      for (const nace of ['62.01', '62.02', '62.03', '62.09']) {
        const id = naceIndustryId(nace);
        expect(boxes).toMatch(
          new RegExp(`name="industry" value="${id}"/> (<!-- -->)?${escapeRegExp(title(nace, lang))}<`),
        );
        expect(title(nace, lang)).not.toBe(title(nace, 'en'));
      }
    }
  });

  it('answers an old NAICS industry link without landing on another industry', async () => {
    const page = await get('/companies/search/f/industry-software-publishers-511210/');
    expect(page.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('names the company’s industries on its French and German profile', async () => {
    const row = await sql<{ uri: string; industry: number }>`
      select uri, primary_industry_id as industry from legal_entities
      where primary_industry_id is not null order by id limit 1`.execute(t.db.kysely);
    const { uri, industry } = row.rows[0];
    const code = t.reference.industries.byId.get(industry)!.code;
    for (const lang of ['de', 'fr'] as const) {
      const page = await get(`/${lang}/companies/details/${uri}/`);
      expect(page.statusCode).toBe(200);
      expect(text(page.body)).toContain(title(code, lang));
      expect(text(page.body)).not.toContain(title(code, 'en'));
    }
  });
});

describe('a company filed under a NACE class', () => {
  it('shows the class’s German and French title on its profile, as a UK SIC code files it', async () => {
    const hub = industryForSourceCode('uk-sic-2007', '62020 - Information technology consultancy activities')!;
    expect(hub.code).toBe('62.02');
    const row = await sql<{ id: number; uri: string }>`
      select id, uri from legal_entities where primary_industry_id is not null order by id offset 1 limit 1`.execute(
      t.db.kysely,
    );
    const { id, uri } = row.rows[0];
    await sql`delete from legal_entity_industries where legal_entity_id = ${id}`.execute(t.db.kysely);
    await sql`insert into legal_entity_industries (legal_entity_id, industry_id, is_primary)
      values (${id}, ${hub.id}, true)`.execute(t.db.kysely);
    await sql`update legal_entities set primary_industry_id = ${hub.id} where id = ${id}`.execute(t.db.kysely);
    for (const lang of ['de', 'fr'] as const) {
      const page = await get(`/${lang}/companies/details/${uri}/`);
      expect(page.statusCode).toBe(200);
      expect(text(page.body)).toContain(title('62.02', lang));
      expect(text(page.body)).not.toContain(title('62.02', 'en'));
    }
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('migration 0017 on a database loaded before it', () => {
  it('leaves the companies without industries and the next start loads the NACE tree', async () => {
    const body = await readFile(
      new URL('../../db/migrations/0017-industry-classification.sql', import.meta.url),
      'utf8',
    );
    const statements = body
      .replace(/^--.*$/gm, '')
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const statement of statements) await sql.raw(statement).execute(t.db.kysely);
    const count = async (q: string) => Number((await sql.raw<{ n: number }>(q).execute(t.db.kysely)).rows[0].n);
    expect(await count('select count(*)::int as n from industries')).toBe(0);
    expect(await count('select count(*)::int as n from legal_entities where primary_industry_id is not null')).toBe(0);
    expect(await count('select count(*)::int as n from contacts where company_industry_id is not null')).toBe(0);
    await loadReferenceData(t.db);
    expect(await count('select count(*)::int as n from industries')).toBe(NACE_REV2.length);
    expect(await count(`select count(*)::int as n from translations where entity = 'industry'`)).toBe(
      NACE_REV2.length * 3,
    );
  });

  it('adds the classes to a database loaded while the tree stopped at NACE groups', async () => {
    const count = async (q: string) => Number((await sql.raw<{ n: number }>(q).execute(t.db.kysely)).rows[0].n);
    const before = await sql<{ uri: string }>`select uri from industries where code = '01.30'`.execute(t.db.kysely);
    await sql`delete from translations where entity = 'industry' and entity_id in
      (select id from industries where level = 4)`.execute(t.db.kysely);
    await sql`delete from industries where level = 4`.execute(t.db.kysely);
    expect(await count('select count(*)::int as n from industries')).toBe(21 + 88 + 272);
    await loadReferenceData(t.db);
    expect(await count('select count(*)::int as n from industries where level = 4')).toBe(615);
    expect(await count(`select count(*)::int as n from translations where entity = 'industry'`)).toBe(
      NACE_REV2.length * 3,
    );
    // The same URI a fresh load gives ("Plant propagation" is its group's title too).
    const after = await sql<{ uri: string }>`select uri from industries where code = '01.30'`.execute(t.db.kysely);
    expect(after.rows).toEqual(before.rows);
    const name = await sql<{ name: string }>`
      select t.name from translations t join languages l on l.id = t.language_id
      where t.entity = 'industry' and t.entity_id = ${naceIndustryId('62.02')} and l.code = 'fr'`.execute(t.db.kysely);
    expect(name.rows[0]?.name).toBe('Conseil informatique');
  });
});
