import type { z } from 'zod';
import { describeIssues } from './company-facts.ts';

// What a source's reader yields (ADR 0016): each record of the file, parsed and validated at the
// boundary into the source's own shape, or a reject naming where it was (line for line formats,
// record for JSON documents) and why. The source then maps rows onto CompanyFacts.

export type SourceRow<T> = { kind: 'row'; line: number; row: T } | { kind: 'reject'; line: number; reason: string };

/** Validates one parsed record: the row, or a reject with the schema's reasons. */
export function validateRow<S extends z.ZodType>(schema: S, line: number, value: unknown): SourceRow<z.output<S>> {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { kind: 'row', line, row: parsed.data }
    : { kind: 'reject', line, reason: describeIssues(parsed.error) };
}

/** The date a registry file's name carries (BasicCompanyData-2024-11-01-part1_7.csv), as the records' source date. */
export function fileNameDate(name: string): string | null {
  const match = /(\d{4})-(\d{2})-(\d{2})/.exec(name.split(/[\\/]/).pop() ?? name);
  return match ? `${match[1]}-${match[2]}-${match[3]}T00:00:00Z` : null;
}
