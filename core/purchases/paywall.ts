import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { ENUMERATIONS } from '../../db/reference/enumerations.ts';
import type { Database } from '../../db/schema.ts';
import { preparedStatement } from '../companies/prepared-query.ts';
import { visibleConnection, visibleMember } from '../takedowns/visible.ts';

// What a purchase unlocks (docs/decisions/0029-what-a-purchase-unlocks.md), the one home of the
// rule: a company's contact details — the emails, phone and fax numbers of the company (its
// contacts part and its Contacts records) and its officers' contacts (every member contact, and
// the Connections records' emails and phones) — are shown to a user who bought the company's full
// profile, and to nobody else. A company's website is its public address, not a way to reach
// someone: never gated. Every
// surface that reads a gated value passes it through here (`unlockedFor`, then `revealOrHide`).

/** Contact types (contact_types uris) a purchase unlocks. */
export const GATED_CONTACT_TYPES = ['email', 'phone', 'fax'] as const;

export type GatedContactType = (typeof GATED_CONTACT_TYPES)[number];

/** The gated contact types by id (the enumeration's stable ids). */
const GATED_TYPE_OF: ReadonlyMap<number, GatedContactType> = new Map(
  (ENUMERATIONS.find((e) => e.table === 'contact_types')?.rows ?? []).flatMap((row) =>
    (GATED_CONTACT_TYPES as readonly string[]).includes(row.uri) ? [[row.id, row.uri as GatedContactType]] : [],
  ),
);

/** Whether a contact of this type (contact_type_id) is a gated one. */
export function isGatedContactType(contactTypeId: number): boolean {
  return GATED_TYPE_OF.has(Number(contactTypeId));
}

/**
 * Per record table, its gated fields (columns); the sweep test holds every record field of a
 * contact kind (email, phone, fax) to be listed here.
 */
export const GATED_RECORD_FIELDS: Readonly<Record<string, readonly string[]>> = {
  connections: ['email', 'phone'],
  contacts: ['email', 'phone', 'fax'],
};

/** The companies a viewer has unlocked (of those asked about); `everything` for the operator's own tools. */
export type Unlocked = { readonly everything: boolean; readonly companies: ReadonlySet<number> };

/** Nothing unlocked: a guest. */
export const NOTHING_UNLOCKED: Unlocked = { everything: false, companies: new Set() };

/** Everything unlocked: the operator's tools (the CLI), who hold the database anyway. */
export const EVERYTHING_UNLOCKED: Unlocked = { everything: true, companies: new Set() };

/** Who reads: a user (their id), a guest (null or undefined), or the operator's own tools (the CLI). */
export type Viewer = number | 'operator' | null | undefined;

/**
 * The companies of `companyIds` whose full profile `userId` bought (hidden from the history or
 * not): nothing for a guest (null or undefined), everything for the operator.
 */
export async function unlockedFor(
  db: Db | Kysely<Database>,
  userId: Viewer,
  companyIds: Iterable<number>,
): Promise<Unlocked> {
  if (userId === 'operator') return EVERYTHING_UNLOCKED;
  const ids = [...new Set([...companyIds].map(Number))];
  if (userId === null || userId === undefined || ids.length === 0) return NOTHING_UNLOCKED;
  const executor = 'kysely' in db ? db.kysely : db;
  const rows = await executor
    .selectFrom('purchases')
    .select('legal_entity_id')
    .where('user_id', '=', userId)
    .where('legal_entity_id', 'in', ids)
    .execute();
  return { everything: false, companies: new Set(rows.map((r) => Number(r.legal_entity_id))) };
}

/** Whether the contact details of `companyId` are shown to the viewer. */
export function isUnlocked(unlocked: Unlocked, companyId: number): boolean {
  return unlocked.everything || unlocked.companies.has(Number(companyId));
}

/** The one rule: a gated value of `companyId` as the viewer may read it — itself once bought, else null. */
export function revealOrHide<T>(unlocked: Unlocked, companyId: number, value: T): T | null {
  return isUnlocked(unlocked, companyId) ? value : null;
}

