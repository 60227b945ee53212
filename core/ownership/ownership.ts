import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { personPath } from '../people/person-path.ts';
import { visibleCompany, visibleCompanyId, visibleMember } from '../takedowns/visible.ts';
import type {
  ControlledCompany,
  GroupNode,
  GroupPage,
  OwnerRef,
  Ownership,
  OwnershipChainEnd,
  OwnershipLink,
  OwnershipSource,
  ReportingException,
} from './types.ts';

// A company's ownership from every source, in one shape (ADR 0038): the chain up (the ownership
// tree of migration 0036, each link with what every source says of it), the ultimate parent GLEIF
// states, the beneficial owners (persons with significant control), the reporting exceptions, and
// the group below, level by level. Takedowns apply (core/takedowns/visible.ts): a company taken
// down is in none of it; a chain stops below one (`missing_link`).

const companyPath = (uri: string) => `/companies/details/${encodeURIComponent(uri)}/`;
const day = (d: unknown): string | null =>
  d instanceof Date ? d.toISOString().slice(0, 10) : typeof d === 'string' ? d.slice(0, 10) : null;

/** The share band a PSC/BODS nature states: `ownership-of-shares-25-to-50-percent` → 25–50. */
export function shareBand(natures: readonly string[]): { shareMin: number | null; shareMax: number | null } {
  for (const kind of ['ownership-of-shares', 'voting-rights']) {
    for (const n of natures) {
      const m = new RegExp(`^${kind}-(?:(\\d+)-to-(\\d+)|more-than-(\\d+))-percent`).exec(n);
      if (m)
        return m[3] ? { shareMin: Number(m[3]), shareMax: null } : { shareMin: Number(m[1]), shareMax: Number(m[2]) };
    }
  }
  return { shareMin: null, shareMax: null };
}

export type CompanyRow = {
  id: string;
  uri: string;
  name: string;
  country: string | null;
  status: string | null;
  lei: string | null;
};

/** The visible companies among these ids, with what an owner reference names. */
export async function companies(db: Db, ids: number[]): Promise<Map<number, CompanyRow>> {
  if (ids.length === 0) return new Map();
  const rows = await sql<CompanyRow>`
    select le.id, le.uri, le.name, l.country_code as country, s.uri as status,
      (select k.key from company_keys k where k.legal_entity_id = le.id and k.scheme = 'lei' order by k.key limit 1) as lei
    from legal_entities le
    join locations l on l.id = le.jurisdiction_id
    left join statuses s on s.id = le.status_id
    where le.id = any(${ids}::bigint[]) and ${visibleCompany('le')}`.execute(db.kysely);
  return new Map(rows.rows.map((r) => [Number(r.id), r]));
}

const companyRef = (c: CompanyRow): OwnerRef => ({
  kind: 'company',
  id: Number(c.id),
  path: companyPath(c.uri),
  name: c.name,
  country: c.country,
  lei: c.lei,
  status: c.status,
});

type GleifRow = {
  start_lei: string;
  end_lei: string;
  relationship_type: string;
  relationship_status: string | null;
  registration_status: string | null;
  period_start: unknown;
  period_end: unknown;
  source_date: unknown;
};

type PscRow = {
  company_id: string;
  member_id: string;
  name: string;
  name_type: string;
  owner_company_id: string | null;
  country: string | null;
  birth_year: number | null;
  birth_month: number | null;
  natures: string[];
  since: unknown;
  until: unknown;
};

const isCurrent = (status: string | null, end: string | null) =>
  (status ?? 'ACTIVE') === 'ACTIVE' && (end === null || end > new Date().toISOString().slice(0, 10));

