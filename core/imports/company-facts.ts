import type { Readable } from 'node:stream';
import { z } from 'zod';
import { EMPLOYEE_RANGES } from '../../db/reference/enumerations.ts';
import type { FilingItem } from './filings.ts';

// What a source yields (docs/decisions/0014-importers.md): sources only parse and map a file onto
// these shapes; the framework (core/imports/run-import.ts) opens the file, validates every item
// with the schemas below, matches it to a company, diffs, and writes changes and provenance.
//
// A field left out (undefined) means "this source says nothing about it": the company keeps what it
// has. A field given as null or [] means "the source says there is none": the value is removed.

// What the database would refuse is refused here, with a reason, before anything is written
// (ADR 0014 "Rejects"): a record that fails is a reject and the rest of the file imports.

/** Text as the database stores it: PostgreSQL's text and jsonb take no NUL character. */
const plain = z
  .string()
  .refine((v) => !v.includes('\u0000'), 'a NUL character (U+0000), which the database cannot store');
/**
 * Zod's ISO formats take the year 0000, which PostgreSQL's calendar has not (1 BC is followed by
 * AD 1), and zone offsets up to ±23:59, where PostgreSQL takes up to ±15:59.
 */
const noYearZero = [(v: string) => !v.startsWith('0000'), 'the year 0000, which the calendar has not'] as const;
/** 'YYYY-MM-DD'. */
const day = z.iso.date().refine(...noYearZero);
/** An ISO 8601 timestamp with a zone (Z or ±hh:mm), as sources give them. */
const instant = z.iso
  .datetime({ offset: true })
  .refine(...noYearZero)
  .refine((v) => Number(/[+-](\d{2}):?\d{2}$/.exec(v)?.[1] ?? 0) <= 15, 'a zone offset beyond ±15:59');
/** ISO 3166-1 alpha-2 ('GB') or ISO 3166-2 ('US-DE'). */
const jurisdictionCode = z.string().regex(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/, 'an ISO 3166 code such as GB or US-DE');
const lei = z.string().regex(/^[A-Z0-9]{18}[0-9]{2}$/, 'a 20-character LEI');
const text = plain.trim().min(1);

/**
 * Text a B-tree index holds (company and member names, keys, identifiers): PostgreSQL refuses an
 * index entry over 2,704 bytes ("index row size exceeds btree maximum"). 500 characters are at
 * most 2,000 bytes of UTF-8 — and GLEIF's own limit for a legal name; real names and numbers are
 * far shorter. `codeText` is for codes indexed beside another value (a register key's authority,
 * a scheme, a relationship type), so that the two together stay within the entry.
 */
export const INDEXED_TEXT_MAX = 500;
const tooLong = (max: number) => ({
  error: (issue: { input?: unknown }) =>
    `${String(issue.input).length.toLocaleString('en')} characters, where at most ${max} can be stored`,
});
const indexedText = text.max(INDEXED_TEXT_MAX, tooLong(INDEXED_TEXT_MAX));
const codeText = text.max(100, tooLong(100));

/**
 * The keys a company is matched on, in this order: the register (jurisdiction + registration
 * authority + number; GLEIF carries the register's number), then the LEI, then a source's own scheme.
 * `authority` is the GLEIF Registration Authorities List code when there is one (RA000585 =
 * Companies House, RA000472 = Brønnøysundregistrene), so that a national register and GLEIF meet.
 */
export const registerKeySchema = z.object({ jurisdiction: jurisdictionCode, authority: codeText, number: indexedText });
export const companyKeysSchema = z
  .object({
    register: registerKeySchema.optional(),
    lei: lei.optional(),
    /** Other schemes, e.g. { scheme: 'sec-cik', key: '0001318605' }. */
    others: z.array(z.object({ scheme: codeText, key: indexedText })).optional(),
  })
  .refine((k) => k.register || k.lei || (k.others?.length ?? 0) > 0, 'a record needs a key to match on');

export const addressSchema = z.object({
  lines: z.array(text).max(6),
  city: text.nullable(),
  /** ISO 3166-2 code when the source gives one, else the region's name. */
  region: text.nullable(),
  postCode: text.nullable(),
  /** ISO 3166-1 alpha-2. */
  country: z.string().regex(/^[A-Z]{2}$/),
});

export const otherNameSchema = z.object({
  name: text,
  type: z.enum(['previous', 'trade', 'transliterated', 'other', 'short']),
  /** ISO 639-1 when the source says. */
  language: plain.nullable(),
  /** For previous names: until when the name was used. */
  until: day.nullable().optional(),
});

/** Industry codes as the source gives them; core/industries maps each scheme onto our tree. */
export const industrySchema = z.object({
  scheme: z.enum(['uk-sic-2007', 'nace-2', 'sn2007', 'us-sic', 'naics-2017']),
  code: text,
  primary: z.boolean(),
});

