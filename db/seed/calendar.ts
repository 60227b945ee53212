// Dates of the demo data as day numbers since 1970-01-01 (UTC): arithmetic on whole days, and
// 'YYYY-MM-DD' strings from a table filled on first use (formatting through Date costs more than
// the rest of a row).

import type { Random } from '../../core/seeded-random.ts';

export const DAY_MS = 86_400_000;
/** 1900-01-01: the earliest registration date. */
export const FIRST_DAY = Date.UTC(1900, 0, 1) / DAY_MS;
/** 2026-11-01: "today" of the demo data; nothing that has happened is later. */
export const LAST_DAY = Date.UTC(2026, 10, 1) / DAY_MS;

/** Formatted dates from 1900 to 2099 (expiry dates of rights run decades ahead). */
const TABLE_END = Date.UTC(2100, 0, 1) / DAY_MS;
let formatted: string[] | null = null;

const format = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

export function dateOf(day: number): string {
  if (day < FIRST_DAY || day >= TABLE_END) return format(day);
  formatted ??= Array.from({ length: TABLE_END - FIRST_DAY }, (_, i) => format(FIRST_DAY + i));
  return formatted[day - FIRST_DAY];
}

export const yearOf = (day: number): number => new Date(day * DAY_MS).getUTCFullYear();

/** The day number of a 'YYYY-MM-DD' date. */
export const dayOf = (date: string): number => Date.parse(date) / DAY_MS;

/** The day number of a calendar date (month 1–12). */
export const dayOfDate = (year: number, month: number, day: number): number => Date.UTC(year, month - 1, day) / DAY_MS;

/** A uniformly chosen day in [from, to] (from when the range is empty). */
export const dayBetween = (random: Random, from: number, to: number): number =>
  from + random.int(Math.max(1, to - from + 1));
