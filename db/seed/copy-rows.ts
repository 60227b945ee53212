// Bulk loading of generated rows: each batch becomes one CSV text per table, loaded with COPY
// (PGlite: from '/dev/blob'; PostgreSQL: COPY FROM STDIN through pg-copy-streams).
// Each line is written into a Buffer of its table as soon as it is made: a long string built with
// += is a tree of millions of small pieces that the garbage collector copies again and again
// (measured: generation took twice as long).

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type FieldType, fieldColumn } from '../../core/sections/record-fields.ts';
import { COMPANY_COLUMNS, RECORD_SECTIONS } from '../../core/sections/records.ts';
import type { SeedCompany, SeedMember } from './company-factory.ts';
import type { SeedRecords } from './record-factory.ts';

/** The company's tables, in load order (parents first), with their COPY columns. */
const COMPANY_TABLES = {
  legal_entities: [
    'id',
    'uri',
    'name',
    'search_name',
    'jurisdiction_id',
    'kind_id',
    'size_id',
    'employees_id',
    'status_id',
    'primary_industry_id',
    'registered_on',
  ],
  members: [
    'id',
    'name_type',
    'name',
    'first_name',
    'middle_name',
    'last_name',
    'postfix',
    'legal_entity_id',
    'country_id',
  ],
  member_contacts: ['member_id', 'contact_type_id', 'contact'],
  legal_entity_statuses: ['legal_entity_id', 'position', 'status_id'],
  legal_entity_names: ['legal_entity_id', 'name_type_id', 'position', 'name'],
  legal_entity_addresses: [
    'legal_entity_id',
    'address_type_id',
    'position',
    'address_line_1',
    'address_line_2',
    'block',
    'building',
    'city_district',
    'country_id',
    'county',
    'floor',
    'house',
    'locality',
    'post_code',
    'room',
    'state',
    'state_id',
    'street',
  ],
  legal_entity_dates: ['legal_entity_id', 'date_type_id', 'date'],
  legal_entity_identifiers: ['legal_entity_id', 'identifier_type_id', 'position', 'identifier'],
  legal_entity_indicators: ['legal_entity_id', 'indicator_type_id', 'value'],
  legal_entity_industries: [
    'legal_entity_id',
    'industry_id',
    'is_primary',
    'is_secondary',
    'is_licensed',
    'is_unlicensed',
  ],
  legal_entity_shares: ['legal_entity_id', 'position', 'kind', 'type', 'total_price', 'currency_id'],
  legal_entity_specifications: ['legal_entity_id', 'members_count', 'officers_count', 'partners_count'],
  legal_entity_contacts: ['legal_entity_id', 'contact_type_id', 'position', 'contact'],
  legal_entity_members: ['legal_entity_id', 'member_id', 'position_id', 'since'],
} as const;

/** Columns every record table starts with: its key, then the company's reference values. */
const RECORD_KEY_COLUMNS = ['legal_entity_id', 'id', ...Object.values(COMPANY_COLUMNS)];

/** The record sections' tables (core/sections/records.ts): key and company columns, then one per field. */
const RECORD_TABLES: Record<string, readonly string[]> = Object.fromEntries(
  RECORD_SECTIONS.map((s) => [s.table, [...RECORD_KEY_COLUMNS, ...s.fields.map(fieldColumn)]]),
);

/** Tables of the company profile without a search section (after financial_statements: lines refer to them). */
const PROFILE_TABLES = {
  documents: ['legal_entity_id', 'id', 'title', 'document_type', 'filed_on'],
  events: ['legal_entity_id', 'id', 'event_date', 'event_type', 'description'],
  products: ['legal_entity_id', 'id', 'name', 'kind', 'description'],
  financial_statement_lines: ['legal_entity_id', 'statement_id', 'line_no', 'name', 'amount'],
} as const;

/** Every table the seed loads, in load order, with its COPY columns. */
export const COPY_TABLES: Record<string, readonly string[]> = {
  ...COMPANY_TABLES,
  ...RECORD_TABLES,
  ...PROFILE_TABLES,
};

export type CopyTable = string;
export const COPY_TABLE_NAMES: CopyTable[] = Object.keys(COPY_TABLES);

/** CSV text of one table of a batch: filled chunks, the one being written, and lines not yet written. */
type CsvText = { chunks: Buffer<ArrayBuffer>[]; current: Buffer<ArrayBuffer>; used: number; pending: string };

/** CSV per table plus row counts, for one batch. */
export type CsvBatch = { csv: Record<CopyTable, CsvText>; rows: Record<CopyTable, number> };

const CHUNK_BYTES = 1 << 17;
const NO_BYTES = Buffer.alloc(0);

export function emptyBatch(): CsvBatch {
  const batch: CsvBatch = { csv: {}, rows: {} };
  for (const table of COPY_TABLE_NAMES) {
    batch.csv[table] = { chunks: [], current: NO_BYTES, used: 0, pending: '' };
    batch.rows[table] = 0;
  }
  return batch;
}

