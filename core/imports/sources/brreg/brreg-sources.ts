import type { CompanyFacts, FactAddress, FactMember, ImportItem, ImportSource } from '../../company-facts.ts';
import { fileNameDate } from '../../source-rows.ts';
import { BRREG_ROLES, type BrregRole, type BrregRoles, readBrregRoles } from './read-roles.ts';
import { BRREG_UNITS, type BrregAddress, type BrregUnit, readBrregUnits } from './read-units.ts';

// Brønnøysund units and roles onto CompanyFacts (docs/decisions/0016-national-registers.md).

/** GLEIF's Registration Authorities List code of the Central Coordinating Register (Enhetsregisteret). */
export const BRONNOYSUND = 'RA000472';

export function unitRegisterKey(organisationNumber: string) {
  return { jurisdiction: 'NO', authority: BRONNOYSUND, number: organisationNumber };
}

function address(value: BrregAddress | null): FactAddress | null {
  if (!value) return null;
  return {
    lines: value.lines.slice(0, 4),
    city: value.town,
    region: null,
    postCode: value.postCode,
    country: value.countryCode && /^[A-Z]{2}$/.test(value.countryCode) ? value.countryCode : 'NO',
  };
}

function status(unit: BrregUnit): CompanyFacts['status'] {
  if (unit.deletedOn) return 'dissolved';
  if (unit.bankrupt) return 'bankrupt';
  if (unit.windingUp) return 'in-liquidation';
  return 'active';
}

export function unitFacts(unit: BrregUnit, sourceDate: string | null): CompanyFacts {
  return {
    keys: { register: unitRegisterKey(unit.organisationNumber) },
    sourceDate,
    name: unit.name,
    addresses: { legal: address(unit.businessAddress), postal: address(unit.postalAddress) },
    jurisdiction: 'NO',
    legalForm: unit.legalForm ? { elfCode: null, other: unit.legalForm.name ?? unit.legalForm.code } : null,
    status: status(unit),
    registeredOn: unit.foundedOn ?? unit.registeredOn,
    dissolvedOn: unit.deletedOn,
    identifiers: {
      company_number: unit.organisationNumber,
      vat: unit.vatRegistered ? `NO${unit.organisationNumber}MVA` : null,
    },
    registrationAuthority: { id: BRONNOYSUND, number: unit.organisationNumber },
    industries: unit.industries.map((industry, i) => ({ scheme: 'sn2007', code: industry.code, primary: i === 0 })),
  };
}

/**
 * Role codes onto our positions: the managing director (DAGL) and business manager (FFØR) are
 * officers, the board's chair (LEDE) its president, deputy chair and members (NEST, MEDL) directors,
 * owners and partners (INNH, DTPR, DTSO, KOMP) shareholders. Deputies (VARA), auditors (REVI),
 * accountants (REGN), contact persons and the rest hold no seat and are not members.
 */
const POSITIONS: Record<string, FactMember['position']> = {
  DAGL: 'officer',
  FFØR: 'officer',
  LEDE: 'president',
  NEST: 'director',
  MEDL: 'director',
  INNH: 'shareholder',
  DTPR: 'shareholder',
  DTSO: 'shareholder',
  KOMP: 'shareholder',
};

export function roleMember(role: BrregRole): FactMember | null {
  const position = POSITIONS[role.type];
  if (!position || role.resigned || role.deregistered) return null;
  const holder = role.holder;
  if (holder.kind === 'unit') {
    if (holder.deleted) return null;
    return {
      name: holder.name,
      kind: 'legal_entity',
      position,
      since: null,
      keys: { register: unitRegisterKey(holder.organisationNumber) },
    };
  }
  if (holder.deceased) return null;
  const name = [holder.firstName, holder.middleName, holder.lastName].filter(Boolean).join(' ');
  // The register gives the full date of birth; we keep its month and year only, as Companies House
  // publishes them, enough to tell namesakes apart (ADR 0022), never the day.
  const born = /^(\d{4})-(\d{2})-\d{2}$/.exec(holder.bornOn ?? '');
  return name
    ? {
        name,
        kind: 'individual',
        position,
        since: null,
        ...(born ? { born: { month: Number(born[2]), year: Number(born[1]) } } : {}),
      }
    : null;
}

export function rolesFacts(roles: BrregRoles, fileDate: string | null): CompanyFacts {
  const changed = roles.roles.flatMap((role) => (role.groupChangedOn ? [role.groupChangedOn] : [])).sort();
  const latest = changed.at(-1);
  return {
    keys: { register: unitRegisterKey(roles.organisationNumber) },
    sourceDate: latest ? `${latest}T00:00:00Z` : fileDate,
    members: roles.roles.flatMap((role) => roleMember(role) ?? []),
  };
}

export const brregUnitsSource: ImportSource = {
  name: 'brreg-units',
  expects: BRREG_UNITS,
  unit: 'record',
  async *read(input, file): AsyncGenerator<ImportItem> {
    const sourceDate = fileNameDate(file.name);
    for await (const item of readBrregUnits(input)) {
      yield item.kind === 'reject'
        ? { kind: 'reject', at: item.line, reason: item.reason }
        : { kind: 'company', at: item.line, facts: unitFacts(item.row, sourceDate) };
    }
  },
};

export const brregRolesSource: ImportSource = {
  name: 'brreg-roles',
  expects: BRREG_ROLES,
  unit: 'record',
  // The roles name the officers, board and owners; a parent company (GLEIF) is not theirs to remove.
  memberPositions: ['officer', 'president', 'director', 'shareholder'],
  async *read(input, file): AsyncGenerator<ImportItem> {
    const fileDate = fileNameDate(file.name);
    for await (const item of readBrregRoles(input)) {
      yield item.kind === 'reject'
        ? { kind: 'reject', at: item.line, reason: item.reason }
        : { kind: 'company', at: item.line, facts: rolesFacts(item.row, fileDate) };
    }
  },
};
