import { sql } from 'kysely';
import { EMPLOYEE_RANGES } from '../../db/reference/enumerations.ts';
import { normalizeName } from '../companies/normalize-name.ts';
import { industryForSourceCode } from '../industries/source-codes.ts';
import { COMPANY_COLUMNS, RECORD_SECTIONS } from '../sections/records.ts';
import {
  type CompanyFacts,
  type FactAddress,
  type FactException,
  type FactIndustry,
  type FactMember,
  type FactName,
  keyStrings,
} from './company-facts.ts';
import type { ImportField } from './fields.ts';
import { type ImportReference, jurisdictionLocation } from './import-reference.ts';
import { deleteOf as deleteRowsOf, insertRows, type Tx } from './sql-rows.ts';

// Each field of CompanyFacts: its value as the diff compares it and as company_changes stores it,
// and how a changed value is written onto our tables (docs/decisions/0014-importers.md "Mapping").

/** The fields a record states (a field left out is not in the map: the company keeps its value). */
export function factValues(facts: CompanyFacts): Map<ImportField, unknown> {
  const values = new Map<ImportField, unknown>();
  const put = (field: ImportField, value: unknown) => {
    if (value !== undefined) values.set(field, value);
  };
  put('name', facts.name);
  put('other_names', facts.otherNames);
  put('addresses.legal', facts.addresses?.legal);
  put('addresses.headquarters', facts.addresses?.headquarters);
  put('addresses.postal', facts.addresses?.postal);
  put('jurisdiction', facts.jurisdiction);
  put('legal_form', facts.legalForm);
  put('status', facts.status);
  put('registered_on', facts.registeredOn);
  put('dissolved_on', facts.dissolvedOn);
  put('dates.accounts', facts.dates?.accounts);
  put('dates.annual_report', facts.dates?.annual_report);
  for (const [type, value] of Object.entries(facts.identifiers ?? {})) put(`identifiers.${type}` as ImportField, value);
  put('registration_authority', facts.registrationAuthority);
  put('lei_registration', facts.leiRegistration);
  put('industries', facts.industries);
  put('members', facts.members);
  put('reporting_exceptions', facts.reportingExceptions);
  put('documents', facts.documents);
  put('tickers', facts.tickers);
  put('employees', facts.employees);
  return values;
}

/** A changed field's value for each company of a batch. */
export type FieldWrites = Map<ImportField, { id: number; value: unknown }[]>;

export type WriteContext = {
  reference: ImportReference;
  /**
   * The companies are new: their legal_entities row was inserted with its own columns already set
   * (name, jurisdiction, status, registration date, primary industry) and they have no other rows yet,
   * so nothing is updated or deleted.
   */
  rowsInserted?: boolean;
  /** Positions whose members this source states (its members replace only those). */
  memberPositions: readonly string[];
  /**
   * The import source writing (legal_entity_members.source, company_reporting_exceptions.source):
   * its members replace only its own rows and those no source is recorded for (ADR 0038).
   */
  source?: string;
};

const IDENTIFIER_FIELDS = ['company_number', 'lei', 'tax_number', 'vat', 'business_number'] as const;
const NAME_TYPES: Record<FactName['type'], string> = {
  previous: 'previous_name',
  trade: 'trade_name',
  transliterated: 'transliterated',
  other: 'other_language',
  short: 'short',
};
/** The address type (address_types.uri) each address field is written as. */
export const ADDRESS_TYPES = {
  'addresses.legal': 'registered',
  'addresses.headquarters': 'headquarter',
  'addresses.postal': 'postal',
} as const;
/** The date type (date_types.uri) each date field is written as. */
export const DATE_TYPES = {
  registered_on: 'registration',
  dissolved_on: 'dissolution',
  'dates.accounts': 'accounts',
  'dates.annual_report': 'annual_report',
} as const;

export function idOf(map: Map<string, number>, uri: string): number {
  const id = map.get(uri);
  if (id === undefined) throw new Error(`reference value ${uri} is missing (run db migrate)`);
  return id;
}

