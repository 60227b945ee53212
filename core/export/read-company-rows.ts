import { createHash } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { chooseStatus } from '../companies/company-status.ts';
import { addressesPart, formatAddress } from '../companies/parts/addresses.ts';
import { type CompanyWith, companyParser, companySelect, type RowOf } from '../companies/parts/company-part.ts';
import { contactsPart } from '../companies/parts/contacts.ts';
import { datesPart } from '../companies/parts/dates.ts';
import { identifiersPart } from '../companies/parts/identifiers.ts';
import { indicatorsPart } from '../companies/parts/indicators.ts';
import { industriesPart } from '../companies/parts/industries.ts';
import { memberContactsPart, membersPart } from '../companies/parts/members.ts';
import { namesPart } from '../companies/parts/names.ts';
import { productsPart } from '../companies/parts/products.ts';
import { registersPart } from '../companies/parts/registers.ts';
import { specificationsPart } from '../companies/parts/specifications.ts';
import { statusesPart } from '../companies/parts/statuses.ts';
import { type Unlocked, visibleContacts, visibleMemberContacts } from '../purchases/paywall.ts';
import { displayName, type Reference, type RefList } from '../reference/reference-data.ts';
import { enumValue } from '../sections/record-fields.ts';
import { RECORD_SECTIONS } from '../sections/records.ts';
import { ADDRESS_PARTS } from '../sections/section.ts';
import { visibleCompanyIds } from '../takedowns/visible.ts';
import { COMPANY_EXPORT_SECTIONS, type CompanyExportSection } from './export-options.ts';

// The export's reader of companies (docs/decisions/0008-export.md "Reader"): one query per batch,
// the ids as one array parameter, one row per company with each chosen part of the company read
// by its own module (core/companies/parts/, JSON arrays of values), so that a batch of 1,000
// companies is one round trip. It hands the layout each part grouped by its reference type, names
// already resolved — what the columns need and nothing more.
//
// The query's row with every section is also stored per company, as its export document
// (export_documents, written by export-documents.ts): a batch reads the documents of its companies
// — one index lookup and one heap read each — and the query itself only for companies without a
// document of the current version (docs/decisions/0008-export.md "Export documents").

/** The registers' type that makes an authority a tax authority (the rest are registration authorities). */
const TAX_REGISTER = (() => {
  const type = RECORD_SECTIONS.find((s) => s.id === 'registers')?.fields.find((f) => f.key === 'type');
  return enumValue(type?.values ?? [], 'tax')?.id ?? -1;
})();

export type ExportAddress = {
  full: string;
  locality: string | null;
  post_code: string | null;
  /** The country's name (empty when unknown), or null without a country. */
  country: string | null;
};

export type ExportMember = {
  name: string;
  position: string;
  /** The member's country name, or null when it has none. */
  country: string | null;
  /** The member's contacts, by contact type. */
  contacts: string[];
  /** The member company's name, when the member is a company. */
  company: string | null;
};

export type ExportIndustry = { code: string; name: string; primary: boolean };

export type ExportRegister = { authority: string | null; name: string | null; number: string | null; tax: boolean };

/** A company as its export reads it: the core's names resolved, typed parts grouped by type id. */
export type CompanyExportData = {
  id: number;
  name: string;
  /** The chosen status's name (spec §4), or null. */
  statusName: string | null;
  jurisdictionName: string;
  /** Null when the company has no (known) size; the same for employees. */
  sizeName: string | null;
  employeesName: string | null;
  /** Every status's name, in order. */
  statuses: string[];
  names: ReadonlyMap<number, string[]>;
  addresses: ReadonlyMap<number, ExportAddress[]>;
  dates: ReadonlyMap<number, string>;
  identifiers: ReadonlyMap<number, string[]>;
  contacts: ReadonlyMap<number, string[]>;
  indicators: ReadonlyMap<number, boolean>;
  specifications: { members_count: number | null; officers_count: number | null; partners_count: number | null } | null;
  /** The company's industries, the primary one first. */
  industries: ExportIndustry[];
  products: string[];
  /** Registers the company is entered in (registration and tax authorities). */
  registers: ExportRegister[];
  members: ExportMember[];
};

/** An empty company of the export (the columns' tests build on it). */
export function emptyCompanyExportData(id: number, name: string): CompanyExportData {
  return {
    id,
    name,
    statusName: null,
    jurisdictionName: '',
    sizeName: null,
    employeesName: null,
    statuses: [],
    names: new Map(),
    addresses: new Map(),
    dates: new Map(),
    identifiers: new Map(),
    contacts: new Map(),
    indicators: new Map(),
    specifications: null,
    industries: [],
    products: [],
    registers: [],
    members: [],
  };
}

