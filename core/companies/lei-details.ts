import type { Kysely } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { preparedStatement } from './prepared-query.ts';

// What GLEIF says of a company beyond its parts (docs/decisions/0014-importers.md): its legal form
// (an ISO 20275 code with its names, or the register's own words), its LEI registration and its
// reporting exceptions (why it reports no direct or ultimate parent). Empty for a company GLEIF
// has not been imported for.

export type LeiDetails = {
  legalForm: {
    code: string | null;
    other: string | null;
    names: { language: string; name: string; abbreviation: string | null }[];
  } | null;
  registration: {
    lei: string;
    registrationStatus: string;
    entityStatus: string | null;
    initialRegistration: Date | null;
    lastUpdate: Date | null;
    nextRenewal: Date | null;
  } | null;
  exceptions: { category: string; reasons: string[]; reference: string | null }[];
};

// The statements of `getLeiDetails`, built and compiled once (core/companies/prepared-query.ts);
// their columns named, so that a prepared statement's result never changes shape under it.
const legalFormOf = preparedStatement('registra-lei-legal-form', (k, companyId: number) =>
  k
    .selectFrom('legal_entity_legal_forms')
    .select(['elf_code', 'other_legal_form'])
    .where('legal_entity_id', '=', companyId)
    .limit(1),
);
const registrationOf = preparedStatement('registra-lei-registration', (k, companyId: number) =>
  k
    .selectFrom('lei_registrations')
    .select([
      'lei',
      'registration_status',
      'entity_status',
      'initial_registration_date',
      'last_update_date',
      'next_renewal_date',
    ])
    .where('legal_entity_id', '=', companyId)
    .orderBy('lei')
    .limit(1),
);
const exceptionsOf = preparedStatement('registra-lei-exceptions', (k, companyId: number) =>
  k
    .selectFrom('lei_reporting_exceptions')
    .innerJoin('company_keys', (j) =>
      j.onRef('company_keys.key', '=', 'lei_reporting_exceptions.lei').on('company_keys.scheme', '=', 'lei'),
    )
    .select(['exception_category', 'reasons', 'reference'])
    .where('company_keys.legal_entity_id', '=', companyId)
    .orderBy('exception_category'),
);

export async function getLeiDetails(db: Db, companyId: number): Promise<LeiDetails> {
  const k = db.kysely;
  const [[form], [registration], exceptions] = await Promise.all([
    legalFormOf(db, companyId),
    registrationOf(db, companyId),
    exceptionsOf(db, companyId),
  ]);
  const names = form?.elf_code ? ((await legalFormNames(k, [form.elf_code])).get(form.elf_code) ?? []) : [];
  return {
    legalForm: form
      ? {
          code: form.elf_code,
          other: form.other_legal_form,
          names,
        }
      : null,
    registration: registration
      ? {
          lei: registration.lei,
          registrationStatus: registration.registration_status,
          entityStatus: registration.entity_status,
          initialRegistration: registration.initial_registration_date,
          lastUpdate: registration.last_update_date,
          nextRenewal: registration.next_renewal_date,
        }
      : null,
    exceptions: exceptions.map((e) => ({ category: e.exception_category, reasons: e.reasons, reference: e.reference })),
  };
}

export type LegalFormName = { language: string; name: string; abbreviation: string | null };

/** The names of ISO 20275 legal forms (ELF codes) in every language the list has, by code. */
export async function legalFormNames(k: Kysely<Database>, codes: string[]): Promise<Map<string, LegalFormName[]>> {
  const out = new Map<string, LegalFormName[]>();
  if (codes.length === 0) return out;
  const rows = await k
    .selectFrom('legal_form_names')
    .select(['code', 'language_code', 'name', 'abbreviations'])
    .where('code', 'in', [...new Set(codes)])
    .orderBy('code')
    .orderBy('language_code')
    .execute();
  for (const n of rows)
    out.set(n.code, [
      ...(out.get(n.code) ?? []),
      { language: n.language_code, name: n.name, abbreviation: n.abbreviations[0] ?? null },
    ]);
  return out;
}

/**
 * A legal form in words, as the profile names it: its name in the reader's language (else English,
 * else the first) with its abbreviation ("Private limited company · Ltd"), else the register's own
 * words; '' when it has neither.
 */
export function legalFormWords(form: { other: string | null; names: LegalFormName[] }, lang: string): string {
  const name =
    form.names.find((n) => n.language === lang) ?? form.names.find((n) => n.language === 'en') ?? form.names[0];
  return (name ? [name.name, name.abbreviation].filter(Boolean).join(' · ') : '') || (form.other ?? '');
}
