import type { ImportItem, ImportSource, LegalForm } from '../company-facts.ts';
import { csvRows } from '../csv-rows.ts';

// ISO 20275 Entity Legal Forms code list (CSV, as GLEIF publishes it): one row per code and
// language. Columns are found by the start of their header name (later editions add words to some
// names, e.g. "Date created YYYY-MM-DD (ISO 8601)"). Mapping: docs/decisions/0014-importers.md "elf".

const EXPECTS = 'the ISO 20275 ELF code list as CSV (a header with “ELF Code”, “Country Code (ISO 3166-1)”, …)';

const COLUMNS = {
  code: 'ELF Code',
  country: 'Country Code',
  subdivision: 'Country sub-division code',
  name: 'Entity Legal Form name Local name',
  language: 'Language Code',
  transliterated: 'Entity Legal Form name Transliterated name',
  abbreviations: 'Abbreviations Local language',
  abbreviationsTransliterated: 'Abbreviations transliterated',
  created: 'Date created',
  status: 'ELF Status',
  modified: 'Modification date',
} as const;

const list = (value: string): string[] =>
  value
    .split(';')
    .map((v) => v.trim())
    .filter(Boolean);
const orNull = (value: string | undefined): string | null => (value ? value : null);

export const elf: ImportSource = {
  name: 'elf',
  expects: EXPECTS,
  unit: 'line',
  async *read(input): AsyncIterable<ImportItem> {
    let columns: Record<keyof typeof COLUMNS, string> | null = null;
    for await (const r of csvRows(input, { required: [COLUMNS.code], expects: EXPECTS })) {
      if ('error' in r) {
        yield { kind: 'reject', at: r.line, reason: r.error };
        continue;
      }
      if (columns === null) {
        const names = Object.keys(r.row);
        const found = {} as Record<keyof typeof COLUMNS, string>;
        for (const [key, start] of Object.entries(COLUMNS) as [keyof typeof COLUMNS, string][])
          found[key] = names.find((n) => n.toLowerCase().startsWith(start.toLowerCase())) ?? '';
        columns = found;
      }
      const value = (key: keyof typeof COLUMNS) => (columns?.[key] ? (r.row[columns[key]] ?? '') : '');
      const name = value('name');
      const form: LegalForm = {
        code: value('code'),
        countryCode: orNull(value('country')),
        subdivisionCode: orNull(value('subdivision')),
        status: value('status') as LegalForm['status'],
        createdOn: orNull(value('created')),
        modifiedOn: orNull(value('modified')),
        names: name
          ? [
              {
                language: value('language') || 'und',
                name,
                transliterated: orNull(value('transliterated')),
                abbreviations: list(value('abbreviations')),
                abbreviationsTransliterated: list(value('abbreviationsTransliterated')),
              },
            ]
          : [],
      };
      yield { kind: 'legal-form', at: r.line, form };
    }
  },
};
