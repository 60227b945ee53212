import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

// Each company's place in its ownership tree (ADR 0038, migration 0036): its direct parent in
// Registra, the ancestors up to the top, the top's country and the number of direct subsidiaries.
// Derived from the sources — a current GLEIF IS_DIRECTLY_CONSOLIDATED_BY relationship between two
// known companies first, else a corporate person with significant control holding a majority band
// (ownership of shares or voting rights 50–75 % or 75–100 %; from BODS, a share whose lower bound is
// over 50 %, or 50 % with a higher upper bound: BODS's "more than 50 %"), the register's before BODS's — and refreshed after every company
// write (core/companies/company-writes.ts): the companies written and everything below them.
// Cycles (GLEIF data has them) end the walk up where it would come back: `cycle` is set.

/** A majority band of a PSC nature of control: the holder is a parent company. */
export const MAJORITY_NATURE = '^(ownership-of-shares|voting-rights)-(50-to-75|75-to-100)-percent';

/** The direct parent each of the children (or every company) has by the sources, one per child. */
function parentCandidates(children: readonly number[] | 'all') {
  const gleifChild = children === 'all' ? sql`true` : sql`c.legal_entity_id = any(${[...children]}::bigint[])`;
  const pscChild = children === 'all' ? sql`true` : sql`x.legal_entity_id = any(${[...children]}::bigint[])`;
  return sql`select distinct on (child_id) child_id, parent_id, source, reference from (
      select c.legal_entity_id as child_id, p.legal_entity_id as parent_id, 'gleif' as source,
        r.start_lei || '>' || r.end_lei as reference, 1 as rank
      from lei_relationships r
      join company_keys c on c.scheme = 'lei' and c.key = r.start_lei
      join company_keys p on p.scheme = 'lei' and p.key = r.end_lei
      where r.relationship_type = 'IS_DIRECTLY_CONSOLIDATED_BY' and coalesce(r.relationship_status, 'ACTIVE') = 'ACTIVE'
        and (r.period_end is null or r.period_end > current_date) and ${gleifChild}
      union all
      select x.legal_entity_id, m.legal_entity_id, case when x.source = 'bods' then 'bods' else 'psc' end,
        x.member_id::text, case when x.source = 'bods' then 3 else 2 end
      from legal_entity_members x
      join members m on m.id = x.member_id
      where x.position_id = (select id from positions where uri = 'shareholder') and x.until is null
        and m.legal_entity_id is not null and x.natures is not null
        and (exists (select 1 from unnest(x.natures) n where n ~ ${MAJORITY_NATURE}) or x.share_min > 50
          or (x.share_min = 50 and x.share_max > 50)) and ${pscChild}
    ) c where child_id <> parent_id
    order by child_id, rank, parent_id`;
}

/**
 * Brings the tree up to date after `companies` were written ('all': rebuilt from the sources).
 * One transaction; the companies below a written one get their ancestors again.
 */
export async function refreshOwnershipTree(db: Db, companies: readonly number[] | 'all'): Promise<void> {
  if (companies !== 'all' && companies.length === 0) return;
  await db.kysely.transaction().execute(async (tx) => {
    if (companies === 'all') await rebuild(tx);
    else await refresh(tx, [...new Set(companies.map(Number))]);
  });
}

async function rebuild(tx: Kysely<Database>): Promise<void> {
  await sql`delete from ownership_tree`.execute(tx);
  await sql`create temporary table ownership_parents on commit drop as ${parentCandidates('all')}`.execute(tx);
  await sql`insert into ownership_tree (legal_entity_id, parent_id, parent_source, parent_reference, ultimate_id, depth, ancestors, name)
    select child_id, parent_id, source, reference, child_id, 0, '{}', '' from ownership_parents
    union all
    select distinct parent_id, null::bigint, null, null, parent_id, 0, '{}'::bigint[], '' from ownership_parents
    where parent_id not in (select child_id from ownership_parents)`.execute(tx);
  await walkUp(tx, 'all');
}

