import type { Readable } from 'node:stream';
import { type CsvError, parse } from 'csv-parse';
import { z } from 'zod';
import { WrongFileError } from '../../core/imports/company-facts.ts';
import { type SourceRow, validateRow } from '../source-rows.ts';
import { dayMonthYear, optionalText } from '../source-values.ts';

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

/** "62090 - Other information technology service activities"; "None Supplied" and blank are absent. */
const sicText = optionalText.transform((value, ctx): SicCode | null => {
  if (value === null || /^none supplied$/i.test(value)) return null;
  const match = /^(\d{4,5})(?:\s*-\s*(.*))?$/.exec(value);
  if (match) return { code: match[1], text: match[2]?.trim() || null };
  ctx.addIssue({ code: 'custom', message: `"${value}" is not a SIC code ("NNNNN - description")` });
  return z.NEVER;
});

const count = optionalText.transform((value, ctx) => {
  if (value === null) return null;
  if (/^\d+$/.test(value)) return Number(value);
  ctx.addIssue({ code: 'custom', message: `"${value}" is not a whole number` });
  return z.NEVER;
});

const rowSchema = z
  .object({
    CompanyName: optionalText.pipe(z.string({ error: 'is empty' })),
    CompanyNumber: z
      .string()
      .transform((value) => value.trim().toUpperCase())
      .pipe(z.string().regex(/^[A-Z0-9]{8}$/, 'is not a company number (8 letters or digits)')),
    'RegAddress.CareOf': optionalText,
    'RegAddress.POBox': optionalText,
    'RegAddress.AddressLine1': optionalText,
    'RegAddress.AddressLine2': optionalText,
    'RegAddress.PostTown': optionalText,
    'RegAddress.County': optionalText,
    'RegAddress.Country': optionalText,
    'RegAddress.PostCode': optionalText,
    CompanyCategory: optionalText,
    CompanyStatus: optionalText,
    CountryOfOrigin: optionalText,
    DissolutionDate: dayMonthYear,
    IncorporationDate: dayMonthYear,
    'Accounts.AccountRefDay': count,
    'Accounts.AccountRefMonth': count,
    'Accounts.NextDueDate': dayMonthYear,
    'Accounts.LastMadeUpDate': dayMonthYear,
    'Accounts.AccountCategory': optionalText,
    'Returns.NextDueDate': dayMonthYear,
    'Returns.LastMadeUpDate': dayMonthYear,
    'Mortgages.NumMortCharges': count,
    ConfStmtNextDueDate: dayMonthYear,
    ConfStmtLastMadeUpDate: dayMonthYear,
    URI: optionalText,
    ...(Object.fromEntries(SIC_COLUMNS.map((name) => [name, sicText])) as Record<SicColumn, typeof sicText>),
    ...(Object.fromEntries(PREVIOUS_NAME_COLUMNS.map((n) => [`PreviousName_${n}.CONDATE`, dayMonthYear])) as Record<
      `PreviousName_${PreviousNameNumber}.CONDATE`,
      typeof dayMonthYear
    >),
    ...(Object.fromEntries(PREVIOUS_NAME_COLUMNS.map((n) => [`PreviousName_${n}.CompanyName`, optionalText])) as Record<
      `PreviousName_${PreviousNameNumber}.CompanyName`,
      typeof optionalText
    >),
  })
  .partial({ ConfStmtNextDueDate: true, ConfStmtLastMadeUpDate: true, URI: true, 'Mortgages.NumMortCharges': true });

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

const companySchema = rowSchema.transform((r): BasicCompanyRow => {
  return {
    companyNumber: r.CompanyNumber,
    name: r.CompanyName,
    registeredAddress: {
      careOf: r['RegAddress.CareOf'],
      poBox: r['RegAddress.POBox'],
      addressLine1: r['RegAddress.AddressLine1'],
      addressLine2: r['RegAddress.AddressLine2'],
      postTown: r['RegAddress.PostTown'],
      county: r['RegAddress.County'],
      country: r['RegAddress.Country'],
      postCode: r['RegAddress.PostCode'],
    },
    category: r.CompanyCategory,
    status: r.CompanyStatus,
    countryOfOrigin: r.CountryOfOrigin,
    dissolvedOn: r.DissolutionDate,
    incorporatedOn: r.IncorporationDate,
    accounts: {
      referenceDay: r['Accounts.AccountRefDay'],
      referenceMonth: r['Accounts.AccountRefMonth'],
      nextDueOn: r['Accounts.NextDueDate'],
      lastMadeUpTo: r['Accounts.LastMadeUpDate'],
      category: r['Accounts.AccountCategory'],
    },
    returns: { nextDueOn: r['Returns.NextDueDate'], lastMadeUpTo: r['Returns.LastMadeUpDate'] },
    confirmationStatement: {
      nextDueOn: r.ConfStmtNextDueDate ?? null,
      lastMadeUpTo: r.ConfStmtLastMadeUpDate ?? null,
    },
    mortgageCharges: r['Mortgages.NumMortCharges'] ?? null,
    sicCodes: SIC_COLUMNS.map((name) => r[name]).filter((sic): sic is SicCode => sic !== null),
    previousNames: PREVIOUS_NAME_COLUMNS.flatMap((n) => {
      const name = r[`PreviousName_${n}.CompanyName`];
      return name ? [{ name, changedOn: r[`PreviousName_${n}.CONDATE`] ?? null }] : [];
    }),
    uri: r.URI ?? null,
  };
});

/**
 * Streams the companies of a BasicCompanyData file: each row (line = the line it ends on) or a reject
 * (wrong field count, bad date, bad SIC code, no company number). Throws WrongFileError when the
 * header is not BasicCompanyData's; a CSV syntax error (an unclosed quote) ends the file as a reject.
 */
export async function* readBasicCompanyData(input: Readable): AsyncGenerator<SourceRow<BasicCompanyRow>> {
  let header: string[] | null = null;
  // CSV syntax errors (a stray quote) skip that record and are reported in line order with the rows
  // (the parser runs ahead of this loop, so they wait for the rows before them).
  const skipped: SourceRow<BasicCompanyRow>[] = [];
  let parsedRecords = 0;
  const parser = input.pipe(
    parse({
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_record: (record) => {
        parsedRecords += 1;
        return record;
      },
      on_skip: (error) => {
        if (parsedRecords === 0) {
          throw new WrongFileError(BASIC_COMPANY_DATA, `the first line is not CSV (${error?.message})`);
        }
        const line = Number((error as CsvError & { lines?: number })?.lines ?? 0);
        skipped.push({ kind: 'reject', line, reason: `CSV syntax: ${error?.message}` });
        return undefined;
      },
    }),
  );
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    while (skipped.length > 0 && skipped[0].line < info.lines) yield skipped.shift()!;
    if (header === null) {
      header = record.map((name) => name.trim());
      const missing = REQUIRED_COLUMNS.filter((name) => !header?.includes(name));
      if (missing.length > 0) {
        throw new WrongFileError(BASIC_COMPANY_DATA, `the header lacks ${missing.join(', ')}`);
      }
      continue;
    }
    if (record.length !== header.length) {
      yield {
        kind: 'reject',
        line: info.lines,
        reason: `has ${record.length} fields, the header has ${header.length}`,
      };
      continue;
    }
    const fields: Record<string, string> = {};
    header.forEach((name, i) => {
      fields[name] = record[i];
    });
    yield validateRow(companySchema, info.lines, fields);
  }
  yield* skipped.splice(0);
  if (header === null) throw new WrongFileError(BASIC_COMPANY_DATA, 'the file is empty');
}
