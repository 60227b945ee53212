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

/**
 * The share band of a holding: the percent bounds a source stated as numbers (BODS `share`,
 * legal_entity_members.share_min/max), else the band a PSC nature states
 * (`ownership-of-shares-25-to-50-percent` → 25–50).
 */
export function holdingShare(
  natures: readonly string[],
  min: string | number | null,
  max: string | number | null,
): { shareMin: number | null; shareMax: number | null } {
  if (min !== null || max !== null)
    return { shareMin: min === null ? null : Number(min), shareMax: max === null ? null : Number(max) };
  return shareBand(natures);
}

/** The share band a PSC nature states: `ownership-of-shares-25-to-50-percent` → 25–50. */
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
  id: string | number;
  uri: string;
  name: string;
  country: string | null;
  status: string | null;
  lei: string | null;
};

/**
 * The visible companies with what an owner reference names (`c.id`, `uri`, `name`, `country`,
 * `status`, `lei`): joined `on c.id = …`, a company taken down is not found.
 */
const VISIBLE_COMPANIES = sql`(select le.id, le.uri, le.name, l.country_code as country, s.uri as status,
    (select k.key from company_keys k where k.legal_entity_id = le.id and k.scheme = 'lei' order by k.key limit 1) as lei
  from legal_entities le
  join locations l on l.id = le.jurisdiction_id
  left join statuses s on s.id = le.status_id
  where ${visibleCompany('le')})`;

/** A date or timestamp column as the day it states (UTC), `YYYY-MM-DD`. */
const dayOf = (column: string) => sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`;
const dateOf = (column: string) => sql`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;

