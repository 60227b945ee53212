import type { Readable } from 'node:stream';
import { z } from 'zod';
import { WrongFileError } from '../../company-facts.ts';
import { type SourceRow, validateRow } from '../../source-rows.ts';
import { isoDateValue, nullableText, optionalText } from '../../source-values.ts';

// SEC EDGAR submissions (ADR 0016): one JSON document per filer (CIK##########.json), alone or as
// an entry of the nightly bulk archive submissions.zip (the framework opens archives entry by entry).
// The recent filings come as parallel arrays (one array per field, element i of each is filing i).
// Absent address lines are written as the string "None".

export const SEC_SUBMISSIONS = 'SEC EDGAR submissions JSON (CIK##########.json, or the bulk submissions.zip of them)';

/** A text the SEC left out: null, blank, or "None" (Python's None written as a string). */
const secText = nullableText.transform((text) => (text === 'None' ? null : text));

const addressSchema = z
  .object({
    street1: secText,
    street2: secText,
    city: secText,
    stateOrCountry: secText,
    stateOrCountryDescription: secText,
    zipCode: secText,
    isForeignLocation: z.union([z.number(), z.boolean()]).nullish(),
    foreignStateTerritory: secText,
    country: secText,
    countryCode: secText,
  })
  .partial();

export type SecAddress = z.output<typeof addressSchema>;

const filingsSchema = z
  .object({
    accessionNumber: z.array(z.string()),
    filingDate: z.array(isoDateValue),
    reportDate: z.array(z.string().nullish()).optional(),
    form: z.array(z.string()),
    primaryDocument: z.array(z.string().nullish()).optional(),
    primaryDocDescription: z.array(z.string().nullish()).optional(),
  })
  .superRefine((filings, ctx) => {
    const length = filings.accessionNumber.length;
    for (const key of ['filingDate', 'reportDate', 'form', 'primaryDocument', 'primaryDocDescription'] as const) {
      const values = filings[key];
      if (values !== undefined && values.length !== length) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `has ${values.length} filings, accessionNumber has ${length}`,
        });
      }
    }
  });

const cik = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .pipe(z.string().regex(/^\d{1,10}$/, 'is not a CIK (up to 10 digits)'))
  .transform((value) => value.padStart(10, '0'));

const submissionSchema = z
  .object({
    cik,
    name: optionalText.pipe(z.string({ error: 'is empty' })),
    entityType: secText,
    sic: secText.pipe(
      z
        .string()
        .regex(/^\d{4}$/, 'is not a US SIC code (4 digits)')
        .nullable(),
    ),
    sicDescription: secText,
    ein: secText,
    tickers: z.array(z.string()).default([]),
    exchanges: z.array(z.string().nullable()).default([]),
    stateOfIncorporation: secText,
    stateOfIncorporationDescription: secText,
    fiscalYearEnd: secText,
    phone: secText,
    website: secText,
    category: secText,
    addresses: z.object({ mailing: addressSchema.nullish(), business: addressSchema.nullish() }).partial().default({}),
    formerNames: z.array(z.object({ name: optionalText, from: isoDateValue, to: isoDateValue })).default([]),
    filings: z.object({ recent: filingsSchema }),
  })
  .transform(
    (s): SecSubmission => ({
      cik: s.cik,
      name: s.name,
      entityType: s.entityType,
      sic: s.sic,
      sicDescription: s.sicDescription,
      ein: s.ein,
      tickers: s.tickers,
      exchanges: s.exchanges.filter((e): e is string => e !== null && e !== ''),
      stateOfIncorporation: s.stateOfIncorporation,
      stateOfIncorporationDescription: s.stateOfIncorporationDescription,
      fiscalYearEnd: s.fiscalYearEnd,
      phone: s.phone,
      website: s.website,
      category: s.category,
      mailingAddress: s.addresses.mailing ?? null,
      businessAddress: s.addresses.business ?? null,
      formerNames: s.formerNames.flatMap((f) => (f.name ? [{ name: f.name, from: f.from, to: f.to }] : [])),
      filings: s.filings.recent.accessionNumber.map((accessionNumber, i) => ({
        accessionNumber,
        form: s.filings.recent.form[i],
        filedOn: s.filings.recent.filingDate[i],
        reportDate: s.filings.recent.reportDate?.[i] || null,
        primaryDocument: s.filings.recent.primaryDocument?.[i] || null,
        description: s.filings.recent.primaryDocDescription?.[i] || null,
      })),
    }),
  );

export type SecFiling = {
  accessionNumber: string;
  form: string;
  filedOn: string | null;
  reportDate: string | null;
  primaryDocument: string | null;
  description: string | null;
};

export type SecSubmission = {
  /** Ten digits, zero-padded, as the file names write it. */
  cik: string;
  name: string;
  entityType: string | null;
  sic: string | null;
  sicDescription: string | null;
  ein: string | null;
  tickers: string[];
  exchanges: string[];
  stateOfIncorporation: string | null;
  stateOfIncorporationDescription: string | null;
  fiscalYearEnd: string | null;
  phone: string | null;
  website: string | null;
  category: string | null;
  mailingAddress: SecAddress | null;
  businessAddress: SecAddress | null;
  formerNames: { name: string; from: string | null; to: string | null }[];
  /** The recent filings, newest first as the SEC lists them. */
  filings: SecFiling[];
};

function isSubmission(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'cik' in value && 'filings' in value;
}

/** One submissions document (record 1), or the reject saying why it is not one. */
function readDocument(text: string, record: number, where: string, first: boolean): SourceRow<SecSubmission> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (first) throw new WrongFileError(SEC_SUBMISSIONS, `${where} is not JSON (${(error as Error).message})`);
    return { kind: 'reject', line: record, reason: `${where}: not JSON (${(error as Error).message})` };
  }
  if (!isSubmission(value)) {
    if (first) throw new WrongFileError(SEC_SUBMISSIONS, `${where} has no cik and filings`);
    return { kind: 'reject', line: record, reason: `${where}: no cik and filings` };
  }
  const row = validateRow(submissionSchema, record, value);
  return row.kind === 'reject' ? { ...row, reason: `${where}: ${row.reason}` } : row;
}

/** A single submissions JSON document (pretty-printed or not). */
export async function* readSecSubmission(input: Readable): AsyncGenerator<SourceRow<SecSubmission>> {
  yield readDocument(await readText(input), 1, 'the document', true);
}

/** A stream's whole text (UTF-8, a BOM dropped): one filer's document, of bounded size. */
async function readText(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}