/** Lines are collected into short strings, then written into the table's buffer (fewest calls). */
const PENDING_CHARS = 1024;

/** Adds one CSV line (with its newline) to a table. */
function line(batch: CsvBatch, table: CopyTable, text: string): void {
  const csv = batch.csv[table];
  csv.pending += text;
  batch.rows[table]++;
  if (csv.pending.length > PENDING_CHARS) writePending(csv);
}

function writePending(csv: CsvText): void {
  const text = csv.pending;
  csv.pending = '';
  // UTF-8 needs at most 3 bytes per UTF-16 code unit
  if (csv.current.length - csv.used < text.length * 3) {
    if (csv.used > 0) csv.chunks.push(csv.current.subarray(0, csv.used));
    csv.current = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, text.length * 3));
    csv.used = 0;
  }
  csv.used += csv.current.write(text, csv.used);
}

/** The CSV of one table of a batch, as chunks to stream. */
export function batchChunks(batch: CsvBatch, table: CopyTable): Buffer<ArrayBuffer>[] {
  const csv = batch.csv[table];
  if (csv.pending.length > 0) writePending(csv);
  return csv.used > 0 ? [...csv.chunks, csv.current.subarray(0, csv.used)] : csv.chunks;
}

/** A batch as a message between threads (structured clone copies the bytes). */
export type BatchMessage = { rows: Record<CopyTable, number>; chunks: Record<CopyTable, Uint8Array[]> };

export function batchMessage(batch: CsvBatch): BatchMessage {
  const chunks: Record<CopyTable, Uint8Array[]> = {};
  for (const table of COPY_TABLE_NAMES) chunks[table] = batchChunks(batch, table);
  return { rows: batch.rows, chunks };
}

export function batchFromMessage(message: BatchMessage): CsvBatch {
  const batch: CsvBatch = { csv: {}, rows: message.rows };
  for (const table of COPY_TABLE_NAMES) {
    const chunks = message.chunks[table].map((c) => Buffer.from(c.buffer as ArrayBuffer, c.byteOffset, c.byteLength));
    batch.csv[table] = { chunks, current: NO_BYTES, used: 0, pending: '' };
  }
  return batch;
}

/** The whole CSV text of one table of a batch (for tests). */
export function batchText(batch: CsvBatch, table: CopyTable): string {
  return Buffer.concat(batchChunks(batch, table)).toString();
}

/** A quoted CSV text field; null is the unquoted empty field (NULL in COPY's CSV format). */
const t = (value: string | null): string =>
  value === null ? '' : value.includes('"') ? `"${value.replaceAll('"', '""')}"` : `"${value}"`;
/** A number, date or boolean field (never needs quoting). */
const n = (value: number | string | null): string => (value === null ? '' : String(value));
const b = (value: boolean): string => (value ? 't' : 'f');
/** An amount with two decimals (whole amounts, the usual case, need no toFixed). */
const a2 = (value: number | null): string =>
  value === null ? '' : Number.isInteger(value) ? String(value) : value.toFixed(2);

export function appendMember(batch: CsvBatch, m: SeedMember): void {
  line(
    batch,
    'members',
    `${m.id},${t(m.name_type)},${t(m.name)},${t(m.first_name)},${t(m.middle_name)},${t(m.last_name)},${t(m.postfix)},${n(m.legal_entity_id)},${n(m.country_id)}\n`,
  );
  for (const c of m.contacts) line(batch, 'member_contacts', `${m.id},${c.contact_type_id},${t(c.contact)}\n`);
}

export function appendCompany(batch: CsvBatch, c: SeedCompany): void {
  const id = c.id;
  line(
    batch,
    'legal_entities',
    `${id},${t(c.uri)},${t(c.name)},${t(c.search_name)},${c.jurisdiction_id},${n(c.kind_id)},${n(c.size_id)},${n(c.employees_id)},${n(c.status_id)},${n(c.primary_industry_id)},${c.registered_on}\n`,
  );
  for (const s of c.statuses) line(batch, 'legal_entity_statuses', `${id},${s.position},${s.status_id}\n`);
  for (const x of c.names) line(batch, 'legal_entity_names', `${id},${x.name_type_id},${x.position},${t(x.name)}\n`);
  for (const a of c.addresses) {
    line(
      batch,
      'legal_entity_addresses',
      `${id},${a.address_type_id},${a.position},${t(a.address_line_1)},${t(a.address_line_2)},${t(a.block)},${t(a.building)},${t(a.city_district)},${n(a.country_id)},${t(a.county)},${t(a.floor)},${t(a.house)},${t(a.locality)},${t(a.post_code)},${t(a.room)},${t(a.state)},${n(a.state_id)},${t(a.street)}\n`,
    );
  }
  for (const d of c.dates) line(batch, 'legal_entity_dates', `${id},${d.date_type_id},${d.date}\n`);
  for (const x of c.identifiers)
    line(batch, 'legal_entity_identifiers', `${id},${x.identifier_type_id},${x.position},${t(x.identifier)}\n`);
  for (const x of c.indicators) line(batch, 'legal_entity_indicators', `${id},${x.indicator_type_id},${b(x.value)}\n`);
  for (const x of c.industries) {
    line(
      batch,
      'legal_entity_industries',
      `${id},${x.industry_id},${b(x.is_primary)},${b(x.is_secondary)},${b(x.is_licensed)},${b(x.is_unlicensed)}\n`,
    );
  }
  for (const s of c.shares)
    line(batch, 'legal_entity_shares', `${id},${s.position},${s.kind},${s.type},${s.total_price},${s.currency_id}\n`);
  const spec = c.specification;
  line(
    batch,
    'legal_entity_specifications',
    `${id},${spec.members_count},${spec.officers_count},${n(spec.partners_count)}\n`,
  );
  for (const x of c.contacts)
    line(batch, 'legal_entity_contacts', `${id},${x.contact_type_id},${x.position},${t(x.contact)}\n`);
  for (const m of c.members)
    line(batch, 'legal_entity_members', `${id},${m.member_id},${m.position_id},${n(m.since)}\n`);
  if (c.asMember !== null) appendMember(batch, c.asMember);
}

