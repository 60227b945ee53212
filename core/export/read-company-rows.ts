import { createHash } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { chooseStatus } from '../companies/company-status.ts';
import { formatAddress } from '../companies/parts/addresses.ts';
import { displayName, type Reference, type RefList } from '../reference/reference-data.ts';
import { enumValue } from '../sections/record-fields.ts';
import { RECORD_SECTIONS } from '../sections/records.ts';
import { ADDRESS_PARTS } from '../sections/section.ts';
import { COMPANY_EXPORT_SECTIONS, type CompanyExportSection } from './export-options.ts';

// The export's own reader of companies (docs/decisions/0008-export.md "Reader"): one query per
// batch, the ids as one array parameter, every chosen part aggregated per company in SQL (JSON
// arrays of values, no keys), so that a batch of 1,000 companies is one round trip and one row per
// company. It reads the same rows, in the same order, as the data API's reader
// (core/api/read-legal-entities.ts) plus the export's extra parts, and hands the layout each part
// grouped by its reference type, names already resolved — what the columns need and nothing more.
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
  names: Map<number, string[]>;
  addresses: Map<number, ExportAddress[]>;
  dates: Map<number, string>;
  identifiers: Map<number, string[]>;
  contacts: Map<number, string[]>;
  indicators: Map<number, boolean>;
  specifications: { members_count: number | null; officers_count: number | null; partners_count: number | null } | null;
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
    products: [],
    registers: [],
    members: [],
  };
}

/** A row of companyRowsQuery: a company's core columns and its parts as JSON arrays (an export document). */
export type CompanyRowJson = {
  id: number;
  name: string;
  jurisdiction_id: number;
  size_id: number | null;
  employees_id: number | null;
  status_id: number | null;
  statuses: number[] | null;
  names: [number, string][] | null;
  /** Type id, country id, then ADDRESS_PARTS. */
  addresses: [number, number | null, ...(string | null)[]][] | null;
  dates: [number, string][] | null;
  identifiers: [number, string][] | null;
  contacts: [number, string][] | null;
  indicators: [number, boolean][] | null;
  specifications: [number | null, number | null, number | null] | null;
  products: string[] | null;
  registers: [string | null, string | null, string | null, number | null][] | null;
  members: [string, number, number | null, string | null, string[] | null][] | null;
};

/** A part's aggregate: a JSON array of `values` per row of `table` (alias x) of the company, in `order`. */
function part(table: string, values: RawBuilder<unknown>, order: RawBuilder<unknown> | null, name: string) {
  return sql`(select json_agg(${values}${order ? sql` order by ${order}` : sql``}) from ${sql.table(table)} x
    where x.legal_entity_id = b.id) as ${sql.ref(name)}`;
}

/**
 * The parts of a company's export reading, in column order: each with the sections that need it
 * (none: every export). Orders within a part are the data API's, so that multi-valued cells come
 * out as it reads them.
 */
const PARTS: { sections?: readonly CompanyExportSection[]; column: RawBuilder<unknown> }[] = [
  { column: part('legal_entity_statuses', sql`x.status_id`, sql`x.position`, 'statuses') },
  // Spec §3: contacts are part of every company's export reading.
  {
    column: part(
      'legal_entity_contacts',
      sql`json_build_array(x.contact_type_id, x.contact)`,
      sql`x.contact_type_id, x.position`,
      'contacts',
    ),
  },
  {
    sections: ['names'],
    column: part(
      'legal_entity_names',
      sql`json_build_array(x.name_type_id, x.name)`,
      sql`x.name_type_id, x.position`,
      'names',
    ),
  },
  {
    sections: ['addresses'],
    column: part(
      'legal_entity_addresses',
      sql`json_build_array(x.address_type_id, x.country_id, ${sql.join(ADDRESS_PARTS.map((p) => sql.ref(`x.${p}`)))})`,
      sql`x.address_type_id, x.position`,
      'addresses',
    ),
  },
  {
    sections: ['dates'],
    column: part('legal_entity_dates', sql`json_build_array(x.date_type_id, x.date)`, null, 'dates'),
  },
  {
    sections: ['identifiers'],
    column: part(
      'legal_entity_identifiers',
      sql`json_build_array(x.identifier_type_id, x.identifier)`,
      sql`x.identifier_type_id, x.position`,
      'identifiers',
    ),
  },
  {
    sections: ['indicators'],
    column: part('legal_entity_indicators', sql`json_build_array(x.indicator_type_id, x.value)`, null, 'indicators'),
  },
  {
    sections: ['specifications'],
    column: sql`(select json_build_array(x.members_count, x.officers_count, x.partners_count)
      from legal_entity_specifications x where x.legal_entity_id = b.id) as specifications`,
  },
  { sections: ['products'], column: part('products', sql`x.name`, sql`x.name, x.id`, 'products') },
  {
    sections: ['registration_authorities', 'tax_authorities'],
    column: part(
      'registers',
      sql`json_build_array(x.authority, x.register_name, x.register_number, x.type_id)`,
      sql`x.entry_date, x.id`,
      'registers',
    ),
  },
  {
    sections: ['members'],
    column: sql`(select json_agg(json_build_array(m.name, lem.position_id, m.country_id, mc.name,
        (select json_agg(c.contact order by c.contact_type_id) from member_contacts c where c.member_id = m.id))
        order by lem.position_id, m.name, lem.member_id)
      from legal_entity_members lem
      join members m on m.id = lem.member_id
      left join legal_entities mc on mc.id = m.legal_entity_id
      where lem.legal_entity_id = b.id) as members`,
  },
];

/**
 * The export's query of companies: one row per company of `source` (a relation `t (id, ord)`), in
 * `ord` order, with a JSON array per part the chosen sections need (PARTS). The benchmark runs it
 * under COPY as the database's floor for the same rows.
 */
