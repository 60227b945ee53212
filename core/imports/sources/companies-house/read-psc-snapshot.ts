import type { Readable } from 'node:stream';
import { z } from 'zod';
import { WrongFileError } from '../../company-facts.ts';
import { readJsonLines } from '../../json-lines.ts';
import { type SourceRow, validateRow } from '../../source-rows.ts';
import { isoDateValue, nullableText } from '../../source-values.ts';

// The Companies House persons-with-significant-control snapshot (JSON lines, ADR 0016): one
// `{ company_number, data }` object a line, `data.kind` saying what it is. Persons (individual,
// corporate entity, legal person, super-secure) are read; statements and exemptions are records about
// the company's register, not persons, and are passed over; the last line is the snapshot's totals
// record, which has no company number.

export const PSC_SNAPSHOT = 'a Companies House PSC snapshot (JSON lines of { company_number, data })';

const PERSON_KINDS = {
  'individual-person-with-significant-control': 'individual',
  'corporate-entity-person-with-significant-control': 'corporate-entity',
  'legal-person-person-with-significant-control': 'legal-person',
  'super-secure-person-with-significant-control': 'super-secure',
  'individual-beneficial-owner': 'individual',
  'corporate-entity-beneficial-owner': 'corporate-entity',
  'legal-person-beneficial-owner': 'legal-person',
  'super-secure-beneficial-owner': 'super-secure',
} as const;

export type PscKind = (typeof PERSON_KINDS)[keyof typeof PERSON_KINDS];

const text = nullableText;

const personSchema = z
  .object({
    company_number: z
      .string({ error: 'is missing' })
      .transform((value) => value.trim().toUpperCase())
      .pipe(z.string().regex(/^[A-Z0-9]{8}$/, 'is not a company number (8 letters or digits)')),
    data: z.object({
      kind: z.enum(Object.keys(PERSON_KINDS) as [keyof typeof PERSON_KINDS]),
      name: text,
      name_elements: z.object({ title: text, forename: text, middle_name: text, surname: text }).partial().nullish(),
      natures_of_control: z.array(z.string()).default([]),
      notified_on: isoDateValue,
      ceased_on: isoDateValue,
      nationality: text,
      country_of_residence: text,
      // The register publishes a person's month and year of birth only; a value out of range is left out.
      date_of_birth: z
        .object({ month: z.number().int().min(1).max(12), year: z.number().int().min(1800).max(2200) })
        .nullish()
        .catch(null),
      address: z.object({ country: text }).partial().nullish(),
      identification: z
        .object({ registration_number: text, country_registered: text, legal_form: text, place_registered: text })
        .partial()
        .nullish(),
      links: z.object({ self: text }).partial().nullish(),
    }),
  })
  .transform(({ company_number, data }): PscPerson => {
    const elements = data.name_elements ?? {};
    const name =
      data.name ??
      ([elements.forename, elements.middle_name, elements.surname].filter(Boolean).join(' ') || 'Super-secure person');
    return {
      companyNumber: company_number,
      kind: PERSON_KINDS[data.kind],
      name,
      title: elements.title ?? null,
      forename: elements.forename ?? null,
      middleName: elements.middle_name ?? null,
      surname: elements.surname ?? null,
      naturesOfControl: data.natures_of_control,
      notifiedOn: data.notified_on,
      ceasedOn: data.ceased_on,
      nationality: data.nationality,
      countryOfResidence: data.country_of_residence,
      born: data.date_of_birth ? { month: data.date_of_birth.month, year: data.date_of_birth.year } : null,
      addressCountry: data.address?.country ?? null,
      registrationNumber: data.identification?.registration_number ?? null,
      countryRegistered: data.identification?.country_registered ?? null,
      legalForm: data.identification?.legal_form ?? null,
      link: data.links?.self ?? null,
    };
  });

export type PscPerson = {
  companyNumber: string;
  kind: PscKind;
  name: string;
  title: string | null;
  forename: string | null;
  middleName: string | null;
  surname: string | null;
  naturesOfControl: string[];
  notifiedOn: string | null;
  ceasedOn: string | null;
  nationality: string | null;
  countryOfResidence: string | null;
  /** Month and year of birth (individuals); the register never publishes the day. */
  born: { month: number; year: number } | null;
  addressCountry: string | null;
  /** A corporate entity's own registration (its company number when it is a UK company). */
  registrationNumber: string | null;
  countryRegistered: string | null;
  legalForm: string | null;
  /** The register's link for this person (stable: names the company and the person). */
  link: string | null;
};

const PASSED_OVER = /statement$|^exemptions$/;

/**
 * Streams the persons of a PSC snapshot (line = the line number). Statements, exemptions and the
 * totals record are passed over; a line that is not JSON, has no company number or no known kind is
 * a reject. Throws WrongFileError when the first record is not a snapshot line.
 */
export async function* readPscSnapshot(input: Readable): AsyncGenerator<SourceRow<PscPerson>> {
  let first = true;
  for await (const entry of readJsonLines(input)) {
    if ('error' in entry) {
      if (first) throw new WrongFileError(PSC_SNAPSHOT, `line ${entry.line} is ${entry.error}`);
      yield { kind: 'reject', line: entry.line, reason: entry.error };
      continue;
    }
    const value = entry.value as { company_number?: unknown; data?: { kind?: unknown } } | null;
    const kind = typeof value?.data?.kind === 'string' ? value.data.kind : null;
    if (first && (kind === null || typeof value !== 'object')) {
      throw new WrongFileError(PSC_SNAPSHOT, `line ${entry.line} has no data.kind`);
    }
    first = false;
    if (kind !== null && (kind.startsWith('totals#') || PASSED_OVER.test(kind))) continue;
    yield validateRow(personSchema, entry.line, value);
  }
}
