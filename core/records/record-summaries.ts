import { formatDay, i18nFor, labelColon, numberFormat } from '../i18n/i18n.ts';
import { HIDDEN_UNTIL_BOUGHT } from '../purchases/paywall.ts';
import type { Lang } from '../reference/reference-data.ts';
import type { RecordField } from '../sections/record-fields.ts';
import { RECORD_SECTIONS, type RecordSectionDecl } from '../sections/records.ts';

// What a change of a company's record says of it (docs/decisions/0027-monitored-records.md): the
// record's summary — its id and the fields that tell it apart and say where it stands (a
// trademark's mark, number and status; a violation's type, date and fine; a vessel's name, IMO
// number and flag) — as codes in the API, and in words for people: enum values by their label,
// countries by name, dates by formatDay, amounts as money, in the reader's language.

/** A record's summary (company_changes.old_value / new_value of a `records.<table>` change). */
export type RecordSummary = { id: number } & Record<string, string | number | null>;

/** Per record table, the fields of its summary, most telling first (the first two name the record). */
export const SUMMARY_FIELDS: Record<string, string[]> = {
  connections: ['name', 'position', 'since'],
  transactions: ['type', 'customer', 'transaction_date', 'total_amount'],
  permits: ['type', 'authority', 'application_date', 'expiration_date', 'status'],
  real_estate: ['identification_number', 'locality_name', 'category', 'type', 'sale_date', 'sale_amount'],
  contacts: ['website', 'email', 'phone', 'fax'],
  aircraft: ['registration_mark', 'model', 'manufacturer', 'registration_date'],
  bank_accounts: ['bank_name', 'iban', 'account_type', 'currency', 'opened_on'],
  facilities: ['facility_number', 'type', 'locality_name', 'opened_on'],
  financial_statements: ['report_year', 'period_end', 'scope', 'revenue', 'profit'],
  industrial_designs: ['title', 'design_number', 'filing_date', 'status'],
  inspections: ['type', 'inspection_date', 'category', 'status'],
  liabilities: ['creditor', 'type', 'amount', 'filed_on', 'due_on', 'status'],
  mergers_and_acquisitions: ['participant_name', 'type', 'role', 'deal_date', 'deal_value'],
  patents: ['title', 'patent_number', 'filing_date', 'grant_date', 'status'],
  plant_variety_rights: ['denomination', 'application_number', 'species', 'filing_date', 'status'],
  registers: ['register_name', 'register_number', 'entry_date', 'type', 'status'],
  taxes: ['tax_type', 'assessed_on', 'period_end', 'amount', 'paid_amount', 'status'],
  trademarks: ['mark', 'application_number', 'filing_date', 'status'],
  vehicles: ['plate_number', 'vin', 'make', 'model', 'registration_date'],
  vessels: ['vessel_name', 'imo_number', 'flag', 'vessel_type'],
  violations: ['violation_type', 'violation_date', 'violation_level', 'fine', 'law'],
};

/** The record section of a change field's tail, a table (`bank_accounts`) or a section id (`bank-accounts`). */
function sectionOf(section: string): RecordSectionDecl | undefined {
  const name = section.startsWith('records.') ? section.slice('records.'.length) : section;
  return RECORD_SECTIONS.find((s) => s.table === name || s.id === name);
}

const displayNames = new Map<string, Intl.DisplayNames>();

/**
 * A country's name (from its ISO 3166 code) or a currency's (ISO 4217) in a language, as the
 * reference data names them (db/reference/load-reference-data.ts); the code itself when Intl knows none.
 */
