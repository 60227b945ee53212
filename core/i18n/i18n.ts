import i18next, { type i18n } from 'i18next';
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
