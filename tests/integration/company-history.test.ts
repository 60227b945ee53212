// The profile's History tab and the provenance of each fact, read from the company_changes and
// company_provenance rows imports write (docs/decisions/0014-importers.md); rows inserted directly.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCompanyWrite } from '../../core/companies/company-writes.ts';
import { HISTORY_PAGE_SIZE } from '../../core/limits.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let company: { id: number; uri: string; name: string };
let other: { id: number; uri: string };
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  const rows = await sql<{ id: number; uri: string; name: string }>`
    select id::int, uri, name from legal_entities order by id limit 2`.execute(t.db.kysely);
  [company, other] = rows.rows;
  const k = t.db.kysely;
  await k
    .insertInto('company_changes')
    .values([
      {
        legal_entity_id: company.id,
        field: 'company',
        old_value: null,
        new_value: null,
        source: 'gleif-lei',
        source_date: new Date('2024-05-01T00:00:00Z'),
        observed_at: new Date('2024-05-02T08:00:00Z'),
      },
      {
        legal_entity_id: company.id,
        field: 'name',
        old_value: JSON.stringify('Old Name Ltd'),
        new_value: JSON.stringify(company.name),
        source: 'gleif-lei',
        source_date: new Date('2024-05-05T10:00:00Z'),
        observed_at: new Date('2024-05-06T08:00:00Z'),
      },
      {
        legal_entity_id: company.id,
        field: 'addresses.legal',
        old_value: JSON.stringify({ lines: ['1 Old Street'], city: 'London' }),
        new_value: JSON.stringify({ lines: ['2 New Street'], city: 'Leeds' }),
        source: 'ch-companies',
        source_date: null,
        observed_at: new Date('2024-06-01T08:00:00Z'),
      },
      {
        legal_entity_id: other.id,
        field: 'name',
        old_value: JSON.stringify('Someone Else'),
        new_value: JSON.stringify('Someone Else Again'),
        source: 'gleif-lei',
        source_date: null,
        observed_at: new Date('2024-06-01T08:00:00Z'),
      },
    ] as never)
    .execute();
  await k
    .insertInto('company_provenance')
    .values([
      {
        legal_entity_id: company.id,
        field: 'name',
        source: 'gleif-lei',
        source_date: new Date('2024-05-05T10:00:00Z'),
        observed_at: new Date('2024-05-06T08:00:00Z'),
      },
      {
        legal_entity_id: company.id,
        field: 'status',
        source: 'ch-companies',
        source_date: null,
        observed_at: new Date('2024-06-01T08:00:00Z'),
      },
    ])
    .execute();
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const text = (html: string) => html.replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, '&');
const historyOf = (uri: string) => `/companies/details/${uri}/history/`;
/** The rows of the history table: [observed, field, before, after, source]. */
function rows(html: string): string[][] {
  const body = /<table class="history-table">.*?<tbody>(.*?)<\/tbody>/s.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((r) =>
    [...r[1].matchAll(/<td>(.*?)<\/td>/gs)].map((c) => text(c[1].replace(/<!--.*?-->/g, '')).trim()),
  );
}