function codeName(type: 'region' | 'currency', code: string, lang: Lang): string {
  let names = displayNames.get(`${type} ${lang}`);
  if (!names) {
    names = new Intl.DisplayNames([lang], { type });
    displayNames.set(`${type} ${lang}`, names);
  }
  try {
    return names.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** One summary value in words. */
function valueText(f: RecordField, value: string | number, currency: unknown, lang: Lang): string {
  switch (f.type) {
    case 'date':
      return formatDay(lang, String(value));
    case 'enum':
      return f.values?.find((v) => v.uri === value || v.id === Number(value))?.label[lang] ?? String(value);
    case 'location':
      return codeName('region', String(value), lang);
    case 'currency':
      return codeName('currency', String(value), lang);
    case 'amount':
      if (typeof currency === 'string' && /^[A-Z]{3}$/.test(currency))
        return numberFormat(lang, { style: 'currency', currency }).format(Number(value));
      return numberFormat(lang).format(Number(value));
    case 'number':
      return numberFormat(lang).format(Number(value));
    default:
      return String(value);
  }
}

/** The summary's fields in words, as [label, text], in the section's summary order (then the rest). */
function summaryParts(decl: RecordSectionDecl, summary: RecordSummary, lang: Lang): [string, string, string][] {
  const order = SUMMARY_FIELDS[decl.table] ?? [];
  const hasAmount = decl.fields.some((f) => f.type === 'amount' && summary[f.key] != null);
  const fields = [
    ...order.map((key) => decl.fields.find((f) => f.key === key)).filter((f): f is RecordField => f !== undefined),
    ...decl.fields.filter((f) => !order.includes(f.key)),
  ];
  const parts: [string, string, string][] = [];
  for (const f of fields) {
    const value = summary[f.key];
    if (value === null || value === undefined || value === '') continue;
    // A currency is said with its amounts.
    if (f.type === 'currency' && hasAmount) continue;
    // A contact detail the reader did not buy (ADR 0029) is said to be hidden, in their language.
    const text =
      value === HIDDEN_UNTIL_BOUGHT
        ? i18nFor(lang).t('billing.reveal.hidden')
        : valueText(f, value, summary.currency, lang);
    parts.push([f.key, f.label[lang], text]);
  }
  return parts;
}

/**
 * A record's summary as people read it: "Mark: Acme; Application number: 018; Filing date: 3 Dec
 * 2026; Status: Granted". `section` is the record table, its section id or the change field
 * (`records.trademarks`); an unknown section's summary is its values.
 */
export function recordChangeText(section: string, summary: RecordSummary | null, lang: Lang): string {
  if (!summary) return '';
  const decl = sectionOf(section);
  if (!decl) {
    return Object.entries(summary)
      .filter(([k, v]) => k !== 'id' && v !== null)
      .map(([, v]) => String(v))
      .join('; ');
  }
  const colon = labelColon(lang);
  return summaryParts(decl, summary, lang)
    .map(([, label, text]) => `${label}${colon}${text}`)
    .join('; ');
}

const WORDS: Record<Lang, { added: string; removed: string }> = {
  en: { added: 'added', removed: 'removed' },
  de: { added: 'neu', removed: 'entfernt' },
  fr: { added: 'ajouté', removed: 'supprimé' },
};

/**
 * A record change in a sentence without the field's label: "added — Mark: Acme; …", "removed —
 * …", or for a changed record what it is and what changed: "Acme, 018: Status: Pending → Granted".
 */
export function recordChangeWords(
  section: string,
  old: RecordSummary | null,
  now: RecordSummary | null,
  lang: Lang,
): string {
  const colon = labelColon(lang);
  if (old === null && now === null) return '';
  if (old === null) return `${WORDS[lang].added}${colon}${recordChangeText(section, now, lang)}`;
  if (now === null) return `${WORDS[lang].removed}${colon}${recordChangeText(section, old, lang)}`;
  const decl = sectionOf(section);
  if (!decl) return `${recordChangeText(section, old, lang)} → ${recordChangeText(section, now, lang)}`;
  const before = new Map(summaryParts(decl, old, lang).map(([key, label, text]) => [key, { label, text }]));
  const after = new Map(summaryParts(decl, now, lang).map(([key, label, text]) => [key, { label, text }]));
  const keys = [...new Set([...before.keys(), ...after.keys()])];
  const same = keys.filter((k) => before.get(k)?.text === after.get(k)?.text);
  const changed = keys.filter((k) => before.get(k)?.text !== after.get(k)?.text);
  const name = same
    .slice(0, 2)
    .map((k) => after.get(k)?.text)
    .join(', ');
  const what = changed
    .map(
      (k) =>
        `${(after.get(k) ?? before.get(k))?.label}${colon}${before.get(k)?.text ?? '–'} → ${after.get(k)?.text ?? '–'}`,
    )
    .join('; ');
  return name ? `${name}${colon}${what}` : what;
}
