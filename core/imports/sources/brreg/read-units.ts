import type { Readable } from 'node:stream';
import { z } from 'zod';
import { WrongFileError } from '../../company-facts.ts';
import { NotJsonError, readJsonDocuments } from '../../json-documents.ts';
import { type SourceRow, validateRow } from '../../source-rows.ts';
import { isoDateValue, nullableText, optionalText } from '../../source-values.ts';

// Norway's Central Coordinating Register (Enhetsregisteret, Brønnøysundregistrene), ADR 0016: units
// ("enheter") as the API answers one (an object) or the bulk download lists them (an array of the
// same objects). Field names are Norwegian; text is kept as found (a copy whose letters were turned
// into "<U+00F8>" stays so).

export const BRREG_UNITS =
  'Brønnøysund units JSON (an enhet object, or the bulk array of them, with organisasjonsnummer)';

const text = nullableText;

const code = z.object({ kode: z.string(), beskrivelse: text }).nullish();

const addressSchema = z
  .object({
    adresse: z.array(z.string().nullable()).default([]),
    postnummer: text,
    poststed: text,
    kommune: text,
    kommunenummer: text,
    land: text,
    landkode: text,
  })
  .partial()
  .nullish();

export type BrregAddress = {
  lines: string[];
  postCode: string | null;
  town: string | null;
  municipality: string | null;
  country: string | null;
  countryCode: string | null;
};

const organisationNumber = z
  .string({ error: 'is missing' })
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{9}$/, 'is not an organisation number (9 digits)'));

const unitSchema = z
  .object({
    organisasjonsnummer: organisationNumber,
    navn: optionalText.pipe(z.string({ error: 'is empty' })),
    organisasjonsform: code,
    hjemmeside: text,
    telefon: text,
    mobil: text,
    epostadresse: text,
    postadresse: addressSchema,
    forretningsadresse: addressSchema,
    registreringsdatoEnhetsregisteret: isoDateValue,
    stiftelsesdato: isoDateValue,
    slettedato: isoDateValue,
    naeringskode1: code,
    naeringskode2: code,
    naeringskode3: code,
    antallAnsatte: z.number().int().nonnegative().nullish(),
    registrertIMvaregisteret: z.boolean().nullish(),
    registrertIForetaksregisteret: z.boolean().nullish(),
    konkurs: z.boolean().nullish(),
    underAvvikling: z.boolean().nullish(),
    underTvangsavviklingEllerTvangsopplosning: z.boolean().nullish(),
    overordnetEnhet: text,
    kapital: z
      .object({ belop: z.number().nullish(), valuta: text, type: text, innfortDato: isoDateValue })
      .partial()
      .nullish(),
  })
  .transform(
    (u): BrregUnit => ({
      organisationNumber: u.organisasjonsnummer,
      name: u.navn,
      legalForm: u.organisasjonsform ? { code: u.organisasjonsform.kode, name: u.organisasjonsform.beskrivelse } : null,
      website: u.hjemmeside,
      phone: u.telefon ?? u.mobil,
      email: u.epostadresse,
      postalAddress: address(u.postadresse),
      businessAddress: address(u.forretningsadresse),
      registeredOn: u.registreringsdatoEnhetsregisteret,
      foundedOn: u.stiftelsesdato,
      deletedOn: u.slettedato,
      industries: [u.naeringskode1, u.naeringskode2, u.naeringskode3].flatMap((c) =>
        c ? [{ code: c.kode, name: c.beskrivelse }] : [],
      ),
      employees: u.antallAnsatte ?? null,
      vatRegistered: u.registrertIMvaregisteret ?? null,
      inBusinessRegister: u.registrertIForetaksregisteret ?? null,
      bankrupt: u.konkurs ?? false,
      windingUp: (u.underAvvikling ?? false) || (u.underTvangsavviklingEllerTvangsopplosning ?? false),
      parentUnit: u.overordnetEnhet,
      capital:
        u.kapital?.belop != null
          ? { amount: u.kapital.belop, currency: u.kapital.valuta ?? null, type: u.kapital.type ?? null }
          : null,
    }),
  );

function address(value: z.output<typeof addressSchema>): BrregAddress | null {
  if (!value) return null;
  const lines = (value.adresse ?? []).map((line) => line?.trim() ?? '').filter((line) => line !== '');
  const result = {
    lines,
    postCode: value.postnummer ?? null,
    town: value.poststed ?? null,
    municipality: value.kommune ?? null,
    country: value.land ?? null,
    countryCode: value.landkode ?? null,
  };
  return lines.length > 0 || result.postCode || result.town ? result : null;
}

export type BrregUnit = {
  organisationNumber: string;
  name: string;
  legalForm: { code: string; name: string | null } | null;
  website: string | null;
  phone: string | null;
  email: string | null;
  postalAddress: BrregAddress | null;
  businessAddress: BrregAddress | null;
  /** Registered in the Central Coordinating Register. */
  registeredOn: string | null;
  foundedOn: string | null;
  deletedOn: string | null;
  /** SN2007 (NACE Rev. 2) codes, "06.100", in the register's order (the first is the main one). */
  industries: { code: string; name: string | null }[];
  employees: number | null;
  vatRegistered: boolean | null;
  inBusinessRegister: boolean | null;
  bankrupt: boolean;
  windingUp: boolean;
  parentUnit: string | null;
  capital: { amount: number; currency: string | null; type: string | null } | null;
};

/** Streams units (line = the record number): the one object, or each element of the bulk array. */
export async function* readBrregUnits(input: Readable): AsyncGenerator<SourceRow<BrregUnit>> {
  let first = true;
  try {
    for await (const document of readJsonDocuments(input)) {
      if ('error' in document) {
        if (first) throw new WrongFileError(BRREG_UNITS, `record ${document.record} is ${document.error}`);
        yield { kind: 'reject', line: document.record, reason: document.error };
        continue;
      }
      if (first && !hasKey(document.value, 'organisasjonsnummer')) {
        throw new WrongFileError(BRREG_UNITS, `record ${document.record} has no organisasjonsnummer`);
      }
      first = false;
      yield validateRow(unitSchema, document.record, document.value);
    }
  } catch (error) {
    if (error instanceof NotJsonError) throw new WrongFileError(BRREG_UNITS, `the file ${error.message}`);
    throw error;
  }
}

export function hasKey(value: unknown, key: string): boolean {
  return typeof value === 'object' && value !== null && key in value;
}