/** A company's other names as its legal_entity_names rows (each name type numbered from 0). */
export function otherNameRows(
  names: readonly FactName[],
  r: ImportReference,
): { name_type_id: number; position: number; name: string }[] {
  const positions = new Map<number, number>();
  return names.map((n) => {
    const type = idOf(r.nameTypes, NAME_TYPES[n.type]);
    const position = positions.get(type) ?? 0;
    positions.set(type, position + 1);
    return { name_type_id: type, position, name: n.name };
  });
}

/** An address as the columns of its legal_entity_addresses row (its company, type and position aside). */
export function addressRow(a: FactAddress, r: ImportReference) {
  return {
    address_line_1: a.lines[0] ?? null,
    address_line_2: a.lines.length > 1 ? a.lines.slice(1).join(', ') : null,
    locality: a.city,
    post_code: a.postCode,
    state: a.region,
    state_id: a.region ? (r.locations.get(a.region.toUpperCase()) ?? null) : null,
    country_id: r.locations.get(a.country) ?? null,
  };
}

/** The industries our tree knows of a source's codes, each once, as legal_entity_industries rows. */
export function industryRows(
  industries: readonly FactIndustry[],
  r: ImportReference,
): { industry_id: number; is_primary: boolean }[] {
  const rows: { industry_id: number; is_primary: boolean }[] = [];
  const seen = new Set<number>();
  for (const industry of industries) {
    const id = industryId(industry, r);
    if (id === null || seen.has(id)) continue;
    seen.add(id);
    rows.push({ industry_id: id, is_primary: industry.primary });
  }
  return rows;
}

