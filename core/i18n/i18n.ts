import i18next, { type i18n, type TFunction } from 'i18next';
import { MESSAGE_LIMITS } from '../limits.ts';
import type { Lang } from '../reference/reference-data.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { fr } from './fr.ts';

export const LANGUAGES: { lang: Lang; label: string; hreflang: string }[] = [
  { lang: 'en', label: 'English', hreflang: 'en' },
  { lang: 'de', label: 'Deutsch', hreflang: 'de' },
  { lang: 'fr', label: 'Français', hreflang: 'fr' },
];

const instances = new Map<Lang, i18n>();

/** One i18next instance per language, created once, synchronously (all messages are bundled). */
export function i18nFor(lang: Lang): i18n {
  let instance = instances.get(lang);
  if (!instance) {
    instance = i18next.createInstance();
    instance.init({
      lng: lang,
      fallbackLng: 'en',
      resources: { en: { translation: en }, de: { translation: de }, fr: { translation: fr } },
      // The limits messages state ("Use at most {{listNameMax, number}} characters") come from core/limits.ts.
      interpolation: { escapeValue: false, defaultVariables: MESSAGE_LIMITS },
      initAsync: false,
      // Messages are bundled: never suspend (a suspended hydration would leave the page inert).
      react: { useSuspense: false },
    });
    memoizePlainMessages(instance, lang);
    instances.set(lang, instance);
  }
  return instance;
}

/**
 * Messages are bundled and never change, so a message asked for without options (most are: labels,
 * headings) is looked up once per language. i18next's own lookup merges its options, parses the
 * key and walks the fallbacks on every call: a tenth of a search page's server time (ADR 0002).
 */
function memoizePlainMessages(instance: i18n, lang: Lang): void {
  type Loose = (...args: unknown[]) => unknown;
  const plain = new Map<string, string>();
  const cached = (key: unknown, rest: unknown[], slow: Loose) => {
    if (rest.length > 0 || typeof key !== 'string') return slow(key, ...rest);
    let message = plain.get(key);
    if (message === undefined) {
      message = String(slow(key));
      plain.set(key, message);
    }
    return message;
  };
  const t = instance.t.bind(instance) as unknown as Loose;
  instance.t = ((key: unknown, ...rest: unknown[]) => cached(key, rest, t)) as unknown as i18n['t'];
  const getFixedT = instance.getFixedT.bind(instance);
  instance.getFixedT = ((...args: Parameters<i18n['getFixedT']>) => {
    const fixed = getFixedT(...args);
    const [lng, ns, keyPrefix] = args;
    const defaultNs = String(ns ?? 'translation') === 'translation';
    if ((lng && lng !== lang) || !defaultNs || keyPrefix) return fixed;
    const slow = fixed as unknown as Loose;
    return Object.assign((key: unknown, ...rest: unknown[]) => cached(key, rest, slow), fixed);
  }) as i18n['getFixedT'];
}

export function isLang(value: string | undefined): value is Lang {
  return value === 'en' || value === 'de' || value === 'fr';
}

/** The path of a page in a language: English has no prefix, others `/de/…`, `/fr/…`. */
export function localePath(lang: Lang, path: string): string {
  return lang === 'en' ? path : `/${lang}${path}`;
}

/** Strips the language prefix of a pathname. */
export function unprefixedPath(pathname: string): string {
  const m = /^\/(de|fr)(\/.*)?$/.exec(pathname);
  return m ? (m[2] ?? '/') : pathname;
}

/** Intl locale of a language, for numbers and dates. */
export function intlLocale(lang: Lang): string {
  return lang === 'en' ? 'en-GB' : lang === 'de' ? 'de-DE' : 'fr-FR';
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(lang: Lang, precision: 'day' | 'month'): Intl.DateTimeFormat {
  const key = `${lang} ${precision}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale(lang), {
      ...(precision === 'day' ? { day: 'numeric' } : {}),
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    dateFormats.set(key, format);
  }
  return format;
}

/** What follows a label before its value: ': ', and ' : ' in French (its typography). */
export function labelColon(lang: Lang): string {
  return lang === 'fr' ? ' : ' : ': ';
}

/**
 * A date as the reader of a language reads it, the one home of dates on pages: the month as a word,
 * so no reader can take the day for the month whatever their country or the company's ("3 Dec
 * 2026", "3. Dez. 2026", "3 déc. 2026"). Takes a calendar date (yyyy-MM-dd), a month (yyyy-MM, "Dec
 * 2026": a birth month), a year (yyyy), an ISO timestamp or a Date (the UTC day); anything else is
 * returned as it is, empty for nothing.
 */
export function formatDay(lang: Lang, value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : dateFormat(lang, 'day').format(value);
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (m) {
    const [, y, mo, d] = m;
    if (mo === undefined) return y;
    const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d ?? 1)));
    if (Number.isNaN(date.getTime())) return value;
    return dateFormat(lang, d === undefined ? 'month' : 'day').format(date);
  }
  const at = /^\d{4}-\d{2}-\d{2}T/.test(value) ? new Date(value) : null;
  return at && !Number.isNaN(at.getTime()) ? dateFormat(lang, 'day').format(at) : value;
}

/** A moment as the reader reads it: its day as `formatDay` writes it and the UTC time ("3 Dec 2026 14:05 UTC"). */
export function formatDateTime(lang: Lang, value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const at = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(at.getTime())) return String(value);
  return `${formatDay(lang, at)} ${at.toISOString().slice(11, 16)} UTC`;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A number format of a language, built once: building an Intl.NumberFormat (what
 * `toLocaleString` with options does on every call) costs ~40 µs, formatting with one ~1 µs.
 */
export function numberFormat(lang: Lang, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = options ? `${lang} ${JSON.stringify(options)}` : lang;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale(lang), options);
    numberFormats.set(key, format);
  }
  return format;
}

/**
 * A stable code (`annual_return`, a registry's `PENDING_TRANSFER`) by its translation under `group`;
 * a code no translation knows yet reads as words ("Annual return", "Pending transfer"), never as
 * the raw code. The one rule of pages, emails and the change feed alike.
 */
export function codeWords(t: TFunction, group: string, value: string): string {
  const words = (/^[A-Z0-9_]+$/.test(value) ? value.toLowerCase() : value).replace(/_/g, ' ');
  return t(`${group}.${value}`, { defaultValue: words.charAt(0).toUpperCase() + words.slice(1) });
}
