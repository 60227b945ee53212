import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../errors/app-error.ts';
import type { SectionDecl } from '../sections/section.ts';

// The one home of "what the public may see" (ADR 0021, "Takedowns"): every read of companies and
// people — pages, the API, search and its counts, facet cubes, directories, statistics, suggest,
// reconciliation, match, comparison, exports, sitemaps, the change feed and webhooks, a user's own
// records that name a company — tests a row with these, and nothing else reads `taken_down_at`
// (the writers, core/takedowns/takedowns.ts, set it). A company or person taken down reads as one
// that does not exist. The taken-down are a handful: a `not in` of them is a hashed list read from
// the partial indexes of migration 0026, whatever the table's size.

/** The ids of the companies taken down. */
const HIDDEN_COMPANIES = sql`(select id from legal_entities where taken_down_at is not null)`;
/**
 * The ids of the members hidden: the people taken down, and the member rows that stand for a
 * company taken down (its name is the company's name).
 */
const HIDDEN_MEMBERS = sql`(select id from members where taken_down_at is not null
  union all select id from members where legal_entity_id in ${HIDDEN_COMPANIES})`;

/**
 * A row of `legal_entities` (as `alias`, or unaliased) that is not taken down. Under a left join
 * that found no company it holds too: "no company" is not a hidden one.
 */
export function visibleCompany(alias?: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(alias === undefined ? 'taken_down_at' : `${alias}.taken_down_at`)} is null`;
}

/**
 * A row of `members` (as `alias`, or unaliased) that the public may see: not a person taken down,
 * and not the member row of a company taken down (true under a left join that found none).
 */
export function visibleMember(alias?: string): RawBuilder<SqlBool> {
  const ref = (name: string) => sql.ref(alias === undefined ? name : `${alias}.${name}`);
  return sql<SqlBool>`(${ref('taken_down_at')} is null and coalesce(${ref('legal_entity_id')}, 0) not in ${HIDDEN_COMPANIES})`;
}

/** A company id (a column reference such as `b.legal_entity_id`) that is not taken down. */
export function visibleCompanyId(column: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} not in ${HIDDEN_COMPANIES}`;
}

/**
 * A row of the copies of a company's members (`connections`, which hold the name and not the
 * member's id) that is not a hidden member (a person taken down, or a company taken down sitting on
 * it): its name is not the name of a hidden member of that company. The row is left out, not shown
 * as "withheld" (ADR 0021).
 */
export function visibleConnection(alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${alias}.legal_entity_id`)}, coalesce(${sql.ref(`${alias}.name`)}, '')) not in (
    select lem.legal_entity_id, m.name from members m join legal_entity_members lem on lem.member_id = m.id
    where m.id in ${HIDDEN_MEMBERS} and m.name is not null)`;
}

/** A row of a search section's base table (alias `b`) that belongs to no company or person taken down. */
export function visibleRow(section: SectionDecl): RawBuilder<SqlBool> {
  if (section.companyKey === 'id') return visibleCompany('b');
  const company = visibleCompanyId('b.legal_entity_id');
  return section.baseTable === 'connections' ? sql<SqlBool>`${company} and ${visibleConnection('b')}` : company;
}

export type VisibleCompany = { id: number; uri: string; name: string };

/**
 * The company an id or a uri names, when the public may see it; null when there is none or it is
 * taken down. The one lookup of a single company for pages, the API's calls by id and a user's
 * actions on a company (buy, track, list, view).
 */
export async function findVisibleCompany(db: Db, ref: number | string): Promise<VisibleCompany | null> {
  if (typeof ref === 'number' && !Number.isSafeInteger(ref)) return null;
  const row = await db.kysely
    .selectFrom('legal_entities')
    .select(['id', 'uri', 'name'])
    .where(typeof ref === 'number' ? 'id' : 'uri', '=', ref)
    .where(visibleCompany())
    .executeTakeFirst();
  return row ? { id: Number(row.id), uri: row.uri, name: row.name } : null;
}

/**
 * The visible company of an id, or a 404 naming the parameter that gave it: a company taken down
 * is answered as one that does not exist (nothing says it was there).
 */
export async function assertCompanyVisible(db: Db, id: number, parameter = 'object_id'): Promise<VisibleCompany> {
  const company = await findVisibleCompany(db, id);
  if (!company) throw new AppError('not_found', 'No company has this id.', { parameter });
  return company;
}

/** `ids` without the companies taken down, in their order (a handful to find among them: the partial index). */
export async function visibleCompanyIds(db: Db, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const hidden = await sql<{ id: string | number }>`select id from legal_entities
    where id = any(${[...ids]}::bigint[]) and not ${visibleCompany()}`.execute(db.kysely);
  if (hidden.rows.length === 0) return [...ids];
  const gone = new Set(hidden.rows.map((r) => Number(r.id)));
  return ids.filter((id) => !gone.has(id));
}

/**
 * The names the public may not read in a company's list of members: of the people taken down and of
 * the companies taken down. Matched by name alone (a change's value names members, not their ids),
 * so a namesake's entry is left out too: for a handful of takedowns, erring on the side of the
 * person who asked.
 */
async function hiddenMemberNames(executor: Kysely<Database>): Promise<Set<string>> {
  const rows = await sql<{ name: string }>`select name from members where id in ${HIDDEN_MEMBERS} and name is not null
    union select name from legal_entities where not ${visibleCompany()}`.execute(executor);
  return new Set(rows.rows.map((r) => r.name));
}

type ChangeValues = { field: string; old_value: unknown; new_value: unknown };

/**
 * Recorded changes (company_changes, and the copies monitoring reports keep of them) as the public
 * may read them: a `members` change lists the members by name, and those taken down (people, or
 * companies sitting on the company) are left out of both its values; a change of a connection that
 * names one is left out. The change feed, webhooks,
 * the History tab and the update reports read changes through this. Inside a transaction, pass it
 * (`db` may be the transaction's executor): on PGlite another statement outside it would wait for it.
 */
export async function visibleChanges<T extends ChangeValues>(db: Db | Kysely<Database>, changes: T[]): Promise<T[]> {
  if (!changes.some((c) => c.field === 'members' || c.field === CONNECTIONS_FIELD)) return changes;
  const hidden = await hiddenMemberNames('kysely' in db ? db.kysely : db);
  if (hidden.size === 0) return changes;
  return changes
    .filter(
      (c) => c.field !== CONNECTIONS_FIELD || !(namesHidden(c.old_value, hidden) || namesHidden(c.new_value, hidden)),
    )
    .map((c) =>
      c.field === 'members'
        ? { ...c, old_value: withoutHidden(c.old_value, hidden), new_value: withoutHidden(c.new_value, hidden) }
        : c,
    );
}

/**
 * The change field of a company's connections (core/records/record-writes.ts): its summaries name
 * the member, and a change naming one hidden is left out, as visibleConnection leaves out the row.
 */
const CONNECTIONS_FIELD = 'records.connections';

function namesHidden(value: unknown, hidden: Set<string>): boolean {
  const parsed = typeof value === 'string' ? safeJson(value) : value;
  const name = parsed && typeof parsed === 'object' ? (parsed as { name?: unknown }).name : undefined;
  return typeof name === 'string' && hidden.has(name);
}

function withoutHidden(value: unknown, hidden: Set<string>): unknown {
  const parsed = typeof value === 'string' ? safeJson(value) : value;
  if (!Array.isArray(parsed)) return value;
  return parsed.filter(
    (m) =>
      !(
        m &&
        typeof m === 'object' &&
        typeof (m as { name?: unknown }).name === 'string' &&
        hidden.has((m as { name: string }).name)
      ),
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
