import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { companyIdOfUri } from '../companies/company-uri.ts';
import { afterCompanyWrite } from '../companies/company-writes.ts';
import { AppError } from '../errors/app-error.ts';

// Takedowns (ADR 0021): a company or a person (member) taken down is left out of public pages
// (the profile is a 404, search results, other companies' member lists), the sitemaps and the
// public API. Every hide and restore is kept in takedown_log with its reason, who asked and who did
// it, so that a takedown stays in force when an import brings the data again (imports never touch
// `taken_down_at`). Counts, facet cubes and statistics leave them out (core/takedowns/visible.ts):
// a takedown refreshes what depends on the company or person as every company write does
// (afterCompanyWrite, core/companies/company-writes.ts): counts, export documents, the lexicon.

export type TakedownTarget = 'company' | 'person';

export type TakedownInput = {
  target: TakedownTarget;
  /** A company's id or profile URI; a person's (member's) id. */
  ref: string;
  reason: string;
  requestedBy?: string;
  actor: string;
};

async function resolve(db: Db, target: TakedownTarget, ref: string): Promise<number> {
  const text = ref.trim();
  if (target === 'company') {
    const byUri = await db.kysely.selectFrom('legal_entities').select('id').where('uri', '=', text).executeTakeFirst();
    const id = byUri ? Number(byUri.id) : /^\d{1,15}$/.test(text) ? Number(text) : companyIdOfUri(text);
    const row =
      id === null
        ? undefined
        : await db.kysely.selectFrom('legal_entities').select('id').where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('not_found', `No company has the id or URI ${ref}`);
    return Number(row.id);
  }
  if (!/^\d{1,15}$/.test(text)) throw new AppError('bad_request', 'A person is named by their member id');
  const row = await db.kysely.selectFrom('members').select('id').where('id', '=', Number(text)).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No person has the id ${ref}`);
  return Number(row.id);
}

/** Hides (`hide`) or shows again (`restore`) a company or person, and logs it; returns its id. */
export async function applyTakedown(db: Db, action: 'hide' | 'restore', input: TakedownInput): Promise<number> {
  const reason = input.reason.trim();
  if (!reason) throw new AppError('bad_request', 'Give the reason (--reason): the log keeps it');
  const id = await resolve(db, input.target, input.ref);
  const table = input.target === 'company' ? 'legal_entities' : 'members';
  const changed = await db.kysely.transaction().execute(async (trx) => {
    const before = await sql<{ hidden: boolean; search_name: string | null }>`
      select taken_down_at is not null as hidden, ${input.target === 'company' ? sql`search_name` : sql`null::text`} as search_name
      from ${sql.table(table)} where id = ${id} for update`.execute(trx);
    await trx
      .updateTable(table)
      .set({ taken_down_at: action === 'hide' ? sql`coalesce(taken_down_at, now())` : null })
      .where('id', '=', id)
      .execute();
    await trx
      .insertInto('takedown_log')
      .values({
        object_type: input.target,
        object_id: id,
        action,
        reason,
        requested_by: input.requestedBy?.trim() || null,
        actor: input.actor,
      })
      .execute();
    const row = before.rows[0];
    return row.hidden !== (action === 'hide') ? row.search_name : undefined;
  });
  // `changed`: the company's search name (or null for a person) when the state moved. What depends
  // on it is refreshed as after any company write: the export documents of the company and of the
  // companies whose boards it (or the person) sits on, its name's words in the search lexicon (a
  // did-you-mean must not spell a hidden name), the counts here and in other processes.
  if (changed !== undefined) {
    await afterCompanyWrite(
      db,
      input.target === 'company'
        ? {
            companies: [id],
            names: changed ? [action === 'hide' ? { old: changed, new: null } : { old: null, new: changed }] : [],
          }
        : { companies: [], people: [id], names: [] },
    );
  }
  return id;
}

export async function takedownLog(db: Db, limit = 50) {
  return db.kysely.selectFrom('takedown_log').selectAll().orderBy('id', 'desc').limit(limit).execute();
}