/** A company's contacts (its contacts part, `contact_type_id`) as the viewer may read them: the gated types left out. */
export function visibleContacts<R extends { contact_type_id: number }>(
  unlocked: Unlocked,
  companyId: number,
  contacts: readonly R[],
): R[] {
  return contacts.filter(
    (c) => !isGatedContactType(c.contact_type_id) || revealOrHide(unlocked, companyId, c) !== null,
  );
}

/**
 * A person's contacts (member_contacts, every type: an officer's contacts are personal) as the
 * viewer may read them: only when the viewer bought one of the companies the person sits on
 * (`companyIds`), whose officers' contacts that purchase unlocked.
 */
export function visibleMemberContacts<R>(
  unlocked: Unlocked,
  companyIds: readonly number[],
  contacts: readonly R[],
): R[] {
  return companyIds.some((id) => isUnlocked(unlocked, id)) ? [...contacts] : [];
}

/** Record rows of a record table (each naming its company, `legal_entity_id`) with their gated fields emptied unless bought. */
export function visibleRecordRows<R extends Record<string, unknown>>(
  unlocked: Unlocked,
  table: string,
  rows: readonly R[],
  companyOf: (row: R) => number = (row) => Number(row.legal_entity_id),
): R[] {
  const gated = GATED_RECORD_FIELDS[table];
  if (!gated) return [...rows];
  return rows.map((row) => {
    if (isUnlocked(unlocked, companyOf(row))) return row;
    const hidden: Record<string, unknown> = { ...row };
    for (const field of gated) if (field in hidden) hidden[field] = null;
    return hidden as R;
  });
}

/** `visibleRecordRows` for the viewer `userId`, reading what they bought of the rows' companies. */
export async function recordRowsFor<R extends Record<string, unknown>>(
  db: Db,
  userId: Viewer,
  table: string,
  rows: readonly R[],
): Promise<R[]> {
  if (!GATED_RECORD_FIELDS[table]) return [...rows];
  const unlocked = await unlockedFor(
    db,
    userId,
    rows.map((r) => Number(r.legal_entity_id)),
  );
  return visibleRecordRows(unlocked, table, rows);
}

/** Stands for a gated value in a change the reader did not buy (the feed, webhooks, reports, the History tab). */
export const HIDDEN_UNTIL_BOUGHT = 'hidden until bought';

/**
 * A recorded change's value (company_changes.old_value / new_value) as the viewer may read it: a
 * record change (`records.<table>`) of a gated table has its gated fields replaced by
 * HIDDEN_UNTIL_BOUGHT unless the company is bought; other values are never gated.
 */
export function visibleChangeValue(unlocked: Unlocked, companyId: number, field: string, value: unknown): unknown {
  if (!field.startsWith('records.') || value === null || typeof value !== 'object') return value;
  const gated = GATED_RECORD_FIELDS[field.slice('records.'.length)];
  if (!gated || isUnlocked(unlocked, companyId)) return value;
  const hidden: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of gated) if (hidden[key] !== null && hidden[key] !== undefined) hidden[key] = HIDDEN_UNTIL_BOUGHT;
  return hidden;
}

/**
 * Recorded changes (company_changes rows, or copies of them) as the viewer may read them: the
 * gated values of companies they did not buy replaced by HIDDEN_UNTIL_BOUGHT, in the raw values
 * and so in the words written from them. `companyOf` names a change's company.
 */
export async function changesFor<R extends { field: string; old_value: unknown; new_value: unknown }>(
  db: Db | Kysely<Database>,
  viewer: Viewer,
  rows: readonly R[],
  companyOf: (row: R) => number,
): Promise<R[]> {
  if (!rows.some((r) => isGatedChangeField(r.field))) return [...rows];
  const unlocked = await unlockedFor(db, viewer, rows.filter((r) => isGatedChangeField(r.field)).map(companyOf));
  return rows.map((r) => {
    if (!isGatedChangeField(r.field) || isUnlocked(unlocked, companyOf(r))) return r;
    const id = companyOf(r);
    return {
      ...r,
      old_value: visibleChangeValue(unlocked, id, r.field, r.old_value),
      new_value: visibleChangeValue(unlocked, id, r.field, r.new_value),
    };
  });
}

