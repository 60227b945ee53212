import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { bodsInterest } from '../companies/control-natures.ts';
import { AppError } from '../errors/app-error.ts';
import { companies, ownershipOf } from './ownership.ts';
import type { OwnerRef, OwnershipLink, OwnershipSource, ReportingException } from './types.ts';

// A company's ownership as Beneficial Ownership Data Standard 0.4 statements (ADR 0038): an entity
// statement for the company and for each company on its chain or among its owners, a person
// statement for each beneficial owner, and a relationship statement for each link (the chain's
// steps, the ultimate parent GLEIF states, the persons with significant control) and for each GLEIF
// reporting exception (an unspecified interested party with its reason). Validated in tests against
// the published schema (tests/fixtures/bods-0.4/).

export type BodsStatement = {
  statementId: string;
  statementDate: string;
  publicationDetails: { publicationDate: string; bodsVersion: string; publisher: { name: string; url?: string } };
  source?: { type: string[]; description: string; retrievedAt?: string };
  declarationSubject: string;
  recordId: string;
  recordType: 'entity' | 'person' | 'relationship';
  recordStatus: 'new' | 'updated' | 'closed';
  recordDetails: Record<string, unknown>;
};

const today = () => new Date().toISOString().slice(0, 10);
const countryName = (code: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
};

