import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mod97 } from '../../core/identifiers/check-digits.ts';
import { runImport } from '../../core/imports/run-import.ts';
import { IMPORT_SOURCES } from '../../core/imports/sources/index.ts';
import { controlledBy, groupPage, ownershipOf } from '../../core/ownership/ownership.ts';
import { refreshOwnershipTree } from '../../core/ownership/ownership-tree.ts';
import {
  CH,
  CHILD,
  GROUP,
  GROUP_CHILDREN,
  MIDDLE,
  OWNERSHIP_RECORDS,
  PSC,
  RR_CSV,
  TOP,
  writeLeiFile,
} from '../support/ownership-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser } from '../support/users.ts';

// The ownership graph (ADR 0038) on the real fixtures: GLEIF Level 2 relationships
// (rr-cdf.first50.csv) between companies made from the real LEI-CDF record under the fixture's
// LEIs (CONSTRUCTED: the LEI records, never presented as real), and the Companies House PSC sample.

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dir = await mkdtemp(join(tmpdir(), 'registra-ownership-'));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

/** CONSTRUCTED LEI records (tests/support/ownership-fixtures.ts), in this test's directory. */
const leiFile = (records: { lei: string; name: string }[]) =>
  writeLeiFile(join(dir, `lei-${records[0]?.lei}.xml`), records);

async function idOf(scheme: string, key: string): Promise<number> {
  const row = await t.db.kysely
    .selectFrom('company_keys')
    .select('legal_entity_id')
    .where('scheme', '=', scheme)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return Number(row.legal_entity_id);
}