/** Positions are db/reference/enumerations.ts `positions` uris. */
export const memberSchema = z.object({
  name: indexedText,
  kind: z.enum(['individual', 'legal_entity', 'authority']),
  position: z.enum(['director', 'officer', 'president', 'shareholder', 'parent_company']),
  since: day.nullable(),
  until: day.nullable().optional(),
  /** ISO 3166-1 alpha-2 of nationality or seat. */
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .nullable()
    .optional(),
  /** When the member is a company: its keys, to link the member to that company. */
  keys: z.object({ lei: lei.optional(), register: registerKeySchema.optional() }).optional(),
  /** The source's words for what the member controls (e.g. PSC natures of control). */
  natures: z.array(text).optional(),
  /** Percent bounds of a holding where the source states numbers (BODS `share`: exact → both; ADR 0038). */
  shareMin: z.number().min(0).max(100).nullable().optional(),
  shareMax: z.number().min(0).max(100).nullable().optional(),
  /** A person's month and year of birth, where the register publishes them (never the day: privacy). */
  born: z
    .object({ month: z.number().int().min(1).max(12), year: z.number().int().min(1800).max(2200) })
    .nullable()
    .optional(),
});

/** Why a source names no owner (a BODS unspecified interested party: its reason code and words; ADR 0038). */
export const companyExceptionSchema = z.object({ reason: codeText, description: plain.nullable() });

export const documentSchema = z.object({ id: text, title: text, type: text, filedOn: day });

export const leiRegistrationSchema = z.object({
  lei,
  entityStatus: plain.nullable(),
  registrationStatus: text,
  initialRegistrationDate: instant.nullable(),
  lastUpdateDate: instant.nullable(),
  nextRenewalDate: instant.nullable(),
  managingLou: plain.nullable(),
  validationSources: plain.nullable(),
});

/** Status uris of db/reference/enumerations.ts `statuses`. */
export const statusSchema = z.enum([
  'active',
  'inactive',
  'dissolved',
  'in-liquidation',
  'bankrupt',
  'dormant',
  'struck-off',
  'merged',
]);

export const companyFactsSchema = z.object({
  keys: companyKeysSchema,
  /** The source's own date for this record (last update, content date), when it gives one. */
  sourceDate: instant.nullable(),
  name: indexedText.optional(),
  /** Their position is a smallint. */
  otherNames: z.array(otherNameSchema).max(32_767).optional(),
  addresses: z
    .object({
      legal: addressSchema.nullable().optional(),
      headquarters: addressSchema.nullable().optional(),
      postal: addressSchema.nullable().optional(),
    })
    .optional(),
  jurisdiction: jurisdictionCode.optional(),
  legalForm: z.object({ elfCode: plain.nullable(), other: plain.nullable() }).nullable().optional(),
  status: statusSchema.nullable().optional(),
  registeredOn: day.nullable().optional(),
  dissolvedOn: day.nullable().optional(),
  dates: z.object({ accounts: day.nullable().optional(), annual_report: day.nullable().optional() }).optional(),
  identifiers: z
    .object({
      company_number: indexedText.nullable().optional(),
      lei: lei.nullable().optional(),
      tax_number: indexedText.nullable().optional(),
      vat: indexedText.nullable().optional(),
      business_number: indexedText.nullable().optional(),
    })
    .optional(),
  /** The register the company is in: GLEIF RA code (or the source's words) and the number there. */
  registrationAuthority: z.object({ id: text, number: text.nullable() }).nullable().optional(),
  leiRegistration: leiRegistrationSchema.nullable().optional(),
  industries: z.array(industrySchema).optional(),
  members: z.array(memberSchema).optional(),
  /** The source's reporting exceptions of the company (company_reporting_exceptions; GLEIF's are by LEI, lei_reporting_exceptions). */
  reportingExceptions: z.array(companyExceptionSchema).max(32_767).optional(),
  documents: z.array(documentSchema).optional(),
  tickers: z.array(text).optional(),
  /**
   * The employees band (db/reference/enumerations.ts EMPLOYEE_RANGES uri), legal_entities.employees_id:
   * filed accounts give it from their latest year's average employees (ADR 0037).
   */
  employees: z
    .enum(EMPLOYEE_RANGES.map((r) => r.uri) as [string, ...string[]])
    .nullable()
    .optional(),
});

/** The EMPLOYEE_RANGES band a number of employees falls in; null for none (zero, negative, not a number). */
export function employeesBand(count: number | null): string | null {
  if (count === null || !Number.isFinite(count) || count < 1) return null;
  const n = Math.round(count);
  return EMPLOYEE_RANGES.find((r) => n >= r.min && (r.max === null || n <= r.max))?.uri ?? null;
}

export type RegisterKey = z.infer<typeof registerKeySchema>;
export type CompanyKeys = z.infer<typeof companyKeysSchema>;
export type FactAddress = z.infer<typeof addressSchema>;
export type FactName = z.infer<typeof otherNameSchema>;
export type FactIndustry = z.infer<typeof industrySchema>;
export type FactMember = z.infer<typeof memberSchema>;
export type FactException = z.infer<typeof companyExceptionSchema>;
export type FactDocument = z.infer<typeof documentSchema>;
export type LeiRegistration = z.infer<typeof leiRegistrationSchema>;
export type CompanyFacts = z.infer<typeof companyFactsSchema>;

