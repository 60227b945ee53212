import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  EmployeeRangeItemSchema,
  IndustryItemSchema,
  LocationItemSchema,
  ReferenceItemSchema,
} from '../../core/api/reference-items.ts';
import { loadReferenceData } from '../../db/reference/load-reference-data.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// The reference-data API (spec §7 "Reference data") through app.inject().

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await t?.close();
});

async function get(url: string) {
  const response = await t.app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json() };
}

/** A successful list call, checked against its item schema and its meta count. */
async function list<T extends z.ZodType>(url: string, item: T): Promise<z.output<T>[]> {
  const { status, body } = await get(url);
  expect(status, JSON.stringify(body)).toBe(200);
  const parsed = z.object({ data: z.array(item), meta: z.object({ count: z.number() }) }).parse(body);
  expect(parsed.meta.count).toBe(parsed.data.length);
  return parsed.data;
}

describe('GET /api/locations', () => {
  it('lists countries and states with their codes, names and translations', async () => {
    const all = await list('/api/locations', LocationItemSchema);
    const germany = all.find((l) => l.id === 276);
    expect(germany).toMatchObject({
      uri: 'germany',
      name: 'Germany',
      countryCode: 'DE',
      location_type_id: 1,
      flag: '🇩🇪',
    });
    expect(germany?.translations.map((tr) => tr.language_id)).toContain(41);
    // Spec §3: locations carry their aliases (ISO codes, other names).
    expect(germany?.aliases).toEqual(expect.arrayContaining(['DE', 'DEU']));
    expect(all.find((l) => l.countryCode === 'US' && l.name === 'California')?.aliases).toEqual(['US-CA']);
    expect(all.filter((l) => l.location_type_id === 1).length).toBeGreaterThanOrEqual(249);
  });

  it('filters by location_type_id and parent_id', async () => {
    const countries = await list('/api/locations?location_type_id=1', LocationItemSchema);
    expect(countries.length).toBeGreaterThanOrEqual(249);
    for (const c of countries) expect(c.location_type_id).toBe(1);

    const states = await list('/api/locations?parent_id=840', LocationItemSchema);
    expect(states.length).toBeGreaterThanOrEqual(50);
    for (const s of states) {
      expect(s).toMatchObject({ parent_id: 840, countryCode: 'US', location_type_id: 2, flag: '🇺🇸' });
      expect(s.parent_locations.map((p) => p.id)).toEqual([840]);
    }
    expect(await list('/api/locations?parent_id=840&location_type_id=1', LocationItemSchema)).toEqual([]);
  });

  it('names locations in the language asked for', async () => {
    const [germany] = (await list('/api/locations?location_type_id=1&lang=de', LocationItemSchema)).filter(
      (l) => l.id === 276,
    );
    expect(germany.name).toBe('Deutschland');
  });

  it('names states, cantons, provinces and emirates in German and French too', async () => {
    const named = async (lang: string) => {
      const all = await list(`/api/locations?location_type_id=2&lang=${lang}`, LocationItemSchema);
      return (code: string) => all.find((l) => l.aliases.includes(code))?.name;
    };
    const [en, de, fr] = [await named('en'), await named('de'), await named('fr')];
    expect([en('CH-GE'), de('CH-GE'), fr('CH-GE')]).toEqual(['Geneva', 'Genf', 'Genève']);
    expect([en('CH-LU'), de('CH-LU'), fr('CH-LU')]).toEqual(['Lucerne', 'Luzern', 'Lucerne']);
    expect([de('CH-TI'), de('CH-VD'), fr('CH-VD')]).toEqual(['Tessin', 'Waadt', 'Vaud']);
    expect([de('CA-BC'), fr('CA-BC'), fr('CA-NT')]).toEqual([
      'Britisch-Kolumbien',
      'Colombie-Britannique',
      'Territoires du Nord-Ouest',
    ]);
    expect([de('US-CA'), fr('US-CA')]).toEqual(['Kalifornien', 'Californie']);
    // US territories are ISO 3166-1 countries too: named like them.
    expect(de('US-VI')).toBe('Amerikanische Jungferninseln');
    expect(fr('AE-DU')).toBe('Dubaï');
  });

  it('brings the place names of a database loaded earlier up to date at start-up', async () => {
    const geneva = t.reference.locations.items.find((l) => l.aliases.includes('CH-GE'));
    if (!geneva) throw new Error('no Geneva');
    const german = t.reference.languageIds.de;
    const where = { entity: 'location', entity_id: geneva.id, language_id: german };
    await t.db.kysely
      .updateTable('translations')
      .set({ name: 'Geneva' })
      .where((eb) => eb.and(where))
      .execute();
    await loadReferenceData(t.db);
    const row = await t.db.kysely
      .selectFrom('translations')
      .select('name')
      .where((eb) => eb.and(where))
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Genf');
  });
});

