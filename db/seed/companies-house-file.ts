import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { LANGUAGE_EN } from '../reference/enumerations.ts';
import { buildReferenceData } from '../reference/load-reference-data.ts';
import { dateOf, dayOf } from './calendar.ts';
import { makeCompany, type SeedCompany, STATUS } from './company-factory.ts';
import { createPersonPool } from './member-pool.ts';
import { buildSeedCatalog } from './seed-catalog.ts';

// A Companies House BasicCompanyData file made from the demo generator (docs/decisions/0016-national-registers.md):
// the real layout (55 columns, header names with their leading spaces, every value quoted, DD/MM/YYYY
// dates, SIC as "NNNNN - text"), UK companies numbered 00000001… so that every row is a company of
// its own. The same rows and seed give the same file; `changedEvery` makes an update file in which
// every n-th company has a new registered address line and accounts due date, and nothing else differs.

export const BASIC_COMPANY_DATA_HEADER =
  'CompanyName, CompanyNumber,RegAddress.CareOf,RegAddress.POBox,RegAddress.AddressLine1, RegAddress.AddressLine2,RegAddress.PostTown,RegAddress.County,RegAddress.Country,RegAddress.PostCode,CompanyCategory,CompanyStatus,CountryOfOrigin,DissolutionDate,IncorporationDate,Accounts.AccountRefDay,Accounts.AccountRefMonth,Accounts.NextDueDate,Accounts.LastMadeUpDate,Accounts.AccountCategory,Returns.NextDueDate,Returns.LastMadeUpDate,Mortgages.NumMortCharges,Mortgages.NumMortOutstanding,Mortgages.NumMortPartSatisfied,Mortgages.NumMortSatisfied,SICCode.SicText_1,SICCode.SicText_2,SICCode.SicText_3,SICCode.SicText_4,LimitedPartnerships.NumGenPartners,LimitedPartnerships.NumLimPartners,URI,PreviousName_1.CONDATE, PreviousName_1.CompanyName, PreviousName_2.CONDATE, PreviousName_2.CompanyName,PreviousName_3.CONDATE, PreviousName_3.CompanyName,PreviousName_4.CONDATE, PreviousName_4.CompanyName,PreviousName_5.CONDATE, PreviousName_5.CompanyName,PreviousName_6.CONDATE, PreviousName_6.CompanyName,PreviousName_7.CONDATE, PreviousName_7.CompanyName,PreviousName_8.CONDATE, PreviousName_8.CompanyName,PreviousName_9.CONDATE, PreviousName_9.CompanyName,PreviousName_10.CONDATE, PreviousName_10.CompanyName,ConfStmtNextDueDate, ConfStmtLastMadeUpDate';

/** UK SIC 2007 codes of the demo industry groups (the demo's own industries are NAICS). */
const SIC_OF_GROUP: Record<string, string> = {
  accounting: '69201 - Accounting and auditing activities',
  bank: '64191 - Banks',
  building: '41201 - Construction of commercial buildings',
  care: '87300 - Residential care activities for the elderly and disabled',
  cars: '45111 - Sale of new cars and light motor vehicles',
  civil: '42990 - Construction of other civil engineering projects n.e.c.',
  clinics: '86210 - General medical practice activities',
  consulting: '70229 - Management consultancy activities other than financial management',
  crops: '01110 - Growing of cereals (except rice), leguminous crops and oil seeds',
  education: '85590 - Other education n.e.c.',
  engineering: '71129 - Other engineering activities',
  facilities: '81100 - Combined facilities support activities',
  finance: '64999 - Financial intermediation not elsewhere classified',
  food: '10890 - Manufacture of other food products n.e.c.',
  forestry: '02100 - Silviculture and other forestry activities',
  grocery: '47110 - Retail sale in non-specialised stores with food, beverages or tobacco predominating',
  holding: '64209 - Activities of other holding companies n.e.c.',
  hotels: '55100 - Hotels and similar accommodation',
  insurance: '65120 - Non-life insurance',
  legal: '69102 - Solicitors',
  leisure: '93290 - Other amusement and recreation activities n.e.c.',
  livestock: '01410 - Raising of dairy cattle',
  logistics: '52290 - Other transportation support activities',
  manufacturing: '32990 - Other manufacturing n.e.c.',
  marketing: '73110 - Advertising agencies',
  media: '59112 - Video production activities',
  mining: '08990 - Other mining and quarrying n.e.c.',
  organizations: '94990 - Activities of other membership organisations n.e.c.',
  personal: '96020 - Hairdressing and other beauty treatment',
  public: '84110 - General public administration activities',
  'real-estate': '68209 - Other letting and operating of own or leased real estate',
  rental: '77390 - Renting and leasing of other machinery, equipment and tangible goods n.e.c.',
  repair: '45200 - Maintenance and repair of motor vehicles',
  research: '72190 - Other research and experimental development on natural sciences and engineering',
  restaurants: '56101 - Licensed restaurants',
  retail: '47190 - Other retail sale in non-specialised stores',
  shipping: '50200 - Sea and coastal freight water transport',
  software: '62012 - Business and domestic software development',
  staffing: '78200 - Temporary employment agency activities',
  telecom: '61900 - Other telecommunications activities',
  trades: '43390 - Other building completion and finishing',
  trucking: '49410 - Freight transport by road',
  utilities: '35110 - Production of electricity',
  waste: '38110 - Collection of non-hazardous waste',
  wholesale: '46900 - Non-specialised wholesale trade',
};
const OTHER_SIC = '82990 - Other business support service activities n.e.c.';

