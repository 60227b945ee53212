import { describe, expect, it } from 'vitest';
import {
  type GroupLevel,
  type OwnedCompany,
  presentControlled,
  presentOwnership,
} from '../../app/presenters/ownership.server.ts';
import { presenter } from '../../app/presenters/present.server.ts';
import type { GroupNode, Ownership, OwnershipLink, OwnershipSource } from '../../core/ownership/types.ts';
import type { Lang, Location, Reference, RefItem, RefList } from '../../core/reference/reference-data.ts';

// The Ownership section and "Companies they control" in words (ADR 0038, "Display"), on
// hand-made Ownership values: how a chain ended, two sources of one link, a disagreement, paging.

function list<T extends RefItem>(items: T[]): RefList<T> {
  return { items, byId: new Map(items.map((i) => [i.id, i])), byUri: new Map(items.map((i) => [i.uri, i])) };
}
const named = (id: number, uri: string, name: string): RefItem => ({
  id,
  uri,
  translations: new Map([[41, { name, name_full: null, name_short: null }]]),
});
const gb: Location = {
  ...named(1, 'united-kingdom', 'United Kingdom'),
  location_type_id: 1,
  country_code: 'GB',
  parent_id: null,
  flag_location_id: 1,
  aliases: ['GB', 'GBR'],
};
const empty = list<RefItem>([]);
const reference: Reference = {
  languageIds: { en: 41, de: 42, fr: 43 },
  languages: empty,
  locations: list([gb]),
  industries: list([]),
  currencies: empty,
  kinds: empty,
  sizes: empty,
  statuses: list([named(1, 'active', 'Active'), named(2, 'dissolved', 'Dissolved')]),
  employees: list([]),
  nameTypes: empty,
  addressTypes: empty,
  dateTypes: empty,
  identifierTypes: empty,
  indicatorTypes: empty,
  contactTypes: empty,
  positions: empty,
  locationTypes: empty,
};
const p = (lang: Lang = 'en') => presenter(reference, lang);

const company: OwnedCompany = { id: 1, name: 'Acme Widgets Ltd', path: '/companies/details/acme-widgets-ltd-1/' };
const gleif = (date = '2025-05-05'): OwnershipSource => ({ source: 'gleif', reference: null, date });
const psc: OwnershipSource = { source: 'psc', reference: null, date: '2025-06-01' };

function parent(id: number, name: string, extra: Partial<OwnershipLink> = {}): OwnershipLink {
  return {
    owner: {
      kind: 'company',
      id,
      path: `/companies/details/c-${id}/`,
      name,
      country: 'GB',
      lei: null,
      status: 'active',
    },
    relation: 'direct_parent',
    natures: [],
    shareMin: null,
    shareMax: null,
    validation: 'PUBLISHED',
    start: '2019-01-01',
    end: null,
    current: true,
    sources: [gleif()],
    disagreement: null,
    ...extra,
  };
}
function ownership(extra: Partial<Ownership>): Ownership {
  return {
    chain: [],
    chainEnd: 'no_parent',
    ultimateParent: null,
    ultimateParentDiffers: false,
    beneficialOwners: [],
    exceptions: [],
    directSubsidiaries: 0,
    groupSize: 0,
    ...extra,
  };
}

