import type { Readable } from 'node:stream';
import { z } from 'zod';
import { csvRows } from '../../csv-rows.ts';
import { type SourceRow, validateRow } from '../../source-rows.ts';
import { dayMonthYearToIso } from '../../source-values.ts';

// Companies House "BasicCompanyData" (the free monthly company snapshot), ADR 0016: 55 columns,
// header names with stray leading spaces, every value quoted (inner quotes doubled), dates as
// DD/MM/YYYY, SIC codes as "62090 - text" or "None Supplied", up to 4 SIC codes and 10 previous names.
// Columns are found by their trimmed header name, never by position.

export const BASIC_COMPANY_DATA = 'a Companies House BasicCompanyData CSV (header CompanyName, CompanyNumber, …)';

/** Header names the reader needs; a file without them is not BasicCompanyData. */
const REQUIRED_COLUMNS = [
  'CompanyName',
  'CompanyNumber',
  'CompanyCategory',
  'CompanyStatus',
  'IncorporationDate',
  'RegAddress.AddressLine1',
  'RegAddress.PostCode',
  'SICCode.SicText_1',
] as const;

type SicColumn = `SICCode.SicText_${1 | 2 | 3 | 4}`;
const SIC_COLUMNS: SicColumn[] = ['SICCode.SicText_1', 'SICCode.SicText_2', 'SICCode.SicText_3', 'SICCode.SicText_4'];
type PreviousNameNumber = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10;
const PREVIOUS_NAME_COLUMNS: PreviousNameNumber[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

export type SicCode = { code: string; text: string | null };

type Issues = { path: string; message: string }[];

function text(fields: Record<string, string>, name: string): string | null {
  const value = fields[name]?.trim() ?? '';
  return value === '' ? null : value;
}

/** DD/MM/YYYY as an ISO date; blank is absent. */
function date(fields: Record<string, string>, name: string, issues: Issues): string | null {
  const value = text(fields, name);
  if (value === null) return null;
  const iso = dayMonthYearToIso(value);
  if (iso === null) issues.push({ path: name, message: `"${value}" is not a date (DD/MM/YYYY)` });
  return iso;
}

function count(fields: Record<string, string>, name: string, issues: Issues): number | null {
  const value = text(fields, name);
  if (value === null) return null;
  if (/^\d+$/.test(value)) return Number(value);
  issues.push({ path: name, message: `"${value}" is not a whole number` });
  return null;
}

/** "62090 - Other information technology service activities"; "None Supplied" and blank are absent. */
function sic(fields: Record<string, string>, name: string, issues: Issues): SicCode | null {
  const value = text(fields, name);
  if (value === null || /^none supplied$/i.test(value)) return null;
  const match = /^(\d{4,5})(?:\s*-\s*(.*))?$/.exec(value);
  if (match) return { code: match[1], text: match[2]?.trim() || null };
  issues.push({ path: name, message: `"${value}" is not a SIC code ("NNNNN - description")` });
  return null;
}

/**
 * A row (its fields by trimmed header name, strings as csv-parse gives them) checked and converted in
 * one pass: each column by its kind, every problem named by its column. (A per-column zod schema cost
 * half the reader's time on a million rows.)
 */
const companySchema = z
  .custom<Record<string, string>>((value) => typeof value === 'object' && value !== null)
  .transform((fields, ctx): BasicCompanyRow => {
    const issues: Issues = [];
    const name = text(fields, 'CompanyName');
    if (name === null) issues.push({ path: 'CompanyName', message: 'is empty' });
    const companyNumber = (fields.CompanyNumber ?? '').trim().toUpperCase();
    if (!/^[A-Z0-9]{8}$/.test(companyNumber)) {
      issues.push({ path: 'CompanyNumber', message: 'is not a company number (8 letters or digits)' });
    }
    const row: BasicCompanyRow = {
      companyNumber,
      name: name ?? '',
      registeredAddress: {
        careOf: text(fields, 'RegAddress.CareOf'),
        poBox: text(fields, 'RegAddress.POBox'),
        addressLine1: text(fields, 'RegAddress.AddressLine1'),
        addressLine2: text(fields, 'RegAddress.AddressLine2'),
        postTown: text(fields, 'RegAddress.PostTown'),
        county: text(fields, 'RegAddress.County'),
        country: text(fields, 'RegAddress.Country'),
        postCode: text(fields, 'RegAddress.PostCode'),
      },
      category: text(fields, 'CompanyCategory'),
      status: text(fields, 'CompanyStatus'),
      countryOfOrigin: text(fields, 'CountryOfOrigin'),
      dissolvedOn: date(fields, 'DissolutionDate', issues),
      incorporatedOn: date(fields, 'IncorporationDate', issues),
      accounts: {
        referenceDay: count(fields, 'Accounts.AccountRefDay', issues),
        referenceMonth: count(fields, 'Accounts.AccountRefMonth', issues),
        nextDueOn: date(fields, 'Accounts.NextDueDate', issues),
        lastMadeUpTo: date(fields, 'Accounts.LastMadeUpDate', issues),
        category: text(fields, 'Accounts.AccountCategory'),
      },
      returns: {
        nextDueOn: date(fields, 'Returns.NextDueDate', issues),
        lastMadeUpTo: date(fields, 'Returns.LastMadeUpDate', issues),
      },
      confirmationStatement: {
        nextDueOn: date(fields, 'ConfStmtNextDueDate', issues),
        lastMadeUpTo: date(fields, 'ConfStmtLastMadeUpDate', issues),
      },
      mortgageCharges: count(fields, 'Mortgages.NumMortCharges', issues),
      sicCodes: SIC_COLUMNS.map((column) => sic(fields, column, issues)).filter(
        (code): code is SicCode => code !== null,
      ),
      previousNames: PREVIOUS_NAME_COLUMNS.flatMap((n) => {
        const previous = text(fields, `PreviousName_${n}.CompanyName`);
        const changedOn = date(fields, `PreviousName_${n}.CONDATE`, issues);
        return previous ? [{ name: previous, changedOn }] : [];
      }),
      uri: text(fields, 'URI'),
    };
    for (const issue of issues) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
    return row;
  });

export type BasicCompanyRow = {
  companyNumber: string;
  name: string;
  registeredAddress: {
    careOf: string | null;
    poBox: string | null;
    addressLine1: string | null;
    addressLine2: string | null;
    postTown: string | null;
    county: string | null;
    country: string | null;
    postCode: string | null;
  };
  category: string | null;
  status: string | null;
  countryOfOrigin: string | null;
  dissolvedOn: string | null;
  incorporatedOn: string | null;
  accounts: {
    referenceDay: number | null;
    referenceMonth: number | null;
    nextDueOn: string | null;
    lastMadeUpTo: string | null;
    category: string | null;
  };
  returns: { nextDueOn: string | null; lastMadeUpTo: string | null };
  confirmationStatement: { nextDueOn: string | null; lastMadeUpTo: string | null };
  mortgageCharges: number | null;
  sicCodes: SicCode[];
  /** Newest first, as the file lists them: the name the company had until `changedOn`. */
  previousNames: { name: string; changedOn: string | null }[];
  uri: string | null;
};

/**
 * Streams the companies of a BasicCompanyData file: each row (line = the line it ends on) or a reject
 * (wrong field count, a stray quote, bad date, bad SIC code, no company number). Throws
 * WrongFileError when the header is not BasicCompanyData's.
 */
export async function* readBasicCompanyData(input: Readable): AsyncGenerator<SourceRow<BasicCompanyRow>> {
  for await (const item of csvRows(input, { required: REQUIRED_COLUMNS, expects: BASIC_COMPANY_DATA })) {
    yield 'error' in item
      ? { kind: 'reject', line: item.line, reason: item.error }
      : validateRow(companySchema, item.line, item.row);
  }
}
