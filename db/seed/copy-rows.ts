// Bulk loading of generated rows: each batch becomes one CSV text per table, loaded with COPY
// (PGlite: from '/dev/blob'; PostgreSQL: COPY FROM STDIN through pg-copy-streams).

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { SeedCompany, SeedMember } from './company-factory.ts';

/** Tables in load order (parents first), with their COPY columns. */
export const COPY_TABLES = {
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

export type CopyTable = keyof typeof COPY_TABLES;
export const COPY_TABLE_NAMES = Object.keys(COPY_TABLES) as CopyTable[];

/** CSV text per table plus row counts, for one batch. */
export type CsvBatch = { text: Record<CopyTable, string>; rows: Record<CopyTable, number> };

export function emptyBatch(): CsvBatch {
  const text = {} as Record<CopyTable, string>;
  const rows = {} as Record<CopyTable, number>;
  for (const table of COPY_TABLE_NAMES) {
    text[table] = '';
    rows[table] = 0;
  }
  return { text, rows };
}

/** A quoted CSV text field; null is the unquoted empty field (NULL in COPY's CSV format). */
const t = (value: string | null): string =>
  value === null ? '' : value.includes('"') ? `"${value.replaceAll('"', '""')}"` : `"${value}"`;
/** A number, date or boolean field (never needs quoting). */
const n = (value: number | string | null): string => (value === null ? '' : String(value));
const b = (value: boolean): string => (value ? 't' : 'f');

export function appendMember(batch: CsvBatch, m: SeedMember): void {
  batch.text.members += `${m.id},${t(m.name_type)},${t(m.name)},${t(m.first_name)},${t(m.middle_name)},${t(m.last_name)},${t(m.postfix)},${n(m.legal_entity_id)},${n(m.country_id)}\n`;
  batch.rows.members++;
  for (const c of m.contacts) {
    batch.text.member_contacts += `${m.id},${c.contact_type_id},${t(c.contact)}\n`;
    batch.rows.member_contacts++;
  }
}

export function appendCompany(batch: CsvBatch, c: SeedCompany): void {
  const id = c.id;
  const text = batch.text;
  const rows = batch.rows;
  text.legal_entities += `${id},${t(c.uri)},${t(c.name)},${t(c.search_name)},${c.jurisdiction_id},${n(c.kind_id)},${n(c.size_id)},${n(c.employees_id)},${n(c.status_id)},${n(c.primary_industry_id)},${c.registered_on}\n`;
  rows.legal_entities++;
  for (const s of c.statuses) text.legal_entity_statuses += `${id},${s.position},${s.status_id}\n`;
  rows.legal_entity_statuses += c.statuses.length;
  for (const x of c.names) text.legal_entity_names += `${id},${x.name_type_id},${x.position},${t(x.name)}\n`;
  rows.legal_entity_names += c.names.length;
  for (const a of c.addresses) {
    text.legal_entity_addresses += `${id},${a.address_type_id},${a.position},${t(a.address_line_1)},${t(a.address_line_2)},${t(a.block)},${t(a.building)},${t(a.city_district)},${n(a.country_id)},${t(a.county)},${t(a.floor)},${t(a.house)},${t(a.locality)},${t(a.post_code)},${t(a.room)},${t(a.state)},${n(a.state_id)},${t(a.street)}\n`;
  }
  rows.legal_entity_addresses += c.addresses.length;
  for (const d of c.dates) text.legal_entity_dates += `${id},${d.date_type_id},${d.date}\n`;
  rows.legal_entity_dates += c.dates.length;
  for (const x of c.identifiers)
    text.legal_entity_identifiers += `${id},${x.identifier_type_id},${x.position},${t(x.identifier)}\n`;
  rows.legal_entity_identifiers += c.identifiers.length;
  for (const x of c.indicators) text.legal_entity_indicators += `${id},${x.indicator_type_id},${b(x.value)}\n`;
  rows.legal_entity_indicators += c.indicators.length;
  for (const x of c.industries) {
    text.legal_entity_industries += `${id},${x.industry_id},${b(x.is_primary)},${b(x.is_secondary)},${b(x.is_licensed)},${b(x.is_unlicensed)}\n`;
  }
  rows.legal_entity_industries += c.industries.length;
  for (const s of c.shares)
    text.legal_entity_shares += `${id},${s.position},${s.kind},${s.type},${s.total_price},${s.currency_id}\n`;
  rows.legal_entity_shares += c.shares.length;
  const spec = c.specification;
  text.legal_entity_specifications += `${id},${spec.members_count},${spec.officers_count},${n(spec.partners_count)}\n`;
  rows.legal_entity_specifications++;
  for (const x of c.contacts)
    text.legal_entity_contacts += `${id},${x.contact_type_id},${x.position},${t(x.contact)}\n`;
  rows.legal_entity_contacts += c.contacts.length;
  for (const m of c.members) text.legal_entity_members += `${id},${m.member_id},${m.position_id},${n(m.since)}\n`;
  rows.legal_entity_members += c.members.length;
  if (c.asMember !== null) appendMember(batch, c.asMember);
}

export function batchRowCount(batch: CsvBatch): number {
  return COPY_TABLE_NAMES.reduce((sum, table) => sum + batch.rows[table], 0);
}

const copySql = (table: CopyTable, source: string): string =>
  `copy ${table} (${COPY_TABLES[table].join(', ')}) from ${source} with (format csv)`;

/** Loads a batch on PGlite inside the given transaction. */
export async function copyBatchPglite(tx: Transaction | PGlite, batch: CsvBatch): Promise<void> {
  for (const table of COPY_TABLE_NAMES) {
    if (batch.rows[table] === 0) continue;
    await tx.query(copySql(table, "'/dev/blob'"), [], { blob: new Blob([batch.text[table]]) });
  }
}

/** Loads a batch on PostgreSQL through one client (the caller owns the transaction). */
export async function copyBatchPostgres(client: pg.PoolClient, batch: CsvBatch): Promise<void> {
  for (const table of COPY_TABLE_NAMES) {
    if (batch.rows[table] === 0) continue;
    const stream = client.query(copyFrom(copySql(table, 'stdin')));
    await pipeline(Readable.from([batch.text[table]]), stream);
  }
}