/** GLEIF Level 2: a relationship between two LEIs (the start node is the child). */
export const relationshipSchema = z.object({
  startLei: lei,
  endLei: lei,
  type: codeText,
  status: plain.nullable(),
  registrationStatus: plain.nullable(),
  periodStart: day.nullable(),
  periodEnd: day.nullable(),
  sourceDate: instant.nullable(),
});
export type Relationship = z.infer<typeof relationshipSchema>;

/** GLEIF Level 2: why an entity reports no (direct or ultimate) parent. */
export const reportingExceptionSchema = z.object({
  lei,
  category: codeText,
  reasons: z.array(text).min(1),
  reference: plain.nullable(),
  sourceDate: instant.nullable(),
});
export type ReportingException = z.infer<typeof reportingExceptionSchema>;

/** ISO 20275: one entity legal form with its names per language. */
export const legalFormSchema = z.object({
  code: z.string().regex(/^[A-Z0-9]{4}$/, 'a 4-character ELF code'),
  countryCode: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .nullable(),
  subdivisionCode: plain.nullable(),
  status: z.enum(['ACTV', 'INAC']),
  createdOn: day.nullable(),
  modifiedOn: day.nullable(),
  names: z.array(
    z.object({
      language: plain.min(2).max(100),
      name: text,
      transliterated: plain.nullable(),
      abbreviations: z.array(text),
      abbreviationsTransliterated: z.array(text),
    }),
  ),
});
export type LegalForm = z.infer<typeof legalFormSchema>;

/**
 * One item of a file. `at` is the line (text formats) or record number (XML, JSON) of the
 * source's `unit`, for the summary and the rejects file.
 */
export type ImportItem = (
  | { kind: 'company'; at: number; facts: CompanyFacts }
  | { kind: 'relationship'; at: number; relationship: Relationship }
  | { kind: 'reporting-exception'; at: number; exception: ReportingException }
  | { kind: 'legal-form'; at: number; form: LegalForm }
  | { kind: 'reject'; at: number; reason: string }
  /** Filed accounts (inline XBRL), parsed whole (core/imports/filings.ts, ADR 0037). */
  | FilingItem
) & {
  /** What `at` counts when it is not the source's `unit` (a source reading both XML and CSV). */
  unit?: 'line' | 'record';
};

export type ImportSource = {
  /** The name the CLI takes: 'gleif-lei', 'ch-companies', … */
  name: string;
  /** What file it expects, for the message when a file is of the wrong kind. */
  expects: string;
  /** What `at` counts. */
  unit: 'line' | 'record';
  /**
   * The member positions (db/reference/enumerations.ts `positions` uris) this source states: its
   * `members` replace the company's members of these positions only. Default: every position.
   */
  memberPositions?: readonly ('director' | 'officer' | 'president' | 'shareholder' | 'parent_company')[];
  /**
   * The items of a file, streamed (a source never holds the file). Throws WrongFileError at once
   * when the file is not of the expected kind; a bad row is a 'reject' item and the rest goes on.
   */
  read(input: Readable, file: { name: string }): AsyncIterable<ImportItem>;
  /** Records per transaction batch when not the import's default (filed accounts: a few dozen, each a whole filing). */
  batchSize?: number;
};

/** The file is not of the kind the source reads: the import stops at once and says what was expected. */
export class WrongFileError extends Error {
  readonly expected: string;
  constructor(expected: string, found: string) {
    super(`Expected ${expected}, but ${found}.`);
    this.name = 'WrongFileError';
    this.expected = expected;
  }
}

/**
 * The file cannot be read on from a point (its syntax is broken there): the import stops, and
 * what was read before it is whole and stays. The message says where (line and column, record).
 */
export class MalformedFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedFileError';
  }
}

/**
 * The file stops before its end (a download cut short: a .gz without its end, a zip without its
 * directory, an XML document never closed): the import stops, what was read before stays, and
 * rerunning the complete file finishes it.
 */
export class FileEndedEarlyError extends Error {
  constructor(detail: string) {
    super(`The file ended early: ${detail}.`);
    this.name = 'FileEndedEarlyError';
  }
}

/** A zod error as one line for a reject: "path: message; …". */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? `${i.path.join('.')}: ` : ''}${i.message}`).join('; ');
}

/** The key strings of a record, best first: 'register' then 'lei' then the source's own schemes. */
export function keyStrings(keys: CompanyKeys): { scheme: string; key: string }[] {
  const out: { scheme: string; key: string }[] = [];
  if (keys.register)
    out.push({
      scheme: 'register',
      key: `${keys.register.jurisdiction}/${keys.register.authority}/${keys.register.number}`.toUpperCase(),
    });
  if (keys.lei) out.push({ scheme: 'lei', key: keys.lei.toUpperCase() });
  for (const other of keys.others ?? []) out.push({ scheme: other.scheme, key: other.key });
  return out;
}
