import { type ExpressionBuilder, sql } from 'kysely';
import { STATUS_ACTIVE } from '../../db/reference/enumerations.ts';
import type { Database } from '../../db/schema.ts';
import { formatDay, i18nFor } from '../i18n/i18n.ts';
import { displayName, type Lang, type Reference } from '../reference/reference-data.ts';
import { visibleCompany } from '../takedowns/visible.ts';

// People told apart (ADR 0022, "People told apart"): a line about a person — in suggestions, the
// people search and the suggest API — carries their main company, country, role and, where the
// register publishes it, month and year of birth. Two lines that would still read the same (same
// name, same details) each carry the person's number, the last resort: two people are never shown
// as one. This module is the one place that decides it.

/**
 * The member's main position: a current one first (no end date, at an active company), then the
 * most recent start (unknown starts last), then the lowest company id — a lateral join on
 * `members as m`, one indexed read of `legal_entity_members_member_idx` a person.
 */
export function mainPosition(eb: ExpressionBuilder<Database & { m: Database['members'] }, 'm'>) {
  return eb
    .selectFrom('legal_entity_members as lem')
    .innerJoin('legal_entities as le', 'le.id', 'lem.legal_entity_id')
    .select(['le.name as main_company', 'le.uri as main_uri', 'lem.position_id as main_position_id'])
    .whereRef('lem.member_id', '=', 'm.id')
    .where(visibleCompany('le'))
    .orderBy(sql`lem.until is null and le.status_id = ${STATUS_ACTIVE}`, 'desc')
    .orderBy('lem.since', (o) => o.desc().nullsLast())
    .orderBy('le.id')
    .limit(1)
    .as('main');
}

/** What a line is made of: the member and their main position (`mainPosition`'s columns). */
export type PersonFacts = {
  id: number;
  name: string;
  country_id: number | null;
  birth_month: number | null;
  birth_year: number | null;
  main_company: string | null;
  main_uri: string | null;
  main_position_id: number | null;
};

/** A person's line in one language; each part is '' when unknown. */
export type PersonLine = {
  id: number;
  name: string;
  company: { name: string; uri: string } | null;
  role: string;
  country: string;
  /** Month and year of birth in the reader's language (Intl's month names): "Dec 1961". */
  birth: string;
  /** The same as the line says it: "born Dec 1961". */
  born: string;
  /** The person's number, given only when the line would otherwise read like another's. */
  tiebreak: string;
  /** The parts after the name, joined: what a suggestion shows under the name. */
  detail: string;
};

/** Month and year in the reader's language, as every date is written (`formatDay`): "Dec 1961", "Dez. 1961", "déc. 1961". */
export function formatMonthYear(month: number, year: number, lang: Lang): string {
  return formatDay(lang, `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`);
}

/** The lines of `people`, in their order, no two alike. */
export function personLines(people: readonly PersonFacts[], reference: Reference, lang: Lang): PersonLine[] {
  const languageId = reference.languageIds[lang] || reference.languageIds.en;
  const t = i18nFor(lang).t;
  const lines = people.map((p) => {
    const company = p.main_company && p.main_uri ? { name: p.main_company, uri: p.main_uri } : null;
    const role =
      p.main_position_id === null ? '' : displayName(reference.positions.byId.get(p.main_position_id), languageId);
    const country = p.country_id === null ? '' : displayName(reference.locations.byId.get(p.country_id), languageId);
    const birth = p.birth_month && p.birth_year ? formatMonthYear(p.birth_month, p.birth_year, lang) : '';
    const born = birth ? t('people.born', { date: birth }) : '';
    return { id: p.id, name: p.name, company, role, country, birth, born, tiebreak: '', detail: '' };
  });
  const shown = (l: PersonLine) => [l.company?.name ?? '', l.country, l.role, l.born, l.tiebreak].filter(Boolean);
  const seen = new Map<string, number>();
  for (const l of lines) {
    const key = [l.name.toLowerCase(), ...shown(l)].join('\u0000');
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  for (const l of lines) {
    const key = [l.name.toLowerCase(), ...shown(l)].join('\u0000');
    if ((seen.get(key) ?? 0) > 1) l.tiebreak = t('people.number', { id: l.id });
    l.detail = shown(l).join(' · ');
  }
  return lines;
}
