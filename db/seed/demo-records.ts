import { sql } from 'kysely';
import { afterCompanyWrite } from '../../core/companies/company-writes.ts';
import { enqueueReportsAfterWrite } from '../../core/monitoring/enqueue-reports.ts';
import { writeCompanyRecords } from '../../core/records/record-writes.ts';
import { fieldColumn } from '../../core/sections/record-fields.ts';
import { RECORD_SECTIONS } from '../../core/sections/records.ts';
import type { Db } from '../client.ts';
import { type DayRecordCompany, type DayRecordTable, makeDayRecord, type RecordValue } from './record-factory.ts';
import type { SeedCatalog } from './seed-catalog.ts';

// The records a demo day adds and changes (docs/decisions/0014-importers.md "Demo updates"): for
// each company of the day, one of a new trademark application, a new violation, a new permit
// application, or its newest permit approved (a new inspection when it has no pending one). The
// values are the seed's (record-factory.ts makeDayRecord), from a random stream of company and
// day, and each record carries a key that finds it again, so the same day twice changes nothing.
//
// The records are written through core/records/record-writes.ts, the one home of writing records
// (docs/decisions/0027-monitored-records.md): each is recorded as a change of its company, so a
// tracked company's new trademark or approved permit reaches its update report, the feed and webhooks.

/** One record of a company's section, written or changed. */
export type RecordWrite = {
  table: DayRecordTable;
  legalEntityId: number;
  /** Field values (by field key) that find the record again: on a later run of the same day, or a later day's change. */
  key: Record<string, RecordValue>;
  /** The fields the write states, by field key (core/sections/records.ts); a field left out keeps its value (null when new). */
  values: Record<string, RecordValue>;
};

/** Writes records of companies' sections (inserting new ones, changing found ones); `source` says who stated them. */
export type WriteRecords = (db: Db, writes: RecordWrite[], source: { name: string; day: string }) => Promise<void>;

const FIELDS = new Map(RECORD_SECTIONS.map((s) => [s.table, s.fields]));

/** Each field's column in its table (an enum's `status` is `status_id`). */
function columnOf(table: string, key: string): string {
  const field = FIELDS.get(table)?.find((f) => f.key === key);
  if (!field) throw new Error(`${table} has no field ${key}`);
  return fieldColumn(field);
}

/**
 * The day's records in one transaction through writeCompanyRecords: a record the key finds is
 * changed (only what differs is written and recorded), else added; then what a company write
 * refreshes (afterCompanyWrite) and the monitoring reports of the changes enqueued.
 */
export const writeDayRecords: WriteRecords = async (db, writes, source) => {
  if (writes.length === 0) return;
  let changes = 0;
  await db.kysely.transaction().execute(async (trx) => {
    for (const write of writes) {
      const where = sql.join(
        [
          sql`legal_entity_id = ${write.legalEntityId}`,
          ...Object.entries(write.key).map(([key, value]) => sql`${sql.ref(columnOf(write.table, key))} = ${value}`),
        ],
        sql` and `,
      );
      const found = await sql<{ id: string | number }>`select id from ${sql.table(write.table)} where ${where}
        order by id limit 1`.execute(trx);
      const existing = found.rows[0];
      const base = {
        companyId: write.legalEntityId,
        section: write.table,
        source: source.name,
        sourceDate: source.day,
      };
      const written = await writeCompanyRecords(
        trx,
        existing
          ? { ...base, changed: [{ id: Number(existing.id), values: write.values }] }
          : { ...base, added: [{ ...write.key, ...write.values }] },
      );
      changes += written.changes;
    }
  });
  await afterCompanyWrite(db, { companies: [...new Set(writes.map((w) => w.legalEntityId))], names: [] });
  if (changes > 0) await enqueueReportsAfterWrite(db);
};

/** What each record kind's key is: the fields that tell one record of a company from its others. */
const KEYS: Record<DayRecordTable, string[]> = {
  trademarks: ['application_number'],
  violations: ['violation_date', 'law', 'inspector'],
  permits: ['application_date', 'purpose', 'authority'],
  inspections: ['inspection_date', 'inspector'],
};

