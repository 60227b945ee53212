import type { CompanyFacts, FactAddress, ImportItem, ImportSource } from '../../company-facts.ts';
import { countryCodeOf } from '../../country-codes.ts';
import { fileNameDate } from '../../source-rows.ts';
import { BASIC_COMPANY_DATA, type BasicCompanyRow, readBasicCompanyData } from './read-basic-company-data.ts';

// Companies House BasicCompanyData onto CompanyFacts (the mapping: docs/decisions/0016-national-registers.md).

/** GLEIF's Registration Authorities List code of Companies House: GLEIF records carry it too. */
export const COMPANIES_HOUSE = 'RA000585';

/** CompanyStatus values of the product's snapshot, onto our statuses. */
const STATUSES: Record<string, CompanyFacts['status']> = {
  active: 'active',
  'active - proposal to strike off': 'active',
  open: 'active',
  dissolved: 'dissolved',
  liquidation: 'in-liquidation',
  'in administration': 'bankrupt',
  administration: 'bankrupt',
  'administration order': 'bankrupt',
  'administrative receiver': 'bankrupt',
  receivership: 'bankrupt',
  'receiver action': 'bankrupt',
  'receiver manager / administrative receiver': 'bankrupt',
  'live but receiver manager on at least one charge': 'active',
  'voluntary arrangement': 'active',
  'voluntary arrangement / administrative receiver': 'bankrupt',
  'voluntary arrangement / receiver manager': 'bankrupt',
  'insolvency proceedings': 'bankrupt',
  'converted/closed': 'inactive',
  closed: 'inactive',
};

/**
 * A UK company number as the Companies House files write it — eight letters or digits, zero-padded
 * (`3209885` → `03209885`) — or null when the text is none (the PSC register's corporate owners, BODS
 * GB-COH identifiers).
 */
export function normaliseCompanyNumber(text: string): string | null {
  const number = text.replace(/\s/g, '').toUpperCase();
  return /^[A-Z0-9]{1,8}$/.test(number) ? number.padStart(8, '0') : null;
}

export function companyRegisterKey(companyNumber: string) {
  return { jurisdiction: 'GB', authority: COMPANIES_HOUSE, number: companyNumber };
}

/** One row's facts, or why it cannot be imported (an unknown status or country). */
export function basicCompanyFacts(row: BasicCompanyRow, sourceDate: string | null): CompanyFacts | string {
  let status: CompanyFacts['status'] = null;
  if (row.status !== null) {
    status = STATUSES[row.status.toLowerCase()];
    if (status === undefined) return `CompanyStatus: "${row.status}" is not a Companies House status`;
  }
  const address = row.registeredAddress;
  // A registered office is in the UK unless the row says otherwise (overseas companies name their country).
  const country = address.country === null ? 'GB' : countryCodeOf(address.country);
  if (country === null) return `RegAddress.Country: "${address.country}" is not a country`;
  const lines = [
    address.careOf && `C/O ${address.careOf}`,
    address.poBox && `PO BOX ${address.poBox}`,
    address.addressLine1,
    address.addressLine2,
  ].filter((line): line is string => Boolean(line));
  const legal: FactAddress | null =
    lines.length > 0 || address.postTown || address.postCode
      ? { lines, city: address.postTown, region: address.county, postCode: address.postCode, country }
      : null;
  return {
    keys: { register: companyRegisterKey(row.companyNumber) },
    sourceDate,
    name: row.name,
    otherNames: row.previousNames.map((previous) => ({
      name: previous.name,
      type: 'previous',
      language: 'en',
      until: previous.changedOn,
    })),
    addresses: { legal },
    jurisdiction: 'GB',
    legalForm: row.category === null ? null : { elfCode: null, other: row.category },
    status,
    registeredOn: row.incorporatedOn,
    dissolvedOn: row.dissolvedOn,
    dates: { accounts: row.accounts.nextDueOn, annual_report: row.confirmationStatement.nextDueOn },
    identifiers: { company_number: row.companyNumber },
    registrationAuthority: { id: COMPANIES_HOUSE, number: row.companyNumber },
    industries: row.sicCodes.map((sic, i) => ({ scheme: 'uk-sic-2007', code: sic.code, primary: i === 0 })),
  };
}

export const chCompaniesSource: ImportSource = {
  name: 'ch-companies',
  expects: BASIC_COMPANY_DATA,
  unit: 'line',
  async *read(input, file): AsyncGenerator<ImportItem> {
    const sourceDate = fileNameDate(file.name);
    for await (const item of readBasicCompanyData(input)) {
      if (item.kind === 'reject') {
        yield { kind: 'reject', at: item.line, reason: item.reason };
        continue;
      }
      const facts = basicCompanyFacts(item.row, sourceDate);
      yield typeof facts === 'string'
        ? { kind: 'reject', at: item.line, reason: facts }
        : { kind: 'company', at: item.line, facts };
    }
  },
};
