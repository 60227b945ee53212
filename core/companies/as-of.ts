import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { CompanyFacts, FactAddress, FactIndustry, FactMember, FactName } from '../imports/company-facts.ts';
import {
  ADDRESS_TYPES,
  addressRow,
  DATE_TYPES,
  idOf,
  industryRows,
  otherNameRows,
  primaryIndustry,
} from '../imports/company-fields.ts';
import { type ImportReference, jurisdictionLocation } from '../imports/import-reference.ts';
import { changesFor, type Viewer } from '../purchases/paywall.ts';
import type { Reference } from '../reference/reference-data.ts';
import { visibleChanges } from '../takedowns/visible.ts';
import type { LeiDetails } from './lei-details.ts';
import { type AddressRow, addressesPart } from './parts/addresses.ts';
import type { CompanyCore } from './parts/company-part.ts';
import type { DateRow } from './parts/dates.ts';
import type { IdentifierRow } from './parts/identifiers.ts';
import type { IndustryRow } from './parts/industries.ts';
import type { MemberRow } from './parts/members.ts';
import type { NameRow } from './parts/names.ts';
import type { StatusRow } from './parts/statuses.ts';

// A company as Registra knew it at the end of a day (docs/decisions/0028-company-as-of.md): the
// company as it is now, with every change observed after that day undone, newest first — each
// field set back to the change's old value, through the same mapping the import wrote it with
// (core/imports/company-fields.ts). Fields without changes are as now.

/**
 * A day, 'YYYY-MM-DD' (a real calendar day) no later than today (UTC): the `as_of`, `from` and `to`
 * of pages and the data API — what Registra knew on a day to come is not known yet.
 */
export const asOfDaySchema = z.iso
  .date({ error: 'a date YYYY-MM-DD' })
  .refine((day) => day <= new Date().toISOString().slice(0, 10), { error: 'a day no later than today' });

/** The day's `as_of` parsed: the day, or an error message naming `parameter`. */
export function parseAsOfDay(
  parameter: string,
  value: string,
): { ok: true; day: string } | { ok: false; message: string } {
  const parsed = asOfDaySchema.safeParse(value);
  if (parsed.success) return { ok: true, day: parsed.data };
  const message = parsed.error.issues[0]?.message ?? 'a date YYYY-MM-DD';
  return { ok: false, message: `${parameter}: ${message}, not "${value.slice(0, 40)}"` };
}