export function companyRowsQuery(source: RawBuilder<unknown>, sections: readonly CompanyExportSection[]) {
  const chosen = new Set(sections);
  const parts = PARTS.filter((p) => !p.sections || p.sections.some((s) => chosen.has(s))).map((p) => p.column);
  return sql<CompanyRowJson>`
    select b.id, b.name, b.jurisdiction_id, b.size_id, b.employees_id, b.status_id, ${sql.join(parts)}
    from ${source}
    join legal_entities b on b.id = t.id
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

/**
 * The rows of `ids` in their order: from their export documents, and by the query for the ids
 * without a document of the current version (not yet built, outdated, or unknown ids, which are
 * left out).
 */
async function readRows(db: Db, ids: number[], sections: readonly CompanyExportSection[]): Promise<CompanyRowJson[]> {
  const stored = await sql<{ document: CompanyRowJson }>`select d.document
    from unnest(${ids}::bigint[]) with ordinality as t (id, ord)
    join export_documents d on d.legal_entity_id = t.id and d.version = ${exportDocumentVersion(db)}
    order by t.ord`.execute(db.kysely);
  const rows = stored.rows.map((r) => r.document);
  if (rows.length >= ids.length) return rows;
  const byId = new Map(rows.map((row) => [row.id, row]));
  const live = await readLiveRows(
    db,
    ids.filter((id) => !byId.has(id)),
    sections,
  );
  for (const row of live) byId.set(row.id, row);
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The companies of `ids` with the parts the chosen sections need, in the order of `ids` (unknown
 * ids left out): their export documents, and the live query for the rest, in one query each.
 */
export async function readCompanyRows(
  db: Db,
  reference: Reference,
  ids: number[],
  sections: readonly CompanyExportSection[],
  languageId: number,
): Promise<CompanyExportData[]> {
  if (ids.length === 0) return [];
  const rows = await readRows(db, ids, sections);
  // A document holds every section: the parts of the sections not chosen are left out, as the
  // live query leaves them out.
  const chosen = new Set(sections);
  const when = <V>(section: boolean, part: V | null | undefined): V | null => (section ? (part ?? null) : null);
  const registers = chosen.has('registration_authorities') || chosen.has('tax_authorities');

  const name = (list: RefList, id: number) => displayName(list.byId.get(id), languageId);
  const grouped = <V>(pairs: [number, V][] | null): Map<number, V[]> => {
    const map = new Map<number, V[]>();
    for (const [type, value] of pairs ?? []) {
      const list = map.get(type);
      if (list) list.push(value);
      else map.set(type, [value]);
    }
    return map;
  };
  const single = <V>(pairs: [number, V][] | null): Map<number, V> => {
    const map = new Map<number, V>();
    for (const [type, value] of pairs ?? []) if (!map.has(type)) map.set(type, value);
    return map;
  };
  const countryName = (id: number | null) => (id === null ? null : name(reference.locations, id));

  return rows.map((row): CompanyExportData => {
    // The chosen status among the company's statuses, or its own status without any (as the data API).
    const statusIds = row.statuses ?? (row.status_id === null ? [] : [row.status_id]);
    const statuses = statusIds.map((id) => ({ status_id: id, status_name: name(reference.statuses, id) }));
    const size = row.size_id === null ? undefined : reference.sizes.byId.get(row.size_id);
    const employees = row.employees_id === null ? undefined : reference.employees.byId.get(row.employees_id);
    const addresses = new Map<number, ExportAddress[]>();
    for (const [type, country, ...values] of when(chosen.has('addresses'), row.addresses) ?? []) {
      const parts = {} as Record<(typeof ADDRESS_PARTS)[number], string | null>;
      ADDRESS_PARTS.forEach((p, i) => {
        parts[p] = values[i];
      });
      const countryLabel = countryName(country);
      const address = {
        full: formatAddress(parts, countryLabel),
        locality: parts.locality,
        post_code: parts.post_code,
        country: countryLabel,
      };
      const list = addresses.get(type);
      if (list) list.push(address);
      else addresses.set(type, [address]);
    }
    const spec = when(chosen.has('specifications'), row.specifications);
    return {
      id: row.id,
      name: row.name,
      statusName: chooseStatus(statuses)?.status_name ?? null,
      jurisdictionName: name(reference.locations, row.jurisdiction_id),
      sizeName: size ? displayName(size, languageId) : null,
      employeesName: employees ? displayName(employees, languageId) : null,
      statuses: statuses.map((s) => s.status_name),
      names: grouped(when(chosen.has('names'), row.names)),
      addresses,
      dates: single(when(chosen.has('dates'), row.dates)),
      identifiers: grouped(when(chosen.has('identifiers'), row.identifiers)),
      contacts: grouped(row.contacts),
      indicators: single(when(chosen.has('indicators'), row.indicators)),
      specifications: spec ? { members_count: spec[0], officers_count: spec[1], partners_count: spec[2] } : null,
      products: when(chosen.has('products'), row.products) ?? [],
      registers: (when(registers, row.registers) ?? []).map(([authority, registerName, registerNumber, type]) => ({
        authority,
        name: registerName,
        number: registerNumber,
        tax: type === TAX_REGISTER,
      })),
      members: (when(chosen.has('members'), row.members) ?? []).map(
        ([memberName, position, country, company, contacts]) => {
          const location = country === null ? undefined : reference.locations.byId.get(country);
          return {
            name: memberName,
            position: name(reference.positions, position),
            country: location ? displayName(location, languageId) : null,
            contacts: contacts ?? [],
            company,
          };
        },
      ),
    };
  });
}
