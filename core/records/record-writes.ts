import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { afterCompanyWrite } from '../companies/company-writes.ts';
import { enqueueReportsAfterWrite } from '../monitoring/enqueue-reports.ts';
import { fieldColumn, type RecordField } from '../sections/record-fields.ts';
import { COMPANY_COLUMNS, RECORD_SECTIONS, type RecordSectionDecl } from '../sections/records.ts';
import { type RecordSummary, SUMMARY_FIELDS } from './record-summaries.ts';

// The one home of writing a company's records (the 21 record sections of core/sections/records.ts)
// after the seed (docs/decisions/0027-monitored-records.md): records added, changed and removed in
// the caller's transaction, each recorded as a company_changes row of field `records.<table>` whose
// values are a small summary of the record (record-summaries.ts: its identifying and status fields;
// old null = added, new null = removed), so that update reports, the change feed and webhooks tell
// of them like of a company's own fields. The seed's bulk COPY writes records without changes (a
// company's first records are no news). Once committed, the writer calls afterCompanyWrite
// (core/companies/company-writes.ts) like every company writer: writeRecords does both.

/**
 * A record's values by field key (core/sections/records.ts): text, code and date fields as strings
 * ('YYYY-MM-DD' for dates), amounts in major units, numbers and years as numbers, enum values as
 * their id or uri, locations and currencies as their ids (the seed's SeedRecord values).
 */
export type RecordValues = Record<string, string | number | null>;

export type CompanyRecordsWrite = {
  companyId: number;
  /** The record section: its id (`bank-accounts`) or table (`bank_accounts`). */
  section: string;
  /** New records; `id` is taken from the record id sequence when not given. */
  added?: (RecordValues & { id?: number })[];
  /** Records whose fields change: only the fields given are written. */
  changed?: { id: number; values: RecordValues }[];
  /** Ids of records removed. */
  removed?: number[];
  /** Who says so (an import source name, e.g. 'demo'). */
  source: string;
  /** The source's own date of the change (its record's date), when it gives one. */
  sourceDate?: Date | string | null;
  /** When Registra saw it; now by default. */
  observedAt?: Date;
  /** The import the write belongs to, if any (company_changes.import_id). */
  importId?: number | null;
};

export type CompanyRecordsWritten = {
  /** Ids of the records added, in the order given. */
  added: number[];
  /** company_changes rows recorded (a change that writes no new value records none). */
  changes: number;
};

/** The record section an id (`bank-accounts`) or a table (`bank_accounts`) names, or a thrown Error. */
export function recordSectionOf(section: string): RecordSectionDecl {
  const decl = RECORD_SECTIONS.find((s) => s.id === section || s.table === section);
  if (!decl) throw new Error(`No record section is called ${JSON.stringify(section)}.`);
  return decl;
}

type Row = Record<string, unknown>;

/**
 * Adds, changes and removes one company's records of one section in the caller's transaction and
 * records a change for each. Does not refresh what depends on the company: call afterCompanyWrite
 * once committed (or use writeRecords).
 */
export async function writeCompanyRecords(
  trx: Kysely<Database>,
  write: CompanyRecordsWrite,
): Promise<CompanyRecordsWritten> {
  const decl = recordSectionOf(write.section);
  const fields = new Map(decl.fields.map((f) => [f.key, f]));
  const columnsOf = (values: RecordValues): Row => {
    const row: Row = {};
    for (const [key, value] of Object.entries(values)) {
      if (key === 'id' || value === undefined) continue;
      const f = fields.get(key);
      if (!f) throw new Error(`${decl.table} has no field ${JSON.stringify(key)}.`);
      row[fieldColumn(f)] = storedValue(f, value);
    }
    return row;
  };
  const table = sql.table(decl.table);
  const changes: { old: Row | null; new: Row | null; keys: string[] }[] = [];

  const added: number[] = [];
  if (write.added && write.added.length > 0) {
    const company = (
      await sql<Row>`select jurisdiction_id, primary_industry_id, status_id, size_id, employees_id
        from legal_entities where id = ${write.companyId}`.execute(trx)
    ).rows[0];
    if (!company) throw new Error(`No company has the id ${write.companyId}.`);
    for (const values of write.added) {
      const id =
        values.id ??
        Number((await sql<{ id: string | number }>`select nextval('record_ids') as id`.execute(trx)).rows[0].id);
      const row: Row = {
        legal_entity_id: write.companyId,
        id,
        [COMPANY_COLUMNS.jurisdiction]: company.jurisdiction_id,
        [COMPANY_COLUMNS.industry]: company.primary_industry_id,
        [COMPANY_COLUMNS.status]: company.status_id,
        [COMPANY_COLUMNS.size]: company.size_id,
        [COMPANY_COLUMNS.employees]: company.employees_id,
        ...columnsOf(values),
      };
      const columns = Object.keys(row);
      await sql`insert into ${table} (${sql.join(columns.map((c) => sql.ref(c)))})
        values (${sql.join(columns.map((c) => row[c]))})`.execute(trx);
      added.push(id);
      changes.push({ old: null, new: row, keys: [] });
    }
  }

  for (const change of write.changed ?? []) {
    const set = columnsOf(change.values);
    const before = (
      await sql<Row>`select * from ${table} where legal_entity_id = ${write.companyId} and id = ${change.id}`.execute(
        trx,
      )
    ).rows[0];
    if (!before) throw new Error(`${decl.table} has no record ${change.id} of company ${write.companyId}.`);
    const differing = Object.keys(set).filter((c) => !sameValue(before[c], set[c]));
    if (differing.length === 0) continue;
    const after = (
      await sql<Row>`update ${table} set ${sql.join(
        differing.map((c) => sql`${sql.ref(c)} = ${set[c]}`),
        sql`, `,
      )} where legal_entity_id = ${write.companyId} and id = ${change.id} returning *`.execute(trx)
    ).rows[0];
    const keys = decl.fields.filter((f) => differing.includes(fieldColumn(f))).map((f) => f.key);
    changes.push({ old: before, new: after, keys });
  }

  if (write.removed && write.removed.length > 0) {
    const gone = await sql<Row>`delete from ${table}
      where legal_entity_id = ${write.companyId} and id = any(${write.removed}::bigint[]) returning *`.execute(trx);
    for (const row of gone.rows) changes.push({ old: row, new: null, keys: [] });
  }

  if (changes.length === 0) return { added, changes: 0 };
  const codes = await referenceCodes(
    trx,
    decl,
    changes.flatMap((c) => [c.old, c.new]),
  );
  const summary = (row: Row | null, keys: string[]) => (row ? summaryOf(decl, row, keys, codes) : null);
  const sourceDate = write.sourceDate ?? null;
  await trx
    .insertInto('company_changes')
    .values(
      changes.map((c) => ({
        legal_entity_id: write.companyId,
        field: `records.${decl.table}`,
        old_value: JSON.stringify(summary(c.old, c.keys)),
        new_value: JSON.stringify(summary(c.new, c.keys)),
        source: write.source,
        source_date: sourceDate === null ? null : new Date(sourceDate),
        ...(write.observedAt ? { observed_at: write.observedAt } : {}),
        import_id: write.importId ?? null,
      })),
    )
    .execute();
  return { added, changes: changes.length };
}

