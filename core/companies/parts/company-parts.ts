import { addressesPart } from './addresses.ts';
import type { AnyPart } from './company-part.ts';
import { contactsPart } from './contacts.ts';
import { datesPart } from './dates.ts';
import { identifiersPart } from './identifiers.ts';
import { indicatorsPart } from './indicators.ts';
import { industriesPart } from './industries.ts';
import { memberCompaniesPart, memberContactsPart, memberOfPart, membersPart } from './members.ts';
import { namesPart } from './names.ts';
import { productsPart } from './products.ts';
import { registersPart } from './registers.ts';
import { sharesPart } from './shares.ts';
import { specificationsPart } from './specifications.ts';
import { statusesPart } from './statuses.ts';

// The parts of a company (docs/decisions/0013-company-parts.md), declared once: each reader picks
// the ones it needs — the profile (core/companies/get-company.ts), the data API
// (core/api/read-legal-entities.ts), the export (core/export/read-company-rows.ts) and the
// comparison (core/comparison/load-comparison.ts).

/** Every part of a company, by key. */
export const COMPANY_PARTS = {
  statuses: statusesPart,
  names: namesPart,
  addresses: addressesPart,
  dates: datesPart,
  identifiers: identifiersPart,
  indicators: indicatorsPart,
  industries: industriesPart,
  shares: sharesPart,
  specifications: specificationsPart,
  contacts: contactsPart,
  members: membersPart,
  member_contacts: memberContactsPart,
  member_companies: memberCompaniesPart,
  member_of: memberOfPart,
  products: productsPart,
  registers: registersPart,
} as const satisfies { [K in string]: AnyPart & { key: K } };

/**
 * The company's own lists that the profile shows and that make it advanced when long (spec §3, §9):
 * its parts, not what others say of it (member_of) nor what hangs off its members.
 */
export const PROFILE_LIST_PARTS = [
  statusesPart,
  namesPart,
  addressesPart,
  datesPart,
  identifiersPart,
  indicatorsPart,
  industriesPart,
  sharesPart,
  contactsPart,
  membersPart,
] as const;