/** Whether a change's field can carry gated values (its words must be written from the hidden values). */
export function isGatedChangeField(field: string): boolean {
  return field.startsWith('records.') && GATED_RECORD_FIELDS[field.slice('records.'.length)] !== undefined;
}

/** What buying a company's full profile reveals, counted (distinct values of each kind). */
export type Reveal = {
  emails: number;
  phones: number;
  faxes: number;
  officerEmails: number;
  officerPhones: number;
  /** Officers' contacts of other types (a fax, a website). */
  officerOthers: number;
};

export const REVEAL_KINDS = [
  'emails',
  'phones',
  'faxes',
  'officerEmails',
  'officerPhones',
  'officerOthers',
] as const satisfies readonly (keyof Reveal)[];

/** How many gated values a reveal holds: a company with none offers nothing to buy. */
export function revealTotal(reveal: Reveal): number {
  return REVEAL_KINDS.reduce((sum, kind) => sum + reveal[kind], 0);
}

const typeId = (uri: GatedContactType) => [...GATED_TYPE_OF].find(([, u]) => u === uri)?.[0] ?? -1;

/** The statement of `revealOf`, built and compiled once (core/companies/prepared-query.ts). */
const revealCounts = preparedStatement('registra-reveal-of', (_, companyId: number) => {
  const own = (uri: GatedContactType, column: string) => sql<number>`(select count(distinct v) from (
      select x.contact as v from legal_entity_contacts x
        where x.legal_entity_id = ${companyId} and x.contact_type_id = ${typeId(uri)}
      union all
      select ${sql.ref(`r.${column}`)} from contacts r where r.legal_entity_id = ${companyId} and ${sql.ref(`r.${column}`)} is not null
    ) s)`;
  const officers = (types: 'email' | 'phone' | 'other', column: string | null) => {
    const typed =
      types === 'other'
        ? sql`c.contact_type_id not in (${typeId('email')}, ${typeId('phone')})`
        : sql`c.contact_type_id = ${typeId(types)}`;
    const records =
      column === null
        ? sql``
        : sql`union all
      select ${sql.ref(`r.${column}`)} from connections r
        where r.legal_entity_id = ${companyId} and ${sql.ref(`r.${column}`)} is not null and ${visibleConnection('r')}`;
    return sql<number>`(select count(distinct v) from (
      select c.contact as v from legal_entity_members lem
        join members m on m.id = lem.member_id
        join member_contacts c on c.member_id = lem.member_id
        where lem.legal_entity_id = ${companyId} and ${typed} and ${visibleMember('m')}
      ${records}
    ) s)`;
  };
  return sql<Record<keyof Reveal, number | string>>`select
      ${own('email', 'email')} as "emails",
      ${own('phone', 'phone')} as "phones",
      ${own('fax', 'fax')} as "faxes",
      ${officers('email', 'email')} as "officerEmails",
      ${officers('phone', 'phone')} as "officerPhones",
      ${officers('other', null)} as "officerOthers"`;
});

/**
 * What buying `companyId` reveals: its distinct emails, phone and fax numbers (its contacts part
 * and its Contacts records) and its officers' distinct contacts (the members' contacts and its
 * Connections records' emails and phones), people taken down left out. One statement.
 */
export async function revealOf(db: Db, companyId: number): Promise<Reveal> {
  const [row] = await revealCounts(db, companyId);
  return {
    emails: Number(row.emails),
    phones: Number(row.phones),
    faxes: Number(row.faxes),
    officerEmails: Number(row.officerEmails),
    officerPhones: Number(row.officerPhones),
    officerOthers: Number(row.officerOthers),
  };
}
