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

/** A feature's explanation in a language ("“acme” and “acme” …: 100% alike"). */
export function explainFeature(reason: FeatureReason, lang: Lang = 'en'): string {
  const { key, ...values } = reason;
  return i18nFor(lang).t(`matchFeatures.${key}`, values);
}
