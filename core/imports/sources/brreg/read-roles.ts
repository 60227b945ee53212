import type { Readable } from 'node:stream';
import { z } from 'zod';
import { WrongFileError } from '../../company-facts.ts';
import { NotJsonError, readJsonDocuments } from '../../json-documents.ts';
import { type SourceRow, validateRow } from '../../source-rows.ts';
import { isoDateValue, nullableText } from '../../source-values.ts';
import { hasKey } from './read-units.ts';

// Brønnøysund roles ("roller"), ADR 0016: per unit, its role groups (board, managing director,
// auditor, …) and in each the roles, held by a person or by another unit. The API's answer for one
// unit names the unit only in its links (…/enheter/923609016/roller); the bulk file's entries carry
// organisasjonsnummer. Text is kept as found.

export const BRREG_ROLES = 'Brønnøysund roles JSON (a roller answer with rollegrupper, or the bulk array of them)';

const text = nullableText;

const typeCode = z.object({ kode: z.string(), beskrivelse: text });

const roleSchema = z.object({
  type: typeCode,
  person: z
    .object({
      fodselsdato: isoDateValue,
      navn: z.object({ fornavn: text, mellomnavn: text, etternavn: text }),
      erDoed: z.boolean().nullish(),
    })
    .nullish(),
  enhet: z
    .object({
      organisasjonsnummer: z.string().regex(/^\d{9}$/, 'is not an organisation number (9 digits)'),
      navn: z.union([z.array(z.string()), z.string()]).transform((n) => (Array.isArray(n) ? n.join(' ') : n)),
      organisasjonsform: typeCode.nullish(),
      erSlettet: z.boolean().nullish(),
    })
    .nullish(),
  valgtAv: typeCode.nullish(),
  fratraadt: z.boolean().nullish(),
  avregistrert: z.boolean().nullish(),
  rekkefolge: z.number().nullish(),
});

const link = z.object({ href: z.string() }).partial().nullish();

const rolesSchema = z
  .object({
    organisasjonsnummer: z.string().nullish(),
    rollegrupper: z.array(
      z.object({ type: typeCode, sistEndret: isoDateValue, roller: z.array(roleSchema).default([]) }),
    ),
    _links: z.object({ self: link, enhet: link }).partial().nullish(),
  })
  .transform((value, ctx): BrregRoles => {
    const fromLinks = /\/enheter\/(\d{9})(?:\/|$)/.exec(value._links?.enhet?.href ?? value._links?.self?.href ?? '');
    const organisationNumber = value.organisasjonsnummer?.replace(/\s/g, '') ?? fromLinks?.[1];
    if (!organisationNumber || !/^\d{9}$/.test(organisationNumber)) {
      ctx.addIssue({ code: 'custom', path: ['organisasjonsnummer'], message: 'names no unit (9 digits)' });
      return z.NEVER;
    }
    return {
      organisationNumber,
      roles: value.rollegrupper.flatMap((group) =>
        group.roller.flatMap((role): BrregRole[] => {
          const holder: BrregRole['holder'] | null = role.person
            ? {
                kind: 'person',
                firstName: role.person.navn.fornavn,
                middleName: role.person.navn.mellomnavn,
                lastName: role.person.navn.etternavn,
                bornOn: role.person.fodselsdato,
                deceased: role.person.erDoed ?? false,
              }
            : role.enhet
              ? {
                  kind: 'unit',
                  organisationNumber: role.enhet.organisasjonsnummer,
                  name: role.enhet.navn,
                  legalForm: role.enhet.organisasjonsform?.kode ?? null,
                  deleted: role.enhet.erSlettet ?? false,
                }
              : null;
          if (holder === null) return [];
          return [
            {
              group: group.type.kode,
              groupChangedOn: group.sistEndret,
              type: role.type.kode,
              typeName: role.type.beskrivelse,
              electedBy: role.valgtAv?.kode ?? null,
              resigned: role.fratraadt ?? false,
              deregistered: role.avregistrert ?? false,
              order: role.rekkefolge ?? 0,
              holder,
            },
          ];
        }),
      ),
    };
  });

export type BrregRole = {
  /** The role group's code: DAGL, STYR, REVI, … */
  group: string;
  groupChangedOn: string | null;
  /** The role's code: DAGL, LEDE, NEST, MEDL, VARA, REVI, INNH, DTPR, … */
  type: string;
  typeName: string | null;
  electedBy: string | null;
  resigned: boolean;
  deregistered: boolean;
  order: number;
  holder:
    | {
        kind: 'person';
        firstName: string | null;
        middleName: string | null;
        lastName: string | null;
        bornOn: string | null;
        deceased: boolean;
      }
    | { kind: 'unit'; organisationNumber: string; name: string; legalForm: string | null; deleted: boolean };
};

export type BrregRoles = { organisationNumber: string; roles: BrregRole[] };

/** Streams each unit's roles (line = the record number). */
export async function* readBrregRoles(input: Readable): AsyncGenerator<SourceRow<BrregRoles>> {
  let first = true;
  try {
    for await (const document of readJsonDocuments(input)) {
      if ('error' in document) {
        if (first) throw new WrongFileError(BRREG_ROLES, `record ${document.record} is ${document.error}`);
        yield { kind: 'reject', line: document.record, reason: document.error };
        continue;
      }
      if (first && !hasKey(document.value, 'rollegrupper')) {
        throw new WrongFileError(BRREG_ROLES, `record ${document.record} has no rollegrupper`);
      }
      first = false;
      yield validateRow(rolesSchema, document.record, document.value);
    }
  } catch (error) {
    if (error instanceof NotJsonError) throw new WrongFileError(BRREG_ROLES, `the file ${error.message}`);
    throw error;
  }
}