/** A statement id: 64 hex characters, the same for the same statement of the same day's data. */
const statementId = (...parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

const SOURCE_WORDS: Record<OwnershipSource['source'], { type: string[]; description: string }> = {
  gleif: {
    type: ['selfDeclaration', 'verified'],
    description: 'GLEIF Level 2 relationship data (RR-CDF, reporting exceptions)',
  },
  psc: { type: ['officialRegister'], description: 'UK Companies House register of persons with significant control' },
  bods: { type: ['thirdParty'], description: 'Beneficial Ownership Data Standard statements' },
};

function source(sources: OwnershipSource[]): BodsStatement['source'] {
  const first = sources[0];
  if (!first) return undefined;
  const types = [...new Set(sources.flatMap((s) => SOURCE_WORDS[s.source].type))];
  return {
    type: types,
    description: sources
      .map((s) => `${SOURCE_WORDS[s.source].description}${s.reference ? ` (${s.reference})` : ''}`)
      .join('; '),
    ...(first.date ? { retrievedAt: first.date } : {}),
  };
}

/** The BODS interest a PSC nature of control is (Companies House code → interestType, share band). */
function interestsOf(link: OwnershipLink, directOrIndirect: 'direct' | 'indirect' | 'unknown') {
  const beneficial = link.relation === 'beneficial_owner' && link.owner.kind === 'person';
  const dates = { ...(link.start ? { startDate: link.start } : {}), ...(link.end ? { endDate: link.end } : {}) };
  if (link.natures.length === 0)
    return [
      {
        type: 'otherInfluenceOrControl',
        directOrIndirect,
        beneficialOwnershipOrControl: false,
        details:
          link.relation === 'ultimate_parent'
            ? 'Ultimate accounting consolidation parent (GLEIF IS_ULTIMATELY_CONSOLIDATED_BY)'
            : 'Direct accounting consolidation parent (GLEIF IS_DIRECTLY_CONSOLIDATED_BY)',
        ...dates,
      },
    ];
  return link.natures.map((nature) => {
    // A BODS source's own interest type (the BODS importer keeps them as natures), with the share it stated.
    const interest = /^(ownership-of-shares|voting-rights-|right-to|significant-influence|(part-)?right-to-share)/.test(
      nature,
    )
      ? null
      : bodsInterest(nature);
    if (interest !== null) {
      const held = interest === 'shareholding' || interest === 'votingRights';
      const share =
        held && link.shareMin !== null && link.shareMin === link.shareMax
          ? { exact: link.shareMin }
          : held && (link.shareMin !== null || link.shareMax !== null)
            ? {
                ...(link.shareMin !== null ? { minimum: link.shareMin } : {}),
                ...(link.shareMax !== null ? { maximum: link.shareMax } : {}),
              }
            : undefined;
      return {
        type: interest,
        directOrIndirect,
        beneficialOwnershipOrControl: beneficial,
        ...(share ? { share } : {}),
        ...dates,
      };
    }
    const band = /-(\d+)-to-(\d+)-percent|more-than-(\d+)-percent/.exec(nature);
    const share = band
      ? band[3]
        ? { exclusiveMinimum: Number(band[3]) }
        : { minimum: Number(band[1]), maximum: Number(band[2]) }
      : undefined;
    const type = nature.startsWith('ownership-of-shares')
      ? 'shareholding'
      : nature.startsWith('voting-rights')
        ? 'votingRights'
        : nature.startsWith('right-to-appoint-and-remove')
          ? 'appointmentOfBoard'
          : nature.startsWith('significant-influence-or-control')
            ? 'otherInfluenceOrControl'
            : /right-to-share-surplus-assets/.test(nature)
              ? 'rightsToSurplusAssetsOnDissolution'
              : 'unknownInterest';
    return {
      type,
      directOrIndirect: /-as-(trust|firm|control-over)/.test(nature) ? 'indirect' : directOrIndirect,
      beneficialOwnershipOrControl: beneficial,
      details: nature,
      ...(share ? { share } : {}),
      ...dates,
    };
  });
}

/** BODS 0.4's unspecified-record reasons (codelist unspecifiedReason). */
const BODS_REASONS = new Set([
  'noBeneficialOwners',
  'subjectUnableToConfirmOrIdentifyBeneficialOwner',
  'interestedPartyHasNotProvidedInformation',
  'subjectExemptFromDisclosure',
  'interestedPartyExemptFromDisclosure',
  'unknown',
  'informationUnknownToPublisher',
]);

/** GLEIF reporting-exception reasons onto BODS unspecified-record reasons. */
function unspecifiedReason(reasons: string[]): string {
  if (reasons.includes('NO_KNOWN_PERSON')) return 'noBeneficialOwners';
  if (reasons.includes('NATURAL_PERSONS') || reasons.includes('NON_CONSOLIDATING'))
    return 'interestedPartyExemptFromDisclosure';
  if (reasons.some((r) => /NON_PUBLIC|BINDING_LEGAL|LEGAL_OBSTACLES|DISCLOSURE_DETRIMENTAL|DETRIMENT|CONSENT/.test(r)))
    return 'subjectExemptFromDisclosure';
  return 'unknown';
}

/** The BODS 0.4 statements of a company's ownership; AppError not_found when there is none. */
export async function bodsStatements(db: Db, companyId: number): Promise<BodsStatement[]> {
  const row = (await companies(db, [companyId])).get(companyId);
  if (!row) throw new AppError('not_found', `No company ${companyId}`);
  const company = { id: companyId, name: row.name, country: row.country, lei: row.lei };
  const ownership = await ownershipOf(db, companyId);
  const publicationDate = today();
  const subject = `registra-company-${company.id}`;
  const statements: BodsStatement[] = [];
  const seen = new Set<string>();
  const base = (recordId: string, date: string | null) => ({
    statementDate: date ?? publicationDate,
    publicationDetails: { publicationDate, bodsVersion: '0.4', publisher: { name: 'Registra' } },
    declarationSubject: subject,
    recordId,
    recordStatus: 'new' as const,
  });

  const entity = (ref: { name: string | null; country: string | null; lei: string | null }, recordId: string) => {
    if (seen.has(recordId)) return;
    seen.add(recordId);
    statements.push({
      statementId: statementId('entity', recordId, publicationDate),
      ...base(recordId, null),
      recordType: 'entity',
      recordDetails: {
        isComponent: false,
        entityType: { type: ref.name ? 'registeredEntity' : 'unknownEntity' },
        ...(ref.name ? { name: ref.name } : {}),
        ...(ref.country ? { jurisdiction: { name: countryName(ref.country), code: ref.country } } : {}),
        ...(ref.lei
          ? { identifiers: [{ id: ref.lei, scheme: 'XI-LEI', schemeName: 'Global Legal Entity Identifier Index' }] }
          : {}),
      },
    });
  };

  const party = (owner: OwnerRef): string => {
    if (owner.kind === 'company') {
      const id = `registra-company-${owner.id}`;
      entity(owner, id);
      return id;
    }
    if (owner.kind === 'unknown_company') {
      const id = owner.lei
        ? `lei-${owner.lei}`
        : `registra-entity-${statementId(owner.name, owner.country).slice(0, 16)}`;
      entity(owner, id);
      return id;
    }
    const id =
      owner.id !== null ? `registra-person-${owner.id}` : `registra-person-${statementId(owner.name).slice(0, 16)}`;
    if (!seen.has(id)) {
      seen.add(id);
      statements.push({
        statementId: statementId('person', id, publicationDate),
        ...base(id, null),
        recordType: 'person',
        recordDetails: {
          isComponent: false,
          personType: 'knownPerson',
          names: [{ type: 'legal', fullName: owner.name }],
          ...(owner.nationality
            ? { nationalities: [{ name: countryName(owner.nationality), code: owner.nationality }] }
            : {}),
          ...(owner.birth ? { birthDate: owner.birth } : {}),
        },
      });
    }
    return id;
  };

  const relationship = (
    childRecord: string,
    link: OwnershipLink,
    directOrIndirect: 'direct' | 'indirect' | 'unknown',
  ) => {
    const interested = party(link.owner);
    const recordId = `registra-relationship-${statementId(childRecord, interested, link.relation).slice(0, 24)}`;
    statements.push({
      statementId: statementId('relationship', recordId, publicationDate),
      ...base(recordId, link.sources[0]?.date ?? null),
      ...(source(link.sources) ? { source: source(link.sources) } : {}),
      recordType: 'relationship',
      recordStatus: link.current ? 'new' : 'closed',
      recordDetails: {
        isComponent: false,
        subject: childRecord,
        interestedParty: interested,
        interests: interestsOf(link, directOrIndirect),
      },
    });
  };

  entity(company, subject);
  let child = subject;
  for (const link of ownership.chain) {
    relationship(child, link, 'direct');
    child = link.owner.kind === 'company' ? `registra-company-${link.owner.id}` : party(link.owner);
  }
  if (ownership.ultimateParent) relationship(subject, ownership.ultimateParent, 'indirect');
  for (const link of ownership.beneficialOwners) relationship(subject, link, 'direct');
  ownership.exceptions.forEach(exceptionStatement);

  function exceptionStatement(e: ReportingException, i: number) {
    const recordId = `registra-relationship-${statementId(subject, 'exception', e.relation, i).slice(0, 24)}`;
    // A BODS source's unspecified interested party keeps its own reason and words; a GLEIF
    // reporting exception is about a parent, with the consolidation it did not report as interest.
    const fromBods = e.relation === 'beneficial_owner';
    statements.push({
      statementId: statementId('exception', recordId, publicationDate),
      ...base(recordId, e.sources[0]?.date ?? null),
      ...(source(e.sources) ? { source: source(e.sources) } : {}),
      recordType: 'relationship',
      recordDetails: {
        isComponent: false,
        subject,
        interestedParty: fromBods
          ? {
              reason: BODS_REASONS.has(e.reasons[0] ?? '') ? e.reasons[0] : 'unknown',
              ...(e.description ? { description: e.description } : {}),
            }
          : {
              reason: unspecifiedReason(e.reasons),
              description: `GLEIF reporting exception for the ${e.relation === 'ultimate_parent' ? 'ultimate' : 'direct'} parent: ${e.reasons.join(', ')}`,
            },
        ...(fromBods
          ? {}
          : {
              interests: [
                {
                  type: 'otherInfluenceOrControl',
                  directOrIndirect: e.relation === 'ultimate_parent' ? 'indirect' : 'direct',
                  beneficialOwnershipOrControl: false,
                  details: `Accounting consolidation parent not reported (${e.reasons.join(', ')})`,
                },
              ],
            }),
      },
    });
  }
  return statements;
}