describe('GET /api/industries', () => {
  it('gives each industry its parents and children, consistent with the hierarchy', async () => {
    const all = await list('/api/industries', IndustryItemSchema);
    const byId = new Map(all.map((i) => [i.id, i]));
    expect(all.length).toBe(21 + 88 + 272 + 615); // NACE Rev. 2 sections, divisions, groups and classes (ADR 0017)
    for (const industry of all) {
      for (const child of industry.child_industries) expect(byId.get(child.id)?.parent_id).toBe(industry.id);
      const parents = industry.parent_industries;
      expect(parents.length).toBe(industry.level - 1);
      if (industry.parent_id !== null) expect(parents.at(-1)?.id).toBe(industry.parent_id);
    }
  });

  it('filters by parent_id and level', async () => {
    const sectors = await list('/api/industries?level=1', IndustryItemSchema);
    expect(sectors.length).toBeGreaterThanOrEqual(20);
    for (const s of sectors) expect(s).toMatchObject({ level: 1, parent_id: null, parent_industries: [] });

    const sector = sectors[0];
    const children = await list(`/api/industries?parent_id=${sector.id}`, IndustryItemSchema);
    expect(children.map((c) => c.id).sort()).toEqual(sector.child_industries.map((c) => c.id).sort());
    for (const c of children) expect(c.parent_industries.map((p) => p.id)).toEqual([sector.id]);
  });
});

describe('GET the small reference lists', () => {
  it('statuses: id 1 is active, named per language', async () => {
    const statuses = await list('/api/statuses', ReferenceItemSchema);
    expect(statuses.find((s) => s.id === 1)).toMatchObject({ uri: 'active', name: 'Active' });
    const german = await list('/api/statuses?lang=de', ReferenceItemSchema);
    expect(german.find((s) => s.id === 1)?.name).toBe('Aktiv');
    const french = await list('/api/statuses?lang=fr', ReferenceItemSchema);
    expect(
      french
        .find((s) => s.id === 1)
        ?.translations.map((tr) => tr.language_id)
        .sort(),
    ).toEqual([t.reference.languageIds.de, t.reference.languageIds.en, t.reference.languageIds.fr].sort());
  });

  it.each([
    ['/api/location_types', ['country', 'subdivision']],
    ['/api/legal_entity_types', ['corporation', 'limited-liability-company']],
    ['/api/sizes', ['micro', 'small', 'medium', 'large']],
    ['/api/currencies', ['eur', 'usd']],
  ])('%s lists %j', async (url, uris) => {
    const items = await list(url, ReferenceItemSchema);
    expect(items.map((i) => i.uri)).toEqual(expect.arrayContaining(uris));
    for (const item of items) expect(item.name).not.toBe('');
  });

  it.each([
    ['/api/measures', ['square-metre', 'hectare', 'acre']],
    ['/api/real_estate_types', ['building', 'parcel']],
    ['/api/classes', ['class-a', 'class-c']],
    ['/api/land_use', ['residential', 'agricultural']],
    ['/api/land_types', ['forest', 'wetland']],
    ['/api/categories', ['residential', 'commercial']],
    ['/api/property_use', ['office', 'retail']],
    ['/api/neighborhoods', ['urban', 'rural']],
    ['/api/climate_types', ['tropical', 'polar']],
    ['/api/fuel_types', ['petrol', 'electric']],
    ['/api/building_material_types', ['concrete', 'wood']],
  ])('%s lists %j, translated into every language', async (url, uris) => {
    const items = await list(url, ReferenceItemSchema);
    expect(items.map((i) => i.uri)).toEqual(expect.arrayContaining(uris));
    const ids = Object.values(t.reference.languageIds).sort();
    for (const item of items) expect(item.translations.map((tr) => tr.language_id).sort()).toEqual(ids);
    const german = await list(`${url}?lang=de`, ReferenceItemSchema);
    expect(german.map((i) => i.id)).toEqual(items.map((i) => i.id));
    // Each item named in the language asked for (its German translation, not the English name).
    for (const [i, item] of german.entries()) {
      expect(item.name).toBe(item.translations.find((tr) => tr.language_id === t.reference.languageIds.de)?.name);
      expect(items[i].name).toBe(items[i].translations.find((tr) => tr.language_id === 41)?.name);
    }
  });

  it('lists the values the records store: the real-estate categories and the vehicles’ fuel types', async () => {
    const categories = await list('/api/categories?lang=fr', ReferenceItemSchema);
    expect(categories.find((c) => c.uri === 'residential')).toMatchObject({ id: 1, name: 'Résidentiel' });
    const fuels = await list('/api/fuel_types?lang=de', ReferenceItemSchema);
    expect(fuels.find((f) => f.uri === 'petrol')).toMatchObject({ id: 1, name: 'Benzin' });
    expect((await get('/api/measures?unknown=1')).status).toBe(400);
  });

  it('languages include English as language 41', async () => {
    const languages = await list('/api/languages', ReferenceItemSchema);
    expect(languages.find((l) => l.id === 41)?.name).toBe('English');
  });

  it('employee ranges carry their bounds', async () => {
    const ranges = await list('/api/employees', EmployeeRangeItemSchema);
    expect(ranges[0]).toMatchObject({ uri: '1-10', min_employees: 1, max_employees: 10 });
    expect(ranges.at(-1)?.max_employees).toBeNull();
  });
});

describe('reference-data parameters are validated', () => {
  it.each([
    ['/api/locations?location_type_id=abc', 'location_type_id'],
    ['/api/locations?parent_id=1.5', 'parent_id'],
    ['/api/locations?bogus=1', 'bogus'],
    ['/api/industries?level=9', 'level'],
    ['/api/industries?parent_id=', 'parent_id'],
    ['/api/sizes?lang=xx', 'lang'],
    ['/api/statuses?lang=en&lang=de', 'lang'],
    ['/api/currencies?x=1', 'x'],
  ])('%s → 400 naming %s', async (url, parameter) => {
    const { status, body } = await get(url);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'bad_request', details: { parameter } });
    expect(body.error.message).toContain(parameter);
  });
});