/** Writes every changed field of a batch onto the company tables. */
export async function writeFields(tx: Tx, writes: FieldWrites, context: WriteContext): Promise<void> {
  const r = context.reference;
  const fresh = context.rowsInserted === true;
  const deleteOf: typeof deleteRowsOf = (...args) => (fresh ? Promise.resolve() : deleteRowsOf(...args));
  for (const [field, list] of writes) {
    if (list.length === 0) continue;
    const ids = list.map((w) => w.id);
    if (field === 'name') {
      const rows = list.map((w) => ({
        id: w.id,
        name: w.value as string,
        search_name: normalizeName(w.value as string),
      }));
      if (!fresh)
        await sql`update legal_entities l set name = x.name, search_name = x.search_name
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id bigint, name text, search_name text)
        where l.id = x.id`.execute(tx);
      const full = idOf(r.nameTypes, 'legal_name_full');
      await deleteOf(tx, 'legal_entity_names', ids, sql`name_type_id = ${full} and position = 0`);
      await insertRows(
        tx,
        'legal_entity_names',
        { legal_entity_id: 'bigint', name_type_id: 'int', position: 'smallint', name: 'text' },
        list.map((w) => ({ legal_entity_id: w.id, name_type_id: full, position: 0, name: w.value })),
      );
    } else if (field === 'other_names') {
      const full = idOf(r.nameTypes, 'legal_name_full');
      await deleteOf(tx, 'legal_entity_names', ids, sql`name_type_id <> ${full}`);
      const rows = list.flatMap((w) =>
        otherNameRows((w.value as FactName[] | null) ?? [], r).map((n) => ({ legal_entity_id: w.id, ...n })),
      );
      await insertRows(
        tx,
        'legal_entity_names',
        { legal_entity_id: 'bigint', name_type_id: 'int', position: 'smallint', name: 'text' },
        rows,
      );
    } else if (field in ADDRESS_TYPES) {
      const type = idOf(r.addressTypes, ADDRESS_TYPES[field as keyof typeof ADDRESS_TYPES]);
      await deleteOf(tx, 'legal_entity_addresses', ids, sql`address_type_id = ${type}`);
      const rows = list
        .filter((w) => w.value !== null)
        .map((w) => ({
          legal_entity_id: w.id,
          address_type_id: type,
          position: 0,
          ...addressRow(w.value as FactAddress, r),
        }));
      await insertRows(
        tx,
        'legal_entity_addresses',
        {
          legal_entity_id: 'bigint',
          address_type_id: 'int',
          position: 'smallint',
          address_line_1: 'text',
          address_line_2: 'text',
          locality: 'text',
          post_code: 'text',
          state: 'text',
          state_id: 'int',
          country_id: 'int',
        },
        rows,
      );
    } else if (field === 'jurisdiction') {
      if (context.rowsInserted) continue;
      const rows = list.map((w) => ({ id: w.id, j: jurisdictionLocation(r, w.value as string) }));
      await sql`update legal_entities l set jurisdiction_id = x.j
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id bigint, j int) where l.id = x.id`.execute(tx);
    } else if (field === 'legal_form') {
      await deleteOf(tx, 'legal_entity_legal_forms', ids);
      const rows = list
        .filter((w) => w.value !== null)
        .map((w) => {
          const v = w.value as { elfCode: string | null; other: string | null };
          return { legal_entity_id: w.id, elf_code: v.elfCode, other_legal_form: v.other };
        });
      await insertRows(
        tx,
        'legal_entity_legal_forms',
        { legal_entity_id: 'bigint', elf_code: 'text', other_legal_form: 'text' },
        rows,
      );
    } else if (field === 'status') {
      const rows = list.map((w) => ({ id: w.id, s: w.value === null ? null : idOf(r.statuses, w.value as string) }));
      if (!context.rowsInserted)
        await sql`update legal_entities l set status_id = x.s
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id bigint, s int) where l.id = x.id`.execute(tx);
      await deleteOf(tx, 'legal_entity_statuses', ids);
      await insertRows(
        tx,
        'legal_entity_statuses',
        { legal_entity_id: 'bigint', position: 'smallint', status_id: 'int' },
        rows.filter((x) => x.s !== null).map((x) => ({ legal_entity_id: x.id, position: 0, status_id: x.s })),
      );
    } else if (field in DATE_TYPES) {
      const type = idOf(r.dateTypes, DATE_TYPES[field as keyof typeof DATE_TYPES]);
      if (field === 'registered_on' && !context.rowsInserted) {
        const rows = list.map((w) => ({ id: w.id, d: w.value }));
        await sql`update legal_entities l set registered_on = x.d
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id bigint, d date) where l.id = x.id`.execute(
          tx,
        );
      }
      await deleteOf(tx, 'legal_entity_dates', ids, sql`date_type_id = ${type}`);
      await insertRows(
        tx,
        'legal_entity_dates',
        { legal_entity_id: 'bigint', date_type_id: 'int', date: 'date' },
        list.filter((w) => w.value !== null).map((w) => ({ legal_entity_id: w.id, date_type_id: type, date: w.value })),
      );
    } else if (field.startsWith('identifiers.')) {
      const uri = field.slice('identifiers.'.length) as (typeof IDENTIFIER_FIELDS)[number];
      const type = idOf(r.identifierTypes, uri);
      await deleteOf(tx, 'legal_entity_identifiers', ids, sql`identifier_type_id = ${type} and position = 0`);
      await insertRows(
        tx,
        'legal_entity_identifiers',
        { legal_entity_id: 'bigint', identifier_type_id: 'int', position: 'smallint', identifier: 'text' },
        list
          .filter((w) => w.value !== null)
          .map((w) => ({ legal_entity_id: w.id, identifier_type_id: type, position: 0, identifier: w.value })),
      );
    } else if (field === 'lei_registration') {
      await deleteOf(tx, 'lei_registrations', ids);
      const rows = list
        .filter((w) => w.value !== null)
        .map((w) => {
          const v = w.value as NonNullable<CompanyFacts['leiRegistration']>;
          return {
            lei: v.lei,
            legal_entity_id: w.id,
            entity_status: v.entityStatus,
            registration_status: v.registrationStatus,
            initial_registration_date: v.initialRegistrationDate,
            last_update_date: v.lastUpdateDate,
            next_renewal_date: v.nextRenewalDate,
            managing_lou: v.managingLou,
            validation_sources: v.validationSources,
          };
        });
      await insertRows(
        tx,
        'lei_registrations',
        {
          lei: 'text',
          legal_entity_id: 'bigint',
          entity_status: 'text',
          registration_status: 'text',
          initial_registration_date: 'timestamptz',
          last_update_date: 'timestamptz',
          next_renewal_date: 'timestamptz',
          managing_lou: 'text',
          validation_sources: 'text',
        },
        rows,
        sql`on conflict (lei) do update set legal_entity_id = excluded.legal_entity_id,
          entity_status = excluded.entity_status, registration_status = excluded.registration_status,
          initial_registration_date = excluded.initial_registration_date, last_update_date = excluded.last_update_date,
          next_renewal_date = excluded.next_renewal_date, managing_lou = excluded.managing_lou,
          validation_sources = excluded.validation_sources`,
      );
    } else if (field === 'industries') {
      await writeIndustries(tx, list, r, fresh);
    } else if (field === 'members') {
      await writeMembers(tx, list, context);
    } else if (field === 'reporting_exceptions') {
      await writeCompanyExceptions(tx, list, context);
    } else if (field === 'documents') {
      await deleteOf(tx, 'documents', ids);
      await insertRows(
        tx,
        'documents',
        { legal_entity_id: 'bigint', id: 'bigint', title: 'text', document_type: 'text', filed_on: 'date' },
        list.flatMap((w) =>
          ((w.value as { title: string; type: string; filedOn: string }[] | null) ?? []).map((d, i) => ({
            legal_entity_id: w.id,
            id: i + 1,
            title: d.title,
            document_type: d.type,
            filed_on: d.filedOn,
          })),
        ),
      );
    } else if (field === 'employees') {
      const rows = list.map((w) => ({ id: w.id, e: w.value === null ? null : employeesId(w.value as string) }));
      await sql`update legal_entities l set employees_id = x.e
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id bigint, e int) where l.id = x.id`.execute(tx);
      // The records' copy of the band (their Employees column and filter, ADR 0027): a statement
      // written before the band was set carries the old one.
      if (!fresh)
        for (const section of RECORD_SECTIONS)
          await sql`update ${sql.table(section.table)} r set ${sql.ref(COMPANY_COLUMNS.employees)} = x.e
            from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id bigint, e int)
            where r.legal_entity_id = x.id and ${sql.ref(`r.${COMPANY_COLUMNS.employees}`)} is distinct from x.e`.execute(
            tx,
          );
    }
    // registration_authority and tickers live in the source record only (company_keys holds the register key).
  }
}

