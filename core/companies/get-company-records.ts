import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { fieldColumn } from '../sections/record-fields.ts';
import { RECORD_SECTIONS } from '../sections/records.ts';
import { visibleConnection } from '../takedowns/visible.ts';
import { preparedStatement } from './prepared-query.ts';

/** Records of each type the profile shows before linking to the full search. */
export const PROFILE_RECORDS = 5;

export type RecordList = { total: number; rows: Record<string, string | number | null>[] };

/**
 * Profile lists without a search section: their table, order and the columns the profile shows (a
 * `code` column holds a stable code, shown by its translation under `codes`).
 */
export const OTHER_LISTS = [
  {
    key: 'documents',
    table: 'documents',
    order: 'filed_on',
    columns: [
      { key: 'filed_on', type: 'date' },
      { key: 'title', type: 'text' },
      { key: 'document_type', type: 'code', codes: 'profile.documentType' },
    ],
  },
  {
    key: 'events',
    table: 'events',
    order: 'event_date',
    columns: [
      { key: 'event_date', type: 'date' },
      { key: 'event_type', type: 'code', codes: 'profile.eventType' },
      { key: 'description', type: 'text' },
    ],
  },
  {
    key: 'products',
    table: 'products',
    order: 'name',
    columns: [
      { key: 'name', type: 'text' },
      { key: 'kind', type: 'code', codes: 'profile.productKind' },
      { key: 'description', type: 'text' },
    ],
  },
] as const;

/** The lists the profile shows: the record sections', then the other lists; their order in the statement. */
const LISTS = [
  ...RECORD_SECTIONS.map((s) => ({
    key: s.id,
    table: s.table,
    order: fieldColumn(s.fields.find((f) => f.key === s.sortField)!),
    desc: true,
  })),
  ...OTHER_LISTS.map((l) => ({ key: l.key, table: l.table, order: l.order, desc: l.order !== 'name' })),
];

type ListRows = (RecordList['rows'][number] & { list_total_: number })[];

/**
 * One subquery per list: its first rows, each carrying the list's total (a window count over the
 * company's rows of that type, taken before the limit). Half the subqueries of a count beside
 * each list: planning and running 48 of them cost about twice as much (ADR 0002).
 * json_build_object takes at most 100 arguments: two per list.
 */
function listsOf(target: RawBuilder<unknown>) {
  const parts = LISTS.map(
    (l) => sql`${l.key}::text, (select coalesce(json_agg(x), '[]'::json) from (
        select *, count(*) over () as list_total_ from ${sql.table(l.table)} r where r.legal_entity_id = c.id
          ${l.table === 'connections' ? sql`and ${visibleConnection('r')}` : sql``}
        order by ${sql.ref(l.order)} ${sql.raw(l.desc ? 'desc' : 'asc')}, id limit ${PROFILE_RECORDS}) x)`,
  );
  return sql<{ lists: Record<string, ListRows> | string }>`
      select json_build_object(${sql.join(parts)}) as lists from ${target}`;
}

/** The statements, built and compiled once (core/companies/prepared-query.ts): by the company's id, by its uri. */
const recordsById = preparedStatement('registra-company-records-by-id', (_, id: number) =>
  listsOf(sql`(select ${id}::bigint as id) c`),
);
const recordsByUri = preparedStatement('registra-company-records-by-uri', (_, uri: string) =>
  listsOf(sql`(select id from legal_entities where uri = ${uri}) c`),
);

/**
 * The first records of every related type of one company, newest first, and how many there are,
 * in one statement. Keyed by section id (and documents, events, products). The company is named
 * by id, or by uri (then resolved in the same statement, so that the profile can run this beside
 * getCompany instead of after it); null when no company has that uri.
 */
export async function getCompanyRecords(
  db: Db,
  company: number | { uri: string },
): Promise<Map<string, RecordList> | null> {
  const rows = typeof company === 'number' ? await recordsById(db, company) : await recordsByUri(db, company.uri);
  if (rows.length === 0) return null;
  const value = rows[0].lists;
  // Drivers differ on json: pg parses it, PGlite may hand back text.
  const raw = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, ListRows>;
  return new Map(
    LISTS.map((l) => {
      const rows = raw[l.key];
      const total = rows.length > 0 ? Number(rows[0].list_total_) : 0;
      return [l.key, { total, rows: rows.map(({ list_total_, ...row }) => row) }];
    }),
  );
}