function gleifLink(r: GleifRow, owner: OwnerRef): OwnershipLink {
  const end = day(r.period_end);
  return {
    owner,
    relation: r.relationship_type === 'IS_ULTIMATELY_CONSOLIDATED_BY' ? 'ultimate_parent' : 'direct_parent',
    natures: [],
    shareMin: null,
    shareMax: null,
    validation: r.registration_status,
    start: day(r.period_start),
    end,
    current: isCurrent(r.relationship_status, end),
    sources: [{ source: 'gleif', reference: `${r.start_lei}>${r.end_lei}`, date: day(r.source_date) }],
    disagreement: null,
  };
}

function pscLink(r: PscRow, owner: OwnerRef, relation: OwnershipLink['relation']): OwnershipLink {
  const end = day(r.until);
  return {
    owner,
    relation,
    natures: r.natures,
    ...shareBand(r.natures),
    validation: null,
    start: day(r.since),
    end,
    current: end === null,
    sources: [{ source: 'psc', reference: String(r.member_id), date: day(r.since) }],
    disagreement: null,
  };
}

/** Two sources stating the same link: one link with both sources, and what they disagree on. */
function merge(a: OwnershipLink, b: OwnershipLink): OwnershipLink {
  const differs: string[] = [];
  if (a.start && b.start && a.start !== b.start) differs.push('period');
  if (a.current !== b.current) differs.push('current');
  if (a.shareMin !== null && b.shareMin !== null && (a.shareMin !== b.shareMin || a.shareMax !== b.shareMax))
    differs.push('share');
  return {
    ...a,
    natures: [...new Set([...a.natures, ...b.natures])],
    shareMin: a.shareMin ?? b.shareMin,
    shareMax: a.shareMax ?? b.shareMax,
    validation: a.validation ?? b.validation,
    start: a.start ?? b.start,
    end: a.end ?? b.end,
    current: a.current || b.current,
    sources: [...a.sources, ...b.sources],
    disagreement: differs.length > 0 ? differs.join(',') : null,
  };
}

const PSC_SELECT = sql`select x.legal_entity_id as company_id, x.member_id, m.name, m.name_type,
    m.legal_entity_id as owner_company_id, l.country_code as country, m.birth_year, m.birth_month,
    x.natures, x.since, x.until
  from legal_entity_members x
  join members m on m.id = x.member_id
  left join locations l on l.id = m.country_id`;

