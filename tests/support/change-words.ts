import { expect } from 'vitest';
import { changeLineText, loadChangeWords } from '../../core/changes/change-words.ts';
import type { Reference } from '../../core/reference/reference-data.ts';
import type { Db } from '../../db/client.ts';

// What a change in words (core/changes/change-words.ts) must never show a reader: a raw code
// where a name belongs (GLEIF's words, a status uri, an industry scheme, a nature of control),
// an ISO date, JavaScript's own words for nothing.

export const RAW_CODES = [
  /\b8888\b|\b9999\b/,
  /FULLY_CORROBORATED|PARTIALLY_CORROBORATED|ENTITY_SUPPLIED_ONLY|\bISSUED\b|\bLAPSED\b|\bPUBLISHED\b/,
  /in-liquidation|struck-off/,
  /uk-sic-2007|nace-2|sn2007|us-sic|naics-2017/,
  /DIRECT_ACCOUNTING_CONSOLIDATION_PARENT|ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT|NATURAL_PERSONS/,
  /IS_DIRECTLY_CONSOLIDATED_BY|IS_ULTIMATELY_CONSOLIDATED_BY/,
  /ownership-of-shares|voting-rights-|right-to-appoint/,
  // BODS codes (interest types, unspecified-party reasons) where words belong.
  /votingRights|unknownInterest|noBeneficialOwners|subjectExemptFromDisclosure|interestedPartyExemptFromDisclosure/,
  /legal_entity|\bdirector\b|\bshareholder\b|\bparent_company\b/,
  /\d{4}-\d{2}-\d{2}/,
  /\[object Object\]|\bundefined\b|\bnull\b|\btrue\b|\bfalse\b/,
];

export function expectWords(text: string, where: string): void {
  for (const raw of RAW_CODES) expect(text, `${where}: ${raw} in “${text}”`).not.toMatch(raw);
}

/** Every change an import recorded, as the digest and reports write it in en, de and fr: words only. */
export async function expectRecordedChangesInWords(db: Db, reference: Reference): Promise<number> {
  const rows = await db.kysely
    .selectFrom('company_changes')
    .select(['id', 'field', 'old_value', 'new_value'])
    .orderBy('id')
    .execute();
  const changes = rows.map((r) => ({ field: r.field, old: r.old_value, new: r.new_value }));
  for (const lang of ['en', 'de', 'fr'] as const) {
    const words = await loadChangeWords(db.kysely, reference, lang, changes);
    changes.forEach((c, i) => {
      expectWords(changeLineText(c, words), `${lang} change ${rows[i].id} (${c.field})`);
    });
  }
  return new Set(changes.map((c) => c.field)).size;
}
