import type { Db } from '../../db/client.ts';

// Companies named by what people paste: ids, company numbers (or any other identifier: VAT, LEI,
// …), profile addresses or uris, one per line or separated by commas or semicolons.

import { MAX_REFS } from '../limits.ts';
import { findVisibleCompany, visibleCompany, visibleCompanyId } from '../takedowns/visible.ts';

export { MAX_REFS };

/** The pasted references, trimmed, without empty ones and repeats, in order. */
export function parseCompanyRefs(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\n\r,;]+/)) {
    const ref = part.replace(/\s+/g, ' ').trim();
    if (ref) seen.add(ref);
  }
  return [...seen];
}

/** The uri of a profile address or path (`…/companies/details/{uri}/`), else null. */
export function uriOfProfileRef(ref: string): string | null {
  const m = /\/companies\/details\/([^/?#\s]+)\/?(?:[?#].*)?$/.exec(ref);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

export type ResolvedRefs = {
  /** Company ids found, in the order of the references, without repeats. */
  ids: number[];
  /** References that name no company. */
  notFound: string[];
};

/**
 * Resolves references to company ids: an identifier equal to the reference (several companies may
 * share one, in different countries: all are taken), else a company uri or profile address, else
 * — for digits — a company id. A reference made of several words that names nothing as a whole is
 * tried word by word (ids pasted on one line).
 */
export async function resolveCompanyRefs(db: Db, refs: string[]): Promise<ResolvedRefs> {
  const ids: number[] = [];
  const taken = new Set<number>();
  const take = (found: number[]) => {
    for (const id of found) {
      if (!taken.has(id)) {
        taken.add(id);
        ids.push(id);
      }
    }
  };
  const notFound: string[] = [];
  for (const ref of refs.slice(0, MAX_REFS)) {
    const found = await resolveOne(db, ref);
    if (found.length > 0) {
      take(found);
      continue;
    }
    const words = ref.split(' ');
    if (words.length > 1) {
      const missing: string[] = [];
      for (const word of words) {
        const byWord = await resolveOne(db, word);
        if (byWord.length > 0) take(byWord);
        else missing.push(word);
      }
      if (missing.length < words.length) {
        notFound.push(...missing);
        continue;
      }
    }
    notFound.push(ref);
  }
  return { ids, notFound };
}

async function resolveOne(db: Db, ref: string): Promise<number[]> {
  const byIdentifier = await db.kysely
    .selectFrom('legal_entity_identifiers')
    .select('legal_entity_id')
    .distinct()
    .where('identifier', 'in', [...new Set([ref, ref.toUpperCase()])])
    .where(visibleCompanyId('legal_entity_id'))
    .limit(20)
    .execute();
  if (byIdentifier.length > 0) return byIdentifier.map((r) => Number(r.legal_entity_id));
  const uri = uriOfProfileRef(ref) ?? (/^[a-z0-9][a-z0-9-]*$/.test(ref) && /[a-z]/.test(ref) ? ref : null);
  if (uri) {
    const byUri = await findVisibleCompany(db, uri);
    if (byUri) return [byUri.id];
  }
  if (/^\d{1,15}$/.test(ref)) {
    const byId = await findVisibleCompany(db, Number(ref));
    if (byId) return [byId.id];
  }
  return [];
}

/** Which of these ids are companies the public may see (ADR 0021). */
export async function existingCompanyIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.kysely
    .selectFrom('legal_entities')
    .select('id')
    .where('id', 'in', ids)
    .where(visibleCompany())
    .execute();
  return new Set(rows.map((r) => Number(r.id)));
}