/**
 * Industries as the source's codes; those that name a node of our tree (NACE Rev. 2, each scheme
 * mapped by industryForSourceCode) become the company's industries, the first primary one its primary industry.
 */
async function writeIndustries(
  tx: Tx,
  list: { id: number; value: unknown }[],
  r: ImportReference,
  fresh: boolean,
): Promise<void> {
  const rows: { legal_entity_id: number; industry_id: number; is_primary: boolean }[] = [];
  const primary: { id: number; industry: number | null }[] = [];
  for (const w of list) {
    const industries = (w.value as FactIndustry[] | null) ?? [];
    for (const row of industryRows(industries, r)) rows.push({ legal_entity_id: w.id, ...row });
    const industry = primaryIndustry(industries, r);
    if (industry !== undefined) primary.push({ id: w.id, industry });
  }
  // A new company's primary industry was inserted with its row (primaryIndustry) and it has no industries to replace.
  if (fresh) {
    await insertRows(
      tx,
      'legal_entity_industries',
      { legal_entity_id: 'bigint', industry_id: 'int', is_primary: 'boolean' },
      rows,
    );
    return;
  }
  await deleteRowsOf(
    tx,
    'legal_entity_industries',
    primary.map((p) => p.id),
  );
  await insertRows(
    tx,
    'legal_entity_industries',
    { legal_entity_id: 'bigint', industry_id: 'int', is_primary: 'boolean' },
    rows,
  );
  await sql`update legal_entities l set primary_industry_id = x.industry
    from jsonb_to_recordset(${JSON.stringify(primary)}::jsonb) as x(id bigint, industry int) where l.id = x.id`.execute(
    tx,
  );
}

