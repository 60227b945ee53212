import { beforeAll, describe, expect, it } from 'vitest';
import { normalizeName } from '../../core/companies/normalize-name.ts';
import { type IdentifierKind, isValidIdentifier, isValidLei } from '../../core/identifiers/check-digits.ts';
import { LANGUAGE_EN } from '../../db/reference/enumerations.ts';
import { buildReferenceData } from '../../db/reference/load-reference-data.ts';
import { makeCompany, makePerson, type SeedCompany } from '../../db/seed/company-factory.ts';
import { COPY_TABLE_NAMES, COPY_TABLES } from '../../db/seed/copy-rows.ts';
import {
  companyMemberId,
  createPersonPool,
  isCorporateMember,
  type PersonPool,
  personPoolSize,
} from '../../db/seed/member-pool.ts';
import { buildSeedCatalog, type SeedCatalog } from '../../db/seed/seed-catalog.ts';
import { generateBatch } from '../../db/seed/seed-companies.ts';
import { mixSeed, seededRandom } from '../../db/seed/seeded-random.ts';

let catalog: SeedCatalog;
let pool: PersonPool;
let countryOfLocation: Map<number, string>;

beforeAll(() => {
  const reference = buildReferenceData();
  const names = new Map(
    reference.translations
      .filter((t) => t.entity === 'location' && t.language_id === LANGUAGE_EN)
      .map((t) => [t.entity_id, t.name]),
  );
  const levels = new Map(reference.industries.map((i) => [i.id, i.level]));
  catalog = buildSeedCatalog({
    locations: reference.locations.map((l) => ({ ...l, name: names.get(l.id) ?? null })),
    currencies: reference.currencies,
    industries: reference.industries.filter((i) => levels.get(i.id) === 5),
  });
  pool = createPersonPool(catalog.personCountries);
  countryOfLocation = new Map(reference.locations.map((l) => [l.id, l.country_code]));
});

const IDENTIFIER_KINDS: Record<number, IdentifierKind> = {
  1: 'business_number',
  2: 'company_number',
  3: 'tax_number',
  4: 'vat',
};

