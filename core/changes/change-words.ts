import type { TFunction } from 'i18next';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { sourcePublisher } from '../companies/company-history.ts';
import { describeControlNature } from '../companies/control-natures.ts';
import { type LegalFormName, legalFormNames, legalFormWords } from '../companies/lei-details.ts';
import { formatAddress } from '../companies/parts/addresses.ts';
import { codeWords, formatDay, i18nFor, labelColon } from '../i18n/i18n.ts';
import type {
  FactAddress,
  FactDocument,
  FactException,
  FactIndustry,
  FactMember,
  FactName,
} from '../imports/company-facts.ts';
import { type ImportField, importFieldLabel, isRecordField } from '../imports/fields.ts';
import { industryForSourceCode } from '../industries/source-codes.ts';
import { type RecordSummary, recordChangeText, recordChangeWords } from '../records/record-summaries.ts';
import { displayName, type Lang, locationOfCode, type Reference, type RefItem } from '../reference/reference-data.ts';
import { ADDRESS_PARTS } from '../sections/section.ts';

// A recorded change (company_changes, docs/decisions/0014-importers.md) in words, the one home of
// them for every surface: update reports, the History tab, the digest email, the change feed's and
// webhooks' `display` (docs/decisions/0018-change-feed-and-webhooks.md). Each value is written as the
// company profile writes it — codes as names in the reader's language, dates as formatDay writes
// them, lists as items, addresses in reading order — and a code nobody has a name for yet reads as
// itself, never as an error (docs/decisions/0026-changes-in-words.md).

/** What values are written with: the reference data, the names of the legal forms the changes name, a language. */
export type ChangeWords = { reference: Reference; legalForms: Map<string, LegalFormName[]>; lang: Lang };

/** A field's values in words: the items of a value (one for a single value, none for nothing). */
export type FieldRenderer = (value: unknown, words: ChangeWords & { t: TFunction }) => string[];

/** A change as words: the field's label, the items of its old and new value, and whether it is a first record. */
export type ChangeInWords = { field: string; old: string[]; new: string[]; firstRecorded: boolean };

type Change = { field: string; old: unknown; new: unknown };

/** What the data API's change items carry beside the raw values: the same change as text. */
export type ChangeDisplay = { field: string; old: string | null; new: string | null };

/** The names of the legal forms `changes` name, with the reference data: what their words need. */
export async function loadChangeWords(
  k: Kysely<Database>,
  reference: Reference,
  lang: Lang,
  changes: readonly Change[],
): Promise<ChangeWords> {
  const codes = changes.flatMap((c) => (c.field === 'legal_form' ? [elfCodeOf(c.old), elfCodeOf(c.new)] : []));
  return {
    reference,
    lang,
    legalForms: await legalFormNames(
      k,
      codes.filter((c): c is string => c !== null),
    ),
  };
}

function elfCodeOf(value: unknown): string | null {
  const code = (value as { elfCode?: unknown } | null)?.elfCode;
  return typeof code === 'string' ? code : null;
}

/** A field's label in the reader's language (a `records.*` field by its family's label). */
export function changeFieldLabel(field: string, lang: Lang): string {
  if (field === 'company') return i18nFor(lang).t('companyHistory.appeared');
  return importFieldLabel(field, lang);
}

/** A value of a field as items in words; none for nothing. */
export function changeValueWords(field: string, value: unknown, words: ChangeWords): string[] {
  if (isNothing(value)) return [];
  const t = i18nFor(words.lang).t;
  const render = rendererOf(field);
  try {
    return render(value, { ...words, t }).filter((item) => item !== '');
  } catch {
    // A value of an unexpected shape (an older import's) is written as its parts, never an error.
    return anyValue(value, { ...words, t });
  }
}

/** A value of a field on one line: its items joined by "; "; '' for nothing. */
export function changeValueText(field: string, value: unknown, words: ChangeWords): string {
  return changeValueWords(field, value, words).join('; ');
}

/**
 * A field a source fills for the first time: nothing before (null, '', no items). A record added to
 * a section is news, not a first record.
 */
export function isFirstRecorded(change: Change): boolean {
  return !isRecordField(change.field) && isNothing(change.old) && !isNothing(change.new);
}