describe('GLEIF relationships make the chain up and the group below', () => {
  it('walks up to a parent Registra does not have yet, then further once it is imported', async () => {
    await runImport(t.db, IMPORT_SOURCES['gleif-lei'], [await leiFile(OWNERSHIP_RECORDS)]);
    await runImport(t.db, IMPORT_SOURCES['gleif-rr'], [RR_CSV]);
    const child = await idOf('lei', CHILD);
    const before = await ownershipOf(t.db, child);
    expect(before.chain.map((l) => [l.owner.kind, l.owner.kind === 'person' ? null : l.owner.lei])).toEqual([
      ['company', MIDDLE],
      ['unknown_company', TOP],
    ]);
    expect(before.chainEnd).toBe('missing_link');
    expect(before.chain[0]).toMatchObject({
      relation: 'direct_parent',
      validation: 'PUBLISHED',
      // The relationship's own period (RELATIONSHIP_PERIOD), not the accounting period.
      start: '2019-08-23',
      current: true,
      sources: [{ source: 'gleif', reference: `${CHILD}>${MIDDLE}` }],
    });
    expect(before.ultimateParent?.owner).toMatchObject({ kind: 'unknown_company', lei: TOP });

    // The top arrives: the relationships imported before it now find it.
    await runImport(t.db, IMPORT_SOURCES['gleif-lei'], [await leiFile([{ lei: TOP, name: 'TOP CONSOLIDATED AG' }])]);
    const after = await ownershipOf(t.db, child);
    expect(after.chain.map((l) => (l.owner.kind === 'company' ? l.owner.name : null))).toEqual([
      'MIDDLE GROUP PLC',
      'TOP CONSOLIDATED AG',
    ]);
    expect(after.chainEnd).toBe('ultimate_parent');
    expect(after.ultimateParent?.owner).toMatchObject({ kind: 'company', lei: TOP });
    expect(after.ultimateParentDiffers).toBe(false);
    const top = await ownershipOf(t.db, await idOf('lei', TOP));
    expect(top).toMatchObject({ chain: [], chainEnd: 'no_parent', directSubsidiaries: 1, groupSize: 2 });
  });

  it('a new parent is a change in the feed (monitoring and webhooks read the same changes, ADR 0027)', async () => {
    const user = await createSignedInUser(t.db, 'ownership-feed');
    const child = await idOf('lei', CHILD);
    const response = await t.app.inject({
      url: `/api/changes?since=0&company=${child}&field=members`,
      headers: { cookie: user.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toContainEqual(
      expect.objectContaining({
        old_value: null,
        new_value: expect.objectContaining({ lei: MIDDLE, position: 'parent_company' }),
        source: 'gleif-rr',
      }),
    );
  });

  it('pages a group level by level in name order', async () => {
    const parent = await idOf('lei', GROUP);
    const first = await groupPage(t.db, parent, { limit: 3 });
    expect(first.total).toBe(7);
    expect(first.nodes.map((n) => n.company.name)).toEqual([
      'GROUP SUBSIDIARY A LIMITED',
      'GROUP SUBSIDIARY B LIMITED',
      'GROUP SUBSIDIARY C LIMITED',
    ]);
    expect(first.nodes[0]).toMatchObject({ parentId: parent, depth: 1, childCount: 0 });
    expect(first.nodes[0]?.sources[0]).toMatchObject({ source: 'gleif' });
    expect(first.previous).toBeNull();
    const names = (page: { nodes: { company: { name: string } }[] }) => page.nodes.map((n) => n.company.name);
    const forward = [names(first)];
    let last = first;
    for (let cursor = first.next; cursor; ) {
      last = await groupPage(t.db, parent, { limit: 3, cursor });
      forward.push(names(last));
      cursor = last.next;
    }
    expect(forward.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(forward[2]).toEqual(['GROUP SUBSIDIARY G LIMITED']);
    // And back: each page's previous cursor gives the page before it, the first one says there is none.
    const backward = [names(last)];
    let page = last;
    while (page.previous) {
      page = await groupPage(t.db, parent, { limit: 3, cursor: page.previous });
      backward.unshift(names(page));
    }
    expect(backward).toEqual(forward);
    expect(page.previous).toBeNull();
    // A page reached backwards goes forward again.
    expect(names(await groupPage(t.db, parent, { limit: 3, cursor: page.next }))).toEqual(forward[1]);
    await expect(
      groupPage(t.db, parent, { limit: 3, cursor: Buffer.from('["A",1,"sideways"]').toString('base64url') }),
    ).rejects.toThrow(/cursor/);
    // A company outside the group is not browsed through it.
    expect(await groupPage(t.db, parent, { parentId: await idOf('lei', MIDDLE), limit: 3 })).toEqual({
      nodes: [],
      next: null,
      previous: null,
      total: 0,
    });
  });

  it('filters search by "in the group of" (any depth) and "ultimate parent in"', async () => {
    const ids = async (query: string) => {
      const response = await t.app.inject({ url: `/api/site/data/v1/legal_entities?${query}&count=100` });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().data as { legal_entities: { id: number } }[])
        .map((r) => Number(r.legal_entities.id))
        .sort((a, b) => a - b);
    };
    const group = await idOf('lei', GROUP);
    const children = await Promise.all(GROUP_CHILDREN.map((lei) => idOf('lei', lei)));
    expect(await ids(`group_of=${group}`)).toEqual([...children].sort((a, b) => a - b));
    // Any depth: the top's group holds the middle company and the child below it.
    const top = await idOf('lei', TOP);
    expect(await ids(`group_of=${top}`)).toEqual(
      [await idOf('lei', MIDDLE), await idOf('lei', CHILD)].sort((a, b) => a - b),
    );
    const country = await t.db.kysely
      .selectFrom('legal_entities')
      .select('jurisdiction_id')
      .where('id', '=', top)
      .executeTakeFirstOrThrow();
    const inCountry = await ids(`ultimate_parent_in=${country.jurisdiction_id}`);
    expect(inCountry).toEqual(expect.arrayContaining([...children, await idOf('lei', CHILD)]));
    // A top is no company's subsidiary.
    expect(inCountry).not.toContain(top);
    expect(inCountry).not.toContain(group);
    const other = await t.db.kysely
      .selectFrom('locations')
      .select('id')
      .where('uri', '=', 'germany')
      .executeTakeFirst();
    if (other) expect(await ids(`ultimate_parent_in=${other.id}`)).toEqual([]);
    expect((await t.app.inject({ url: '/api/site/data/v1/legal_entities?group_of=abc' })).statusCode).toBe(400);
  });

  it('ends the walk at a cycle and keeps a taken-down company out', async () => {
    const a = await idOf('lei', GROUP_CHILDREN[0] as string);
    const b = await idOf('lei', GROUP_CHILDREN[1] as string);
    // CONSTRUCTED: the group's parent consolidated by one of its own subsidiaries (GLEIF data has such loops).
    await sql`insert into lei_relationships (start_lei, end_lei, relationship_type, relationship_status, registration_status)
      values (${GROUP}, ${GROUP_CHILDREN[0]}, 'IS_DIRECTLY_CONSOLIDATED_BY', 'ACTIVE', 'PUBLISHED')`.execute(
      t.db.kysely,
    );
    const parent = await idOf('lei', GROUP);
    await refreshOwnershipTree(t.db, [parent]);
    const cycled = await ownershipOf(t.db, b);
    expect(cycled.chainEnd).toBe('cycle');
    expect(cycled.chain.map((l) => (l.owner.kind === 'company' ? l.owner.id : null))).toEqual([parent, a]);
    await sql`delete from lei_relationships where start_lei = ${GROUP}`.execute(t.db.kysely);
    await refreshOwnershipTree(t.db, [parent]);
    expect((await ownershipOf(t.db, b)).chainEnd).toBe('ultimate_parent');

    await sql`update legal_entities set taken_down_at = now() where id = ${a}`.execute(t.db.kysely);
    try {
      const page = await groupPage(t.db, parent, { limit: 10 });
      expect(page.total).toBe(6);
      expect(page.nodes.map((n) => n.company.id)).not.toContain(a);
      expect((await ownershipOf(t.db, parent)).groupSize).toBe(6);
      await expect(ownershipOf(t.db, a)).rejects.toThrow(/No company/);
    } finally {
      await sql`update legal_entities set taken_down_at = null where id = ${a}`.execute(t.db.kysely);
    }
  });

  it('names reporting exceptions with their reasons', async () => {
    const child = await idOf('lei', CHILD);
    await sql`insert into lei_reporting_exceptions (lei, exception_category, reasons, reference)
      values (${CHILD}, 'ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT', '{NON_CONSOLIDATING}', null)`.execute(t.db.kysely);
    const o = await ownershipOf(t.db, child);
    expect(o.exceptions).toEqual([
      {
        relation: 'ultimate_parent',
        reasons: ['NON_CONSOLIDATING'],
        sources: [expect.objectContaining({ source: 'gleif' })],
      },
    ]);
  });
});

describe('persons with significant control', () => {
  it('are the beneficial owners; a corporate one with a majority is the parent', async () => {
    await runImport(t.db, IMPORT_SOURCES['ch-companies'], [CH]);
    await runImport(t.db, IMPORT_SOURCES['ch-psc'], [PSC]);
    const company = await idOf('register', 'GB/RA000585/08209948');
    const owners = await ownershipOf(t.db, company);
    expect(owners.beneficialOwners).toEqual([
      expect.objectContaining({
        owner: expect.objectContaining({ kind: 'person', name: 'Marc Anthony Feldman', birth: '1961-12' }),
        relation: 'beneficial_owner',
        natures: ['ownership-of-shares-75-to-100-percent'],
        shareMin: 75,
        shareMax: 100,
        current: true,
        sources: [expect.objectContaining({ source: 'psc' })],
      }),
    ]);
    const person = owners.beneficialOwners[0]?.owner;
    if (person?.kind !== 'person' || person.id === null) throw new Error('expected a person');
    expect(await controlledBy(t.db, person.id)).toEqual([
      expect.objectContaining({ company: expect.objectContaining({ id: company }), shareMin: 75, current: true }),
    ]);

    // The sample's corporate PSC moved onto 08209948 and naming 12778855 (both in the companies sample).
    const [, , corporate] = (await readFile(PSC, 'utf8')).split('\n');
    const path = join(dir, 'psc-corporate.jsonl');
    await writeFile(
      path,
      `${(corporate as string).replace('"company_number":"07434180"', '"company_number":"08209948"').replace('00686734', '12778855')}\n`,
    );
    await runImport(t.db, IMPORT_SOURCES['ch-psc'], [path]);
    const owner = await idOf('register', 'GB/RA000585/12778855');
    const o = await ownershipOf(t.db, company);
    expect(o.chain).toHaveLength(1);
    expect(o.chain[0]).toMatchObject({
      owner: { kind: 'company', id: owner },
      shareMin: 75,
      sources: [expect.objectContaining({ source: 'psc' })],
    });
    expect((await groupPage(t.db, owner, { limit: 5 })).nodes.map((n) => n.company.id)).toEqual([company]);
  });
});

/** GENERATED LEIs (valid check digits) of a chain ten deep: level 0 at the bottom, level 10 its top. */
const GENERATED_LEIS = Array.from({ length: 11 }, (_, i) => {
  const base = `GENERATED00000${String(i).padStart(4, '0')}`;
  return `${base}${String(98 - mod97(`${base}00`)).padStart(2, '0')}`;
});

/** A GLEIF relationship file (the golden-copy CSV's columns, rr-cdf.first50.csv) of active, published relationships. */
async function rrFile(name: string, rows: [start: string, end: string, type: string][]): Promise<string> {
  const header = (await readFile(RR_CSV, 'utf8')).split('\r\n')[0] as string;
  const columns = header.split(',');
  const line = ([start, end, type]: [string, string, string]) =>
    columns
      .map((c) =>
        c === 'Relationship.StartNode.NodeID'
          ? start
          : c === 'Relationship.EndNode.NodeID'
            ? end
            : c.endsWith('NodeIDType')
              ? 'LEI'
              : c === 'Relationship.RelationshipType'
                ? type
                : c === 'Relationship.RelationshipStatus'
                  ? 'ACTIVE'
                  : c === 'Registration.RegistrationStatus'
                    ? 'PUBLISHED'
                    : '',
      )
      .join(',');
  const path = join(dir, name);
  await writeFile(path, `${header}\n${rows.map(line).join('\n')}\n`);
  return path;
}

/** The published BODS 0.4 schema (tests/fixtures/bods-0.4/README.md), draft 2020-12. */
function bodsValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const folder = new URL('../fixtures/bods-0.4/', import.meta.url);
  // The schema names its parts `urn:components`, …: URNs without a namespace, which ajv cannot
  // resolve; read under https ids instead (the files stay as published).
  const read = (file: string) =>
    JSON.parse(readFileSync(new URL(file, folder), 'utf8').replaceAll('"urn:', '"https://bods.invalid/'));
  for (const file of ['components.json', 'entity-record.json', 'person-record.json', 'relationship-record.json'])
    ajv.addSchema(read(file));
  return ajv.compile(read('statement.json'));
}

async function bodsOf(id: number) {
  const response = await t.app.inject({ url: `/api/site/data/v1/legal_entities/${id}/ownership` });
  expect(response.statusCode).toBe(200);
  const statements = response.json() as { recordType: string; recordDetails: Record<string, unknown> }[];
  const validate = bodsValidator();
  expect(validate(statements), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  return statements;
}

describe('GET /api/site/data/v1/legal_entities/{id}/ownership', () => {
  it('answers BODS 0.4 statements that validate against the published schema, for the GLEIF and PSC fixtures', async () => {
    const chain = await bodsOf(await idOf('lei', CHILD));
    // The company, its parent and the top; two direct steps and the stated ultimate parent; the exception.
    expect(chain.filter((s) => s.recordType === 'entity')).toHaveLength(3);
    const relationships = chain.filter((s) => s.recordType === 'relationship');
    expect(relationships).toHaveLength(4);
    expect(relationships.at(-1)?.recordDetails.interestedParty).toMatchObject({
      reason: 'interestedPartyExemptFromDisclosure',
    });
    // The snapshot again: the persons it lists replace the corporate one of the test above.
    await runImport(t.db, IMPORT_SOURCES['ch-psc'], [PSC]);
    const psc = await bodsOf(await idOf('register', 'GB/RA000585/08209948'));
    const person = psc.find((s) => s.recordType === 'person');
    expect(person?.recordDetails).toMatchObject({
      names: [{ fullName: 'Marc Anthony Feldman' }],
      birthDate: '1961-12',
    });
    const interests = psc.flatMap((s) =>
      s.recordType === 'relationship' ? (s.recordDetails.interests as object[]) : [],
    );
    expect(interests).toContainEqual(
      expect.objectContaining({
        type: 'shareholding',
        share: { minimum: 75, maximum: 100 },
        beneficialOwnershipOrControl: true,
      }),
    );
    expect((await t.app.inject({ url: '/api/site/data/v1/legal_entities/999999999/ownership' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/site/data/v1/legal_entities/x/ownership' })).statusCode).toBe(400);
  });

  it('walks a generated chain ten deep, and its statements validate too', async () => {
    // GENERATED: eleven companies, each directly consolidated by the next, as GLEIF's golden-copy CSV states it.
    const leis = GENERATED_LEIS;
    await runImport(t.db, IMPORT_SOURCES['gleif-lei'], [
      await leiFile(leis.map((lei, i) => ({ lei, name: `GENERATED LEVEL ${i} LIMITED` }))),
    ]);
    const path = await rrFile(
      'rr-generated.csv',
      leis.slice(0, -1).map((lei, i) => [lei, leis[i + 1] as string, 'IS_DIRECTLY_CONSOLIDATED_BY']),
    );
    expect(await runImport(t.db, IMPORT_SOURCES['gleif-rr'], [path])).toMatchObject({ new: 10, rejected: 0 });
    const bottom = await idOf('lei', leis[0] as string);
    const o = await ownershipOf(t.db, bottom);
    expect(o.chain).toHaveLength(10);
    expect(o.chainEnd).toBe('ultimate_parent');
    const top = await ownershipOf(t.db, await idOf('lei', leis[10] as string));
    expect(top.groupSize).toBe(10);
    const statements = await bodsOf(bottom);
    expect(statements.filter((s) => s.recordType === 'relationship')).toHaveLength(10);
  });
});

describe('"ultimate parent in <country>"', () => {
  it('is the country of the ultimate parent GLEIF states when there is one, else of the chain’s top', async () => {
    // The generated chain's bottom (level 0) is stated (CONSTRUCTED) to be ultimately consolidated by a
    // UK company of the Companies House sample, given a GENERATED LEI: not the top of its chain.
    const bottom = await idOf('lei', GENERATED_LEIS[0] as string);
    const level1 = await idOf('lei', GENERATED_LEIS[1] as string);
    const top = await idOf('lei', GENERATED_LEIS[10] as string);
    const stated = await idOf('register', 'GB/RA000585/12778855');
    const base = 'GENERATEDUK000000001';
    const statedLei = `${base.slice(0, 18)}${String(98 - mod97(`${base.slice(0, 18)}00`)).padStart(2, '0')}`;
    await sql`insert into company_keys (scheme, key, legal_entity_id, source)
      values ('lei', ${statedLei}, ${stated}, 'test')`.execute(t.db.kysely);
    const jurisdiction = async (id: number) =>
      (
        await t.db.kysely
          .selectFrom('legal_entities')
          .select('jurisdiction_id')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).jurisdiction_id;
    const [topCountry, statedCountry] = [await jurisdiction(top), await jurisdiction(stated)];
    expect(topCountry).not.toBe(statedCountry);
    const ids = async (location: number) => {
      const response = await t.app.inject({
        url: `/api/site/data/v1/legal_entities?ultimate_parent_in=${location}&count=100`,
      });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().data as { legal_entities: { id: number } }[]).map((r) => Number(r.legal_entities.id));
    };
    expect(await ids(topCountry)).toContain(bottom);
    expect(await ids(statedCountry)).not.toContain(bottom);

    // Through the relationship importer: the company written has its tree row refreshed.
    const path = await rrFile('rr-ultimate.csv', [
      [GENERATED_LEIS[0] as string, statedLei, 'IS_ULTIMATELY_CONSOLIDATED_BY'],
    ]);
    expect(await runImport(t.db, IMPORT_SOURCES['gleif-rr'], [path])).toMatchObject({ rejected: 0 });
    const o = await ownershipOf(t.db, bottom);
    expect(o.ultimateParent?.owner).toMatchObject({ kind: 'company', id: stated });
    expect(o.ultimateParentDiffers).toBe(true);
    expect(o.chain.at(-1)?.owner).toMatchObject({ kind: 'company', id: top });
    expect(await ids(statedCountry)).toContain(bottom);
    expect(await ids(topCountry)).not.toContain(bottom);
    // The companies above it state none: theirs is still the top's country.
    expect(await ids(topCountry)).toContain(level1);
    expect(await ids(statedCountry)).not.toContain(level1);

    // Rebuilt from the sources, the same.
    await refreshOwnershipTree(t.db, 'all');
    expect(await ids(statedCountry)).toContain(bottom);
    expect(await ids(topCountry)).toContain(level1);
  });
});