// The parts an export reads, with the fields its columns need (an export document holds them).
const theStatuses = statusesPart.pick('status_id');
const theContacts = contactsPart.pick('contact_type_id', 'contact');
const theNames = namesPart.pick('name_type_id', 'name');
const theAddresses = addressesPart.pick('address_type_id', 'country_id', ...ADDRESS_PARTS);
const theIdentifiers = identifiersPart.pick('identifier_type_id', 'identifier');
const theIndustries = industriesPart.pick('industry_id', 'is_primary');
const theMembers = membersPart.pick('member_id', 'position_id', 'name', 'country_id', 'company_name');
const theMemberContacts = memberContactsPart.pick('member_id', 'contact');

/** The company parts each export section needs (core/companies/parts/); the statuses and contacts always. */
const SECTION_PARTS: Record<CompanyExportSection, readonly ExportPart[]> = {
  addresses: [theAddresses],
  dates: [datesPart],
  employees_number: [],
  indicators: [indicatorsPart],
  identifiers: [theIdentifiers],
  industries: [theIndustries],
  names: [theNames],
  products: [productsPart],
  registration_authorities: [registersPart],
  specifications: [specificationsPart],
  statuses: [],
  tax_authorities: [registersPart],
  types_by_size: [],
  members: [theMembers, theMemberContacts],
};

/** Every part an export reads, in the order of its query's columns. */
const EXPORT_PARTS = [
  theStatuses,
  theContacts,
  theNames,
  theAddresses,
  datesPart,
  theIdentifiers,
  indicatorsPart,
  theIndustries,
  specificationsPart,
  productsPart,
  registersPart,
  theMembers,
  theMemberContacts,
] as const;

type ExportPart = (typeof EXPORT_PARTS)[number];

/** A row of companyRowsQuery: the company's own columns and its parts as read (an export document). */
export type CompanyRowJson = Record<string, unknown> & { id: number };

/** The parts the chosen sections need, in EXPORT_PARTS order. */
function partsOf(sections: readonly CompanyExportSection[]): ExportPart[] {
  const chosen = new Set<ExportPart>([theStatuses, theContacts, ...sections.flatMap((s) => SECTION_PARTS[s])]);
  return EXPORT_PARTS.filter((p) => chosen.has(p));
}

/**
 * The export's query of companies: one row per company of `source` (a relation `t (id, ord)`), in
 * `ord` order, with the parts the chosen sections need. The benchmark runs it under COPY as the
 * database's floor for the same rows.
 */
export function companyRowsQuery(source: RawBuilder<unknown>, sections: readonly CompanyExportSection[]) {
  return sql<CompanyRowJson>`
    select ${companySelect(partsOf(sections))}
    from ${source}
    join legal_entities le on le.id = t.id
    order by t.ord`;
}

/**
 * The export documents of the companies of `source` (a relation `t (id, ord)`): companyRowsQuery
 * with every section, each row as one JSON object (its keys the query's columns). The one
 * definition of a document: export-documents.ts stores it, the test holds stored and live equal.
 */
export function exportDocumentsQuery(source: RawBuilder<unknown>) {
  return sql<{ id: number; document: CompanyRowJson }>`select q.id, row_to_json(q) as document
    from (${companyRowsQuery(source, COMPANY_EXPORT_SECTIONS)}) q`;
}

let documentVersion: number | undefined;

/**
 * The version of the export documents this code writes and reads: a hash of the document query's
 * SQL, so that a change to the query makes every stored document outdated (read live until
 * refreshed) instead of silently wrong.
 */
export function exportDocumentVersion(db: Db): number {
  if (documentVersion === undefined) {
    const text = exportDocumentsQuery(sql`t`).compile(db.kysely).sql;
    documentVersion = createHash('sha256').update(text).digest().readInt32BE(0);
  }
  return documentVersion;
}

/** Runs companyRowsQuery for `ids` (in their order, unknown ids left out). */
async function readLiveRows(db: Db, ids: number[], sections: readonly CompanyExportSection[]) {
  const query = companyRowsQuery(sql`unnest(${ids}::bigint[]) with ordinality as t (id, ord)`, sections);
  const result = await db.kysely.transaction().execute(async (trx) => {
    // The planner's estimate of this query (a thousand companies times a few index lookups each)
    // crosses jit_above_cost, and compiling it costs ~20 ms of its ~50: JIT is off for it alone.
    await sql`set local jit = off`.execute(trx);
    return query.execute(trx);
  });
  return result.rows;
}

/** A company as read: its export document's JSON text (parsed a slice at a time), or the live query's row. */
type ReadRow = string | CompanyRowJson;