/** The first instant after a day (UTC): what was observed before it is what Registra knew that day. */
export function endOfDay(day: string): Date {
  const end = new Date(`${day}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return end;
}

export type RecordedChange = {
  id: number;
  field: string;
  old_value: unknown;
  new_value: unknown;
  source: string;
  source_date: Date | null;
  observed_at: Date;
};

/** What a company's history says about it after a moment. */
export type HistoryAfter = {
  /** The company had not appeared yet (its `company` change was observed later). */
  notYet: boolean;
  /** Its changes observed at or after the moment, newest first. */
  changes: RecordedChange[];
};

/**
 * Fields the rebuild leaves as they are: the company appearing or absorbing another (not a value),
 * the record sections' changes (their lists have no history to undo), and what our tables do not hold.
 */
function undoable(field: string): boolean {
  return (
    field !== 'company' &&
    field !== 'merged' &&
    !field.startsWith('records.') &&
    field !== 'registration_authority' &&
    field !== 'tickers' &&
    field !== 'documents'
  );
}

/**
 * The changes of companies observed at or after `since`, newest first, as the public may read them
 * (ADR 0021), and whether each company had appeared by then. One statement: a company's changes are
 * few and read by the (legal_entity_id, id) index.
 */
export async function readHistoryAfter(
  db: Db,
  ids: readonly number[],
  since: Date,
): Promise<Map<number, HistoryAfter>> {
  const out = new Map<number, HistoryAfter>(ids.map((id) => [id, { notYet: false, changes: [] }]));
  if (ids.length === 0) return out;
  const rows = await sql<RecordedChange & { legal_entity_id: number | string }>`select legal_entity_id, id, field,
      old_value, new_value, source, source_date, observed_at
    from company_changes
    where legal_entity_id = any(${[...ids]}::bigint[]) and (observed_at >= ${since} or field = 'company')
    order by legal_entity_id, id desc`.execute(db.kysely);
  const appeared = new Map<number, boolean>();
  const changes = await visibleChanges(db, rows.rows);
  for (const row of changes) {
    const id = Number(row.legal_entity_id);
    const observed = new Date(row.observed_at);
    if (row.field === 'company') {
      // A company merged into this one brings its own `company` change: the earliest says when it appeared.
      appeared.set(id, appeared.get(id) === true || observed < since);
      continue;
    }
    if (observed < since) continue;
    out.get(id)?.changes.push({
      id: Number(row.id),
      field: row.field,
      old_value: row.old_value,
      new_value: row.new_value,
      source: row.source,
      source_date: row.source_date === null ? null : new Date(row.source_date),
      observed_at: observed,
    });
  }
  for (const [id, before] of appeared) {
    const entry = out.get(id);
    if (entry && !before) entry.notYet = true;
  }
  return out;
}

/** The parts a rebuild sets back, each when the company was read with it. */
type RebuiltParts = {
  names: Pick<NameRow, 'name_type_id' | 'position' | 'name'>[];
  addresses: AddressRow[];
  dates: DateRow[];
  identifiers: IdentifierRow[];
  statuses: StatusRow[];
  industries: IndustryRow[];
  members: MemberRow[];
};

export type RebuildableCompany = CompanyCore & Partial<RebuiltParts>;

const importReferences = new WeakMap<Reference, ImportReference>();

/**
 * The reference ids imports map codes onto, from the reference data in memory (no statement): the
 * country of an ISO 3166-1 code, the subdivision of an ISO 3166-2 code (its alias).
 */
export function importReferenceOf(reference: Reference): ImportReference {
  const known = importReferences.get(reference);
  if (known) return known;
  const locations = new Map<string, number>();
  const locationCodes = new Map<number, string>();
  for (const l of reference.locations.items) {
    if (l.location_type_id === 1 && !locations.has(l.country_code)) locations.set(l.country_code, l.id);
    const subdivision = l.aliases.find((a) => /^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/.test(a))?.toUpperCase();
    if (subdivision && !locations.has(subdivision)) locations.set(subdivision, l.id);
    locationCodes.set(l.id, subdivision ?? l.country_code);
  }
  const byUri = (list: { items: { id: number; uri: string }[] }) => new Map(list.items.map((i) => [i.uri, i.id]));
  const built: ImportReference = {
    locations,
    locationCodes,
    statuses: byUri(reference.statuses),
    nameTypes: byUri(reference.nameTypes),
    addressTypes: byUri(reference.addressTypes),
    dateTypes: byUri(reference.dateTypes),
    identifierTypes: byUri(reference.identifierTypes),
    positions: byUri(reference.positions),
    industries: new Map(reference.industries.items.map((i) => [i.code, i.id])),
  };
  importReferences.set(reference, built);
  return built;
}

/**
 * The company with `changes` (newest first) undone: each field set back to its old value, in the
 * parts the company was read with. The company given is not changed.
 */
export function rebuildCompany<C extends RebuildableCompany>(
  company: C,
  changes: readonly RecordedChange[],
  reference: Reference,
): C {
  const r = importReferenceOf(reference);
  const c: C = { ...company };
  const replace = <K extends keyof RebuiltParts>(
    key: K,
    keep: (row: RebuiltParts[K][number]) => boolean,
    add: RebuiltParts[K],
  ) => {
    const rows = c[key] as RebuiltParts[K] | undefined;
    if (rows === undefined) return;
    (c as RebuildableCompany)[key] = [...(rows as RebuiltParts[K][number][]).filter(keep), ...add] as never;
  };
  const fullName = r.nameTypes.get('legal_name_full');
  for (const change of changes) {
    const field = change.field;
    if (!undoable(field)) continue;
    const old = change.old_value;
    if (field === 'name') {
      if (typeof old !== 'string') continue;
      c.name = old;
      replace(
        'names',
        (n) => !(n.name_type_id === fullName && n.position === 0),
        fullName === undefined ? [] : [{ name_type_id: fullName, position: 0, name: old }],
      );
    } else if (field === 'other_names') {
      replace('names', (n) => n.name_type_id === fullName, otherNameRows((old as FactName[] | null) ?? [], r));
    } else if (field in ADDRESS_TYPES) {
      const type = idOf(r.addressTypes, ADDRESS_TYPES[field as keyof typeof ADDRESS_TYPES]);
      // The address's other parts (street, house, …) are not a source's: a row set back has none.
      const empty = Object.fromEntries(addressesPart.fields.map((k) => [k, null]));
      replace(
        'addresses',
        (a) => a.address_type_id !== type,
        old === null
          ? []
          : [{ ...empty, address_type_id: type, position: 0, ...addressRow(old as FactAddress, r) } as AddressRow],
      );
    } else if (field === 'jurisdiction') {
      const location = typeof old === 'string' ? jurisdictionLocation(r, old) : null;
      if (location !== null) c.jurisdiction_id = location;
    } else if (field === 'status') {
      const status = typeof old === 'string' ? (r.statuses.get(old) ?? null) : null;
      c.status_id = status;
      replace('statuses', () => false, status === null ? [] : [{ position: 0, status_id: status }]);
    } else if (field in DATE_TYPES) {
      const type = idOf(r.dateTypes, DATE_TYPES[field as keyof typeof DATE_TYPES]);
      const day = typeof old === 'string' ? old : null;
      if (field === 'registered_on') c.registered_on = day as C['registered_on'];
      replace(
        'dates',
        (d) => d.date_type_id !== type,
        day === null ? [] : [{ date_type_id: type, date: day as DateRow['date'] }],
      );
    } else if (field.startsWith('identifiers.')) {
      const type = r.identifierTypes.get(field.slice('identifiers.'.length));
      if (type === undefined) continue;
      replace(
        'identifiers',
        (i) => !(i.identifier_type_id === type && i.position === 0),
        typeof old === 'string' ? [{ identifier_type_id: type, position: 0, identifier: old }] : [],
      );
    } else if (field === 'industries') {
      const industries = (old as FactIndustry[] | null) ?? [];
      const primary = primaryIndustry(industries, r);
      // Codes our tree does not know left the industries as they were: so does the rebuild.
      if (primary === undefined) continue;
      c.primary_industry_id = primary;
      replace(
        'industries',
        () => false,
        industryRows(industries, r).map((i) => ({
          ...i,
          is_secondary: false,
          is_licensed: false,
          is_unlicensed: false,
        })),
      );
    } else if (field === 'members') {
      replace('members', ...membersBefore(c.members ?? [], change, r));
    }
  }
  sortParts(c);
  return c;
}

/**
 * A members change undone: the members of the positions it wrote give way to its old members; a
 * member still on the company keeps its row (its links), one since gone has none (member_id 0).
 */
function membersBefore(
  current: readonly MemberRow[],
  change: RecordedChange,
  r: ImportReference,
): [(m: MemberRow) => boolean, MemberRow[]] {
  const old = (change.old_value as FactMember[] | null) ?? [];
  const positions = new Set(
    [...old, ...((change.new_value as FactMember[] | null) ?? [])].map((m) => r.positions.get(m.position)),
  );
  const rows = old.map((m): MemberRow => {
    const position = idOf(r.positions, m.position);
    const same = current.find((x) => x.name === m.name && x.position_id === position);
    return {
      member_id: same?.member_id ?? 0,
      position_id: position,
      since: m.since,
      name: m.name,
      name_type: m.kind,
      first_name: same?.first_name ?? null,
      middle_name: same?.middle_name ?? null,
      last_name: same?.last_name ?? null,
      postfix: same?.postfix ?? null,
      country_id: m.country ? (r.locations.get(m.country) ?? null) : null,
      company_id: same?.company_id ?? null,
      company_uri: same?.company_uri ?? null,
      company_name: same?.company_name ?? null,
      natures: m.natures ?? null,
    };
  });
  return [(m) => !positions.has(m.position_id), rows];
}

/** The parts in the order their SQL reads them (core/companies/parts/). */
function sortParts(c: RebuildableCompany): void {
  const by =
    <T>(...keys: ((row: T) => number | string | boolean)[]) =>
    (a: T, b: T) => {
      for (const key of keys) {
        const x = key(a);
        const y = key(b);
        if (x !== y) return x < y ? -1 : 1;
      }
      return 0;
    };
  c.names?.sort(
    by(
      (n) => n.name_type_id,
      (n) => n.position,
    ),
  );
  c.addresses?.sort(
    by(
      (a) => a.address_type_id,
      (a) => a.position,
    ),
  );
  c.dates?.sort(by((d) => d.date_type_id));
  c.identifiers?.sort(
    by(
      (i) => i.identifier_type_id,
      (i) => i.position,
    ),
  );
  c.statuses?.sort(by((s) => s.position));
  c.industries?.sort(
    by(
      (i) => !i.is_primary,
      (i) => i.industry_id,
    ),
  );
  c.members?.sort(
    by(
      (m) => m.position_id,
      (m) => m.name,
      (m) => m.member_id,
    ),
  );
}

/** GLEIF's legal form and LEI registration with `changes` undone (the reporting exceptions have no history: as now). */
export async function rebuildLeiDetails(
  db: Db,
  lei: LeiDetails,
  changes: readonly RecordedChange[],
): Promise<LeiDetails> {
  const out: LeiDetails = { ...lei };
  for (const change of changes) {
    if (change.field === 'legal_form') {
      const old = change.old_value as CompanyFacts['legalForm'];
      out.legalForm = old ? { code: old.elfCode, other: old.other, names: [] } : null;
    } else if (change.field === 'lei_registration') {
      const old = change.old_value as CompanyFacts['leiRegistration'];
      const day = (v: string | null) => (v === null ? null : new Date(v));
      out.registration = old
        ? {
            lei: old.lei,
            registrationStatus: old.registrationStatus,
            entityStatus: old.entityStatus,
            initialRegistration: day(old.initialRegistrationDate),
            lastUpdate: day(old.lastUpdateDate),
            nextRenewal: day(old.nextRenewalDate),
          }
        : null;
    }
  }
  const code = out.legalForm?.code;
  if (out.legalForm && code && out.legalForm !== lei.legalForm) {
    const names = await db.kysely
      .selectFrom('legal_form_names')
      .select(['language_code', 'name', 'abbreviations'])
      .where('code', '=', code)
      .orderBy('language_code')
      .execute();
    out.legalForm = {
      ...out.legalForm,
      names: names.map((n) => ({ language: n.language_code, name: n.name, abbreviation: n.abbreviations[0] ?? null })),
    };
  }
  return out;
}

/** A field that changed between two days: its value at the end of the first and at the end of the second. */
export type FieldBetween = { field: string; before: unknown; after: unknown; changes: number };

/**
 * What changed in a company between the ends of two days, field by field (the company appearing
 * aside): each field's value before its first change observed in between and after its last; a
 * field changed and changed back is left out.
 */
export async function readChangesBetween(
  db: Db,
  id: number,
  from: string,
  to: string,
  /** Who reads: the contact details they did not buy are hidden (ADR 0029). */
  viewer: Viewer,
): Promise<FieldBetween[]> {
  const rows = await db.kysely
    .selectFrom('company_changes')
    .select(['id', 'field', 'old_value', 'new_value'])
    .where('legal_entity_id', '=', id)
    .where('observed_at', '>=', endOfDay(from))
    .where('observed_at', '<', endOfDay(to))
    .where('field', 'not in', ['company', 'merged'])
    .orderBy('id')
    .execute();
  const fields = new Map<string, FieldBetween>();
  for (const c of await changesFor(db, viewer, await visibleChanges(db, rows), () => id)) {
    const seen = fields.get(c.field);
    if (seen) {
      seen.after = c.new_value;
      seen.changes += 1;
    } else fields.set(c.field, { field: c.field, before: c.old_value, after: c.new_value, changes: 1 });
  }
  return [...fields.values()].filter((f) => JSON.stringify(f.before ?? null) !== JSON.stringify(f.after ?? null));
}
