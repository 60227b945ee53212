import { Validator } from '@seriousme/openapi-schema-validator';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FiltersV1Schema, FiltersV2Schema } from '../../core/api/describe-filters.ts';
import { LegalEntitiesResponseSchema, type LegalEntityItem } from '../../core/api/legal-entity-schemas.ts';
import { LegalEntityStatisticsSchema } from '../../core/api/legal-entity-statistics.ts';
import { commonNameWord } from '../support/name-words.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { TEMPLATE_SEED } from '../support/test-database.ts';

// The data API (spec §7 "Data") through app.inject() over the seeded test template.

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await t?.close();
});

const DATA = '/api/site/data/v1/legal_entities';

async function get(url: string) {
  const response = await t.app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

/** A successful legal_entities call, checked against its response schema. */
async function companies(query: string) {
  const response = await get(`${DATA}?${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return LegalEntitiesResponseSchema.parse(response.body);
}

const idsOf = (data: LegalEntityItem[]) => data.map((item) => item.legal_entities.id);

async function countWhere(condition: ReturnType<typeof sql>): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from legal_entities where ${condition}`.execute(
    t.db.kysely,
  );
  return r.rows[0].n;
}

describe('GET legal_entities: search', () => {
  it('returns the first page of all companies, newest registrations first', async () => {
    const { data, meta } = await companies('');
    expect(data).toHaveLength(20);
    expect(meta).toMatchObject({
      count: 20,
      total: TEMPLATE_SEED.companies,
      total_is_estimate: false,
      total_at_least: TEMPLATE_SEED.companies,
      total_is_lower_bound: false,
    });
    expect(meta.next).toEqual(expect.any(String));
    const dates = data.map((d) => d.legal_entities.registered_on ?? '0001-01-01');
    expect(dates).toEqual([...dates].sort().reverse());
    // Only the core section by default.
    for (const item of data) expect(Object.keys(item)).toEqual(['legal_entities']);
  });

  it('caps the page at count', async () => {
    expect((await companies('count=5')).data).toHaveLength(5);
    const { data, meta } = await companies('count=100');
    expect(data).toHaveLength(100);
    expect(new Set(idsOf(data)).size).toBe(100);
    expect(meta.count).toBe(100);
  });

  it('narrows by jurisdiction: every company is in it, and the total is the true count', async () => {
    const top = await sql<{ id: number; n: number }>`
      select jurisdiction_id as id, count(*)::int as n from legal_entities group by 1 order by 2 desc, 1 limit 2`.execute(
      t.db.kysely,
    );
    const [first, second] = top.rows;
    const one = await companies(`jurisdiction=${first.id}&count=100`);
    expect(one.meta.total).toBe(first.n);
    expect(one.data.length).toBe(Math.min(first.n, 100));
    for (const item of one.data) expect(item.legal_entities.jurisdiction.registry_location_id).toBe(first.id);

    const both = await companies(`jurisdiction=${first.id}|${second.id}&count=100`);
    expect(both.meta.total).toBe(first.n + second.n);
    for (const item of both.data) {
      expect([first.id, second.id]).toContain(item.legal_entities.jurisdiction.registry_location_id);
    }
  });

  it('a country takes in the companies of its states (US companies are registered in a state)', async () => {
    const us = await sql<{ n: number }>`
      select count(*)::int as n from legal_entities b join locations l on l.id = b.jurisdiction_id
      where l.id = 840 or l.parent_id = 840`.execute(t.db.kysely);
    expect(us.rows[0].n).toBeGreaterThan(0);
    const res = await companies('jurisdiction=840&count=100');
    expect(res.meta.total).toBe(us.rows[0].n);
    const states = await sql<{ id: number }>`select id from locations where parent_id = 840`.execute(t.db.kysely);
    const inUs = new Set([840, ...states.rows.map((r) => Number(r.id))]);
    for (const item of res.data) expect(inUs.has(item.legal_entities.jurisdiction.registry_location_id)).toBe(true);
  });

  it('combines filters (AND) and checks registration-date ranges by year', async () => {
    const expected = await countWhere(sql`status_id = 1 and registered_on between '2015-01-01' and '2018-12-31'`);
    expect(expected).toBeGreaterThan(0);
    const { data, meta } = await companies(
      'status=1&dates[registration]:from=2015&dates[registration]:to=2018&count=100',
    );
    expect(meta.total).toBe(expected);
    for (const { legal_entities: le } of data) {
      expect(le.is_active).toBe(true);
      expect(le.registered_on! >= '2015-01-01' && le.registered_on! <= '2018-12-31').toBe(true);
    }
  });

  it('filters by size uri and identifier type availability', async () => {
    const small = await companies('size=small&count=100');
    expect(small.meta.total).toBe(await countWhere(sql`size_id = (select id from sizes where uri = 'small')`));
    for (const item of small.data) expect(item.legal_entities.types_by_size?.uri).toBe('small');

    const withWebsite = await companies('contacts[website]:is_known=&count=5&sections=le_contacts');
    for (const item of withWebsite.data) expect(item.contacts?.some((c) => c.type.uri === 'website')).toBe(true);
  });

  it('pages with the keyset cursor: the next page follows on, with no overlap', async () => {
    const first = await companies('count=10');
    const second = await companies(`count=10&after=${first.meta.next}`);
    const both = await companies('count=20');
    expect(second.data).toHaveLength(10);
    const a = idsOf(first.data);
    const b = idsOf(second.data);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect([...a, ...b]).toEqual(idsOf(both.data));
    expect(second.meta.next).not.toBe(first.meta.next);
  });

  it('walks every company exactly once by following next', async () => {
    const seen: number[] = [];
    let after = '';
    for (let pages = 0; pages < 10; pages++) {
      const { data, meta } = await companies(`count=100&sort=name_asc${after ? `&after=${after}` : ''}`);
      seen.push(...idsOf(data));
      if (!meta.next) break;
      after = meta.next;
    }
    expect(seen).toHaveLength(TEMPLATE_SEED.companies);
    expect(new Set(seen).size).toBe(TEMPLATE_SEED.companies);
  });

  it('pages a name query by relevance: following next gives every match once, in the order of one page', async () => {
    const common = await commonNameWord(t);
    const long = await commonNameWord(t, 6);
    expect([common.companies, long.companies]).toEqual([expect.any(Number), expect.any(Number)]);
    expect(Math.min(common.companies, long.companies)).toBeGreaterThan(6);
    const word = common.word;
    // Spelt right, and a long word with a letter dropped (ranked by closeness to the corrected spelling).
    for (const q of [word, long.word, long.word.slice(0, 2) + long.word.slice(3)]) {
      const whole = await companies(`q=${q}&count=100`);
      expect(whole.meta.next).toBeNull();
      expect(whole.data.length, q).toBeGreaterThan(6);
      const walked: number[] = [];
      let after = '';
      for (let pages = 0; pages < 30; pages++) {
        const { data, meta } = await companies(`q=${q}&count=3${after ? `&after=${after}` : ''}`);
        walked.push(...idsOf(data));
        if (!meta.next) break;
        after = meta.next;
      }
      expect(walked, q).toEqual(idsOf(whole.data));
    }
    // A cursor of another order is a 400 naming it.
    const sorted = await companies(`q=${word}&count=5&sort=name_asc`);
    const wrong = await get(`${DATA}?q=${word}&count=5&after=${sorted.meta.next}`);
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain('after');
  });

  it('finds a company by its name', async () => {
    const row = await t.db.kysely
      .selectFrom('legal_entities')
      .select(['id', 'name'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const { data } = await companies(`q=${encodeURIComponent(row.name)}&count=10`);
    expect(idsOf(data)).toContain(row.id);
  });
});

describe('GET legal_entities: by id', () => {
  it('le_le_id returns exactly those companies, in the order given', async () => {
    const rows = await t.db.kysely.selectFrom('legal_entities').select('id').orderBy('id').limit(4).execute();
    const ids = [rows[3].id, rows[0].id, rows[2].id];
    const { data, meta } = await companies(`le_le_id=${ids.join('|')}`);
    expect(idsOf(data)).toEqual(ids);
    expect(meta).toEqual({
      count: 3,
      total: 3,
      total_is_estimate: false,
      total_at_least: 3,
      total_is_lower_bound: false,
      next: null,
    });
  });

  it('le_le_id leaves out ids that name no company', async () => {
    const row = await t.db.kysely.selectFrom('legal_entities').select('id').orderBy('id').executeTakeFirstOrThrow();
    const { data } = await companies(`le_le_id=${row.id}|999999999`);
    expect(idsOf(data)).toEqual([row.id]);
  });

  it('id returns one company, and 404 when there is none', async () => {
    const row = await t.db.kysely.selectFrom('legal_entities').select(['id', 'uri', 'name']).executeTakeFirstOrThrow();
    const { data } = await companies(`id=${row.id}`);
    expect(data).toHaveLength(1);
    expect(data[0].legal_entities).toMatchObject({ id: row.id, uri: row.uri, name: row.name });
    expect(data[0].legal_entities.href).toBe(`/companies/details/${encodeURIComponent(row.uri)}/`);

    const missing = await get(`${DATA}?id=999999999`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'not_found', details: { parameter: 'id' } });
  });

  it('returns every requested section, matching the database', async () => {
    // A company with identifiers, industries and members.
    const r = await sql<{ id: number }>`
      select le.id from legal_entities le
      where exists (select 1 from legal_entity_identifiers i where i.legal_entity_id = le.id)
        and exists (select 1 from legal_entity_industries i where i.legal_entity_id = le.id and i.is_primary)
        and exists (select 1 from legal_entity_members m where m.legal_entity_id = le.id)
      order by le.id limit 1`.execute(t.db.kysely);
    const id = r.rows[0].id;
    const all =
      'le_legal_entities|le_names|le_addresses|le_dates|le_identifiers|le_industries|le_indicators|le_shares|le_specifications|le_statuses|le_contacts|le_members';
    const { data } = await companies(`id=${id}&sections=${all}`);
    const item = data[0];
    expect(Object.keys(item).sort()).toEqual(
      [
        'legal_entities',
        'names',
        'addresses',
        'dates',
        'identifiers',
        'industries',
        'indicators',
        'shares',
        'specifications',
        'statuses',
        'contacts',
        'members',
      ].sort(),
    );

    const identifiers = await t.db.kysely
      .selectFrom('legal_entity_identifiers')
      .select(['identifier'])
      .where('legal_entity_id', '=', id)
      .orderBy('identifier_type_id')
      .orderBy('position')
      .execute();
    expect(item.identifiers?.map((i) => i.identifier)).toEqual(identifiers.map((i) => i.identifier));
    for (const i of item.identifiers ?? [])
      expect(t.reference.identifierTypes.byId.get(i.type.id)?.uri).toBe(i.type.uri);

    const primary = item.industries?.filter((i) => i.industry_indicators.some((x) => x.type === 'is_primary')) ?? [];
    expect(primary).toHaveLength(1);
    expect(primary[0].industry_id).toBe(item.legal_entities.primary_industry?.id);

    const memberCount = await sql<{ n: number }>`
      select count(*)::int as n from legal_entity_members where legal_entity_id = ${id}`.execute(t.db.kysely);
    expect(item.members).toHaveLength(memberCount.rows[0].n);
  });

  it('chooses the status by the spec rule (id 1, else the first named) and names it in the language asked', async () => {
    const r = await sql<{ id: number }>`
      select legal_entity_id as id from legal_entity_statuses group by 1 having count(*) > 1 order by 1 limit 1`.execute(
      t.db.kysely,
    );
    const any = await t.db.kysely
      .selectFrom('legal_entities')
      .select('id')
      .where('status_id', '=', 1)
      .executeTakeFirstOrThrow();
    const ids = [...r.rows.map((row) => row.id), any.id];
    const { data } = await companies(`le_le_id=${ids.join('|')}&sections=le_statuses`);
    for (const { legal_entities: le, statuses } of data) {
      expect(statuses).toEqual(le.statuses);
      const chosen = le.statuses.find((s) => s.status_id === 1) ?? le.statuses[0];
      expect(le.status_name).toBe(chosen?.status_name ?? null);
      expect(le.is_active).toBe(chosen?.status_id === 1);
    }
    const german = await companies(`id=${any.id}&lang=de`);
    expect(german.data[0].legal_entities.status_name).toBe('Aktiv');
  });
});

describe('GET legal_entities: bad parameters are a 400 that names them', () => {
  const cases: [string, string][] = [
    ['count=0', 'count'],
    ['count=101', 'count'],
    ['count=abc', 'count'],
    ['sections=le_nope', 'sections'],
    ['sections=le_identifiers|le_nope', 'sections'],
    ['jurisdiction=abc', 'jurisdiction'],
    ['jurisdiction=99999999', 'jurisdiction'],
    ['dates[registration]:from=20x0', 'dates[registration]:from'],
    ['dates[nope]:from=2020', 'dates[nope]:from'],
    ['bogus=1', 'bogus'],
    ['le_le_id=1|x', 'le_le_id'],
    ['sort=nope', 'sort'],
    ['page=0', 'page'],
    ['after=!!', 'after'],
    ['lang=xx', 'lang'],
    ['id=1&jurisdiction=276', 'jurisdiction'],
    ['id=1&le_le_id=2', 'le_le_id'],
  ];
  it.each(cases)('%s → 400 naming %s', async (query, parameter) => {
    const { status, body } = await get(`${DATA}?${query}`);
    expect(status).toBe(400);
    expect(body.error.code).toBe('bad_request');
    expect(body.error.details.parameter).toBe(parameter);
    expect(body.error.message).toContain(parameter);
  });

  it('lists every bad parameter in details', async () => {
    const { body } = await get(`${DATA}?bogus=1&jurisdiction=abc`);
    expect(body.error.details.issues.map((i: { parameter: string }) => i.parameter)).toEqual(['bogus', 'jurisdiction']);
  });
});

describe('GET legal_entities/filters', () => {
  it('v1 describes every declared filter with its values or types', async () => {
    const { status, body } = await get(`${DATA}/filters`);
    expect(status).toBe(200);
    const { data, meta } = FiltersV1Schema.parse(body);
    expect(data.map((f) => f.field)).toEqual([
      'jurisdiction',
      'industry',
      'status',
      'size',
      'employees',
      'kind',
      'group_of',
      'ultimate_parent_in',
      'dates',
      'identifiers',
      'contacts',
      'addresses',
      'indicators',
      'names',
    ]);
    const jurisdiction = data.find((f) => f.field === 'jurisdiction');
    expect(jurisdiction?.kind === 'reference' && jurisdiction.values.find((v) => v.id === 276)?.name).toBe('Germany');
    const dates = data.find((f) => f.field === 'dates');
    expect(
      dates?.kind === 'typed_date_range' && dates.types.find((x) => x.uri === 'registration')?.parameters,
    ).toContain('dates[registration]:from');
    expect(meta.sorts.find((s) => s.default)?.key).toBe('registration_date_desc');
  });

  it('v1 narrows to the fields asked for, translated, and refuses unknown ones', async () => {
    const { body } = await get(`${DATA}/filters?field=status|size&lang=de`);
    const { data } = FiltersV1Schema.parse(body);
    expect(data.map((f) => f.field)).toEqual(['status', 'size']);
    expect(data[0].kind === 'reference' && data[0].values.find((v) => v.id === 1)?.name).toBe('Aktiv');
    const bad = await get(`${DATA}/filters?field=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('field');
  });

  it('v1 values are accepted by the search', async () => {
    const { data } = FiltersV1Schema.parse((await get(`${DATA}/filters?field=size|employees|kind`)).body);
    for (const filter of data) {
      if (filter.kind !== 'reference') continue;
      const value = filter.values[0][filter.value_key];
      await companies(`${filter.field}=${value}&count=1`);
    }
  });

  it('v2 lists controls whose parameters the search accepts', async () => {
    const { status, body } = await get('/api/site/v2/legal-entities/filters/');
    expect(status).toBe(200);
    const { data } = FiltersV2Schema.parse(body);
    expect(data.groups.map((g) => g.group)).toEqual([
      'company',
      'dates',
      'identifiers',
      'contacts',
      'addresses',
      'indicators',
      'names',
    ]);
    const controls = data.groups.flatMap((g) => g.filters);
    expect(controls.find((c) => c.parameter === 'industry')?.control).toBe('tree_select');
    for (const control of controls) {
      const query =
        'options' in control
          ? `${control.parameter}=${control.options[0].value}`
          : control.control === 'date_range'
            ? `${control.from}=2000&${control.to}=2020-06`
            : control.control === 'number_range'
              ? `${control.from}=1&${control.to}=100`
              : control.control === 'availability'
                ? `${control.is_known}=`
                : control.control === 'text'
                  ? // A value every text control takes: words, an identifier, or a company id (group_of).
                    `${control.parameter}=1`
                  : `${control.parameter}=true`;
      await companies(`${query}&count=1`);
    }
  });
});

describe('GET legal_entities/statistics', () => {
  it('breaks all companies down; each breakdown sums to the total', async () => {
    const { status, body } = await get(`${DATA}/statistics`);
    expect(status).toBe(200);
    const stats = LegalEntityStatisticsSchema.parse(body.data);
    expect(stats.total).toBe(TEMPLATE_SEED.companies);
    for (const breakdown of [stats.by_jurisdiction, stats.by_status, stats.by_sector, stats.by_registration_year]) {
      const sum = breakdown.buckets.reduce((s, b) => s + b.count, 0) + breakdown.other + breakdown.unknown;
      expect(sum).toBe(stats.total);
    }
    expect(stats.by_jurisdiction.buckets.length).toBeLessThanOrEqual(30);
    const top = await sql<{ id: number; n: number }>`
      select jurisdiction_id as id, count(*)::int as n from legal_entities group by 1 order by 2 desc, 1 limit 1`.execute(
      t.db.kysely,
    );
    expect(stats.by_jurisdiction.buckets[0]).toMatchObject({ id: top.rows[0].id, count: top.rows[0].n });
    for (const sector of stats.by_sector.buckets) expect(t.reference.industries.byId.get(sector.id)?.level).toBe(1);
    expect(stats.by_status.buckets.find((b) => b.id === 1)?.count).toBe(await countWhere(sql`status_id = 1`));
  });

  it('is counted once and then served from memory', async () => {
    const first = await get(`${DATA}/statistics`);
    const second = await get(`${DATA}/statistics?lang=fr`);
    expect(second.body.meta.computed_at).toBe(first.body.meta.computed_at);
    expect(second.body.data.total).toBe(first.body.data.total);
  });
});

describe('GET /api/openapi.json and /api/docs', () => {
  it('is a valid OpenAPI 3.1 document with every route', async () => {
    const { status, body } = await get('/api/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\.1\.\d+$/);
    const validator = new Validator();
    const result = await validator.validate(body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        DATA,
        `${DATA}/filters`,
        '/api/site/v2/legal-entities/filters/',
        `${DATA}/statistics`,
        '/api/locations',
        '/api/location_types',
        '/api/industries',
        '/api/legal_entity_types',
        '/api/sizes',
        '/api/statuses',
        '/api/employees',
        '/api/currencies',
        '/api/languages',
      ]),
    );
    const parameters = body.paths[DATA].get.parameters.map((p: { name: string }) => p.name);
    expect(parameters).toEqual(
      expect.arrayContaining([
        'count',
        'sections',
        'le_le_id',
        'id',
        'after',
        'jurisdiction',
        'dates[registration]:from',
      ]),
    );
  });

  it('documents only routes that exist, and every $ref resolves', async () => {
    const { body } = await get('/api/openapi.json');
    for (const [path, operations] of Object.entries(
      body.paths as Record<string, Record<string, { security?: unknown }>>,
    )) {
      for (const [method, operation] of Object.entries(operations)) {
        const url = path.replace(/\{[^}]+\}/g, '1');
        const response = await t.app.inject({ method: method.toUpperCase() as 'GET', url });
        if (method === 'get' && !operation.security && url === path) expect(response.statusCode, path).toBe(200);
        // Signed-in and body-taking routes answer a bare call with 400/401, never "no route".
        else expect(response.json().error?.message ?? '', `${method} ${path}`).not.toMatch(/^No route/);
      }
    }
    const refs = JSON.stringify(body).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const [, section, name] = /#\/components\/(schemas|responses)\/([^"]+)/.exec(ref) ?? [];
      expect(body.components[section]?.[name], ref).toBeDefined();
    }
  });

  it('serves browsable docs that load nothing from the internet', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('/api/openapi.json');
    // How to use the generated TypeScript client (clients/typescript), escaped as text.
    expect(page.body).toContain('<h2>TypeScript client</h2>');
    expect(page.body).toContain('createRegistraClient({ baseUrl: &#x27;https://registra.example&#x27;');
    expect(page.body).not.toMatch(/(src|href)="https?:/);
    const assets = [...page.body.matchAll(/(?:src|href)="(\/api\/docs\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const response = await t.app.inject({ method: 'GET', url: asset });
      expect(response.statusCode, asset).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/package.json' })).statusCode).toBe(404);
  });
});
