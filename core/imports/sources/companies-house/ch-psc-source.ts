import type { FactMember, ImportItem, ImportSource } from '../../company-facts.ts';
import { countryCodeOf } from '../../country-codes.ts';
import { fileNameDate } from '../../source-rows.ts';
import { companyRegisterKey, normaliseCompanyNumber } from './ch-companies-source.ts';
import { PSC_SNAPSHOT, type PscPerson, readPscSnapshot } from './read-psc-snapshot.ts';

// The PSC snapshot onto CompanyFacts (docs/decisions/0016-national-registers.md): a company's current
// persons with significant control become its members in the shareholder position, each with the
// natures of control the register gives (ownership-of-shares-75-to-100-percent, voting-rights-…,
// right-to-appoint-and-remove-directors, significant-influence-or-control: the control bands).
// The snapshot lists a company's persons on consecutive lines; they are gathered into one record.

const MEMBER_KINDS: Record<PscPerson['kind'], FactMember['kind']> = {
  individual: 'individual',
  'super-secure': 'individual',
  'corporate-entity': 'legal_entity',
  'legal-person': 'authority',
};

/** A UK-registered corporate PSC's company number, when its identification names Companies House or a UK register. */
function ukCompanyNumber(person: PscPerson): string | null {
  const number = person.registrationNumber ? normaliseCompanyNumber(person.registrationNumber) : null;
  if (!number) return null;
  const register = `${person.countryRegistered ?? ''} ${person.legalForm ?? ''}`;
  const inUk =
    countryCodeOf(person.countryRegistered ?? '') === 'GB' || /companies house|england|wales|scotland/i.test(register);
  return inUk ? number : null;
}

export function pscMember(person: PscPerson): FactMember {
  const fromElements = [person.forename, person.middleName, person.surname].filter(Boolean).join(' ');
  const company = person.kind === 'corporate-entity' ? ukCompanyNumber(person) : null;
  const country =
    person.kind === 'individual'
      ? countryCodeOf(person.countryOfResidence ?? '')
      : countryCodeOf(person.countryRegistered ?? person.addressCountry ?? '');
  return {
    name: person.kind === 'individual' && fromElements ? fromElements : person.name,
    kind: MEMBER_KINDS[person.kind],
    position: 'shareholder',
    since: person.notifiedOn,
    country,
    ...(company ? { keys: { register: companyRegisterKey(company) } } : {}),
    natures: person.naturesOfControl,
    ...(person.kind === 'individual' && person.born ? { born: person.born } : {}),
  };
}

type Group = { companyNumber: string; at: number; members: FactMember[] };

function groupItem(group: Group, sourceDate: string | null): ImportItem {
  return {
    kind: 'company',
    at: group.at,
    facts: { keys: { register: companyRegisterKey(group.companyNumber) }, sourceDate, members: group.members },
  };
}

export const chPscSource: ImportSource = {
  name: 'ch-psc',
  expects: PSC_SNAPSHOT,
  unit: 'line',
  // The snapshot states who controls a company: it replaces the shareholders, not the directors or parents.
  memberPositions: ['shareholder'],
  async *read(input, file): AsyncGenerator<ImportItem> {
    const sourceDate = fileNameDate(file.name);
    let current: Group | null = null;
    for await (const item of readPscSnapshot(input)) {
      if (item.kind === 'reject') {
        yield { kind: 'reject', at: item.line, reason: item.reason };
        continue;
      }
      const person = item.row;
      if (current === null || current.companyNumber !== person.companyNumber) {
        if (current !== null) yield groupItem(current, sourceDate);
        current = { companyNumber: person.companyNumber, at: item.line, members: [] };
      }
      // A ceased person no longer controls the company: the change history keeps them.
      if (person.ceasedOn === null) current.members.push(pscMember(person));
    }
    if (current !== null) yield groupItem(current, sourceDate);
  },
};