describe('the chain up to the ultimate parent', () => {
  it('walks up and says where it ended, each link with its relation, period, state and source', () => {
    const view = presentOwnership(
      company,
      ownership({
        chain: [parent(2, 'Acme Holdings Ltd'), parent(3, 'Acme Group plc')],
        chainEnd: 'ultimate_parent',
      }),
      null,
      p(),
    );
    expect(view.empty).toBe(false);
    expect(view.chain.map((l) => [l.owner.text, l.relation])).toEqual([
      ['Acme Holdings Ltd', 'Direct parent of Acme Widgets Ltd'],
      ['Acme Group plc', 'Direct parent of Acme Holdings Ltd'],
    ]);
    expect(view.chain[0]).toMatchObject({
      period: 'since 1 Jan 2019',
      currentText: 'Current',
      validation: 'Published',
      sources: 'Source: GLEIF, 5 May 2025',
      owner: { href: '/companies/details/c-2/', flag: 'gb', note: 'United Kingdom' },
    });
    expect(view.chainEnd.text).toBe(
      'The chain ends at Acme Group plc, which has no parent on record: it is the ultimate parent.',
    );
    // The picture has the company and both parents, each parent above the one below it.
    expect(view.graph?.nodes.map((n) => n.id).sort()).toEqual(['c1', 'c2', 'c3']);
    expect(view.graph?.edges.map((e) => [e.from, e.to])).toEqual([
      ['c2', 'c1'],
      ['c3', 'c2'],
    ]);
  });

  it('says a cycle, and stops there', () => {
    const view = presentOwnership(
      company,
      ownership({ chain: [parent(2, 'Loop A Ltd'), parent(3, 'Loop B Ltd')], chainEnd: 'cycle' }),
      null,
      p(),
    );
    expect(view.chainEnd.code).toBe('cycle');
    expect(view.chainEnd.text).toMatch(/^The chain turns back on itself above Loop B Ltd: .*already in the chain/);
    expect(
      presentOwnership(company, ownership({ chain: [parent(2, 'A')], chainEnd: 'cycle' }), null, p('de')).chainEnd.text,
    ).toMatch(/kehrt oberhalb von A zu sich selbst zurück/);
  });

  it('says a parent named by GLEIF that is not in Registra, without a link to a page', () => {
    const missing: OwnershipLink = {
      ...parent(0, ''),
      owner: { kind: 'unknown_company', lei: '5493001KJTIIGC8Y1R12', name: 'Faraway Holdings SA', country: null },
    };
    const view = presentOwnership(
      company,
      ownership({ chain: [parent(2, 'Acme Holdings Ltd'), missing], chainEnd: 'missing_link' }),
      null,
      p(),
    );
    expect(view.chain[1].owner).toMatchObject({ kind: 'unknown_company', text: 'Faraway Holdings SA' });
    expect(view.chain[1].owner.href).toBeUndefined();
    expect(view.chain[1].owner.note).toBe('LEI 5493001KJTIIGC8Y1R12 · not in Registra');
    expect(view.chainEnd.text).toBe(
      'Faraway Holdings SA is named as a parent by GLEIF but is not in Registra: the chain cannot be followed further.',
    );
  });

  it('says a reporting exception with its reasons in words, in every language', () => {
    const o = ownership({
      chainEnd: 'exception',
      exceptions: [{ relation: 'ultimate_parent', reasons: ['NATURAL_PERSONS'], sources: [gleif('2025-02-02')] }],
    });
    const view = presentOwnership(company, o, null, p());
    expect(view.chainEnd.text).toBe(
      'The chain ends at Acme Widgets Ltd, whose parent is not reported (a reporting exception): controlled by natural persons.',
    );
    expect(view.exceptions).toEqual([
      {
        key: 'exception-0',
        relation: 'No ultimate parent reported',
        reasons: 'controlled by natural persons',
        sources: 'Source: GLEIF, 2 Feb 2025',
      },
    ]);
    expect(presentOwnership(company, o, null, p('fr')).exceptions[0].relation).toBe(
      'Aucune société mère ultime déclarée',
    );
    expect(presentOwnership(company, o, null, p('de')).chainEnd.text).toMatch(/Meldeausnahme/);
  });

  it('says when the stated ultimate parent is not the top of the chain', () => {
    const view = presentOwnership(
      company,
      ownership({
        chain: [parent(2, 'Acme Holdings Ltd')],
        chainEnd: 'missing_link',
        ultimateParent: { ...parent(9, 'Global Acme Inc'), relation: 'ultimate_parent' },
        ultimateParentDiffers: true,
      }),
      null,
      p(),
    );
    expect(view.ultimateParent?.differs).toBe(
      'The source names Global Acme Inc as the ultimate parent; the chain followed up ends at Acme Holdings Ltd.',
    );
    expect(view.graph?.edges.some((e) => e.from === 'c9' && e.to === 'c1')).toBe(true);
  });
});

describe('sources and what they state', () => {
  it('shows a link two sources state once, with both, and says a disagreement', () => {
    const owner: OwnershipLink = {
      owner: {
        kind: 'person',
        id: 77,
        path: '/members/details/jane-doe/77/',
        name: 'Jane Doe',
        nationality: 'GB',
        birth: '1970-04',
      },
      relation: 'beneficial_owner',
      natures: ['ownership-of-shares-50-to-75-percent', 'votingRights'],
      shareMin: 50,
      shareMax: 75,
      validation: null,
      start: '2020-03-01',
      end: null,
      current: true,
      sources: [psc, { source: 'bods', reference: 'st-1', date: '2025-07-01' }],
      disagreement: 'period',
    };
    const view = presentOwnership(company, ownership({ beneficialOwners: [owner] }), null, p());
    expect(view.beneficialOwners).toHaveLength(1);
    expect(view.beneficialOwners[0]).toMatchObject({
      relation: 'Beneficial owner',
      natures: ['Shares 50–75 %', 'Voting rights'],
      share: '50–75 %',
      sources:
        'Sources: Companies House (register of persons with significant control), 1 Jun 2025; Beneficial ownership statement (BODS), st-1, 1 Jul 2025',
      disagreement: 'The sources disagree on the period.',
      owner: { kind: 'person', href: '/members/details/jane-doe/77/', note: 'United Kingdom national · born Apr 1970' },
    });
    expect(
      presentOwnership(company, ownership({ beneficialOwners: [owner] }), null, p('fr')).beneficialOwners[0]
        .disagreement,
    ).toBe('Les sources divergent sur la période.');
  });

  it('says nothing is known when nothing is', () => {
    const view = presentOwnership(company, ownership({}), null, p());
    expect(view.empty).toBe(true);
    expect(view.graph).toBeNull();
    expect(view.group).toBeNull();
  });
});