const PERMIT_PENDING = 1;
const PERMIT_APPROVED = 2;
const TRADEMARK_FILED = 1;

type Kind = 'trademark' | 'violation' | 'permit' | 'approval';
const KINDS: Kind[] = ['trademark', 'violation', 'permit', 'approval'];

/** The day's kind of record for a company (the same day gives the same kind). */
function kindOf(companyId: number, day: string): Kind {
  let h = 0;
  for (const ch of `${companyId}:${day}`) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return KINDS[h % KINDS.length];
}

function newRecord(
  catalog: SeedCatalog,
  company: DayRecordCompany,
  table: DayRecordTable,
  day: string,
): RecordWrite | null {
  const record = makeDayRecord(catalog, 1, company, table, day);
  if (!record) return null;
  const values = { ...record.values };
  // A record of today is one just filed: a trademark not yet registered, a permit not yet decided.
  if (table === 'trademarks') Object.assign(values, { status: TRADEMARK_FILED, registration_date: null });
  if (table === 'trademarks' && values.expiration_date !== null) values.expiration_date = null;
  if (table === 'permits') values.status = PERMIT_PENDING;
  const key = Object.fromEntries(KEYS[table].map((k) => [k, values[k] ?? null]));
  for (const k of KEYS[table]) delete values[k];
  return { table, legalEntityId: company.id, key, values };
}

/** The industry group of each industry id (the seed's words for its records). */
function groupsOf(catalog: SeedCatalog): Map<number, string> {
  const out = new Map<number, string>();
  for (const [group, ids] of catalog.industriesOf) for (const id of ids) out.set(id, group);
  return out;
}

/** The record writes of a day for these companies. */
export async function dayRecordWrites(
  db: Db,
  catalog: SeedCatalog,
  day: string,
  companyIds: number[],
): Promise<RecordWrite[]> {
  if (companyIds.length === 0) return [];
  const rows = await sql<DayRecordCompany & { address_line: string | null; primary_industry_id: number | null }>`
    select l.id, l.jurisdiction_id, l.primary_industry_id, l.status_id, l.size_id, l.employees_id,
      (select a.address_line_1 from legal_entity_addresses a where a.legal_entity_id = l.id
        order by a.address_type_id, a.position limit 1) as address_line
    from legal_entities l where l.id = any(${companyIds}::bigint[]) order by l.id`.execute(db.kysely);
  const groups = groupsOf(catalog);
  const writes: RecordWrite[] = [];
  for (const row of rows.rows) {
    const company: DayRecordCompany = {
      id: Number(row.id),
      jurisdiction_id: Number(row.jurisdiction_id),
      primary_industry_id: row.primary_industry_id === null ? null : Number(row.primary_industry_id),
      status_id: row.status_id,
      size_id: row.size_id,
      employees_id: row.employees_id,
      industryGroup: groups.get(Number(row.primary_industry_id)) ?? 'default',
      addressLine: row.address_line,
    } as DayRecordCompany;
    const kind = kindOf(company.id, day);
    let write: RecordWrite | null = null;
    if (kind === 'approval') {
      // Its newest permit applied for before the day: approved when pending (and stays so).
      const permit = await sql<{ application_date: string; purpose: string; authority: string; status_id: number }>`
        select application_date::text as application_date, purpose, authority, status_id from permits
        where legal_entity_id = ${company.id} and application_date < ${day}::date
        order by application_date desc, id desc limit 1`.execute(db.kysely);
      const p = permit.rows[0];
      if (p && (Number(p.status_id) === PERMIT_PENDING || Number(p.status_id) === PERMIT_APPROVED))
        write = {
          table: 'permits',
          legalEntityId: company.id,
          key: { application_date: p.application_date, purpose: p.purpose, authority: p.authority },
          values: { status: PERMIT_APPROVED },
        };
      else write = newRecord(catalog, company, 'inspections', day);
    } else {
      const table = ({ trademark: 'trademarks', violation: 'violations', permit: 'permits' } as const)[kind];
      write = newRecord(catalog, company, table, day);
    }
    if (write) writes.push(write);
  }
  return writes;
}