/**
 * writeCompanyRecords in a transaction of its own, then what every company write refreshes
 * (afterCompanyWrite) and a monitoring run that reports the changes.
 */
export async function writeRecords(db: Db, write: CompanyRecordsWrite): Promise<CompanyRecordsWritten> {
  const written = await db.kysely.transaction().execute((trx) => writeCompanyRecords(trx, write));
  await afterCompanyWrite(db, { companies: [write.companyId], names: [] });
  if (written.changes > 0) await enqueueReportsAfterWrite(db);
  return written;
}

/** A value as its column stores it: an enum's uri becomes its id. */
function storedValue(f: RecordField, value: string | number | null): string | number | null {
  if (value === null || f.type !== 'enum' || typeof value === 'number') return value;
  const found = f.values?.find((v) => v.uri === value || String(v.id) === value);
  if (!found) throw new Error(`${f.key} has no value ${JSON.stringify(value)}.`);
  return found.id;
}

function sameValue(stored: unknown, given: unknown): boolean {
  if (stored === null || stored === undefined || given === null || given === undefined)
    return (stored ?? null) === (given ?? null);
  if (typeof given === 'number') return Number(stored) === given;
  return String(stored) === String(given);
}

type Codes = { locations: Map<number, string>; currencies: Map<number, string> };

/** The ISO codes of the locations (countries) and currencies the rows name: summaries carry codes, not ids. */
async function referenceCodes(trx: Kysely<Database>, decl: RecordSectionDecl, rows: (Row | null)[]): Promise<Codes> {
  const ids = (type: 'location' | 'currency') => [
    ...new Set(
      decl.fields
        .filter((f) => f.type === type)
        .flatMap((f) => rows.map((r) => r?.[fieldColumn(f)]))
        .filter((v) => v !== null && v !== undefined)
        .map(Number),
    ),
  ];
  const locationIds = ids('location');
  const currencyIds = ids('currency');
  const locations =
    locationIds.length === 0
      ? []
      : (
          await sql<{ id: number; code: string }>`select l.id, coalesce(f.country_code, l.country_code) as code
            from locations l left join locations f on f.id = l.flag_location_id
            where l.id = any(${locationIds}::int[])`.execute(trx)
        ).rows;
  const currencies =
    currencyIds.length === 0
      ? []
      : (
          await sql<{ id: number; code: string }>`select id, code from currencies
            where id = any(${currencyIds}::int[])`.execute(trx)
        ).rows;
  return {
    locations: new Map(locations.map((l) => [Number(l.id), l.code])),
    currencies: new Map(currencies.map((c) => [Number(c.id), c.code])),
  };
}

/**
 * A record's summary: its id, its section's summary fields and the fields `keys` a change touched,
 * as codes a reader can take as they are (an enum's uri, a country's ISO 3166 code, a currency's
 * ISO 4217 code, a date as 'YYYY-MM-DD', an amount as a number).
 */
function summaryOf(decl: RecordSectionDecl, row: Row, keys: string[], codes: Codes): RecordSummary {
  const wanted = new Set([...(SUMMARY_FIELDS[decl.table] ?? []), ...keys]);
  // An amount is read with its currency.
  if (decl.fields.some((f) => f.type === 'amount' && wanted.has(f.key))) wanted.add('currency');
  const summary: RecordSummary = { id: Number(row.id) };
  for (const f of decl.fields) {
    if (!wanted.has(f.key)) continue;
    const v = row[fieldColumn(f)];
    if (v === null || v === undefined) continue;
    switch (f.type) {
      case 'enum':
        summary[f.key] = f.values?.find((x) => x.id === Number(v))?.uri ?? String(v);
        break;
      case 'location':
        summary[f.key] = codes.locations.get(Number(v)) ?? null;
        break;
      case 'currency':
        summary[f.key] = codes.currencies.get(Number(v)) ?? null;
        break;
      case 'amount':
      case 'number':
      case 'year':
        summary[f.key] = Number(v);
        break;
      default:
        summary[f.key] = v instanceof Date ? v.toISOString().slice(0, 10) : String(v);
    }
  }
  return summary;
}
