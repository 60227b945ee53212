import type { Db } from '../../db/client.ts';
import { visibleCompany } from '../takedowns/visible.ts';

/** The id a company's URI ends with (`langosh-paving-llc-10029` → 10029), or null. */
export function companyIdOfUri(uri: string): number | null {
  const match = /(?:^|-)(\d{1,15})$/.exec(uri);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The current URI of the company that a URI names by its id, when that is not its URI (a slug
 * mistyped, shortened or from before a rename), or of the company it was merged into
 * (core/imports/merge-companies.ts): the profile answers it with a permanent redirect.
 */
export async function currentCompanyUri(db: Db, uri: string): Promise<string | null> {
  const id = companyIdOfUri(uri);
  if (id === null) return null;
  // A company taken down has no address to send anyone to (ADR 0021).
  const row = await db.kysely
    .selectFrom('legal_entities')
    .select('uri')
    .where('id', '=', id)
    .where(visibleCompany())
    .executeTakeFirst();
  if (row) return row.uri !== uri ? row.uri : null;
  const survivor = await db.kysely
    .selectFrom('company_merges as m')
    .innerJoin('legal_entities as l', 'l.id', 'm.survivor_id')
    .select('l.uri')
    .where('m.merged_id', '=', id)
    // Nor to a survivor taken down: its address would name it.
    .where(visibleCompany('l'))
    .executeTakeFirst();
  return survivor?.uri ?? null;
}
