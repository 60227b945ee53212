import { importFieldLabel } from '../imports/fields.ts';
import type { Lang } from '../reference/reference-data.ts';
import type { FieldChange } from './reports.ts';

// A recorded change as people read it, in pages and in the digest email alike:
// "Legal name: Acme Ltd → Acme Limited" (core/i18n `monitoring.change`, `monitoring.none`).

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A recorded value as text: itself, a list's items, an address's parts; `none` for nothing. */
export function changeValueText(value: unknown, none: string): string {
  if (value === null || value === undefined || value === '') return none;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? none : value.map((v) => changeValueText(v, none)).join(', ');
  if (typeof value === 'object') {
    const parts = Object.values(value as Record<string, unknown>).filter((v) => v !== null && v !== '');
    return parts.length === 0 ? none : parts.map((v) => changeValueText(v, none)).join(', ');
  }
  return String(value);
}

export function changeLine(t: Translate, lang: Lang, change: Pick<FieldChange, 'field' | 'old' | 'new'>): string {
  const none = t('monitoring.none');
  return t('monitoring.change', {
    field: importFieldLabel(change.field, lang),
    old: changeValueText(change.old, none),
    new: changeValueText(change.new, none),
  });
}
