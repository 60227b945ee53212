// What an export can be asked for (spec §3 "export view settings", §5, §7 "Export behaviour", §9),
// shared by the server, the CLI and the export page. No imports: safe in any bundle.

/** Spec §5, §9: export formats are limited to these. */
export const EXPORT_FORMATS = ['csv', 'xlsx', 'json', 'xml'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The CSV separators a user can choose. */
export const EXPORT_SEPARATORS = ['comma', 'semicolon', 'tab'] as const;
export type ExportSeparator = (typeof EXPORT_SEPARATORS)[number];
export const SEPARATOR_CHARS: Record<ExportSeparator, string> = { comma: ',', semicolon: ';', tab: '\t' };

/** Spec §7: the current page, the selected rows, the first N records or all records. */
export const EXPORT_SCOPES = ['page', 'selected', 'first', 'all'] as const;
export type ExportScope = (typeof EXPORT_SCOPES)[number];

import { EXPORT_ROW_LIMIT } from '../limits.ts';

export { EXPORT_ROW_LIMIT };

/**
 * Spec §3: the data sections a user chooses for a company export (the legal entity's own
 * columns, its contacts and jurisdiction are always there), and the company's industries, which
 * the spec's list leaves out. For members, the member companies'
 * column is labelled "Companies".
 */
export const COMPANY_EXPORT_SECTIONS = [
  'addresses',
  'dates',
  'employees_number',
  'indicators',
  'identifiers',
  'industries',
  'names',
  'products',
  'registration_authorities',
  'specifications',
  'statuses',
  'tax_authorities',
  'types_by_size',
  'members',
] as const;
export type CompanyExportSection = (typeof COMPANY_EXPORT_SECTIONS)[number];

/** Chosen until a user saves other settings: the parts of spec §3 "Export reading of a legal entity". */
export const DEFAULT_COMPANY_SECTIONS: CompanyExportSection[] = [
  'addresses',
  'dates',
  'identifiers',
  'names',
  'types_by_size',
  'members',
];

/** The choices of one export (and of a user's saved export view settings). */
export type ExportChoices = {
  format: ExportFormat;
  separator: ExportSeparator;
  scope: ExportScope;
  /** N of "first N" (1 … EXPORT_ROW_LIMIT). */
  count: number;
  /** Companies only. */
  sections: CompanyExportSection[];
};

export const DEFAULT_EXPORT_CHOICES: ExportChoices = {
  format: 'csv',
  separator: 'comma',
  scope: 'all',
  count: 100,
  sections: DEFAULT_COMPANY_SECTIONS,
};

/** The response header of a download that tells a progress bar how many rows are coming. */
export const EXPORT_ROWS_HEADER = 'x-export-rows';

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

/**
 * What a downloaded file's name starts with: the product's name, the same on every host, so a file
 * reads right wherever it was made (a host's name said "localhost" on a machine of one's own, and
 * a port or a staging host's name means nothing to the reader of the file).
 */
export const DOWNLOAD_NAME_PREFIX = 'registra';

/**
 * Spec §7, with the product's name where it had the site's domain: the name, the entity type (a
 * list's export: the list's slugified name), date yyyy-MM-dd, underscore, HH-mm, and the format as
 * extension: `registra_legal_entities_2026-11-22_14-05.csv`. The time is UTC.
 */
export function exportFileName(entityType: string, format: ExportFormat | 'pdf', at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const date = `${at.getUTCFullYear()}-${two(at.getUTCMonth() + 1)}-${two(at.getUTCDate())}`;
  const time = `${two(at.getUTCHours())}-${two(at.getUTCMinutes())}`;
  return `${DOWNLOAD_NAME_PREFIX}_${entityType}_${date}_${time}.${format}`;
}