const STATUS_TEXT: Record<number, string> = {
  [STATUS.active]: 'Active',
  [STATUS.inactive]: 'Converted/Closed',
  [STATUS.dissolved]: 'Dissolved',
  [STATUS.liquidation]: 'Liquidation',
  [STATUS.bankrupt]: 'In Administration',
  [STATUS.dormant]: 'Active',
  [STATUS.struckOff]: 'Dissolved',
  [STATUS.merged]: 'Dissolved',
};

const DATE_TYPE = { dissolution: 4, accounts: 8, annualReport: 9 };
const ADDRESS_REGISTERED = 5;

/** A date as Companies House writes it: DD/MM/YYYY. */
export function dmy(date: string | null | undefined): string {
  return date ? `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}` : '';
}

const quote = (value: string | number) => `"${String(value).replace(/"/g, '""')}"`;

const HEADER_NAMES = BASIC_COMPANY_DATA_HEADER.split(',').map((name) => name.trim());

/** A line of the file from values by header name (without the header's spaces); the others are empty. */
export function basicCompanyCsvLine(values: Record<string, string>): string {
  return HEADER_NAMES.map((name) => quote(values[name] ?? '')).join(',');
}

/** The CSV line of one demo company (number = its id), changed when `changed` is set. */
export function basicCompanyLine(company: SeedCompany, changed: boolean): string {
  const number = String(company.id).padStart(8, '0');
  const address = company.addresses.find((a) => a.address_type_id === ADDRESS_REGISTERED) ?? company.addresses[0];
  const dateOfType = (type: number) => company.dates.find((d) => d.date_type_id === type)?.date ?? null;
  const madeUpTo = dateOfType(DATE_TYPE.accounts);
  const accountsDue = madeUpTo ? dateOf(dayOf(madeUpTo) + 274) : dateOf(dayOf(company.registered_on) + 639);
  const confirmation = dateOfType(DATE_TYPE.annualReport);
  const dissolved = company.status_id === STATUS.dissolved || company.status_id === STATUS.struckOff;
  const previous = company.names.find((n) => n.name_type_id === 3 || n.name_type_id === 5);
  const line1 = changed ? `${address.address_line_1 ?? ''} (MOVED)`.trim() : (address.address_line_1 ?? '');
  const fields: (string | number)[] = [
    company.name.toUpperCase(),
    number,
    '',
    '',
    line1.toUpperCase(),
    (address.address_line_2 ?? '').toUpperCase(),
    (address.locality ?? '').toUpperCase(),
    (address.county ?? '').toUpperCase(),
    (address.state ?? 'United Kingdom').toUpperCase(),
    address.post_code ?? '',
    'Private Limited Company',
    STATUS_TEXT[company.status_id] ?? 'Active',
    'United Kingdom',
    dissolved ? dmy(dateOfType(DATE_TYPE.dissolution)) : '',
    dmy(company.registered_on),
    madeUpTo ? madeUpTo.slice(8, 10) : '31',
    madeUpTo ? String(Number(madeUpTo.slice(5, 7))) : '12',
    dmy(changed ? dateOf(dayOf(accountsDue) + 365) : accountsDue),
    dmy(madeUpTo),
    company.status_id === STATUS.dormant ? 'DORMANT' : madeUpTo ? 'TOTAL EXEMPTION FULL' : 'NO ACCOUNTS FILED',
    '',
    '',
    0,
    0,
    0,
    0,
    SIC_OF_GROUP[company.industryGroup] ?? OTHER_SIC,
    '',
    '',
    '',
    0,
    0,
    `http://business.data.gov.uk/id/company/${number}`,
    previous ? dmy(company.registered_on) : '',
    previous ? previous.name.toUpperCase() : '',
    ...Array<string>(18).fill(''),
    confirmation ? dmy(dateOf(dayOf(confirmation) + 365)) : '',
    dmy(confirmation),
  ];
  return fields.map(quote).join(',');
}

export type CompaniesHouseFileOptions = {
  rows: number;
  out: string;
  seed?: number;
  /** Every n-th company (by number) is changed (an update file); 0 = none. */
  changedEvery?: number;
  onProgress?: (done: number) => void;
};

/** Writes the file (streamed: memory stays flat whatever the row count). */
export async function writeCompaniesHouseFile(options: CompaniesHouseFileOptions): Promise<void> {
  const reference = buildReferenceData();
  const names = new Map(
    reference.translations
      .filter((t) => t.entity === 'location' && t.language_id === LANGUAGE_EN)
      .map((t) => [t.entity_id, t.name]),
  );
  // The leaf industries, as the demo seed reads them (db/seed/seed-catalog.ts loadCatalogSource).
  const deepest = Math.max(...reference.industries.map((i) => i.level));
  const catalog = buildSeedCatalog({
    locations: reference.locations.map((l) => ({ ...l, name: names.get(l.id) ?? null })),
    currencies: reference.currencies,
    industries: reference.industries.filter((i) => i.level === deepest),
  });
  const gb = catalog.jurisdictions.find((j) => j.profile.code === 'GB');
  if (!gb) throw new Error('the demo catalog has no GB jurisdiction');
  const ukCatalog = { ...catalog, pickJurisdiction: () => gb };
  const pool = createPersonPool(catalog.personCountries);
  const seed = options.seed ?? 1;
  const changedEvery = options.changedEvery ?? 0;
  const out = createWriteStream(options.out);
  let buffer = `${BASIC_COMPANY_DATA_HEADER}\n`;
  for (let id = 1; id <= options.rows; id++) {
    const company = makeCompany(ukCatalog, pool, seed, id);
    buffer += `${basicCompanyLine(company, changedEvery > 0 && id % changedEvery === 0)}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
      options.onProgress?.(id);
    }
  }
  out.end(buffer);
  await once(out, 'finish');
  options.onProgress?.(options.rows);
}
