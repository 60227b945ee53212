import { formatDateTime, formatDay } from '../i18n/i18n.ts';
import { importFieldLabel, isRecordField } from '../imports/fields.ts';
import { type RecordSummary, recordChangeWords } from '../records/record-summaries.ts';
import type { Lang } from '../reference/reference-data.ts';
import type { FieldChange } from './reports.ts';

// A recorded change as people read it, in pages and in the digest email alike:
// "Legal name: Acme Ltd → Acme Limited" (core/i18n `monitoring.change`, `monitoring.none`).

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * A recorded value as text: itself (a date or an instant as the reader's language writes it), a
 * list's items, an address's parts; `none` for nothing.
 */
export function changeValueText(value: unknown, none: string, lang: Lang): string {
  if (value === null || value === undefined || value === '') return none;
  if (typeof value === 'string') return dateText(value, lang) ?? value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value))
    return value.length === 0 ? none : value.map((v) => changeValueText(v, none, lang)).join(', ');
  if (typeof value === 'object') {
    const parts = Object.values(value as Record<string, unknown>).filter((v) => v !== null && v !== '');
    return parts.length === 0 ? none : parts.map((v) => changeValueText(v, none, lang)).join(', ');
  }
  return String(value);
}

/** A day (2024-05-05) or an instant (…T10:30:00Z, its time when it has one) as formatDay writes it; null for other text. */
function dateText(value: string, lang: Lang): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDay(lang, value);
  const instant = /^\d{4}-\d{2}-\d{2}T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?Z$/.exec(value);
  if (!instant) return null;
  return instant[1] === '00:00' ? formatDay(lang, value) : formatDateTime(lang, value);
}

export function changeLine(t: Translate, lang: Lang, change: Pick<FieldChange, 'field' | 'old' | 'new'>): string {
  if (isRecordField(change.field)) {
    const words = recordChangeWords(change.field, summaryOf(change.old), summaryOf(change.new), lang);
    return `${importFieldLabel(change.field, lang)}${lang === 'fr' ? ' : ' : ': '}${words}`;
  }
  const none = t('monitoring.none');
  return t('monitoring.change', {
    field: importFieldLabel(change.field, lang),
    old: changeValueText(change.old, none, lang),
    new: changeValueText(change.new, none, lang),
  });
}

/** A record change's summary as recorded (an object), or null. */
function summaryOf(value: unknown): RecordSummary | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as RecordSummary) : null;
}
