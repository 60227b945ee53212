// The inline XBRL reader (ADR 0037): parse a filing and map its facts to headline figures. Files,
// directories and zips of filings are opened by the import framework (core/imports/open-file.ts).
export { normalise } from './normalise.ts';
export { InlineXbrlError, normaliseCompanyNumber, parseInlineXbrl } from './parse.ts';
export type * from './types.ts';
