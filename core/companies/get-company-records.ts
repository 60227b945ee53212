import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { fieldColumn } from '../sections/record-fields.ts';
import { RECORD_SECTIONS } from '../sections/records.ts';

/** Records of each type the profile shows before linking to the full search. */
export const PROFILE_RECORDS = 5;

export type RecordList = { total: number; rows: Record<string, string | number | null>[] };

/** Profile lists without a search section: their table, order and the columns the profile shows. */
export const OTHER_LISTS = [
  {
    key: 'documents',
    table: 'documents',
    order: 'filed_on',
    columns: [
      { key: 'filed_on', type: 'date' },
      { key: 'title', type: 'text' },
      { key: 'document_type', type: 'text' },
    ],
  },
  {
    key: 'events',
    table: 'events',
    order: 'event_date',
    columns: [
      { key: 'event_date', type: 'date' },
      { key: 'event_type', type: 'text' },
      { key: 'description', type: 'text' },
    ],
  },
  {
    key: 'products',
    table: 'products',
    order: 'name',
    columns: [
      { key: 'name', type: 'text' },
      { key: 'kind', type: 'text' },
      { key: 'description', type: 'text' },
    ],
  },
] as const;

/**
 * The first records of every related type of one company, newest first, and how many there are,
 * in one statement. Keyed by section id (and documents, events, products).
 */
export async function getCompanyRecords(db: Db, companyId: number): Promise<Map<string, RecordList>> {
  const lists = [
    ...RECORD_SECTIONS.map((s) => ({
      key: s.id,
      table: s.table,
      order: fieldColumn(s.fields.find((f) => f.key === s.sortField)!),
      desc: true,
    })),
    ...OTHER_LISTS.map((l) => ({ key: l.key, table: l.table, order: l.order, desc: l.order !== 'name' })),
  ];
  const parts = lists.map(
    (l) => sql`${l.key}::text, json_build_object(
      'total', (select count(*) from ${sql.table(l.table)} where legal_entity_id = ${companyId}),
      'rows', (select coalesce(json_agg(x), '[]'::json) from (
        select * from ${sql.table(l.table)} where legal_entity_id = ${companyId}
        order by ${sql.ref(l.order)} ${sql.raw(l.desc ? 'desc' : 'asc')}, id limit ${PROFILE_RECORDS}) x))`,
  );
  // json_build_object takes at most 100 arguments: two per list.
  const result = await sql<{ lists: Record<string, RecordList> }>`
    select json_build_object(${sql.join(parts)}) as lists`.execute(db.kysely);
  const raw = result.rows[0].lists;
  return new Map(lists.map((l) => [l.key, { total: Number(raw[l.key].total), rows: raw[l.key].rows }]));
}
