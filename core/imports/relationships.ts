import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Relationship, ReportingException } from './company-facts.ts';
import type { WriteResult } from './legal-forms.ts';
import { canonicalJson, insertChanges, insertRows, type Tx } from './sql-rows.ts';

// GLEIF Level 2 (docs/decisions/0014-importers.md "gleif-rr", "gleif-repex"): relationships are
// kept by LEI whether or not both companies are known yet; an accounting-consolidation parent
// becomes a parent-company member (position parent_company) of the child, linked to the parent
// company when it is known, so that both profiles show it. A member that appears or goes is a
// 'members' change of the child.

const PARENT_TYPES = ['IS_DIRECTLY_CONSOLIDATED_BY', 'IS_ULTIMATELY_CONSOLIDATED_BY'];

export async function writeRelationships(
  db: Db,
  importId: number,
  source: string,
  list: Relationship[],
): Promise<WriteResult> {
  const result: WriteResult = { new: 0, changed: 0, unchanged: 0, touched: [] };
  const unique = new Map(list.map((r) => [`${r.startLei} ${r.endLei} ${r.type}`, r]));
  const rows = [...unique.values()];
  await db.kysely.transaction().execute(async (tx) => {
    const existing = new Map(
      (
        await sql<{ start_lei: string; end_lei: string; relationship_type: string; value: string }>`
          select start_lei, end_lei, relationship_type,
            jsonb_build_array(relationship_status, registration_status, period_start, period_end)::text as value
          from lei_relationships r
          join unnest(${rows.map((r) => r.startLei)}::text[], ${rows.map((r) => r.endLei)}::text[], ${rows.map((r) => r.type)}::text[])
            as k(s, e, t) on r.start_lei = k.s and r.end_lei = k.e and r.relationship_type = k.t`.execute(tx)
      ).rows.map((r) => [`${r.start_lei} ${r.end_lei} ${r.relationship_type}`, r.value]),
    );
    const write: Relationship[] = [];
    for (const [key, r] of unique) {
      const before = existing.get(key);
      const value = canonicalJson([r.status, r.registrationStatus, r.periodStart, r.periodEnd]);
      if (before === undefined) result.new += 1;
      else if (canonicalJson(JSON.parse(before)) !== value) result.changed += 1;
      else {
        result.unchanged += 1;
        continue;
      }
      write.push(r);
    }
    await insertRows(
      tx,
      'lei_relationships',
      {
        start_lei: 'text',
        end_lei: 'text',
        relationship_type: 'text',
        relationship_status: 'text',
        registration_status: 'text',
        period_start: 'date',
        period_end: 'date',
        source_date: 'timestamptz',
      },
      write.map((r) => ({
        start_lei: r.startLei,
        end_lei: r.endLei,
        relationship_type: r.type,
        relationship_status: r.status,
        registration_status: r.registrationStatus,
        period_start: r.periodStart,
        period_end: r.periodEnd,
        source_date: r.sourceDate,
      })),
      sql`on conflict (start_lei, end_lei, relationship_type) do update set relationship_status = excluded.relationship_status,
        registration_status = excluded.registration_status, period_start = excluded.period_start,
        period_end = excluded.period_end, source_date = excluded.source_date`,
    );
    result.touched = await linkParentMembers(tx, { importId, source }, [...new Set(write.map((r) => r.startLei))]);
  });
  return result;
}

/**
 * Makes the parent-company members of the children with these LEIs agree with their relationships:
 * an active consolidation parent is a member (linked to the parent company when it is known), an
 * ended one is not. Returns the companies whose members changed.
 */