describe('History tab', () => {
  it('lists the company’s changes newest first, with field labels, values, their source and dates', async () => {
    const page = await get(historyOf(company.uri));
    expect(page.statusCode).toBe(200);
    const table = rows(page.body);
    expect(table.map((r) => r[1])).toEqual(['Legal address', 'Legal name', 'Company appeared']);
    expect(table[0].slice(2)).toEqual([
      '1 Old Street, London',
      '2 New Street, Leeds',
      'Stated by Companies House; seen by Registra 1 Jun 2024',
    ]);
    expect(table[1].slice(2)).toEqual([
      'Old Name Ltd',
      company.name,
      'Dated 5 May 2024 by GLEIF; seen by Registra 6 May 2024',
    ]);
    // Another company's changes are not this one's.
    expect(page.body).not.toContain('Someone Else');
    expect(text(page.body)).toContain('3 changes');
  });

  it('filters by field, offering the fields the company has changes of, in the page’s language', async () => {
    const page = await get(`/de${historyOf(company.uri)}?field=name`);
    expect(page.statusCode).toBe(200);
    const table = rows(page.body);
    expect(table).toHaveLength(1);
    expect(table[0][1]).toBe('Firmenname');
    const options = [...page.body.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]);
    expect(options).toEqual([
      ['', 'Alle Felder'],
      ['addresses.legal', 'Rechtliche Anschrift'],
      ['company', 'Unternehmen'],
      ['name', 'Firmenname'],
    ]);
    expect(page.body).toMatch(/<option value="name" selected="">/);
  });

  it('pages the history: newest page first, older and newer links', async () => {
    const many = Array.from({ length: HISTORY_PAGE_SIZE + 5 }, (_, i) => ({
      legal_entity_id: other.id,
      field: 'status',
      old_value: JSON.stringify(`s${i}`),
      new_value: JSON.stringify(`s${i + 1}`),
      source: 'brreg-units',
      source_date: null,
      observed_at: new Date(Date.UTC(2024, 0, 1 + i)),
    }));
    await t.db.kysely
      .insertInto('company_changes')
      .values(many as never)
      .execute();
    const first = await get(`${historyOf(other.uri)}?field=status`);
    const firstRows = rows(first.body);
    expect(firstRows).toHaveLength(HISTORY_PAGE_SIZE);
    expect(firstRows[0][3]).toBe(`s${HISTORY_PAGE_SIZE + 5}`);
    const older = /<a href="([^"]+)" rel="next">/.exec(first.body)?.[1];
    expect(text(older ?? '')).toBe(`${historyOf(other.uri)}?field=status&page=2`);
    const second = await get(text(older!));
    const secondRows = rows(second.body);
    expect(secondRows).toHaveLength(5);
    expect(secondRows.at(-1)?.[2]).toBe('s0');
    expect(second.body).not.toContain('rel="next"');
    expect(text(second.body)).toContain(`href="${historyOf(other.uri)}?field=status"`);
  });

  it('refuses an unknown field or page, answers 404 for no company and 301 for an old slug', async () => {
    const badField = await get(`${historyOf(company.uri)}?field=password`);
    expect(badField.statusCode).toBe(400);
    expect(badField.body).toContain('field');
    for (const page of ['0', '-1', '1.5', 'x', '100000']) {
      expect((await get(`${historyOf(company.uri)}?page=${page}`)).statusCode).toBe(400);
    }
    expect((await get(historyOf('no-such-company-999999999'))).statusCode).toBe(404);
    const moved = await get(`${historyOf(`old-slug-${company.id}`)}?field=name`);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`${historyOf(company.uri)}?field=name`);
  });

  it('shows an empty history plainly', async () => {
    const row = await sql<{ uri: string }>`select uri from legal_entities order by id desc limit 1`.execute(
      t.db.kysely,
    );
    const page = await get(`/fr${historyOf(row.rows[0].uri)}`);
    expect(page.statusCode).toBe(200);
    expect(text(page.body)).toContain('Aucune modification enregistrée.');
  });
});