describe('the group below, level by level', () => {
  const node = (id: number, childCount: number): GroupNode => ({
    company: { id, path: `/companies/details/s-${id}/`, name: `Sub ${id}`, country: 'GB', status: 'active' },
    parentId: 1,
    depth: 1,
    childCount,
    sources: [gleif()],
  });
  const o = ownership({ directSubsidiaries: 45, groupSize: 60 });

  it('pages with cursor links that need no script, and opens a subsidiary’s own level', () => {
    const level: GroupLevel = {
      page: { nodes: [node(10, 3), node(11, 0)], next: 'abc=/+', previous: null, total: 45 },
      trail: [company],
    };
    const view = presentOwnership(company, o, level, p('de'));
    const group = view.group;
    expect(group?.summary).toBe('60 Unternehmen in der Gruppe darunter, davon 45 direkte Tochtergesellschaften.');
    expect(group?.nextHref).toBe('/de/companies/details/acme-widgets-ltd-1/?group_cursor=abc%3D%2F%2B#ownership-group');
    expect(group?.firstHref).toBeNull();
    expect(group?.previousHref).toBeNull();
    expect(group?.nodes[0]).toMatchObject({
      status: 'Active',
      childrenText: '3 Tochtergesellschaften',
      childrenHref: '/de/companies/details/acme-widgets-ltd-1/?group_parent=10#ownership-group',
    });
    expect(group?.nodes[1].childrenHref).toBeNull();
    expect(group?.shownText).toBe('2 von 45 Tochtergesellschaften auf dieser Ebene.');
    // The first subsidiaries are drawn below the company.
    expect(view.graph?.edges.map((e) => [e.from, e.to])).toEqual([
      ['c1', 'c10'],
      ['c1', 'c11'],
    ]);
  });

  it('a deeper level keeps the way back up, and a later page the ways to the previous and the first', () => {
    const sub = { id: 10, name: 'Sub 10', path: '/companies/details/s-10/' };
    const level: GroupLevel = {
      page: { nodes: [{ ...node(20, 0), parentId: 10, depth: 2 }], next: null, previous: 'xyz', total: 21 },
      trail: [company, sub],
    };
    const group = presentOwnership(company, o, level, p()).group;
    expect(group?.levelTitle).toBe('Subsidiaries of Sub 10');
    expect(group?.trail).toEqual([
      { key: 'trail-1', text: 'Acme Widgets Ltd', href: '/companies/details/acme-widgets-ltd-1/#ownership-group' },
      { key: 'trail-10', text: 'Sub 10', href: null },
    ]);
    expect(group?.nextHref).toBeNull();
    expect(group?.previousHref).toBe(
      '/companies/details/acme-widgets-ltd-1/?group_parent=10&group_cursor=xyz#ownership-group',
    );
    expect(group?.firstHref).toBe('/companies/details/acme-widgets-ltd-1/?group_parent=10#ownership-group');
  });
});

describe('companies a person controls', () => {
  it('lists current ones first, with natures, share bands and sources', () => {
    const rows = presentControlled(
      [
        {
          company: { id: 5, path: '/companies/details/old-co-5/', name: 'Old Co', country: 'GB' },
          natures: ['significant-influence-or-control'],
          shareMin: null,
          shareMax: null,
          current: false,
          sources: [psc],
        },
        {
          company: { id: 6, path: '/companies/details/new-co-6/', name: 'New Co', country: null },
          natures: ['ownership-of-shares-75-to-100-percent'],
          shareMin: 75,
          shareMax: 100,
          current: true,
          sources: [psc],
        },
      ],
      p(),
    );
    expect(rows.map((r) => [r.company.text, r.currentText, r.share, r.natures])).toEqual([
      ['New Co', 'Current', '75–100 %', ['Shares 75–100 %']],
      ['Old Co', 'Former', null, ['Significant influence or control']],
    ]);
    expect(rows[0].sources).toBe('Source: Companies House (register of persons with significant control), 1 Jun 2025');
  });
});