/**
 * The primary industry the industries give a company: the first primary one our tree knows, else the
 * first known; null for none stated; undefined when the codes are all unknown to our tree — those
 * leave the company's industries as they are (the codes stay in the source record for when their
 * mapping comes).
 */
export function primaryIndustry(industries: readonly FactIndustry[], r: ImportReference): number | null | undefined {
  let first: number | null = null;
  let known: number | null = null;
  for (const industry of industries) {
    const id = industryId(industry, r);
    if (id === null) continue;
    known ??= id;
    if (industry.primary && first === null) first = id;
  }
  if (known === null) return industries.length === 0 ? null : undefined;
  return first ?? known;
}

/** A source's industry code on our tree, NACE Rev. 2 (ADR 0017's industryForSourceCode), when loaded. */
function industryId(industry: FactIndustry, r: ImportReference): number | null {
  const hub = industryForSourceCode(industry.scheme, industry.code);
  return hub === null ? null : (r.industries.get(hub.code) ?? null);
}

/** Members of the positions the source states, replaced; the member rows left without a company go. */
async function writeMembers(tx: Tx, list: { id: number; value: unknown }[], context: WriteContext): Promise<void> {
  const r = context.reference;
  const positions = context.memberPositions.map((p) => idOf(r.positions, p));
  const ids = list.map((w) => w.id);
  // Two sources may state the same position (the PSC register and BODS: shareholders): a source
  // replaces its own rows and those written with no source recorded (a seed, rows before 0038).
  const source = context.source ?? null;
  const old = context.rowsInserted
    ? { rows: [] }
    : await sql<{ member_id: number }>`delete from legal_entity_members
    where legal_entity_id = any(${ids}::bigint[]) and position_id = any(${positions}::int[])
      and (source is null or source = ${source}) returning member_id`.execute(tx);
  const members = list.flatMap((w) => ((w.value as FactMember[] | null) ?? []).map((m) => ({ company: w.id, m })));
  if (members.length > 0) {
    // A member that is a company is linked by its LEI, else by its register key (a UK corporate PSC,
    // a Norwegian unit holding a role: docs/decisions/0016-national-registers.md).
    const memberKey = (m: FactMember): string | null =>
      m.keys?.lei
        ? `lei:${m.keys.lei}`
        : m.keys?.register
          ? `register:${keyStrings({ register: m.keys.register })[0].key}`
          : null;
    const wanted = members.map((x) => memberKey(x.m)).filter((k): k is string => k !== null);
    const linked = new Map(
      (
        await sql<{ key: string; legal_entity_id: number }>`select scheme || ':' || key as key, legal_entity_id
          from company_keys where scheme || ':' || key = any(${wanted}::text[])`.execute(tx)
      ).rows.map((row) => [row.key, row.legal_entity_id]),
    );
    const newIds = (
      await sql<{ id: number }>`select nextval('member_ids') as id from generate_series(1, ${members.length})`.execute(
        tx,
      )
    ).rows.map((row) => Number(row.id));
    await insertRows(
      tx,
      'members',
      {
        id: 'bigint',
        name_type: 'text',
        name: 'text',
        legal_entity_id: 'bigint',
        country_id: 'int',
        birth_month: 'smallint',
        birth_year: 'smallint',
      },
      members.map((x, i) => ({
        id: newIds[i],
        name_type: x.m.kind,
        name: x.m.name,
        legal_entity_id: linked.get(memberKey(x.m) ?? '') ?? null,
        country_id: x.m.country ? (r.locations.get(x.m.country) ?? null) : null,
        birth_month: x.m.born?.month ?? null,
        birth_year: x.m.born?.year ?? null,
      })),
    );
    await insertRows(
      tx,
      'legal_entity_members',
      {
        legal_entity_id: 'bigint',
        member_id: 'bigint',
        position_id: 'int',
        since: 'date',
        until: 'date',
        natures: 'text[]',
        source: 'text',
        share_min: 'numeric',
        share_max: 'numeric',
      },
      members.map((x, i) => ({
        legal_entity_id: x.company,
        member_id: newIds[i],
        position_id: idOf(r.positions, x.m.position),
        since: x.m.since,
        until: x.m.until ?? null,
        natures: x.m.natures ?? null,
        source,
        share_min: x.m.shareMin ?? null,
        share_max: x.m.shareMax ?? null,
      })),
    );
  }
  const orphans = old.rows.map((row) => Number(row.member_id));
  if (orphans.length > 0)
    await sql`delete from members m where m.id = any(${orphans}::bigint[])
      and not exists (select 1 from legal_entity_members lm where lm.member_id = m.id)`.execute(tx);
}

