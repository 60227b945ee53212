import type { z } from 'zod';

// What a source's reader yields (ADR 0016): each record of the file, parsed and validated at the
// boundary, or a reject naming where it was (line for line formats, record for JSON documents) and why.

export type SourceRow<T> = { kind: 'row'; line: number; row: T } | { kind: 'reject'; line: number; reason: string };

/** A file that is not of the kind a source reads: the import stops at once with this message. */
export class WrongFileError extends Error {
  constructor(expected: string, found: string) {
    super(`Expected ${expected}; ${found}.`);
    this.name = 'WrongFileError';
  }
}

/** A zod failure as one line: each problem as `field: message`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Validates one parsed record: the row, or a reject with the schema's reasons. */
export function validateRow<S extends z.ZodType>(schema: S, line: number, value: unknown): SourceRow<z.output<S>> {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { kind: 'row', line, row: parsed.data }
    : { kind: 'reject', line, reason: describeIssues(parsed.error) };
}
