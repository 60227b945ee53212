// The inline XBRL reader (ADR 0037): parse a filing, read many from files and zips, map the facts
// to headline figures.
export { normalise } from './normalise.ts';
export { InlineXbrlError, normaliseCompanyNumber, parseInlineXbrl } from './parse.ts';
export { FilingSourceError, readFilingSources } from './sources.ts';
export type * from './types.ts';
