// Dates as GLEIF's files give them (docs/decisions/0014-importers.md "Dates"): ISO 8601 with any
// zone ('Z', '+02:00', '-05:00', fractions of a second) or none.

/** A timestamp as ISO 8601 in UTC, or null when absent; throws on text that is no date. */
export function isoInstant(value: string | null): string | null {
  if (value === null || value === '') return null;
  const zoned = /[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? value : /T/.test(value) ? `${value}Z` : `${value}T00:00:00Z`;
  const time = Date.parse(zoned);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time)) throw new Error(`“${value}” is not an ISO 8601 date`);
  return new Date(time).toISOString();
}

/** The calendar day a timestamp names in its own zone ('2010-01-01T00:00:00+01:00' → '2010-01-01'). */
export function isoDay(value: string | null): string | null {
  if (value === null || value === '') return null;
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(value);
  if (!match || Number.isNaN(Date.parse(`${match[1]}T00:00:00Z`)))
    throw new Error(`“${value}” is not an ISO 8601 date`);
  return match[1];
}