/** Splits one CSV line into fields (quoted fields may contain commas and doubled quotes). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (line[quote + 1] === '"') {
          value += `${line.slice(i, quote)}"`;
          i = quote + 2;
        } else {
          value += line.slice(i, quote);
          i = quote + 1;
          break;
        }
      }
      fields.push(value);
      i++; // the comma
    } else {
      const comma = line.indexOf(',', i);
      const end = comma === -1 ? line.length : comma;
      fields.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return fields;
}

describe('seeded random', () => {
  it('gives the same stream for the same seed and different streams for different ids', () => {
    const a = seededRandom(mixSeed(1, 1, 42));
    const b = seededRandom(mixSeed(1, 1, 42));
    const c = seededRandom(mixSeed(1, 1, 43));
    const first = [a.next(), a.next(), a.next()];
    expect([b.next(), b.next(), b.next()]).toEqual(first);
    expect(c.next()).not.toBe(first[0]);
  });
});

describe('member pool', () => {
  it('only picks people and companies that already exist when the company is generated', () => {
    const random = seededRandom(7);
    for (const companyId of [1, 2, 5, 17, 100, 4_321, 250_000, 1_000_000]) {
      for (let i = 0; i < 200; i++) {
        const person = pool.pick(companyId, 'DE', random);
        expect(person).toBeGreaterThanOrEqual(1);
        expect(person).toBeLessThanOrEqual(personPoolSize(companyId));
        const owner = pool.pickCorporate(companyId, random);
        if (owner !== null) {
          expect(owner).toBeLessThan(companyId);
          expect(isCorporateMember(owner)).toBe(true);
        }
      }
    }
  });

  it('mostly picks people of the company’s own country', () => {
    const random = seededRandom(3);
    let same = 0;
    for (let i = 0; i < 1000; i++) if (pool.countryOf(pool.pick(50_000, 'FR', random)) === 'FR') same++;
    expect(same).toBeGreaterThan(800);
  });
});

describe('makeCompany', () => {
  it('is deterministic per (seed, id) and differs between seeds', () => {
    expect(makeCompany(catalog, pool, 1, 123)).toEqual(makeCompany(catalog, pool, 1, 123));
    expect(makeCompany(catalog, pool, 2, 123).name).not.toBe(makeCompany(catalog, pool, 1, 123).name);
    expect(makePerson(catalog, pool, 1, 55)).toEqual(makePerson(catalog, pool, 1, 55));
  });

  it('makes internally consistent companies with valid identifiers', () => {
    for (let id = 1; id <= 3000; id++) {
      const c: SeedCompany = makeCompany(catalog, pool, 9, id);
      const country = countryOfLocation.get(c.jurisdiction_id) ?? '';
      expect(c.search_name).toBe(normalizeName(c.name));
      expect(c.uri.endsWith(`-${id}`)).toBe(true);
      expect(c.statuses[0].status_id).toBe(c.status_id);
      expect(c.dates.find((d) => d.date_type_id === 1)?.date).toBe(c.registered_on);
      expect(c.registered_on >= '1900-01-01' && c.registered_on <= '2026-11-01').toBe(true);
      for (const d of c.dates) expect(d.date >= c.registered_on).toBe(true);
      expect(c.names.filter((n) => n.name_type_id === 1).map((n) => n.name)).toEqual([c.name]);
      expect(c.addresses.some((a) => a.address_type_id === 5)).toBe(true);
      expect(c.industries.filter((i) => i.is_primary).map((i) => i.industry_id)).toEqual([c.primary_industry_id]);
      for (const x of c.identifiers) {
        const kind = IDENTIFIER_KINDS[x.identifier_type_id];
        if (kind) expect([x.identifier, isValidIdentifier(country, kind, x.identifier)]).toEqual([x.identifier, true]);
        else expect(isValidLei(x.identifier)).toBe(true);
      }
      expect(c.specification.members_count).toBe(new Set(c.members.map((m) => m.member_id)).size);
      expect(c.members.length).toBeGreaterThanOrEqual(1);
      for (const m of c.members) {
        if (m.member_id % 2 === 1) expect((m.member_id + 1) / 2).toBeLessThanOrEqual(personPoolSize(id));
        else expect(m.member_id / 2).toBeLessThan(id);
      }
      expect(c.asMember?.id ?? null).toBe(isCorporateMember(id) ? companyMemberId(id) : null);
    }
  });

  it('spreads companies over many jurisdictions, names banks as banks, and mostly keeps them active', () => {
    const companies = Array.from({ length: 20_000 }, (_, i) => makeCompany(catalog, pool, 1, i + 1));
    expect(new Set(companies.map((c) => c.jurisdiction_id)).size).toBeGreaterThanOrEqual(35);
    const active = companies.filter((c) => c.status_id === 1).length / companies.length;
    expect(active).toBeGreaterThan(0.65);
    expect(active).toBeLessThan(0.75);
    const german = companies.filter((c) => c.jurisdiction_id === 276);
    const banks = german.filter((c) => c.search_name.split(' ').includes('bank'));
    expect(banks.length / german.length).toBeGreaterThan(0.015);
    const words = new Set(companies.flatMap((c) => c.search_name.split(' ')));
    expect(words.size).toBeGreaterThan(5000);
    expect(companies.some((c) => /[äöüéèæøå]/i.test(c.name))).toBe(true);
    const advanced = companies.filter((c) => c.members.length >= 10 || c.contacts.length >= 10).length;
    expect(advanced / companies.length).toBeGreaterThan(0.02);
  });
});

describe('generateBatch', () => {
  it('writes CSV lines with one field per COPY column', () => {
    const batch = generateBatch(catalog, pool, 1, 1, 300);
    expect(batch.rows.legal_entities).toBe(300);
    expect(batch.rows.members).toBe(personPoolSize(300) + 30); // persons plus companies ≡ 3 (mod 10)
    for (const table of COPY_TABLE_NAMES) {
      const lines = batch.text[table].split('\n').filter((l) => l.length > 0);
      expect(lines.length).toBe(batch.rows[table]);
      for (const line of lines) expect([table, csvFields(line).length]).toEqual([table, COPY_TABLES[table].length]);
    }
  });
});