export function changeInWords(change: Change, words: ChangeWords): ChangeInWords {
  return {
    field: changeFieldLabel(change.field, words.lang),
    old: changeValueWords(change.field, change.old, words),
    new: changeValueWords(change.field, change.new, words),
    firstRecorded: isFirstRecorded(change),
  };
}

/**
 * A change on one line, as the digest and reports write it: "Status: Active → Dissolved", a first
 * record as "Legal form: Private limited company (first recorded)".
 */
export function changeLineText(change: Change, words: ChangeWords): string {
  const t = i18nFor(words.lang).t;
  // A record added, removed or changed, in a sentence: "Trademarks: added: Mark: Acme; …".
  if (isRecordField(change.field)) {
    const colon = labelColon(words.lang);
    const text = recordChangeWords(change.field, summaryOf(change.old), summaryOf(change.new), words.lang);
    return `${changeFieldLabel(change.field, words.lang)}${colon}${text}`;
  }
  const w = changeInWords(change, words);
  const none = t('monitoring.none');
  if (w.firstRecorded) return t('changeWords.firstRecordedLine', { field: w.field, new: w.new.join('; ') });
  return t('monitoring.change', {
    field: w.field,
    old: w.old.length > 0 ? w.old.join('; ') : none,
    new: w.new.length > 0 ? w.new.join('; ') : none,
  });
}

/** The change feed's and webhooks' `display`: the field's label and each value on one line, null for nothing. */
export function changeDisplay(change: Change, words: ChangeWords): ChangeDisplay {
  const w = changeInWords(change, words);
  return {
    field: w.field,
    old: w.old.length > 0 ? w.old.join('; ') : null,
    new: w.new.length > 0 ? w.new.join('; ') : null,
  };
}

/**
 * When and by whom a change was said: "Dated 5 May 2024 by GLEIF; seen by Registra 6 May 2024" —
 * the source's own date of its record, when it gives one, and when an import recorded it.
 */
export function changeSourceText(
  change: { source: string; source_date: string | Date | null; observed_at: string | Date | null },
  lang: Lang,
): string {
  const t = i18nFor(lang).t;
  const source = sourcePublisher(change.source);
  const observed = formatDay(lang, change.observed_at);
  return change.source_date
    ? t('changeWords.dated', { date: formatDay(lang, change.source_date), source, observed })
    : t('changeWords.undated', { source, observed });
}

// ---- each field's words ----

function isNothing(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value as object).every(isNothing);
  return false;
}

type Words = ChangeWords & { t: TFunction };

const named = (item: RefItem | undefined, w: Words) =>
  item ? displayName(item, w.reference.languageIds[w.lang] || w.reference.languageIds.en) : '';

/** A country or subdivision code (GB, US-DE) as its name; the code when the reference data has not it. */
function placeName(code: string | null | undefined, w: Words): string {
  if (!code) return '';
  return named(locationOfCode(w.reference, code), w) || code;
}

const text: FieldRenderer = (value, w) => [scalar(value, w)];
const day: FieldRenderer = (value, w) => [formatDay(w.lang, String(value))];
const texts: FieldRenderer = (value, w) => (Array.isArray(value) ? value.map((v) => scalar(v, w)) : [scalar(value, w)]);

function scalar(value: unknown, w: Words): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return anyValue(value, w).join(', ');
  const s = String(value);
  return /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(s) ? formatDay(w.lang, s) : s;
}

/** A value of a shape no renderer knows: its scalar parts, dates in words, in reading order. */
function anyValue(value: unknown, w: Words): string[] {
  if (isNothing(value)) return [];
  if (Array.isArray(value)) return value.flatMap((v) => anyValue(v, w).join(', ') || []);
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort((a, b) => readingOrder(a) - readingOrder(b) || (a < b ? -1 : a > b ? 1 : 0));
    return [
      keys
        .flatMap((k) => anyValue(record[k], w))
        .filter(Boolean)
        .join(', '),
    ];
  }
  return [scalar(value, w)];
}

const READING_ORDER = [
  'name',
  'title',
  'type',
  'lines',
  'street',
  'house',
  'postCode',
  'city',
  'locality',
  'region',
  'country',
];
function readingOrder(key: string): number {
  const i = READING_ORDER.indexOf(key);
  return i === -1 ? READING_ORDER.length : i;
}