/** How a record field is written: 0 quoted text, 1 amount, 2 as is (numbers, ids, dates). */
type FieldFormat = 0 | 1 | 2;
const FORMATS: Record<FieldType, FieldFormat> = {
  text: 0,
  code: 0,
  date: 2,
  amount: 1,
  number: 2,
  year: 2,
  enum: 2,
  location: 2,
  currency: 2,
};

/** Per record table, its field keys in column order and how each is written. */
const RECORD_WRITERS = new Map<string, { keys: string[]; formats: FieldFormat[] }>(
  RECORD_SECTIONS.map((s) => [
    s.table,
    { keys: s.fields.map((f) => f.key), formats: s.fields.map((f) => FORMATS[f.type]) },
  ]),
);

/** The related records of one company (record-factory.ts). */
export function appendRecords(batch: CsvBatch, records: SeedRecords): void {
  for (const r of records.records) {
    const writer = RECORD_WRITERS.get(r.table);
    if (writer === undefined) throw new Error(`no record table ${r.table}`);
    const c = r.company;
    let text = `${r.legalEntityId},${r.id},${c.jurisdiction_id},${n(c.primary_industry_id)},${n(c.status_id)},${n(c.size_id)},${n(c.employees_id)}`;
    const { keys, formats } = writer;
    for (let i = 0; i < keys.length; i++) {
      const value = r.values[keys[i]] ?? null;
      const format = formats[i];
      text += `,${format === 0 ? t(value as string | null) : format === 1 ? a2(value as number | null) : n(value)}`;
    }
    line(batch, r.table, `${text}\n`);
  }
  for (const d of records.documents)
    line(batch, 'documents', `${d.legal_entity_id},${d.id},${t(d.title)},${t(d.document_type)},${d.filed_on}\n`);
  for (const e of records.events)
    line(batch, 'events', `${e.legal_entity_id},${e.id},${e.event_date},${t(e.event_type)},${t(e.description)}\n`);
  for (const p of records.products)
    line(batch, 'products', `${p.legal_entity_id},${p.id},${t(p.name)},${p.kind},${t(p.description)}\n`);
  for (const l of records.statementLines) {
    line(
      batch,
      'financial_statement_lines',
      `${l.legal_entity_id},${l.statement_id},${l.line_no},${t(l.name)},${a2(l.amount)}\n`,
    );
  }
}

export function batchRowCount(batch: CsvBatch): number {
  return COPY_TABLE_NAMES.reduce((sum, table) => sum + batch.rows[table], 0);
}

/** COPY of a table's columns from `source`, into `target` (default: the table itself). */
export const copySql = (table: CopyTable, source: string, target: string = table): string =>
  `copy ${target} (${COPY_TABLES[table].join(', ')}) from ${source} with (format csv)`;

/** Loads a batch on PGlite inside the given transaction. */
export async function copyBatchPglite(tx: Transaction | PGlite, batch: CsvBatch): Promise<void> {
  for (const table of COPY_TABLE_NAMES) {
    if (batch.rows[table] === 0) continue;
    await tx.query(copySql(table, "'/dev/blob'"), [], { blob: new Blob(batchChunks(batch, table)) });
  }
}

/** Loads a batch on PostgreSQL through one client (the caller owns the transaction). */
export async function copyBatchPostgres(client: pg.PoolClient, batch: CsvBatch): Promise<void> {
  for (const table of COPY_TABLE_NAMES) {
    if (batch.rows[table] === 0) continue;
    await copyText(client, copySql(table, 'stdin'), batchChunks(batch, table));
  }
}

/** Streams CSV chunks into a COPY … FROM STDIN statement. */
export async function copyText(client: pg.PoolClient, statement: string, chunks: Uint8Array[]): Promise<void> {
  await pipeline(Readable.from(chunks), client.query(copyFrom(statement)));
}
