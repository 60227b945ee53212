import type { CompanyFacts, FactAddress, FactName, ImportItem, ImportSource } from '../company-facts.ts';
import { childrenNamed, textAt, type XmlElement, xmlRecords } from '../xml-records.ts';
import { isoDay, isoInstant } from './gleif-dates.ts';

// GLEIF Level 1, LEI-CDF 2.x/3.x XML: the golden copy and its delta files (one <LEIRecord> per
// entity). Mapping: docs/decisions/0014-importers.md "gleif-lei".

const EXPECTS = 'a GLEIF LEI-CDF XML file (<LEIData> with <LEIRecord>s: the golden copy or a delta)';

const OTHER_NAME_TYPES: Record<string, FactName['type']> = {
  ALTERNATIVE_LANGUAGE_LEGAL_NAME: 'other',
  PREVIOUS_LEGAL_NAME: 'previous',
  TRADING_OR_OPERATING_NAME: 'trade',
  AUTO_ASCII_TRANSLITERATED_LEGAL_NAME: 'transliterated',
  PREFERRED_ASCII_TRANSLITERATED_LEGAL_NAME: 'transliterated',
};

function address(el: XmlElement | undefined): FactAddress | null {
  if (!el) return null;
  const first = [textAt(el, 'AddressNumber'), textAt(el, 'FirstAddressLine')].filter(Boolean).join(' ');
  const lines = [
    textAt(el, 'MailRouting'),
    first || null,
    ...childrenNamed(el, 'AdditionalAddressLine').map((l) => l.text.trim() || null),
    textAt(el, 'AddressNumberWithinBuilding'),
  ].filter((l): l is string => l !== null);
  return {
    lines: lines.slice(0, 6),
    city: textAt(el, 'City'),
    region: textAt(el, 'Region'),
    postCode: textAt(el, 'PostalCode'),
    country: textAt(el, 'Country') ?? '',
  };
}

const STATUSES: Record<string, 'active' | 'inactive'> = { ACTIVE: 'active', INACTIVE: 'inactive' };

/** One LEIRecord as facts (throws with the reason when a value cannot be read). */
export function leiRecordFacts(record: XmlElement): CompanyFacts {
  const lei = textAt(record, 'LEI') ?? '';
  const entity = record.children.find((c) => c.name === 'Entity');
  const registration = record.children.find((c) => c.name === 'Registration');
  if (!entity) throw new Error('the record has no <Entity>');
  const authorityId = textAt(entity, 'RegistrationAuthority', 'RegistrationAuthorityID');
  const otherAuthority = textAt(entity, 'RegistrationAuthority', 'OtherRegistrationAuthorityID');
  const number = textAt(entity, 'RegistrationAuthority', 'RegistrationAuthorityEntityID');
  const jurisdiction = textAt(entity, 'LegalJurisdiction') ?? textAt(entity, 'LegalAddress', 'Country');
  const names: FactName[] = [];
  for (const group of ['OtherEntityNames', 'TransliteratedOtherEntityNames']) {
    for (const el of childrenNamed(
      entity.children.find((c) => c.name === group),
      group === 'OtherEntityNames' ? 'OtherEntityName' : 'TransliteratedOtherEntityName',
    )) {
      const name = el.text.trim();
      if (!name) continue;
      names.push({
        name,
        type: OTHER_NAME_TYPES[el.attrs.type ?? ''] ?? 'other',
        language: el.attrs['xml:lang'] ?? null,
      });
    }
  }
  const entityStatus = textAt(entity, 'EntityStatus');
  const registrationStatus = textAt(registration, 'RegistrationStatus');
  const lastUpdate = isoInstant(textAt(registration, 'LastUpdateDate'));
  const realRegister = authorityId && authorityId !== 'RA999999' && number && jurisdiction;
  return {
    keys: {
      lei,
      ...(realRegister ? { register: { jurisdiction, authority: authorityId, number } } : {}),
    },
    sourceDate: lastUpdate,
    name: textAt(entity, 'LegalName') ?? '',
    otherNames: names,
    addresses: {
      legal: address(entity.children.find((c) => c.name === 'LegalAddress')),
      headquarters: address(entity.children.find((c) => c.name === 'HeadquartersAddress')),
    },
    ...(jurisdiction ? { jurisdiction } : {}),
    legalForm: {
      elfCode: textAt(entity, 'LegalForm', 'EntityLegalFormCode'),
      other: textAt(entity, 'LegalForm', 'OtherLegalForm'),
    },
    ...(entityStatus && STATUSES[entityStatus] ? { status: STATUSES[entityStatus] } : {}),
    ...(textAt(entity, 'EntityCreationDate') ? { registeredOn: isoDay(textAt(entity, 'EntityCreationDate')) } : {}),
    identifiers: { lei, ...(number ? { company_number: number } : {}) },
    registrationAuthority:
      authorityId || otherAuthority ? { id: (authorityId ?? otherAuthority) as string, number } : null,
    leiRegistration: {
      lei,
      entityStatus,
      registrationStatus: registrationStatus ?? '',
      initialRegistrationDate: isoInstant(textAt(registration, 'InitialRegistrationDate')),
      lastUpdateDate: lastUpdate,
      nextRenewalDate: isoInstant(textAt(registration, 'NextRenewalDate')),
      managingLou: textAt(registration, 'ManagingLOU'),
      validationSources: textAt(registration, 'ValidationSources'),
    },
  };
}

export const gleifLei: ImportSource = {
  name: 'gleif-lei',
  expects: EXPECTS,
  unit: 'record',
  async *read(input): AsyncIterable<ImportItem> {
    let at = 0;
    for await (const record of xmlRecords(input, { root: 'LEIData', record: 'LEIRecord', expects: EXPECTS })) {
      at += 1;
      try {
        yield { kind: 'company', at, facts: leiRecordFacts(record) };
      } catch (error) {
        yield { kind: 'reject', at, reason: error instanceof Error ? error.message : String(error) };
      }
    }
  },
};