const address: FieldRenderer = (value, w) => {
  const a = value as FactAddress;
  // An address of another shape (written before addresses had lines) is read as its parts.
  if (!Array.isArray(a.lines)) return anyValue(value, w);
  const parts = Object.fromEntries(ADDRESS_PARTS.map((p) => [p, null])) as Record<
    (typeof ADDRESS_PARTS)[number],
    string | null
  >;
  const lines = a.lines ?? [];
  parts.address_line_1 = lines[0] ?? null;
  parts.address_line_2 = lines.length > 1 ? lines.slice(1).join(', ') : null;
  parts.locality = a.city ?? null;
  parts.post_code = a.postCode ?? null;
  // A region given as its ISO 3166-2 code (US-DE) reads as its name.
  parts.state = a.region && /^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(a.region) ? placeName(a.region, w) : (a.region ?? null);
  return [formatAddress(parts, placeName(a.country, w) || null)];
};

const FIELD_RENDERERS: Record<ImportField, FieldRenderer> = {
  company: (value, w) => {
    const v = value as { name?: string; jurisdiction?: string | null };
    return [[v.name, placeName(v.jurisdiction, w)].filter(Boolean).join(', ')];
  },
  merged: (value) => [String((value as { name?: string }).name ?? '')],
  name: text,
  other_names: (value, w) =>
    (value as FactName[]).map((n) => {
      const notes = [
        w.t(`changeWords.nameType.${n.type}`, { defaultValue: n.type }),
        n.until ? w.t('changeWords.until', { date: formatDay(w.lang, n.until) }) : '',
      ].filter(Boolean);
      return `${n.name} (${notes.join(', ')})`;
    }),
  'addresses.legal': address,
  'addresses.headquarters': address,
  'addresses.postal': address,
  jurisdiction: (value, w) => [placeName(String(value), w)],
  legal_form: (value, w) => {
    const v = value as { elfCode: string | null; other: string | null };
    const names = v.elfCode ? (w.legalForms.get(v.elfCode) ?? []) : [];
    // 8888 and 9999 are GLEIF's "not on the list (yet)": the register's own words are the form.
    const listed = v.elfCode && v.elfCode !== '8888' && v.elfCode !== '9999';
    return [legalFormWords({ other: v.other, names }, w.lang) || (listed ? `ELF ${v.elfCode}` : '')];
  },
  status: (value, w) => {
    const uri = String(value);
    return [named(w.reference.statuses.byUri.get(uri) ?? w.reference.statuses.byUri.get(uri.toLowerCase()), w) || uri];
  },
  employees: (value, w) => {
    const uri = String(value);
    return [named(w.reference.employees.byUri.get(uri), w) || uri];
  },
  registered_on: day,
  dissolved_on: day,
  'dates.accounts': day,
  'dates.annual_report': day,
  'identifiers.company_number': text,
  'identifiers.lei': text,
  'identifiers.tax_number': text,
  'identifiers.vat': text,
  'identifiers.business_number': text,
  registration_authority: (value, w) => {
    const v = value as { id: string; number: string | null };
    const authority = registrationAuthorityName(v.id);
    return [v.number ? w.t('changeWords.atAuthority', { number: v.number, authority }) : authority];
  },
  lei_registration: (value, w) => {
    const v = value as {
      lei: string;
      entityStatus: string | null;
      registrationStatus: string;
      initialRegistrationDate: string | null;
      lastUpdateDate: string | null;
      nextRenewalDate: string | null;
      managingLou: string | null;
      validationSources: string | null;
    };
    const dayOf = (d: string | null) => (d ? formatDay(w.lang, d) : '—');
    return [
      [
        `${w.t('changeWords.lei', { lei: v.lei })}: ${codeWords(w.t, 'profile.leiStatus', v.registrationStatus)}`,
        w.t('profile.leiRegistrationNote', {
          initial: dayOf(v.initialRegistrationDate),
          updated: dayOf(v.lastUpdateDate),
          renewal: dayOf(v.nextRenewalDate),
        }),
        v.entityStatus ? codeWords(w.t, 'changeWords.leiEntityStatus', v.entityStatus) : '',
        v.validationSources ? codeWords(w.t, 'changeWords.leiValidation', v.validationSources) : '',
        v.managingLou ? w.t('changeWords.managingLou', { lei: v.managingLou }) : '',
      ]
        .filter(Boolean)
        .join(', '),
    ];
  },
  industries: (value, w) =>
    (value as FactIndustry[]).map((i) => {
      const hub = industryForSourceCode(i.scheme, i.code);
      const name = hub ? named(w.reference.industries.byId.get(hub.id), w) : '';
      const words = name || i.code;
      return i.primary ? `${words} (${w.t('changeWords.primary')})` : words;
    }),
  // A register's members (a list), or one parent GLEIF's relationships add or remove (core/imports/relationships.ts).
  members: (value, w) =>
    (Array.isArray(value) ? value : [value]).map((m: FactMember & { lei?: string; relationship?: string }) => {
      const notes = [
        named(w.reference.positions.byUri.get(m.position), w) || m.position,
        m.relationship ? codeWords(w.t, 'changeWords.relationship', m.relationship) : '',
        m.lei ? w.t('changeWords.lei', { lei: m.lei }) : '',
        m.since ? w.t('profile.since', { date: formatDay(w.lang, m.since) }) : '',
        m.until ? w.t('changeWords.until', { date: formatDay(w.lang, m.until) }) : '',
        m.country ? placeName(m.country, w) : '',
        ...(m.natures ?? []).map((code) => describeControlNature(code, w.t)),
        shareWords(m.shareMin ?? null, m.shareMax ?? null, w),
      ].filter(Boolean);
      return `${m.name} (${notes.join(', ')})`;
    }),
  documents: (value, w) =>
    (value as FactDocument[]).map(
      (d) =>
        `${d.title} (${[codeWords(w.t, 'profile.documentType', d.type), w.t('changeWords.filed', { date: formatDay(w.lang, d.filedOn) })].join(', ')})`,
    ),
  tickers: texts,
  reporting_exceptions: (value, w) => {
    // BODS: the company's unspecified interested parties, each a reason and the source's words (ADR 0038).
    if (Array.isArray(value))
      return (value as FactException[]).map(
        (e) => `${codeWords(w.t, 'profile.exceptionReason', e.reason)}${e.description ? ` (${e.description})` : ''}`,
      );
    const v = value as { category: string; reasons: string[]; reference: string | null };
    const reasons = (v.reasons ?? []).map((r) => codeWords(w.t, 'profile.exceptionReason', r)).join(', ');
    return [
      `${codeWords(w.t, 'profile.reportingException', v.category)}${reasons ? `: ${reasons}` : ''}${v.reference ? ` (${v.reference})` : ''}`,
    ];
  },
};

