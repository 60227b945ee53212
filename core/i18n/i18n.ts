import i18next, { type InitOptions, type i18n, type TFunction } from 'i18next';
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

/** How each language's i18next instance is set up (exported for the test that holds `fastMessage` to i18next). */
export function i18nextOptions(lang: Lang): InitOptions {
  return {
    lng: lang,
    fallbackLng: 'en',
    resources: { en: { translation: en }, de: { translation: de }, fr: { translation: fr } },
    // The limits messages state ("Use at most {{listNameMax, number}} characters") come from core/limits.ts.
    interpolation: { escapeValue: false, defaultVariables: MESSAGE_LIMITS },
    initAsync: false,
    // Messages are bundled: never suspend (a suspended hydration would leave the page inert).
    react: { useSuspense: false },
  };
}

/** One i18next instance per language, created once, synchronously (all messages are bundled). */
export function i18nFor(lang: Lang): i18n {
  let instance = instances.get(lang);
  if (!instance) {
    instance = i18next.createInstance();
    instance.init(i18nextOptions(lang));
    memoizePlainMessages(instance, lang);
    instances.set(lang, instance);
  }
  return instance;
}

/**
 * Messages are bundled and never change, so a message asked for without options (most are: labels,
 * headings) is looked up once per language. i18next's own lookup merges its options, parses the
 * key and walks the fallbacks on every call: a tenth of a search page's server time (ADR 0002).
 * A message asked for with plain variables (and a count) is answered by `fastMessage` when it can
 * answer it exactly as i18next would; anything else goes to i18next.
 */