/**
 * The rows of `ids` in their order: their export documents as text, and the query's rows for the
 * ids without a document of the current version (not yet built, outdated, or unknown ids, which
 * are left out). A document stays text until its slice is written (`parsedRows`): a batch read
 * ahead is then a thousand strings, not the objects of a thousand parsed documents, which every
 * young-generation GC meanwhile would copy (ADR 0041).
 */
async function readRows(db: Db, ids: number[], sections: readonly CompanyExportSection[]): Promise<ReadRow[]> {
  const stored = await sql<{
    id: number | string;
    document: string;
  }>`select d.legal_entity_id as id, d.document::text as document
    from unnest(${ids}::bigint[]) with ordinality as t (id, ord)
    join export_documents d on d.legal_entity_id = t.id and d.version = ${exportDocumentVersion(db)}
    order by t.ord`.execute(db.kysely);
  if (stored.rows.length >= ids.length) return stored.rows.map((r) => r.document);
  const byId = new Map<number, ReadRow>(stored.rows.map((r) => [Number(r.id), r.document]));
  const live = await readLiveRows(
    db,
    ids.filter((id) => !byId.has(id)),
    sections,
  );
  for (const row of live) byId.set(Number(row.id), row);
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The rows `from` … `to` of `read`, the documents parsed one by one: joined as one JSON array per
 * slice they parsed ~4× slower (a slice with any non-ASCII document is one two-byte string; ADR 0041).
 */
function parsedRows(read: readonly ReadRow[], from: number, to: number): CompanyRowJson[] {
  const end = Math.min(to, read.length);
  const rows = new Array<CompanyRowJson>(Math.max(0, end - from));
  for (let i = from; i < end; i++) {
    const row = read[i];
    rows[i - from] = typeof row === 'string' ? (JSON.parse(row) as CompanyRowJson) : row;
  }
  return rows;
}

/** One empty map for every part a company has no rows of (most companies lack most parts). */
const NO_ROWS: ReadonlyMap<number, never> = new Map<number, never>();

/** Values of `rows` grouped by their type, in order. */
function grouped<R, V>(rows: readonly R[], type: (row: R) => number, value: (row: R) => V): ReadonlyMap<number, V[]> {
  if (rows.length === 0) return NO_ROWS;
  const map = new Map<number, V[]>();
  for (const row of rows) {
    const key = type(row);
    const list = map.get(key);
    if (list) list.push(value(row));
    else map.set(key, [value(row)]);
  }
  return map;
}

/** The value of `rows` by their type (one a type; the last wins). */
function byType<R, V>(rows: readonly R[], type: (row: R) => number, value: (row: R) => V): ReadonlyMap<number, V> {
  if (rows.length === 0) return NO_ROWS;
  const map = new Map<number, V>();
  for (const row of rows) map.set(type(row), value(row));
  return map;
}

// What the export takes of each part's rows.
const nameType = (n: RowOf<typeof theNames>) => n.name_type_id;
const nameText = (n: RowOf<typeof theNames>) => n.name;
const addressType = (a: RowOf<typeof theAddresses>) => a.address_type_id;
const dateType = (d: RowOf<typeof datesPart>) => d.date_type_id;
const dateText = (d: RowOf<typeof datesPart>) => d.date;
const identifierType = (i: RowOf<typeof theIdentifiers>) => i.identifier_type_id;
const identifierText = (i: RowOf<typeof theIdentifiers>) => i.identifier;
const contactType = (x: RowOf<typeof theContacts>) => x.contact_type_id;
const contactText = (x: { contact: string }) => x.contact;
const memberOf = (x: RowOf<typeof theMemberContacts>) => x.member_id;
const indicatorType = (i: RowOf<typeof indicatorsPart>) => i.indicator_type_id;
const indicatorValue = (i: RowOf<typeof indicatorsPart>) => i.value;
const productName = (p: RowOf<typeof productsPart>) => p.name;
const registerOf = (r: RowOf<typeof registersPart>): ExportRegister => ({
  authority: r.authority,
  name: r.register_name,
  number: r.register_number,
  tax: r.type_id === TAX_REGISTER,
});

/** A batch of companies read for an export, turned into CompanyExportData a slice at a time. */
export type CompanyBatch = { readonly length: number; rows(from: number, to: number): CompanyExportData[] };

/**
 * The companies of `ids` with the parts the chosen sections need, in the order of `ids` (unknown
 * ids left out), all at once (readCompanyBatch hands them out a slice at a time).
 */
export async function readCompanyRows(
  db: Db,
  reference: Reference,
  ids: number[],
  sections: readonly CompanyExportSection[],
  languageId: number,
  /** What the exporting user bought: the contact details of other companies are left out (ADR 0029). */
  unlocked: Unlocked,
): Promise<CompanyExportData[]> {
  const batch = await readCompanyBatch(db, reference, ids, sections, languageId, unlocked);
  return batch.rows(0, batch.length);
}

/**
 * The companies of `ids` with the parts the chosen sections need, in the order of `ids` (unknown
 * ids left out): their export documents, and the live query for the rest, in one query each.
 */
export async function readCompanyBatch(
  db: Db,
  reference: Reference,
  ids: number[],
  sections: readonly CompanyExportSection[],
  languageId: number,
  /** What the exporting user bought: the contact details of other companies are left out (ADR 0029). */
  unlocked: Unlocked,
): Promise<CompanyBatch> {
  const visible = await visibleCompanyIds(db, ids);
  const read = visible.length === 0 ? [] : await readRows(db, visible, sections);
  // A document holds every section: the parts of the sections not chosen are left out, as the
  // live query leaves them out.
  const parse = companyParser(partsOf(sections));
  const withRegisters = sections.includes('registration_authorities') || sections.includes('tax_authorities');
  // Names of reference data by id, looked up once per batch (the same few countries and positions
  // recur on every company).
  const named = (list: RefList) => {
    const cache = new Map<number, string>();
    return (id: number) => {
      let text = cache.get(id);
      if (text === undefined) {
        text = displayName(list.byId.get(id), languageId);
        cache.set(id, text);
      }
      return text;
    };
  };
  const statusName = named(reference.statuses);
  const locationName = named(reference.locations);
  const positionName = named(reference.positions);
  const countryName = (id: number | null) => (id === null ? null : locationName(id));
  const industryOf = (i: { industry_id: number; is_primary: boolean }): ExportIndustry => {
    const industry = reference.industries.byId.get(i.industry_id);
    return { code: industry?.code ?? '', name: displayName(industry, languageId), primary: i.is_primary };
  };
  const addressOf = (a: RowOf<typeof theAddresses>): ExportAddress => {
    const country = countryName(a.country_id);
    return { full: formatAddress(a, country), locality: a.locality, post_code: a.post_code, country };
  };

  // Written as loops over the parts' rows, the callbacks made once per batch (ADR 0041): turning
  // documents into these was a third of a CSV export's time, much of it short-lived arrays.
  const exportData = (c: CompanyWith<ExportPart[]>): CompanyExportData => {
    // The chosen status among the company's statuses, or its own status without any (as the data API).
    const statuses: { status_id: number; status_name: string }[] = [];
    if (c.statuses.length > 0) {
      for (const s of c.statuses) statuses.push({ status_id: s.status_id, status_name: statusName(s.status_id) });
    } else if (c.status_id !== null) statuses.push({ status_id: c.status_id, status_name: statusName(c.status_id) });
    const size = c.size_id === null ? undefined : reference.sizes.byId.get(c.size_id);
    const employees = c.employees_id === null ? undefined : reference.employees.byId.get(c.employees_id);
    const members = c.members ?? [];
    const memberContacts =
      members.length === 0
        ? undefined
        : grouped(visibleMemberContacts(unlocked, [c.id], c.member_contacts ?? []), memberOf, contactText);
    const spec = c.specifications?.[0];
    return {
      id: c.id,
      name: c.name,
      statusName: chooseStatus(statuses)?.status_name ?? null,
      jurisdictionName: locationName(c.jurisdiction_id),
      sizeName: size ? displayName(size, languageId) : null,
      employeesName: employees ? displayName(employees, languageId) : null,
      statuses: statuses.map((s) => s.status_name),
      names: grouped(c.names ?? [], nameType, nameText),
      addresses: grouped(c.addresses ?? [], addressType, addressOf),
      dates: byType(c.dates ?? [], dateType, dateText),
      identifiers: grouped(c.identifiers ?? [], identifierType, identifierText),
      contacts: grouped(visibleContacts(unlocked, c.id, c.contacts), contactType, contactText),
      indicators: byType(c.indicators ?? [], indicatorType, indicatorValue),
      specifications: spec ?? null,
      industries: (c.industries ?? []).map(industryOf),
      products: (c.products ?? []).map(productName),
      registers: withRegisters ? (c.registers ?? []).map(registerOf) : [],
      members: members.map((m) => ({
        name: m.name,
        position: positionName(m.position_id),
        country: countryName(m.country_id),
        contacts: memberContacts?.get(m.member_id) ?? [],
        company: m.company_name,
      })),
    };
  };
  return {
    length: read.length,
    rows: (from, to) => {
      const rows = parsedRows(read, from, to);
      const out = new Array<CompanyExportData>(rows.length);
      for (let i = 0; i < rows.length; i++) out[i] = exportData(parse(rows[i]));
      return out;
    },
  };
}
