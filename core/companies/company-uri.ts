import type { Db } from '../../db/client.ts';

/** The id a company's URI ends with (`langosh-paving-llc-10029` → 10029), or null. */
export function companyIdOfUri(uri: string): number | null {
  const match = /(?:^|-)(\d{1,15})$/.exec(uri);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The current URI of the company that a URI names by its id, when that is not its URI (a slug
 * mistyped, shortened or from before a rename): the profile answers it with a permanent redirect.
 */
export async function currentCompanyUri(db: Db, uri: string): Promise<string | null> {
  const id = companyIdOfUri(uri);
  if (id === null) return null;
  const row = await db.kysely.selectFrom('legal_entities').select('uri').where('id', '=', id).executeTakeFirst();
  return row && row.uri !== uri ? row.uri : null;
}
