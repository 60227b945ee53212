import { describe, expect, it } from 'vitest';
import { de } from '../../core/i18n/de.ts';
import { en } from '../../core/i18n/en.ts';
import { fr } from '../../core/i18n/fr.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import {
  ADVANCED_PROFILE_THRESHOLD,
  CONTACT_MAX_LENGTH,
  EXPORT_ROW_LIMIT,
  LIST_DESCRIPTION_MAX,
  LIST_NAME_MAX,
  MAX_OBJECTS_PER_LIST,
  PASSWORD_MIN_LENGTH,
  PHONE_DIGITS_MAX,
} from '../../core/limits.ts';
import type { Lang } from '../../core/reference/reference-data.ts';

// A limit lives in core/limits.ts and nowhere else: messages that state one interpolate it.

const LOCALES: Record<Lang, string> = { en: 'en', de: 'de-DE', fr: 'fr-FR' };
const STATED: [key: string, limit: number][] = [
  ['lists.problems.name.tooLong', LIST_NAME_MAX],
  ['lists.problems.description.tooLong', LIST_DESCRIPTION_MAX],
  ['lists.problems.companies.listFull', MAX_OBJECTS_PER_LIST],
  ['account.problems.password.tooShort', PASSWORD_MIN_LENGTH],
  ['account.passwordHint', PASSWORD_MIN_LENGTH],
  ['profile.advancedHint', ADVANCED_PROFILE_THRESHOLD],
  ['export.scopes.all', EXPORT_ROW_LIMIT],
  ['companySettings.problems.count.invalid', EXPORT_ROW_LIMIT],
];

describe('limits in messages', () => {
  for (const lang of ['en', 'de', 'fr'] as Lang[]) {
    it(`${lang}: messages state the limits of core/limits.ts, in the language's number format`, () => {
      const { t } = i18nFor(lang);
      for (const [key, limit] of STATED) {
        expect(t(key), key).toContain(new Intl.NumberFormat(LOCALES[lang]).format(limit));
      }
      expect(t('settings.contacts.problems.contact.tooLong')).toContain(String(CONTACT_MAX_LENGTH));
      expect(t('settings.contacts.problems.contact.phone')).toContain(String(PHONE_DIGITS_MAX));
    });
  }

  it('no message types a limit in: problems and hints carry no digits of their own', () => {
    const typed: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (typeof node === 'string') {
        // (numberHint's digits are an example of input, as are phone numbers like +49 30 1234567; a
        // range's "from 1" states no limit.)
        const own = node
          .replace(/\{\{[^}]*\}\}/g, '')
          .replace(/\+\d[\d ]{5,}\d/g, '')
          .replace(/\b1\b/g, '');
        if (/(problems|Hint)/.test(path) && !path.endsWith('.numberHint') && /\d/.test(own))
          typed.push(`${path}: ${node}`);
      } else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) walk(value, path ? `${path}.${key}` : key);
      }
    };
    for (const [lang, messages] of Object.entries({ en, de, fr })) walk(messages, lang);
    expect(typed).toEqual([]);
  });
});