describe('provenance on the profile', () => {
  /** The HTML of one collapsible profile section, by its id. */
  const section = (html: string, id: string) =>
    new RegExp(`<section id="${id}"[^>]*>(.*?)</section>`, 's').exec(html)?.[1] ?? '';
  const overview = (html: string) => /<section aria-labelledby="overview"[^>]*>(.*?)<\/section>/s.exec(html)?.[1] ?? '';
  const provenanceLines = (html: string) =>
    [...html.matchAll(/<p class="provenance">(.*?)<\/p>/gs)].map((m) => text(m[1].replace(/<!--.*?-->/g, '')));

  it('says once below the overview where its facts came from and when, and links the History tab', async () => {
    const page = await get(`/companies/details/${company.uri}/`);
    expect(page.statusCode).toBe(200);
    const body = text(page.body);
    // The name (GLEIF, 5 May 2024) and the status (observed on 1 June 2024, no source date): one line.
    expect(provenanceLines(overview(body))).toEqual(['Sources: GLEIF, 5 May 2024; Companies House, 1 Jun 2024']);
    // Not beside each fact, nor under the name.
    expect(overview(body)).not.toMatch(/<dd>[\s\S]*?provenance[\s\S]*?<\/dd>/);
    expect(body).not.toMatch(/<h1>.*?<\/h1>\s*<p class="provenance">/s);
    expect(body).toContain(`href="${historyOf(company.uri)}"`);
  });

  it('shows a section’s sources once, whatever its number of rows, never as ISO timestamps', async () => {
    // Three statuses, all from the status field's provenance: one line below them, not three.
    await sql`insert into legal_entity_statuses (legal_entity_id, position, status_id)
      select ${company.id}, 100 + row_number() over (order by id), id from statuses where id not in (
        select status_id from legal_entity_statuses where legal_entity_id = ${company.id}) order by id limit 2`.execute(
      t.db.kysely,
    );
    // As every writer does once it has committed (the profile's kept parts move on, ADR 0040).
    await afterCompanyWrite(t.db, { companies: [company.id], names: [] });
    const en = text((await get(`/companies/details/${company.uri}/`)).body);
    const statuses = section(en, 'statuses');
    expect((statuses.match(/<tr/g) ?? []).length).toBeGreaterThanOrEqual(2);
    expect(provenanceLines(statuses)).toEqual(['Source: Companies House, 1 Jun 2024']);
    expect(provenanceLines(section(en, 'names'))).toEqual(['Source: GLEIF, 5 May 2024']);
    // Each section at most one line; no line anywhere with an ISO date.
    for (const m of en.matchAll(/<section id="([^"]+)"[^>]*>(.*?)<\/section>/gs))
      expect(provenanceLines(m[2]).length, m[1]).toBeLessThanOrEqual(1);
    for (const line of provenanceLines(en)) expect(line).not.toMatch(/\d{4}-\d{2}-\d{2}/);

    const de = text((await get(`/de/companies/details/${company.uri}/`)).body);
    expect(provenanceLines(overview(de))).toEqual(['Quellen: GLEIF, 5. Mai 2024; Companies House, 1. Juni 2024']);
    expect(provenanceLines(section(de, 'statuses'))).toEqual(['Quelle: Companies House, 1. Juni 2024']);
    expect(de).toContain(`href="/de${historyOf(company.uri)}"`);
    const fr = text((await get(`/fr/companies/details/${company.uri}/`)).body);
    expect(provenanceLines(overview(fr))).toEqual(['Sources : GLEIF, 5 mai 2024; Companies House, 1 juin 2024']);
    expect(provenanceLines(section(fr, 'names'))).toEqual(['Source : GLEIF, 5 mai 2024']);
  });
});

describe('natures of control on the profile', () => {
  it('names what a person with significant control holds, in the page’s language', async () => {
    // The first member of the company made a PSC with two natures, as ch-psc writes them (ADR 0016).
    const member = await sql<{ member_id: number }>`
      select member_id::int from legal_entity_members where legal_entity_id = ${other.id} order by member_id limit 1`.execute(
      t.db.kysely,
    );
    expect(member.rows).toHaveLength(1);
    await sql`update legal_entity_members set natures = ${[
      'ownership-of-shares-75-to-100-percent',
      'voting-rights-more-than-25-percent-as-trust-registered-overseas-entity',
    ]}::text[] where legal_entity_id = ${other.id} and member_id = ${member.rows[0].member_id}`.execute(t.db.kysely);
    const en = text((await get(`/companies/details/${other.uri}/`)).body);
    expect(en).toContain('Shares 75–100 %');
    expect(en).toContain('Voting rights over 25 %, through a trust');
    const de = text((await get(`/de/companies/details/${other.uri}/`)).body);
    expect(de).toContain('Stimmrechte über 25 %, über einen Trust');
    const fr = text((await get(`/fr/companies/details/${other.uri}/`)).body);
    expect(fr).toContain('Parts 75–100 %');
  });
});