/** A source's reporting exceptions of the companies, replaced (ADR 0038: BODS unspecified interested parties). */
async function writeCompanyExceptions(
  tx: Tx,
  list: { id: number; value: unknown }[],
  context: WriteContext,
): Promise<void> {
  const source = context.source;
  if (!source) throw new Error('reporting exceptions need the source writing them');
  if (!context.rowsInserted)
    await sql`delete from company_reporting_exceptions where legal_entity_id = any(${list.map((w) => w.id)}::bigint[])
      and source = ${source}`.execute(tx);
  await insertRows(
    tx,
    'company_reporting_exceptions',
    { legal_entity_id: 'bigint', source: 'text', position: 'smallint', reason: 'text', description: 'text' },
    list.flatMap((w) =>
      ((w.value as FactException[] | null) ?? []).map((e, position) => ({
        legal_entity_id: w.id,
        source,
        position,
        reason: e.reason,
        description: e.description,
      })),
    ),
  );
}

/** employee_ranges ids are EMPLOYEE_RANGES' own (db/reference/load-reference-data.ts loads them as they are). */
const EMPLOYEE_URIS = new Map<number, string>(EMPLOYEE_RANGES.map((r) => [r.id, r.uri]));
function employeesId(uri: string): number {
  const range = EMPLOYEE_RANGES.find((r) => r.uri === uri);
  if (!range) throw new Error(`Unknown employees band: ${uri}`);
  return range.id;
}

/** The company's current values of the fields our tables hold plainly (the old value of a source's first statement). */
export async function currentValues(
  tx: Tx,
  ids: number[],
  r: ImportReference,
): Promise<Map<number, Map<ImportField, unknown>>> {
  const out = new Map<number, Map<ImportField, unknown>>();
  if (ids.length === 0) return out;
  const statusUris = new Map([...r.statuses].map(([uri, id]) => [id, uri]));
  const rows = await tx
    .selectFrom('legal_entities')
    .select(['id', 'name', 'jurisdiction_id', 'status_id', 'registered_on', 'employees_id'])
    .where('id', 'in', ids)
    .execute();
  for (const row of rows)
    out.set(
      row.id,
      new Map<ImportField, unknown>([
        ['name', row.name],
        ['jurisdiction', r.locationCodes.get(row.jurisdiction_id) ?? null],
        ['status', row.status_id === null ? null : (statusUris.get(row.status_id) ?? null)],
        ['registered_on', row.registered_on],
        ['employees', row.employees_id === null ? null : (EMPLOYEE_URIS.get(row.employees_id) ?? null)],
      ]),
    );
  const types = new Map([...r.identifierTypes].map(([uri, id]) => [id, uri]));
  const identifiers = await tx
    .selectFrom('legal_entity_identifiers')
    .select(['legal_entity_id', 'identifier_type_id', 'identifier'])
    .where('legal_entity_id', 'in', ids)
    .where('position', '=', 0)
    .execute();
  for (const i of identifiers) {
    const uri = types.get(i.identifier_type_id);
    if (uri) out.get(i.legal_entity_id)?.set(`identifiers.${uri}` as ImportField, i.identifier);
  }
  return out;
}