export async function linkParentMembers(
  tx: Tx,
  by: { importId: number; source: string },
  leis: string[],
): Promise<number[]> {
  if (leis.length === 0) return [];
  // The children of these LEIs too: a parent that became known links their members to it.
  const children = await sql<{ start_lei: string }>`select start_lei from lei_relationships
    where end_lei = any(${leis}::text[])`.execute(tx);
  const childLeis = [...new Set([...leis, ...children.rows.map((r) => r.start_lei)])];
  const rows = (
    await sql<{
      start_lei: string;
      end_lei: string;
      relationship_type: string;
      active: boolean;
      period_start: string | null;
      member_id: number | null;
      child_id: number | null;
      parent_id: number | null;
      parent_name: string | null;
      member_name: string | null;
      member_entity: number | null;
      source_date: Date | null;
    }>`
      select r.start_lei, r.end_lei, r.relationship_type,
        coalesce(r.relationship_status, 'ACTIVE') = 'ACTIVE' as active, r.period_start, r.member_id,
        c.legal_entity_id as child_id, p.legal_entity_id as parent_id, pe.name as parent_name,
        m.name as member_name, m.legal_entity_id as member_entity, r.source_date
      from lei_relationships r
      left join company_keys c on c.scheme = 'lei' and c.key = r.start_lei
      left join company_keys p on p.scheme = 'lei' and p.key = r.end_lei
      left join legal_entities pe on pe.id = p.legal_entity_id
      left join members m on m.id = r.member_id
      where r.start_lei = any(${childLeis}::text[]) and r.relationship_type = any(${PARENT_TYPES}::text[])`.execute(tx)
  ).rows;
  const position = (
    await tx.selectFrom('positions').select('id').where('uri', '=', 'parent_company').executeTakeFirstOrThrow()
  ).id;
  const touched = new Set<number>();
  const changes: object[] = [];
  const change = (row: (typeof rows)[number], oldValue: unknown, newValue: unknown) => {
    if (row.child_id === null) return;
    touched.add(Number(row.child_id));
    changes.push({
      legal_entity_id: row.child_id,
      field: 'members',
      old_value: oldValue,
      new_value: newValue,
      source: by.source,
      source_date: row.source_date,
      import_id: by.importId,
    });
  };
  for (const row of rows) {
    const name = row.parent_name ?? row.end_lei;
    const value = { name, position: 'parent_company', lei: row.end_lei, relationship: row.relationship_type };
    if (row.child_id === null) continue;
    if (!row.active) {
      if (row.member_id !== null) {
        await sql`delete from legal_entity_members where member_id = ${row.member_id}`.execute(tx);
        await sql`update lei_relationships set member_id = null where start_lei = ${row.start_lei}
          and end_lei = ${row.end_lei} and relationship_type = ${row.relationship_type}`.execute(tx);
        await sql`delete from members where id = ${row.member_id}`.execute(tx);
        change(row, { ...value, name: row.member_name ?? name }, null);
      }
      continue;
    }
    if (row.member_id === null) {
      const id = Number((await sql<{ id: number }>`select nextval('member_ids') as id`.execute(tx)).rows[0]?.id);
      await sql`insert into members (id, name_type, name, legal_entity_id) values (${id}, 'legal_entity', ${name}, ${row.parent_id})`.execute(
        tx,
      );
      await sql`insert into legal_entity_members (legal_entity_id, member_id, position_id, since)
        values (${row.child_id}, ${id}, ${position}, ${row.period_start}) on conflict do nothing`.execute(tx);
      await sql`update lei_relationships set member_id = ${id} where start_lei = ${row.start_lei}
        and end_lei = ${row.end_lei} and relationship_type = ${row.relationship_type}`.execute(tx);
      change(row, null, value);
    } else if (row.member_name !== name || row.member_entity !== row.parent_id) {
      // The parent became known (or was renamed) since the member was made.
      await sql`update members set name = ${name}, legal_entity_id = ${row.parent_id} where id = ${row.member_id}`.execute(
        tx,
      );
      change(row, { ...value, name: row.member_name }, value);
    }
  }
  await insertChanges(tx, changes);
  return [...touched];
}

export async function writeReportingExceptions(
  db: Db,
  importId: number,
  source: string,
  list: ReportingException[],
): Promise<WriteResult> {
  const result: WriteResult = { new: 0, changed: 0, unchanged: 0, touched: [] };
  const unique = new Map(list.map((e) => [`${e.lei} ${e.category}`, e]));
  await db.kysely.transaction().execute(async (tx) => {
    const leis = [...new Set([...unique.values()].map((e) => e.lei))];
    const existing = new Map(
      (await tx.selectFrom('lei_reporting_exceptions').selectAll().where('lei', 'in', leis).execute()).map((e) => [
        `${e.lei} ${e.exception_category}`,
        e,
      ]),
    );
    const companies = new Map(
      (
        await tx
          .selectFrom('company_keys')
          .select(['key', 'legal_entity_id'])
          .where('scheme', '=', 'lei')
          .where('key', 'in', leis)
          .execute()
      ).map((k) => [k.key, k.legal_entity_id]),
    );
    const rows: object[] = [];
    const changes: object[] = [];
    for (const [key, e] of unique) {
      const before = existing.get(key);
      const value = { category: e.category, reasons: e.reasons, reference: e.reference };
      const old = before
        ? { category: before.exception_category, reasons: before.reasons, reference: before.reference }
        : null;
      if (old && canonicalJson(old) === canonicalJson(value)) {
        result.unchanged += 1;
        continue;
      }
      if (old) result.changed += 1;
      else result.new += 1;
      rows.push({
        lei: e.lei,
        exception_category: e.category,
        reasons: e.reasons,
        reference: e.reference,
        source_date: e.sourceDate,
      });
      const company = companies.get(e.lei);
      if (company !== undefined) {
        result.touched?.push(company);
        changes.push({
          legal_entity_id: company,
          field: 'reporting_exceptions',
          old_value: old,
          new_value: value,
          source,
          source_date: e.sourceDate,
          import_id: importId,
        });
      }
    }
    if (rows.length > 0)
      await sql`insert into lei_reporting_exceptions (lei, exception_category, reasons, reference, source_date)
        select lei, exception_category, array(select jsonb_array_elements_text(reasons)), reference, source_date
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(lei text, exception_category text, reasons jsonb,
          reference text, source_date timestamptz)
        on conflict (lei, exception_category) do update set reasons = excluded.reasons, reference = excluded.reference,
          source_date = excluded.source_date`.execute(tx);
    await insertChanges(tx, changes);
  });
  return result;
}
