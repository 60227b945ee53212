import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { de } from '../../core/i18n/de.ts';
import { en } from '../../core/i18n/en.ts';
import { fr } from '../../core/i18n/fr.ts';
import { fastMessage, i18nextOptions, i18nFor } from '../../core/i18n/i18n.ts';
import type { Lang } from '../../core/reference/reference-data.ts';

// `fastMessage` (core/i18n/i18n.ts) answers pages' `t(key, options)` calls without i18next's generic
// path: whatever it answers must be what i18next answers, for every message of every language.

/** i18next itself, set up as the app's instances are, without the app's shortcuts. */
const raw = Object.fromEntries(
  (['en', 'de', 'fr'] as const).map((lang) => {
    const instance = i18next.createInstance();
    instance.init(i18nextOptions(lang));
    return [lang, instance];
  }),
) as Record<Lang, ReturnType<typeof i18next.createInstance>>;

/** Every message key (plural forms folded into their base key) with the variables its messages name. */
function messageKeys(): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  const walk = (node: unknown, prefix: string) => {
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if (typeof v === 'string') {
        const base = `${prefix}${k}`.replace(/_(zero|one|two|few|many|other)$/, '');
        const vars = keys.get(base) ?? new Set<string>();
        for (const m of v.matchAll(/\{\{-?\s*([A-Za-z0-9_]+)/g)) vars.add(m[1]);
        keys.set(base, vars);
      } else if (v && typeof v === 'object') walk(v, `${prefix}${k}.`);
    }
  };
  for (const messages of [en, de, fr]) walk(messages, '');
  return keys;
}

const COUNTS = [0, 1, 2, 3, 21, 1234567.5];
const VALUES: unknown[] = ['Acme & <Söhne> “Ltd”', 1234.5, 0];

describe('fast messages', () => {
  const keys = messageKeys();

  it('answers every message with plain variables and counts as i18next does, in each language', () => {
    let answered = 0;
    let asked = 0;
    for (const lang of ['en', 'de', 'fr'] as const) {
      for (const [key, vars] of keys) {
        const others = [...vars].filter((v) => v !== 'count');
        for (const value of VALUES) {
          for (const count of vars.has('count') || key.endsWith('s') ? [...COUNTS, undefined] : [undefined]) {
            const options: Record<string, unknown> = Object.fromEntries(others.map((v) => [v, value]));
            if (count !== undefined) options.count = count;
            if (Object.keys(options).length === 0) options.unused = 'x';
            asked++;
            const fast = fastMessage(lang, key, options);
            if (fast === undefined) continue;
            answered++;
            expect(fast, `${lang} ${key} ${JSON.stringify(options)}`).toBe(raw[lang].t(key, options));
          }
        }
      }
    }
    // Not a shortcut that never answers: most calls are answered (a string for a `{{x, number}}` is i18next's).
    expect(answered).toBeGreaterThan(asked * 0.6);
  });

  it('answers the pages’ calls through each instance’s t, and the same as i18next', () => {
    for (const lang of ['en', 'de', 'fr'] as const) {
      const { t } = i18nFor(lang);
      const fixed = i18nFor(lang).getFixedT(null, 'translation');
      for (const [key, options] of [
        ['search.records', { count: 0 }],
        ['search.records', { count: 1 }],
        ['search.records', { count: 1234 }],
        ['search.recordTitle', { section: 'Vessels' }],
        ['profile.since', { date: '3 Dec 2026' }],
      ] as const) {
        expect(fastMessage(lang, key, options), `${lang} ${key}`).toBeDefined();
        expect(t(key, options)).toBe(raw[lang].t(key, options));
        expect(fixed(key, options)).toBe(raw[lang].t(key, options));
      }
    }
    expect(i18nFor('de').t('search.records', { count: 1234 })).toBe(
      de.search.records_other.replace('{{count, number}}', '1.234'),
    );
  });

  it('leaves to i18next what it reads itself: defaults, context, another language, values that are no text', () => {
    for (const options of [
      { count: 1, defaultValue: 'x' },
      { count: 1, ordinal: true },
      { section: 'Vessels', lng: 'de' },
      { section: 'Vessels', context: 'male' },
      { section: 'Vessels', locale: 'de' },
      { section: { nested: true } },
      { section: undefined },
      { section: 'a $t(search.records) b' },
      { section: '{{count}}' },
      { count: '3' },
    ]) {
      expect(fastMessage('en', 'search.recordTitle', options), JSON.stringify(options)).toBeUndefined();
      expect(i18nFor('en').t('search.recordTitle', options as never)).toBe(raw.en.t('search.recordTitle', options));
    }
    // A missing message, a missing variable, a key naming an object: i18next's answer (the key, the placeholder…).
    expect(fastMessage('en', 'search.noSuchMessage', { count: 1 })).toBeUndefined();
    expect(fastMessage('en', 'search.recordTitle', { other: 'x' })).toBeUndefined();
    expect(fastMessage('en', 'export.formats', { count: 1 })).toBeUndefined();
    expect(i18nFor('en').t('search.recordTitle', { other: 'x' } as never)).toBe(
      raw.en.t('search.recordTitle', { other: 'x' }),
    );
  });
});