/** A holding's share as a source stated it in numbers (BODS), in the Ownership section's words (`ownership.share.*`). */
function shareWords(min: number | null, max: number | null, w: Words): string {
  const n = (x: number) => x.toLocaleString(w.lang);
  if (min !== null && min === max) return w.t('ownership.share.exact', { value: n(min) });
  if (min !== null && max !== null) return w.t('ownership.share.range', { min: n(min), max: n(max) });
  if (min !== null) return w.t('ownership.share.over', { min: n(min) });
  return max !== null ? w.t('ownership.share.upTo', { max: n(max) }) : '';
}

/**
 * The renderers of field families, by the prefix of their names: record sections' changes
 * (`records.<section>`) plug their own in here.
 */
const FAMILY_RENDERERS: [prefix: string, renderer: (field: string) => FieldRenderer][] = [
  // A record's summary (core/records/record-summaries.ts, docs/decisions/0027-monitored-records.md).
  ['records.', (field) => (value, words) => [recordChangeText(field, summaryOf(value), words.lang)]],
];

function rendererOf(field: string): FieldRenderer {
  if (Object.hasOwn(FIELD_RENDERERS, field)) return FIELD_RENDERERS[field as ImportField];
  return FAMILY_RENDERERS.find(([prefix]) => field.startsWith(prefix))?.[1](field) ?? anyValue;
}

/** A record change's summary as recorded (an object), or null. */
function summaryOf(value: unknown): RecordSummary | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as RecordSummary) : null;
}

/** Registration authorities (GLEIF's RA list codes) the sources name, as a reader knows them; else the code. */
const REGISTRATION_AUTHORITIES: Record<string, string> = {
  RA000585: 'Companies House',
  RA000472: 'Brønnøysundregistrene',
};

function registrationAuthorityName(id: string): string {
  return REGISTRATION_AUTHORITIES[id] ?? id;
}