function memoizePlainMessages(instance: i18n, lang: Lang): void {
  type Loose = (...args: unknown[]) => unknown;
  const plain = new Map<string, string>();
  const cached = (key: unknown, rest: unknown[], slow: Loose) => {
    if (rest.length > 0 || typeof key !== 'string') {
      if (rest.length === 1 && typeof key === 'string') {
        const fast = fastMessage(lang, key, rest[0]);
        if (fast !== undefined) return fast;
      }
      return slow(key, ...rest);
    }
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

/** A message as i18next reads it: the parts between its `{{variable}}` and `{{variable, number}}` placeholders. */
type Template = { texts: string[]; vars: { name: string; number: boolean }[] };

const RESOURCES: Record<Lang, unknown> = { en, de, fr };
/** Each language's messages by their full key ('search.records_one'), built at the first call. */
const flatMessages = new Map<Lang, Map<string, Template | null>>();
/**
 * Option names i18next (or the Intl.NumberFormat it builds for `{{x, number}}` from the same
 * options) reads for itself: a call that passes one of them is left to i18next.
 */
const I18NEXT_OPTIONS = new Set([
  'defaultValue',
  'context',
  'ordinal',
  'lng',
  'lngs',
  'fallbackLng',
  'ns',
  'keyPrefix',
  'nsSeparator',
  'keySeparator',
  'returnObjects',
  'returnDetails',
  'joinArrays',
  'postProcess',
  'applyPostProcessor',
  'interpolation',
  'replace',
  'skipInterpolation',
  'nest',
  'formatParams',
  'missingInterpolationHandler',
  'missingKeyNoValueFallbackToKey',
  'appendNamespaceToCIMode',
  'locale',
  'localeMatcher',
  'style',
  'currency',
  'currencyDisplay',
  'currencySign',
  'unit',
  'unitDisplay',
  'notation',
  'compactDisplay',
  'signDisplay',
  'useGrouping',
  'numberingSystem',
  'roundingMode',
  'roundingPriority',
  'roundingIncrement',
  'trailingZeroDisplay',
  'minimumIntegerDigits',
  'minimumFractionDigits',
  'maximumFractionDigits',
  'minimumSignificantDigits',
  'maximumSignificantDigits',
]);
const PLACEHOLDER = /\{\{(-?)\s*([A-Za-z0-9_]+)\s*(?:,\s*(number)\s*)?\}\}/g;

/** A message's template, or null when it has anything beyond plain and number placeholders (nesting, other formats). */
function template(message: string): Template | null {
  if (message.includes('$t(')) return null;
  const texts: string[] = [];
  const vars: Template['vars'] = [];
  let at = 0;
  for (const m of message.matchAll(PLACEHOLDER)) {
    texts.push(message.slice(at, m.index));
    vars.push({ name: m[2], number: m[3] !== undefined });
    at = m.index + m[0].length;
  }
  texts.push(message.slice(at));
  // Placeholders the pattern did not take (a format, a path): i18next's.
  if (texts.some((text) => text.includes('{{'))) return null;
  return { texts, vars };
}

function messagesOf(lang: Lang): Map<string, Template | null> {
  let flat = flatMessages.get(lang);
  if (!flat) {
    flat = new Map();
    const walk = (node: unknown, prefix: string) => {
      for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
        // A key with a dot of its own would be found by i18next's flat-key lookup: not here.
        const key = k.includes('.') ? null : `${prefix}${k}`;
        if (key === null) flat!.set(`${prefix}${k}`, null);
        else if (typeof v === 'string') flat!.set(key, v === '' ? null : template(v));
        else {
          // An object (or anything else) under a key is no message: i18next answers it its own way.
          flat!.set(key, null);
          if (v && typeof v === 'object') walk(v, `${key}.`);
        }
      }
    };
    walk(RESOURCES[lang], '');
    flatMessages.set(lang, flat);
  }
  return flat;
}

const pluralRules = new Map<Lang, Intl.PluralRules>();
const i18nextNumbers = new Map<Lang, Intl.NumberFormat>();

/**
 * `t(key, options)` of a language's instance without i18next's generic path, for the calls pages
 * make in loops (a count, a name, a date): the message of the language, else of English (the
 * fallback), its plural form by `count` (`_zero` for 0 when there is one, then the language's
 * plural rule, then the key itself, then `_other`, as i18next looks them up), its `{{variable}}`
 * placeholders filled with the options' values or the limits (MESSAGE_LIMITS), `{{x, number}}` in
 * the language's number format. Undefined whenever i18next might answer otherwise (an option it
 * reads itself, a value that is no plain string or number, a message with nesting or another
 * format, a missing message or variable): the caller asks i18next.
 */
export function fastMessage(lang: Lang, key: string, options: unknown): string | undefined {
  if (typeof options !== 'object' || options === null || Array.isArray(options) || key.includes(':')) return undefined;
  const values = options as Record<string, unknown>;
  for (const name in values) {
    if (!Object.hasOwn(values, name) || I18NEXT_OPTIONS.has(name) || name.startsWith('defaultValue')) return undefined;
    const v = values[name];
    if (typeof v === 'string') {
      if (v.includes('{{') || v.includes('$t(')) return undefined;
    } else if (typeof v !== 'number') return undefined;
  }
  const count = values.count;
  if (count !== undefined && typeof count !== 'number') return undefined;
  let found: Template | null | undefined;
  for (const code of lang === 'en' ? (['en'] as const) : ([lang, 'en'] as const)) {
    const messages = messagesOf(code);
    if (count === undefined) found = messages.get(key);
    else {
      let rule = pluralRules.get(code);
      if (!rule) {
        rule = new Intl.PluralRules(code, { type: 'cardinal' });
        pluralRules.set(code, rule);
      }
      const form = rule.select(count);
      const candidates = [...(count === 0 ? [`${key}_zero`] : []), `${key}_${form}`, key, `${key}_other`];
      for (const candidate of candidates) {
        if (messages.has(candidate)) {
          found = messages.get(candidate);
          break;
        }
      }
    }
    if (found !== undefined) break;
  }
  if (!found) return undefined;
  let text = found.texts[0];
  for (let i = 0; i < found.vars.length; i++) {
    const { name, number } = found.vars[i];
    const value = Object.hasOwn(values, name)
      ? values[name]
      : Object.hasOwn(MESSAGE_LIMITS, name)
        ? (MESSAGE_LIMITS as Record<string, unknown>)[name]
        : undefined;
    if (typeof value === 'number') {
      if (number) {
        let format = i18nextNumbers.get(lang);
        if (!format) {
          // What i18next's `number` format builds: Intl.NumberFormat of the instance's language code.
          format = new Intl.NumberFormat(lang);
          i18nextNumbers.set(lang, format);
        }
        text += format.format(value);
      } else text += String(value);
    } else if (typeof value === 'string' && !number) text += value;
    else return undefined;
    text += found.texts[i + 1];
  }
  // Text and a value that meet as "$t(" would be nested by i18next.
  return text.includes('$t(') ? undefined : text;
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
  // A page writes the same few days many times (a profile's rows, a search page's column): each
  // text once per language, in a bounded memory.
  let days = formattedDays.get(lang);
  if (!days) {
    days = new Map();
    formattedDays.set(lang, days);
  }
  let text = days.get(value);
  if (text === undefined) {
    if (days.size >= FORMATTED_DAYS_MAX) days.clear();
    text = formatDayText(lang, value);
    days.set(value, text);
  }
  return text;
}

const FORMATTED_DAYS_MAX = 20_000;
const formattedDays = new Map<Lang, Map<string, string>>();

function formatDayText(lang: Lang, value: string): string {
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
  // The same few codes fill a page's rows: each answer once per translation function (a language's).
  let known = codeTexts.get(t);
  if (!known) {
    known = new Map();
    codeTexts.set(t, known);
  }
  const key = `${group}.${value}`;
  let text = known.get(key);
  if (text === undefined) {
    const words = (/^[A-Z0-9_]+$/.test(value) ? value.toLowerCase() : value).replace(/_/g, ' ');
    text = String(t(key, { defaultValue: words.charAt(0).toUpperCase() + words.slice(1) }));
    if (known.size >= CODE_TEXTS_MAX) known.clear();
    known.set(key, text);
  }
  return text;
}

const CODE_TEXTS_MAX = 5_000;
const codeTexts = new WeakMap<TFunction, Map<string, string>>();