/** A company's ownership; AppError 404 when there is none or it is taken down. */
export async function ownershipOf(db: Db, companyId: number): Promise<Ownership> {
  const self = (await companies(db, [companyId])).get(companyId);
  if (!self) throw new AppError('not_found', `No company ${companyId}`);
  const tree = (
    await sql<{ ancestors: (string | number)[]; cycle: boolean; child_count: number }>`
      select ancestors, cycle, child_count from ownership_tree where legal_entity_id = ${companyId}`.execute(db.kysely)
  ).rows[0];
  const ancestors = (tree?.ancestors ?? []).map(Number);
  const known = await companies(db, ancestors);
  // The chain stops below a company taken down.
  const hiddenAt = ancestors.findIndex((id) => !known.has(id));
  const walked = hiddenAt === -1 ? ancestors : ancestors.slice(0, hiddenAt);
  // The companies of the chain that have a parent on it.
  const children = walked.length > 0 ? [companyId, ...walked.slice(0, -1)] : [];
  const chainCompanies = [self, ...walked.map((id) => known.get(id) as CompanyRow)];
  const leis = chainCompanies.flatMap((c) => (c.lei ? [c.lei] : []));

  const gleif = leis.length
    ? (
        await sql<GleifRow>`select start_lei, end_lei, relationship_type, relationship_status, registration_status,
          period_start, period_end, source_date from lei_relationships
          where start_lei = any(${leis}::text[])
            and relationship_type in ('IS_DIRECTLY_CONSOLIDATED_BY', 'IS_ULTIMATELY_CONSOLIDATED_BY')
          order by start_lei, relationship_type, period_start nulls last, end_lei`.execute(db.kysely)
      ).rows
    : [];
  const endLeis = [...new Set(gleif.map((g) => g.end_lei))];
  const byLei = new Map(
    endLeis.length
      ? (
          await sql<{ key: string; legal_entity_id: string }>`select key, legal_entity_id from company_keys
            where scheme = 'lei' and key = any(${endLeis}::text[])`.execute(db.kysely)
        ).rows.map((r) => [r.key, Number(r.legal_entity_id)])
      : [],
  );
  const leiCompanies = await companies(db, [...byLei.values()]);
  const hiddenLei = (lei: string) => byLei.has(lei) && !leiCompanies.has(byLei.get(lei) as number);
  const leiOwner = (lei: string): OwnerRef => {
    const c = leiCompanies.get(byLei.get(lei) ?? -1);
    return c ? companyRef(c) : { kind: 'unknown_company', lei, name: null, country: null };
  };

  const psc = (
    await sql<PscRow>`${PSC_SELECT}
      where x.legal_entity_id = any(${[companyId, ...children]}::bigint[]) and x.natures is not null and ${visibleMember('m')}
      order by x.legal_entity_id, x.until desc nulls first, m.name, x.member_id`.execute(db.kysely)
  ).rows;

  // The chain: one link per step up, with every source that states it.
  const chain: OwnershipLink[] = [];
  for (const [i, child] of children.entries()) {
    const parent = chainCompanies[i + 1] as CompanyRow;
    const childLei = chainCompanies[i]?.lei;
    let link: OwnershipLink | null = null;
    for (const g of gleif)
      if (
        g.start_lei === childLei &&
        g.end_lei === parent.lei &&
        g.relationship_type === 'IS_DIRECTLY_CONSOLIDATED_BY'
      ) {
        const l = gleifLink(g, companyRef(parent));
        link = link ? merge(link, l) : l;
      }
    for (const p of psc)
      if (Number(p.company_id) === child && Number(p.owner_company_id) === Number(parent.id)) {
        const l = pscLink(p, companyRef(parent), 'direct_parent');
        link = link ? merge(link, l) : l;
      }
    chain.push(
      link ?? {
        owner: companyRef(parent),
        relation: 'direct_parent',
        natures: [],
        shareMin: null,
        shareMax: null,
        validation: null,
        start: null,
        end: null,
        current: true,
        sources: [],
        disagreement: null,
      },
    );
  }

  const top = chainCompanies[chainCompanies.length - 1] as CompanyRow;
  const exceptionRows = leis.length
    ? (
        await sql<{
          lei: string;
          exception_category: string;
          reasons: string[];
          reference: string | null;
          source_date: unknown;
        }>`
          select lei, exception_category, reasons, reference, source_date from lei_reporting_exceptions
          where lei = any(${leis}::text[]) order by lei, exception_category`.execute(db.kysely)
      ).rows
    : [];
  const exceptionsOf = (lei: string | null): ReportingException[] =>
    exceptionRows
      .filter((e) => e.lei === lei)
      .map((e) => ({
        relation: e.exception_category.startsWith('ULTIMATE') ? 'ultimate_parent' : 'direct_parent',
        reasons: e.reasons,
        sources: [{ source: 'gleif', reference: e.reference ?? e.lei, date: day(e.source_date) }],
      }));

  // Where the walk up ended.
  let chainEnd: OwnershipChainEnd = chain.length > 0 ? 'ultimate_parent' : 'no_parent';
  const topParents = gleif.filter(
    (g) =>
      g.start_lei === top.lei &&
      g.relationship_type === 'IS_DIRECTLY_CONSOLIDATED_BY' &&
      isCurrent(g.relationship_status, day(g.period_end)),
  );
  if (tree?.cycle && hiddenAt === -1) chainEnd = 'cycle';
  else if (hiddenAt !== -1) chainEnd = 'missing_link';
  else if (topParents.some((g) => !byLei.has(g.end_lei))) {
    // The top names a parent Registra does not have.
    const g = topParents.find((t) => !byLei.has(t.end_lei)) as GleifRow;
    chain.push(gleifLink(g, leiOwner(g.end_lei)));
    chainEnd = 'missing_link';
  } else if (exceptionsOf(top.lei).some((e) => e.relation === 'direct_parent')) chainEnd = 'exception';

  const stated = gleif.find(
    (g) =>
      g.start_lei === self.lei &&
      g.relationship_type === 'IS_ULTIMATELY_CONSOLIDATED_BY' &&
      isCurrent(g.relationship_status, day(g.period_end)) &&
      !hiddenLei(g.end_lei),
  );
  const ultimateParent = stated ? gleifLink(stated, leiOwner(stated.end_lei)) : null;
  const chainTop = chain[chain.length - 1]?.owner;
  const ultimateParentDiffers =
    ultimateParent !== null &&
    !(
      (chainTop?.kind === 'company' || chainTop?.kind === 'unknown_company') &&
      chainTop.lei === (ultimateParent.owner.kind === 'person' ? null : ultimateParent.owner.lei)
    );

  const own = psc.filter((p) => Number(p.company_id) === companyId);
  // A corporate owner known in Registra is named as that company (and left out when taken down).
  const ownerCompanies = await companies(
    db,
    own.flatMap((p) => (p.owner_company_id === null ? [] : [Number(p.owner_company_id)])),
  );
  const beneficialOwners = own.flatMap((p): OwnershipLink[] => {
    if (p.owner_company_id !== null) {
      const c = ownerCompanies.get(Number(p.owner_company_id));
      return c ? [pscLink(p, companyRef(c), 'beneficial_owner')] : [];
    }
    if (p.name_type !== 'individual')
      return [pscLink(p, { kind: 'unknown_company', lei: null, name: p.name, country: p.country }, 'beneficial_owner')];
    const birth = p.birth_year
      ? p.birth_month
        ? `${p.birth_year}-${String(p.birth_month).padStart(2, '0')}`
        : String(p.birth_year)
      : null;
    const person: OwnerRef = {
      kind: 'person',
      id: Number(p.member_id),
      path: personPath(p.name, Number(p.member_id)),
      name: p.name,
      nationality: p.country,
      birth,
    };
    return [pscLink(p, person, 'beneficial_owner')];
  });

  const groupSize = tree
    ? Number(
        (
          await sql<{ n: string }>`select count(*) as n from ownership_tree
            where ancestors @> array[${companyId}]::bigint[] and ${visibleCompanyId('legal_entity_id')}`.execute(
            db.kysely,
          )
        ).rows[0]?.n ?? 0,
      )
    : 0;
  const directSubsidiaries = tree
    ? Number(
        (
          await sql<{ n: string }>`select count(*) as n from ownership_tree
            where parent_id = ${companyId} and ${visibleCompanyId('legal_entity_id')}`.execute(db.kysely)
        ).rows[0]?.n ?? 0,
      )
    : 0;

  return {
    chain,
    chainEnd,
    ultimateParent,
    ultimateParentDiffers,
    beneficialOwners,
    exceptions: exceptionsOf(self.lei),
    directSubsidiaries,
    groupSize,
  };
}

