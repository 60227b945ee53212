import { describe, expect, it } from 'vitest';
import {
  type RecordSummary,
  recordChangeText,
  recordChangeWords,
  SUMMARY_FIELDS,
} from '../../core/records/record-summaries.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { RECORD_SECTIONS } from '../../core/sections/records.ts';

// A record's change in words (docs/decisions/0027-monitored-records.md), swept over every field of
// every record section in every language: dates as formatDay writes them, enum values by their
// label, countries by name, amounts as money — never a code or an ISO date.

const LANGS: Lang[] = ['en', 'de', 'fr'];
const GERMANY = { en: 'Germany', de: 'Deutschland', fr: 'Allemagne' };

/** A summary holding every field of a section: the first value of each enum, a German office or flag, euros. */
function fullSummary(table: string, variant: 0 | 1): RecordSummary {
  const section = RECORD_SECTIONS.find((s) => s.table === table)!;
  const summary: RecordSummary = { id: 1_000_000_000_001 };
  for (const f of section.fields) {
    switch (f.type) {
      case 'date':
        summary[f.key] = variant === 0 ? '2026-03-14' : '2026-11-02';
        break;
      case 'enum':
        summary[f.key] = f.values![variant].uri;
        break;
      case 'location':
        summary[f.key] = 'DE';
        break;
      case 'currency':
        summary[f.key] = 'EUR';
        break;
      case 'amount':
        summary[f.key] = variant === 0 ? 12500 : 13750.5;
        break;
      case 'number':
      case 'year':
        summary[f.key] = 2019;
        break;
      default:
        summary[f.key] = `${f.key} ${variant}`;
    }
  }
  return summary;
}

describe('recordChangeText and recordChangeWords', () => {
  it('declare a summary for every record section, of fields the section has', () => {
    expect(Object.keys(SUMMARY_FIELDS).sort()).toEqual(RECORD_SECTIONS.map((s) => s.table).sort());
    for (const s of RECORD_SECTIONS) {
      for (const key of SUMMARY_FIELDS[s.table])
        expect(
          s.fields.map((f) => f.key),
          s.table,
        ).toContain(key);
    }
  });

  for (const lang of LANGS) {
    it(`write every field of every section in words (${lang})`, () => {
      for (const s of RECORD_SECTIONS) {
        const before = fullSummary(s.table, 0);
        const after = fullSummary(s.table, 1);
        const added = recordChangeWords(`records.${s.table}`, null, after, lang);
        const removed = recordChangeWords(s.id, before, null, lang);
        const changed = recordChangeWords(s.table, before, after, lang);
        for (const text of [added, removed, changed]) {
          expect(text, s.table).not.toMatch(/\d{4}-\d{2}-\d{2}/);
          expect(text, s.table).not.toMatch(/\bEUR\b|\bDE\b/);
          expect(text, s.table).not.toContain('1000000000001');
        }
        expect(added.startsWith({ en: 'added: ', de: 'neu: ', fr: 'ajouté : ' }[lang]), added).toBe(true);
        expect(removed.startsWith({ en: 'removed: ', de: 'entfernt: ', fr: 'supprimé : ' }[lang]), removed).toBe(true);
        for (const f of s.fields) {
          if (f.type === 'currency') continue;
          expect(added, `${s.table}.${f.key}`).toContain(f.label[lang]);
          if (f.type === 'enum') {
            expect(added, `${s.table}.${f.key}`).toContain(f.values![1].label[lang]);
            // A changed value reads old → new.
            expect(changed, `${s.table}.${f.key}`).toContain(
              `${f.values![0].label[lang]} → ${f.values![1].label[lang]}`,
            );
          }
          if (f.type === 'location') expect(added, `${s.table}.${f.key}`).toContain(GERMANY[lang]);
          if (f.type === 'amount') expect(added, `${s.table}.${f.key}`).toContain('€');
        }
      }
    });
  }

  it('reads one summary the way the profile writes its values', () => {
    const violation: RecordSummary = {
      id: 7,
      violation_type: 'safety',
      violation_date: '2026-10-14',
      fine: 12500,
      currency: 'EUR',
    };
    expect(recordChangeText('violations', violation, 'en')).toBe(
      'Violation type: Safety; Violation date: 14 Oct 2026; Fine: €12,500.00',
    );
    expect(recordChangeText('records.violations', violation, 'de')).toBe(
      'Art des Verstoßes: Arbeitssicherheit; Datum des Verstoßes: 14. Okt. 2026; Bußgeld: 12.500,00\u00a0€',
    );
    expect(recordChangeText('violations', null, 'fr')).toBe('');
    // A changed record is named by what did not change, then what did.
    expect(
      recordChangeWords(
        'vessels',
        { id: 1, vessel_name: 'Northern Star', imo_number: '9074729', flag: 'PA' },
        { id: 1, vessel_name: 'Northern Star', imo_number: '9074729', flag: 'MT' },
        'en',
      ),
    ).toBe('Northern Star, 9074729: Flag: Panama → Malta');
  });
});
