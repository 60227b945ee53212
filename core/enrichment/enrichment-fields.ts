// The fields an enrichment's columns can be mapped to (ADR 0020 "Enrichment"), in a module of their
// own: the command line's help lists them without loading the upload reader.

/** The matching engine's fields a column can feed (core/matching MatchQuery). */
export const ENRICHMENT_FIELDS = ['name', 'country', 'registration_number', 'lei', 'vat', 'domain', 'address'] as const;
export type EnrichmentField = (typeof ENRICHMENT_FIELDS)[number];
/** The column of each mapped field (0-based). */
export type ColumnMapping = Partial<Record<EnrichmentField, number>>;