type Cursor = { name: string; id: number };
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify([c.name, c.id])).toString('base64url');
function decodeCursor(cursor: string): Cursor {
  try {
    const [name, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof name === 'string' && Number.isSafeInteger(id)) return { name, id };
  } catch {}
  throw new AppError('bad_request', 'cursor is not one this list gave');
}

/**
 * The direct subsidiaries of `parentId` (default: the company), a page at a time in name order;
 * `parentId` must be the company or in its group. Depth counts from the company.
 */
export async function groupPage(
  db: Db,
  companyId: number,
  options: { parentId?: number; cursor?: string | null; limit: number },
): Promise<GroupPage> {
  const parentId = options.parentId ?? companyId;
  const limit = Math.max(1, Math.min(options.limit, 500));
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;
  const base = (
    await sql<{ depth: number; visible: boolean }>`select t.depth, ${visibleCompanyId('t.legal_entity_id')} as visible
      from ownership_tree t where t.legal_entity_id = ${companyId}`.execute(db.kysely)
  ).rows[0];
  if (parentId !== companyId) {
    const inGroup = (
      await sql`select 1 from ownership_tree where legal_entity_id = ${parentId}
        and ancestors @> array[${companyId}]::bigint[] and ${visibleCompanyId('legal_entity_id')}`.execute(db.kysely)
    ).rows[0];
    if (!inGroup) return { nodes: [], next: null, total: 0 };
  }
  if (!base?.visible) return { nodes: [], next: null, total: 0 };
  const after = cursor ? sql`and (t.name, t.legal_entity_id) > (${cursor.name}, ${cursor.id})` : sql``;
  const rows = (
    await sql<{
      id: string;
      uri: string;
      name: string;
      sort_name: string;
      country: string | null;
      status: string | null;
      depth: number;
      child_count: number;
      parent_source: 'gleif' | 'psc' | 'bods' | null;
      parent_reference: string | null;
    }>`select t.legal_entity_id as id, le.uri, le.name, t.name as sort_name, l.country_code as country, s.uri as status,
        t.depth, t.child_count, t.parent_source, t.parent_reference
      from (select * from ownership_tree t where t.parent_id = ${parentId} ${after}
          and ${visibleCompanyId('t.legal_entity_id')}
          order by t.name, t.legal_entity_id limit ${limit + 1}) t
      join legal_entities le on le.id = t.legal_entity_id
      join locations l on l.id = le.jurisdiction_id
      left join statuses s on s.id = le.status_id
      order by t.name, t.legal_entity_id`.execute(db.kysely)
  ).rows;
  const total = Number(
    (
      await sql<{ n: string }>`select count(*) as n from ownership_tree
        where parent_id = ${parentId} and ${visibleCompanyId('legal_entity_id')}`.execute(db.kysely)
    ).rows[0]?.n ?? 0,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nodes: GroupNode[] = page.map((r) => ({
    company: { id: Number(r.id), path: companyPath(r.uri), name: r.name, country: r.country, status: r.status },
    parentId,
    depth: r.depth - base.depth,
    childCount: r.child_count,
    sources: r.parent_source ? [{ source: r.parent_source, reference: r.parent_reference, date: null }] : [],
  }));
  return {
    nodes,
    next: rows.length > limit && last ? encodeCursor({ name: last.sort_name, id: Number(last.id) }) : null,
    total,
  };
}

/** The companies a person (a member) controls as a person with significant control, current first. */
export async function controlledBy(db: Db, personId: number): Promise<ControlledCompany[]> {
  const rows = (
    await sql<{
      id: string;
      uri: string;
      name: string;
      country: string | null;
      member_id: string;
      natures: string[];
      since: unknown;
      until: unknown;
    }>`select le.id, le.uri, le.name, l.country_code as country, x.member_id, x.natures, x.since, x.until
      from legal_entity_members x
      join members m on m.id = x.member_id
      join legal_entities le on le.id = x.legal_entity_id
      join locations l on l.id = le.jurisdiction_id
      where x.member_id = ${personId} and x.natures is not null and ${visibleMember('m')} and ${visibleCompany('le')}
      order by x.until desc nulls first, le.name, le.id`.execute(db.kysely)
  ).rows;
  return rows.map((r) => {
    const sources: OwnershipSource[] = [{ source: 'psc', reference: String(r.member_id), date: day(r.since) }];
    return {
      company: { id: Number(r.id), path: companyPath(r.uri), name: r.name, country: r.country },
      natures: r.natures,
      ...shareBand(r.natures),
      current: r.until === null,
      sources,
    };
  });
}
