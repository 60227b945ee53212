import { z } from 'zod';
import { isoDay } from './sources/gleif-dates.ts';

// Value schemas the national registers share (ADR 0016): dates in the layouts they publish, blank
// strings as absent values. Every schema outputs ISO dates (YYYY-MM-DD) or null.

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isoDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A text value; blank (or only spaces) is absent. */
export const optionalText = z
  .string()
  .transform((value) => value.trim())
  .transform((value) => (value === '' ? null : value));

/** A text value that may also be null or missing (JSON); blank is absent. */
export const nullableText = z
  .string()
  .nullish()
  .transform((value) => {
    const text = value?.trim() ?? '';
    return text === '' ? null : text;
  });

/** DD/MM/YYYY (Companies House) as an ISO date, or null when it is no calendar date. */
export function dayMonthYearToIso(value: string): string | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  if (match && isCalendarDate(Number(match[3]), Number(match[2]), Number(match[1]))) {
    return isoDate(Number(match[3]), Number(match[2]), Number(match[1]));
  }
  return null;
}

/**
 * An ISO date or date-time with any zone (SEC, Brønnøysund, the PSC snapshot): the calendar date as
 * the source wrote it (isoDay, the framework's rule). Absent when null or blank.
 */
export const isoDateValue = z
  .string()
  .nullish()
  .transform((value, ctx) => {
    const text = value?.trim() ?? '';
    if (text === '') return null;
    try {
      return isoDay(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: `"${text}" is not a date (YYYY-MM-DD)` });
      return z.NEVER;
    }
  });