async function refresh(tx: Kysely<Database>, ids: number[]): Promise<void> {
  const before = await sql<{ legal_entity_id: string; parent_id: string | null }>`
    select legal_entity_id, parent_id from ownership_tree where legal_entity_id = any(${ids}::bigint[])`.execute(tx);
  const parents = (
    await sql<{
      child_id: string;
      parent_id: string;
      source: string;
      reference: string;
    }>`${parentCandidates(ids)}`.execute(tx)
  ).rows;
  // The written companies: their parent as the sources state it now.
  await sql`insert into ownership_tree (legal_entity_id, parent_id, parent_source, parent_reference, ultimate_id, depth, ancestors, name)
    select id, p.parent_id, p.source, p.reference, id, 0, '{}', ''
    from unnest(${ids}::bigint[]) id
    left join jsonb_to_recordset(${JSON.stringify(parents)}::jsonb) as p(child_id bigint, parent_id bigint, source text, reference text)
      on p.child_id = id
    where p.parent_id is not null or exists (select 1 from ownership_tree t where t.parent_id = id)
      or exists (select 1 from ownership_tree t where t.legal_entity_id = id)
    on conflict (legal_entity_id) do update set parent_id = excluded.parent_id, parent_source = excluded.parent_source,
      parent_reference = excluded.parent_reference`.execute(tx);
  // A new parent that had no row is a top.
  const newParents = [...new Set(parents.map((p) => Number(p.parent_id)))];
  await sql`insert into ownership_tree (legal_entity_id, parent_id, ultimate_id, depth, ancestors, name)
    select id, null, id, 0, '{}', '' from unnest(${newParents}::bigint[]) id
    where exists (select 1 from legal_entities where legal_entities.id = id)
    on conflict (legal_entity_id) do nothing`.execute(tx);
  // Everything below a written company walks up again.
  const affected = (
    await sql<{ id: string }>`select legal_entity_id as id from ownership_tree
      where legal_entity_id = any(${ids}::bigint[]) or ancestors && ${ids}::bigint[]`.execute(tx)
  ).rows.map((r) => Number(r.id));
  await walkUp(tx, affected);
  const oldParents = before.rows.flatMap((r) => (r.parent_id === null ? [] : [Number(r.parent_id)]));
  await countChildren(tx, [...new Set([...oldParents, ...newParents, ...ids])]);
  // A company with neither parent nor subsidiaries is in no group.
  await sql`delete from ownership_tree t where t.legal_entity_id = any(${[...ids, ...oldParents]}::bigint[])
    and t.parent_id is null and t.child_count = 0`.execute(tx);
}

/**
 * The country of a company's ultimate parent ("ultimate parent in <country>") is the country of the
 * ultimate parent GLEIF states for it (a current IS_ULTIMATELY_CONSOLIDATED_BY to a company in
 * Registra; of its first LEI that states one) when there is one, else of the top of its chain. These
 * are the stated ones (`id`, `country_code`) of the companies `ids` (a relation with a column `id`),
 * as a join: a correlated subquery per company chose a plan scanning every LEI key per row. The one
 * home of the rule; migration 0037 applied it once to the rows written before.
 */
export function statedUltimateCountries(ids: RawBuilder<unknown>): RawBuilder<{ id: number; country_code: string }> {
  return sql`select distinct on (c.legal_entity_id) c.legal_entity_id as id, l.country_code
    from ${ids} x
    join company_keys c on c.legal_entity_id = x.id and c.scheme = 'lei'
    join lei_relationships r on r.start_lei = c.key and r.relationship_type = 'IS_ULTIMATELY_CONSOLIDATED_BY'
      and coalesce(r.relationship_status, 'ACTIVE') = 'ACTIVE' and (r.period_end is null or r.period_end > current_date)
    join company_keys p on p.scheme = 'lei' and p.key = r.end_lei
    join legal_entities u on u.id = p.legal_entity_id
    join locations l on l.id = u.jurisdiction_id
    where l.country_code is not null
    order by c.legal_entity_id, c.key, r.end_lei`;
}

/** Ancestors, top, depth, ultimate parent's country, name (and, for 'all', children counts) of these rows. */
async function walkUp(tx: Kysely<Database>, ids: number[] | 'all'): Promise<void> {
  if (ids !== 'all' && ids.length === 0) return;
  const start = ids === 'all' ? sql`true` : sql`legal_entity_id = any(${ids}::bigint[])`;
  await sql`with recursive up (id, cur, anc, cyc) as (
      select legal_entity_id, legal_entity_id, array[]::bigint[], false from ownership_tree where ${start}
      union all
      select up.id, t.parent_id, up.anc || t.parent_id, t.parent_id = up.id or t.parent_id = any(up.anc)
      from up join ownership_tree t on t.legal_entity_id = up.cur
      where t.parent_id is not null and not up.cyc
    ),
    walked as (
      select distinct on (id) id, case when cyc then anc[1:cardinality(anc) - 1] else anc end as anc, cyc
      from up order by id, cardinality(anc) desc
    ),
    stated as (${statedUltimateCountries(sql`walked`)})
    update ownership_tree t set ancestors = w.anc, depth = cardinality(w.anc), cycle = w.cyc,
      ultimate_id = coalesce(w.anc[cardinality(w.anc)], w.id),
      ultimate_country = coalesce(w.stated_country, (select l.country_code from legal_entities u
        join locations l on l.id = u.jurisdiction_id where u.id = coalesce(w.anc[cardinality(w.anc)], w.id))),
      name = (select le.name from legal_entities le where le.id = w.id)
    from (select walked.*, stated.country_code as stated_country from walked left join stated on stated.id = walked.id) w
    where t.legal_entity_id = w.id`.execute(tx);
  if (ids === 'all')
    await sql`update ownership_tree t set child_count = c.n
      from (select parent_id, count(*)::int as n from ownership_tree where parent_id is not null group by parent_id) c
      where t.legal_entity_id = c.parent_id`.execute(tx);
}

async function countChildren(tx: Kysely<Database>, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`update ownership_tree t set child_count = (select count(*)::int from ownership_tree c where c.parent_id = t.legal_entity_id)
    where t.legal_entity_id = any(${ids}::bigint[])`.execute(tx);
}