/** The visible companies among these ids, with what an owner reference names. */
export async function companies(db: Db, ids: number[]): Promise<Map<number, CompanyRow>> {
  if (ids.length === 0) return new Map();
  const rows = await sql<CompanyRow>`select c.* from ${VISIBLE_COMPANIES} c
    where c.id = any(${ids}::bigint[])`.execute(db.kysely);
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

/** A GLEIF relationship of a company of the chain, with the company its parent LEI names (when known). */
type GleifRow = {
  start_lei: string;
  end_lei: string;
  relationship_type: string;
  relationship_status: string | null;
  registration_status: string | null;
  period_start: string | null;
  period_end: string | null;
  source_date: string | null;
  /** The parent LEI is a company's in Registra (taken down or not). */
  end_known: boolean;
  /** That company, when visible. */
  end_id: number | null;
  end_uri: string | null;
  end_name: string | null;
  end_country: string | null;
  end_status: string | null;
  end_company_lei: string | null;
};

/** A person with significant control of a company of the chain, with the company it is (when one, visible). */
type PscRow = {
  company_id: number;
  member_id: number;
  name: string;
  name_type: string;
  owner_company_id: number | null;
  country: string | null;
  birth_year: number | null;
  birth_month: number | null;
  natures: string[];
  since: string | null;
  until: string | null;
  /** The import that wrote the row (`bods`; `ch-psc` or null: the PSC register). */
  source: string | null;
  share_min: string | number | null;
  share_max: string | number | null;
  owner_id: number | null;
  owner_uri: string | null;
  owner_name: string | null;
  owner_country: string | null;
  owner_status: string | null;
  owner_lei: string | null;
};

/** A reporting exception a source states of the company itself (a BODS unspecified interested party). */
type CompanyExceptionRow = {
  source: string;
  position: number;
  reason: string;
  description: string | null;
  source_date: string | null;
};

type ExceptionRow = {
  lei: string;
  exception_category: string;
  reasons: string[];
  reference: string | null;
  source_date: string | null;
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

/** The ownership source a membership row is from: a BODS import's, else the PSC register's. */
export const memberSource = (source: string | null): 'bods' | 'psc' => (source === 'bods' ? 'bods' : 'psc');

function pscLink(r: PscRow, owner: OwnerRef, relation: OwnershipLink['relation']): OwnershipLink {
  const end = day(r.until);
  return {
    owner,
    relation,
    natures: r.natures,
    ...holdingShare(r.natures, r.share_min, r.share_max),
    validation: null,
    start: day(r.since),
    end,
    current: end === null,
    sources: [{ source: memberSource(r.source), reference: String(r.member_id), date: day(r.since) }],
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

/** Who an owner is, to tell two sources' rows of the same owner: the company, else the name (and birth) as written. */
function ownerKey(owner: OwnerRef): string {
  const name = (n: string | null) => (n ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
  switch (owner.kind) {
    case 'company':
      return `company ${owner.id}`;
    case 'unknown_company':
      return owner.lei ? `lei ${owner.lei}` : `entity ${name(owner.name)}`;
    case 'person':
      return `person ${name(owner.name)} ${owner.birth ?? ''}`;
  }
}

/**
 * The beneficial owners with a link two sources state (the PSC register and BODS: the same company,
 * or a person of the same name and birth month) as one link with both sources, and what they
 * disagree on. Rows of one source are never merged with each other (two people may share a name).
 */
function mergeOwners(links: OwnershipLink[]): OwnershipLink[] {
  const out: OwnershipLink[] = [];
  const at = new Map<string, number>();
  for (const link of links) {
    const key = ownerKey(link.owner);
    const i = at.get(key);
    const there = i === undefined ? undefined : out[i];
    if (there && i !== undefined && !there.sources.some((s) => link.sources.some((t) => t.source === s.source))) {
      out[i] = merge(there, link);
      continue;
    }
    if (i === undefined) at.set(key, out.length);
    out.push(link);
  }
  return out;
}

/** A json_agg column as rows (PGlite and node-postgres both parse json; a string is parsed here). */
const jsonRows = <T>(value: unknown): T[] => (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as T[];

type StepRow = { ord: string | number; cycle: boolean; group_size: string | number; direct: string | number } & {
  [K in keyof CompanyRow]: CompanyRow[K] | null;
};

/**
 * The company, its place in the tree and the companies up its chain — one statement: a row per
 * step (`ord` 0 the company, 1 its parent, …), the company columns null where a company is taken
 * down (or gone); with the tree's cycle flag and the group's counts (takedowns left out).
 */
async function chainSteps(db: Db, companyId: number): Promise<StepRow[]> {
  const inTree = sql`exists (select 1 from tree)`;
  return (
    await sql<StepRow>`with tree as (
        select ancestors, cycle from ownership_tree where legal_entity_id = ${companyId}),
      steps as (
        select 0::bigint as ord, ${companyId}::bigint as company_id
        union all
        select a.ord, a.company_id from tree, unnest(tree.ancestors) with ordinality as a(company_id, ord))
      select st.ord, c.id, c.uri, c.name, c.country, c.status, c.lei,
        coalesce((select cycle from tree), false) as cycle,
        (select count(*) from ownership_tree where ${inTree} and ancestors @> array[${companyId}]::bigint[]
          and ${visibleCompanyId('legal_entity_id')}) as group_size,
        (select count(*) from ownership_tree where ${inTree} and parent_id = ${companyId}
          and ${visibleCompanyId('legal_entity_id')}) as direct
      from steps st left join ${VISIBLE_COMPANIES} c on c.id = st.company_id
      order by st.ord`.execute(db.kysely)
  ).rows;
}

/**
 * What the sources say of the chain's companies — one statement: the GLEIF direct and ultimate
 * parent relationships of their LEIs (with the company each parent LEI names), the persons with
 * significant control of `companyIds` (with the company a corporate one is), the reporting exceptions (GLEIF's of the LEIs, a BODS source's of the company).
 */
async function chainSources(
  db: Db,
  leis: string[],
  companyIds: number[],
  /** The company shown: its own reporting exceptions (a BODS source's). */
  companyId: number,
): Promise<{ gleif: GleifRow[]; psc: PscRow[]; exceptions: ExceptionRow[]; companyExceptions: CompanyExceptionRow[] }> {
  const row = (
    await sql<{ gleif: unknown; psc: unknown; exceptions: unknown; company_exceptions: unknown }>`select
      (select coalesce(json_agg(g order by g.start_lei, g.relationship_type, g.period_start nulls last, g.end_lei), '[]'::json)
        from (select r.start_lei, r.end_lei, r.relationship_type, r.relationship_status, r.registration_status,
            ${dateOf('r.period_start')} as period_start, ${dateOf('r.period_end')} as period_end,
            ${dayOf('r.source_date')} as source_date, k.legal_entity_id is not null as end_known,
            c.id as end_id, c.uri as end_uri, c.name as end_name, c.country as end_country, c.status as end_status,
            c.lei as end_company_lei
          from lei_relationships r
          left join company_keys k on k.scheme = 'lei' and k.key = r.end_lei
          left join ${VISIBLE_COMPANIES} c on c.id = k.legal_entity_id
          where r.start_lei = any(${leis}::text[])
            and r.relationship_type in ('IS_DIRECTLY_CONSOLIDATED_BY', 'IS_ULTIMATELY_CONSOLIDATED_BY')) g) as gleif,
      (select coalesce(json_agg(p order by p.company_id, p.until desc nulls first, p.name, p.member_id), '[]'::json)
        from (select x.legal_entity_id as company_id, x.member_id, m.name, m.name_type,
            m.legal_entity_id as owner_company_id, l.country_code as country, m.birth_year, m.birth_month,
            x.natures, ${dateOf('x.since')} as since, ${dateOf('x.until')} as until,
            x.source, x.share_min, x.share_max, c.id as owner_id, c.uri as owner_uri, c.name as owner_name, c.country as owner_country,
            c.status as owner_status, c.lei as owner_lei
          from legal_entity_members x
          join members m on m.id = x.member_id
          left join locations l on l.id = m.country_id
          left join ${VISIBLE_COMPANIES} c on c.id = m.legal_entity_id
          where x.legal_entity_id = any(${companyIds}::bigint[]) and x.natures is not null
            and ${visibleMember('m')}) p) as psc,
      (select coalesce(json_agg(e order by e.lei, e.exception_category), '[]'::json)
        from (select lei, exception_category, reasons, reference, ${dayOf('source_date')} as source_date
          from lei_reporting_exceptions where lei = any(${leis}::text[])) e) as exceptions,
      (select coalesce(json_agg(b order by b.source, b.position), '[]'::json)
        from (select e.source, e.position, e.reason, e.description, ${dayOf('r.source_date')} as source_date
          from company_reporting_exceptions e
          left join company_source_records r on r.legal_entity_id = e.legal_entity_id and r.source = e.source
          where e.legal_entity_id = ${companyId}::bigint) b) as company_exceptions`.execute(db.kysely)
  ).rows[0];
  return {
    gleif: jsonRows(row?.gleif),
    psc: jsonRows(row?.psc),
    exceptions: jsonRows(row?.exceptions),
    companyExceptions: jsonRows(row?.company_exceptions),
  };
}

/**
 * A company's ownership; AppError 404 when there is none or it is taken down. Two statements, one
 * after the other (the second needs the chain's LEIs): chainSteps, then chainSources.
 */
export async function ownershipOf(db: Db, companyId: number): Promise<Ownership> {
  const steps = await chainSteps(db, companyId);
  const first = steps[0];
  if (!first || first.id === null) throw new AppError('not_found', `No company ${companyId}`);
  const self = first as CompanyRow;
  const ancestors = steps.slice(1);
  // The chain stops below a company taken down.
  const hiddenAt = ancestors.findIndex((r) => r.id === null);
  const walked = (hiddenAt === -1 ? ancestors : ancestors.slice(0, hiddenAt)) as CompanyRow[];
  const chainCompanies = [self, ...walked];
  // The companies of the chain that have a parent on it.
  const children = walked.length > 0 ? chainCompanies.slice(0, -1).map((c) => Number(c.id)) : [];
  const leis = chainCompanies.flatMap((c) => (c.lei ? [c.lei] : []));
  const {
    gleif,
    psc,
    exceptions: exceptionRows,
    companyExceptions,
  } = await chainSources(db, leis, [...new Set([companyId, ...children])], companyId);
  const hiddenLei = (g: GleifRow) => g.end_known && g.end_id === null;
  const leiOwner = (g: GleifRow): OwnerRef =>
    g.end_id !== null
      ? companyRef({
          id: g.end_id,
          uri: g.end_uri as string,
          name: g.end_name as string,
          country: g.end_country,
          status: g.end_status,
          lei: g.end_company_lei,
        })
      : { kind: 'unknown_company', lei: g.end_lei, name: null, country: null };

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
  if (first.cycle && hiddenAt === -1) chainEnd = 'cycle';
  else if (hiddenAt !== -1) chainEnd = 'missing_link';
  else if (topParents.some((g) => !g.end_known)) {
    // The top names a parent Registra does not have.
    const g = topParents.find((t) => !t.end_known) as GleifRow;
    chain.push(gleifLink(g, leiOwner(g)));
    chainEnd = 'missing_link';
  } else if (exceptionsOf(top.lei).some((e) => e.relation === 'direct_parent')) chainEnd = 'exception';

  const stated = gleif.find(
    (g) =>
      g.start_lei === self.lei &&
      g.relationship_type === 'IS_ULTIMATELY_CONSOLIDATED_BY' &&
      isCurrent(g.relationship_status, day(g.period_end)) &&
      !hiddenLei(g),
  );
  const ultimateParent = stated ? gleifLink(stated, leiOwner(stated)) : null;
  const chainTop = chain[chain.length - 1]?.owner;
  const ultimateParentDiffers =
    ultimateParent !== null &&
    !(
      (chainTop?.kind === 'company' || chainTop?.kind === 'unknown_company') &&
      chainTop.lei === (ultimateParent.owner.kind === 'person' ? null : ultimateParent.owner.lei)
    );

  // A corporate owner known in Registra is named as that company (and left out when taken down).
  const owners = psc
    .filter((p) => Number(p.company_id) === companyId)
    .flatMap((p): OwnershipLink[] => {
      if (p.owner_company_id !== null) {
        if (p.owner_id === null) return [];
        const owner = companyRef({
          id: p.owner_id,
          uri: p.owner_uri as string,
          name: p.owner_name as string,
          country: p.owner_country,
          status: p.owner_status,
          lei: p.owner_lei,
        });
        return [pscLink(p, owner, 'beneficial_owner')];
      }
      if (p.name_type !== 'individual')
        return [
          pscLink(p, { kind: 'unknown_company', lei: null, name: p.name, country: p.country }, 'beneficial_owner'),
        ];
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
  const beneficialOwners = mergeOwners(owners);
  const bodsExceptions: ReportingException[] = companyExceptions.map((e) => ({
    relation: 'beneficial_owner',
    reasons: [e.reason],
    description: e.description,
    sources: [{ source: memberSource(e.source), reference: null, date: day(e.source_date) }],
  }));

  return {
    chain,
    chainEnd,
    ultimateParent,
    ultimateParentDiffers,
    beneficialOwners,
    exceptions: [...exceptionsOf(self.lei), ...bodsExceptions],
    directSubsidiaries: Number(first.direct),
    groupSize: Number(first.group_size),
  };
}

/** A place in a level's name order: the page after it, or (`before`) the page before it. */
type Cursor = { name: string; id: number; before: boolean };
const encodeCursor = (c: Cursor) =>
  Buffer.from(JSON.stringify(c.before ? [c.name, c.id, 'before'] : [c.name, c.id])).toString('base64url');
function decodeCursor(cursor: string): Cursor {
  try {
    const [name, id, direction, ...rest] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      typeof name === 'string' &&
      Number.isSafeInteger(id) &&
      (direction === undefined || direction === 'before') &&
      rest.length === 0
    )
      return { name, id, before: direction === 'before' };
  } catch {}
  throw new AppError('bad_request', 'cursor is not one this list gave');
}

/**
 * The direct subsidiaries of `parentId` (default: the company), a page at a time in name order;
 * `parentId` must be the company or in its group. Depth counts from the company. A page gives the
 * cursor of the page after it (`next`) and of the page before it (`previous`), when there is one.
 */
export async function groupPage(
  db: Db,
  companyId: number,
  options: { parentId?: number; cursor?: string | null; limit: number },
): Promise<GroupPage> {
  const parentId = options.parentId ?? companyId;
  const limit = Math.max(1, Math.min(options.limit, 500));
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;
  const empty: GroupPage = { nodes: [], next: null, previous: null, total: 0 };
  // The company (visible, in a group) and the level's parent (itself, or a visible company of its group).
  const base = (
    await sql<{ depth: number; visible: boolean; in_group: boolean }>`select t.depth,
        ${visibleCompanyId('t.legal_entity_id')} as visible,
        ${
          parentId === companyId
            ? sql`true`
            : sql`exists (select 1 from ownership_tree p where p.legal_entity_id = ${parentId}
                and p.ancestors @> array[${companyId}]::bigint[] and ${visibleCompanyId('p.legal_entity_id')})`
        } as in_group
      from ownership_tree t where t.legal_entity_id = ${companyId}`.execute(db.kysely)
  ).rows[0];
  if (!base?.visible || !base.in_group) return empty;
  const key = (c: { name: string; id: number }) => sql`(${c.name}, ${c.id}::bigint)`;
  const total = sql`(select count(*) from ownership_tree where parent_id = ${parentId}
    and ${visibleCompanyId('legal_entity_id')})`;
  // Backwards: the `limit` rows before the cursor, read in reverse order and turned round.
  const from = cursor
    ? sql`and (t.name, t.legal_entity_id) ${sql.raw(cursor.before ? '<' : '>')} ${key(cursor)}`
    : sql``;
  const order = sql.raw(cursor?.before ? 't.name desc, t.legal_entity_id desc' : 't.name, t.legal_entity_id');
  const read = (
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
      total: string | number;
    }>`select t.legal_entity_id as id, le.uri, le.name, t.name as sort_name, l.country_code as country, s.uri as status,
        t.depth, t.child_count, t.parent_source, t.parent_reference, ${total} as total
      from (select * from ownership_tree t where t.parent_id = ${parentId} ${from}
          and ${visibleCompanyId('t.legal_entity_id')}
          order by ${order} limit ${limit + 1}) t
      join legal_entities le on le.id = t.legal_entity_id
      join locations l on l.id = le.jurisdiction_id
      left join statuses s on s.id = le.status_id
      order by ${order}`.execute(db.kysely)
  ).rows;
  const more = read.length > limit;
  const page = cursor?.before ? read.slice(0, limit).reverse() : read.slice(0, limit);
  const first = page[0];
  const last = page[page.length - 1];
  // The ends of the page (the cursor's own place when it is empty): is there a row beyond the other end?
  const low = first ? { name: first.sort_name, id: Number(first.id) } : cursor;
  const high = last ? { name: last.sort_name, id: Number(last.id) } : cursor;
  const beyond = (side: '<' | '>', at: { name: string; id: number } | null) =>
    at
      ? sql<boolean>`exists (select 1 from ownership_tree t where t.parent_id = ${parentId}
          and (t.name, t.legal_entity_id) ${sql.raw(side)} ${key(at)} and ${visibleCompanyId('t.legal_entity_id')})`
      : sql<boolean>`false`;
  // The level's size came with the rows; a page read from a cursor asks what lies beyond its other end.
  const counts =
    cursor || page.length === 0
      ? (
          await sql<{ n: string | number; earlier: boolean; later: boolean }>`select ${total} as n,
              ${cursor && !cursor.before ? beyond('<', low) : sql`false`} as earlier,
              ${cursor?.before ? beyond('>', high) : sql`false`} as later`.execute(db.kysely)
        ).rows[0]
      : { n: (first as (typeof page)[number]).total, earlier: false, later: false };
  const hasNext = cursor?.before ? Boolean(counts?.later) : more;
  const hasPrevious = cursor?.before ? more : Boolean(counts?.earlier);
  const nodes: GroupNode[] = page.map((r) => ({
    company: { id: Number(r.id), path: companyPath(r.uri), name: r.name, country: r.country, status: r.status },
    parentId,
    depth: r.depth - base.depth,
    childCount: r.child_count,
    sources: r.parent_source ? [{ source: r.parent_source, reference: r.parent_reference, date: null }] : [],
  }));
  return {
    nodes,
    next: hasNext && high ? encodeCursor({ ...high, before: false }) : null,
    previous: hasPrevious && low ? encodeCursor({ ...low, before: true }) : null,
    total: Number(counts?.n ?? 0),
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
      source: string | null;
      share_min: string | number | null;
      share_max: string | number | null;
    }>`select le.id, le.uri, le.name, l.country_code as country, x.member_id, x.natures, x.since, x.until,
        x.source, x.share_min, x.share_max
      from legal_entity_members x
      join members m on m.id = x.member_id
      join legal_entities le on le.id = x.legal_entity_id
      join locations l on l.id = le.jurisdiction_id
      where x.member_id = ${personId} and x.natures is not null and ${visibleMember('m')} and ${visibleCompany('le')}
      order by x.until desc nulls first, le.name, le.id`.execute(db.kysely)
  ).rows;
  return rows.map((r) => {
    const sources: OwnershipSource[] = [
      { source: memberSource(r.source), reference: String(r.member_id), date: day(r.since) },
    ];
    return {
      company: { id: Number(r.id), path: companyPath(r.uri), name: r.name, country: r.country },
      natures: r.natures,
      ...holdingShare(r.natures, r.share_min, r.share_max),
      current: r.until === null,
      sources,
    };
  });
}
