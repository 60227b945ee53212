import { i18nFor } from '../i18n/i18n.ts';
import type { Lang } from '../reference/reference-data.ts';

// What a feature of a match explains, in words of any language (ADR 0032): the engine keeps what it
// compared (a key and its values); the words are the `matchFeatures.<key>` messages of core/i18n.
// POST /api/match answers them in English, the enrichment's review in the reader's language.

/** What was compared and what came out, as data: the message key and the values it names. */
export type FeatureReason =
  | { key: 'name'; query: string; company: string; percent: number }
  | { key: 'leiSame' | 'registrationSame' | 'vatSame' | 'domainSame'; value: string }
  | {
      key: 'leiOther' | 'leiNone' | 'registrationOther' | 'registrationNone' | 'vatOther' | 'vatNone';
    }
  | { key: 'domainOther' | 'domainNone' }
  | { key: 'countrySame'; country: string }
  | { key: 'countryOther'; country: string; query: string }
  | { key: 'countryOtherUnknown'; query: string }
  | { key: 'countryUnknown'; query: string }
  | { key: 'address'; percent: number };

/** Each message as written, by language and key: read once (i18next's own `t` costs ~24 µs a call). */
const templates = new Map<string, string>();

function template(lang: Lang, key: string): string {
  const id = `${lang}:${key}`;
  let text = templates.get(id);
  if (text === undefined) {
    const path = `matchFeatures.${key}`;
    const i18n = i18nFor(lang);
    text = String(i18n.getResource(lang, 'translation', path) ?? i18n.getResource('en', 'translation', path) ?? key);
    templates.set(id, text);
  }
  return text;
}

/**
 * A feature's explanation in a language ("“acme” and “acme” …: 100% alike"). The engine words every
 * candidate's features, so the values go into the message's `{{name}}` places directly (the
 * messages have no plurals or formats).
 */
export function explainFeature(reason: FeatureReason, lang: Lang = 'en'): string {
  const values = reason as unknown as Record<string, string | number>;
  return template(lang, reason.key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
}
