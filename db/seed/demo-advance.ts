import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { escapeXml } from '../../core/export/writers.ts';
import { type ImportSummary, runImport } from '../../core/imports/run-import.ts';
import { chCompaniesSource } from '../../core/imports/sources/companies-house/ch-companies-source.ts';
import { gleifLei } from '../../core/imports/sources/gleif-lei.ts';
import { mixSeed, seededRandom } from '../../core/seeded-random.ts';
import type { Db } from '../client.ts';
import { BASIC_COMPANY_DATA_HEADER, basicCompanyCsvLine, dmy } from './companies-house-file.ts';
import { splitLegalForm } from './company-factory.ts';
import { generateLei } from './identifiers.ts';

// `demo advance --days N` (docs/decisions/0014-importers.md "Demo updates"): the demo data gets a
// history. For each day, a GLEIF LEI-CDF delta file in the real layout is written for demo companies
// that have an LEI — some moved (another demo company's registered address in the same country),
// some renamed (" Holding" before the legal form), some gone inactive — and for a few new companies,
// then imported through the same importer as a real delta; then a Companies House BasicCompanyData
// delta (the real CSV layout) for demo companies of Great Britain — some moved, some in liquidation,
// the others with their accounts due a year on — imported through ch-companies. The same day gives
// the same files, so advancing over a day again changes nothing.

const COMPANIES_PER_DAY = 25;
const NEW_COMPANIES_PER_DAY = 3;
const ADDRESS_REGISTERED = 5;
const IDENTIFIER_LEI = 5;
const IDENTIFIER_COMPANY_NUMBER = 2;
const HOLDING = ' Holding';

type DemoCompany = {
  id: number;
  name: string;
  lei: string;
  number: string | null;
  country: string;
  /** The jurisdiction as GLEIF writes it: the country, or its subdivision (US-NY). */
  jurisdiction: string;
  registered_on: string | null;
  status: string | null;
  line1: string | null;
  line2: string | null;
  city: string | null;
  post_code: string | null;
};

type LeiRecord = {
  lei: string;
  name: string;
  country: string;
  jurisdiction: string;
  number: string | null;
  address: { lines: string[]; city: string; postCode: string | null };
  active: boolean;
  createdOn: string | null;
  lastUpdate: string;
};

function addressXml(tag: string, record: LeiRecord): string {
  const [first, ...more] = record.address.lines;
  return `        <lei:${tag}>
          <lei:FirstAddressLine>${escapeXml(first ?? '')}</lei:FirstAddressLine>
${more.map((l) => `          <lei:AdditionalAddressLine>${escapeXml(l)}</lei:AdditionalAddressLine>\n`).join('')}          <lei:City>${escapeXml(record.address.city)}</lei:City>
          <lei:Country>${record.country}</lei:Country>
${record.address.postCode ? `          <lei:PostalCode>${escapeXml(record.address.postCode)}</lei:PostalCode>\n` : ''}        </lei:${tag}>`;
}

/** One LEIRecord of LEI-CDF 2.1. */
export function leiRecordXml(record: LeiRecord): string {
  return `    <lei:LEIRecord>
      <lei:LEI>${record.lei}</lei:LEI>
      <lei:Entity>
        <lei:LegalName>${escapeXml(record.name)}</lei:LegalName>
${addressXml('LegalAddress', record)}
${addressXml('HeadquartersAddress', record)}
        <lei:RegistrationAuthority>
          <lei:RegistrationAuthorityID>RA888888</lei:RegistrationAuthorityID>
${record.number ? `          <lei:RegistrationAuthorityEntityID>${escapeXml(record.number)}</lei:RegistrationAuthorityEntityID>\n` : ''}        </lei:RegistrationAuthority>
        <lei:LegalJurisdiction>${record.jurisdiction}</lei:LegalJurisdiction>
        <lei:LegalForm>
          <lei:EntityLegalFormCode>8888</lei:EntityLegalFormCode>
        </lei:LegalForm>
        <lei:EntityStatus>${record.active ? 'ACTIVE' : 'INACTIVE'}</lei:EntityStatus>
${record.createdOn ? `        <lei:EntityCreationDate>${record.createdOn}T00:00:00Z</lei:EntityCreationDate>\n` : ''}      </lei:Entity>
      <lei:Registration>
        <lei:InitialRegistrationDate>2014-06-01T00:00:00Z</lei:InitialRegistrationDate>
        <lei:LastUpdateDate>${record.lastUpdate}</lei:LastUpdateDate>
        <lei:RegistrationStatus>${record.active ? 'ISSUED' : 'LAPSED'}</lei:RegistrationStatus>
        <lei:NextRenewalDate>2027-06-01T00:00:00Z</lei:NextRenewalDate>
        <lei:ManagingLOU>5493001KJTIIGC8Y1R12</lei:ManagingLOU>
        <lei:ValidationSources>FULLY_CORROBORATED</lei:ValidationSources>
      </lei:Registration>
    </lei:LEIRecord>`;
}

export function leiFileXml(day: string, records: LeiRecord[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<lei:LEIData xmlns:lei="http://www.gleif.org/data/schema/leidata/2016">
  <lei:LEIHeader>
    <lei:ContentDate>${day}T08:00:00Z</lei:ContentDate>
    <lei:FileContent>GLEIF_DELTA_PUBLISHED</lei:FileContent>
    <lei:RecordCount>${records.length}</lei:RecordCount>
  </lei:LEIHeader>
  <lei:LEIRecords>
${records.map(leiRecordXml).join('\n')}
  </lei:LEIRecords>
</lei:LEIData>
`;
}

/**
 * The name with " Holding" before its legal form (a form of the company's country, kept whole:
 * "… Holding UG (haftungsbeschränkt)", "… Holding GmbH & Co. KG"), or after it when it has none, once.
 */
export function renamed(name: string, country: string): string {
  if (name.includes(HOLDING)) return name;
  const split = splitLegalForm(name, country);
  if (split?.position === 'after') return `${split.core}${HOLDING} ${split.form}`;
  return `${name}${HOLDING}`;
}

/**
 * A new company's name: the first word of another demo company's name (from any country) before
 * the rest of this one's, whose legal form — a form of this company's country, where the new
 * company is — it keeps whole. (Keeping the other's rest put "S.C." and "Fondation" on companies
 * in Germany.)
 */
function newCompanyName(c: DemoCompany, other: DemoCompany): string {
  const own = splitLegalForm(c.name, c.country);
  const first = (splitLegalForm(other.name, other.country)?.core ?? other.name).split(' ')[0];
  const core = (own?.core ?? c.name).split(' ');
  const rest = core.length > 1 ? core.slice(1).join(' ') : core[0];
  const name = `${first} ${rest}`;
  if (!own) return name;
  return own.position === 'after' ? `${name} ${own.form}` : `${own.form} ${name}`;
}

/**
 * Demo companies with an LEI and a registered address, picked for a day (the same day picks the same
 * ones): of a country when given, never one of `except`, and never one an import created.
 */
async function companiesOfDay(
  db: Db,
  day: string,
  count: number,
  filter: { country?: string; except?: number[] } = {},
): Promise<DemoCompany[]> {
  const rows = await sql<DemoCompany>`
    select l.id, l.name, i.identifier as lei, n.identifier as number, loc.country_code as country,
      coalesce(loc.subdivision_code, loc.country_code) as jurisdiction,
      l.registered_on::text as registered_on, s.uri as status,
      a.address_line_1 as line1, a.address_line_2 as line2, a.locality as city, a.post_code
    from legal_entity_identifiers i
    join legal_entities l on l.id = i.legal_entity_id
    join locations loc on loc.id = l.jurisdiction_id
    left join statuses s on s.id = l.status_id
    left join legal_entity_identifiers n on n.legal_entity_id = l.id
      and n.identifier_type_id = ${IDENTIFIER_COMPANY_NUMBER} and n.position = 0
    left join legal_entity_addresses a on a.legal_entity_id = l.id
      and a.address_type_id = ${ADDRESS_REGISTERED} and a.position = 0
    where i.identifier_type_id = ${IDENTIFIER_LEI} and i.position = 0
      and a.address_line_1 is not null and a.locality is not null
      and not exists (select 1 from company_changes c where c.legal_entity_id = l.id and c.field = 'company')
      and (${filter.country ?? null}::text is null or loc.country_code = ${filter.country ?? null})
      and l.id <> all(${filter.except ?? []}::bigint[])
    order by md5(l.id::text || ${day}), l.id
    limit ${count}`.execute(db.kysely);
  return rows.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

function addressOf(c: DemoCompany): LeiRecord['address'] {
  return { lines: [c.line1, c.line2].filter((l): l is string => !!l), city: c.city ?? '', postCode: c.post_code };
}

/** The records of one day: changed demo companies, and a few new companies. */
export async function dayRecords(db: Db, day: string): Promise<LeiRecord[]> {
  const picked = await companiesOfDay(db, day, COMPANIES_PER_DAY + NEW_COMPANIES_PER_DAY * 2);
  const changing = picked.slice(0, COMPANIES_PER_DAY);
  const donors = picked.slice(COMPANIES_PER_DAY);
  const random = seededRandom(mixSeed(Number(day.replaceAll('-', ''))));
  const lastUpdate = `${day}T06:00:00Z`;
  const except = picked.map((c) => c.id);
  const records: LeiRecord[] = [];
  for (const [n, c] of changing.entries()) {
    const record: LeiRecord = {
      lei: c.lei,
      name: c.name,
      country: c.country,
      jurisdiction: c.jurisdiction,
      number: c.number,
      address: addressOf(c),
      active: c.status !== 'inactive',
      createdOn: c.registered_on,
      lastUpdate,
    };
    switch (n % 3) {
      case 0: {
        // Moved: to the address of a company of its country that does not change today.
        const [to] = await companiesOfDay(db, day, 1, { country: c.country, except });
        if (to) record.address = addressOf(to);
        else record.name = renamed(c.name, c.country);
        break;
      }
      case 1:
        record.name = renamed(c.name, c.country);
        break;
      default:
        record.active = false;
    }
    records.push(record);
  }
  // New companies: a new LEI, a name made of two demo companies' words with the legal form of the
  // first one's country, the first one's address.
  for (let n = 0; n < NEW_COMPANIES_PER_DAY && n * 2 + 1 < donors.length; n++) {
    const [a, b] = [donors[n * 2], donors[n * 2 + 1]];
    records.push({
      lei: generateLei(random.next),
      name: newCompanyName(a, b),
      country: a.country,
      jurisdiction: a.jurisdiction,
      number: null,
      address: addressOf(a),
      active: true,
      createdOn: day,
      lastUpdate,
    });
  }
  return records;
}

/** The days from `days - 1` days before `today` to `today` (yyyy-MM-dd, UTC). */
export function advanceDays(days: number, today = new Date()): string[] {
  const out: string[] = [];
  for (let back = days - 1; back >= 0; back--)
    out.push(new Date(today.getTime() - back * 86_400_000).toISOString().slice(0, 10));
  return out;
}

/** Writes the day's delta file into `dir` and returns its path. */
export async function writeDayFile(db: Db, day: string, dir: string): Promise<string> {
  const path = join(dir, `${day.replaceAll('-', '')}-gleif-lei2-delta.xml`);
  await writeFile(path, leiFileXml(day, await dayRecords(db, day)));
  return path;
}

const CH_COMPANIES_PER_DAY = 12;
/** Mixed into the day's pick, so the Companies House companies are not the GLEIF ones. */
const CH_PICKS = 'ch';

/** Our statuses as Companies House writes them (CompanyStatus). */
const CH_STATUS: Record<string, string> = {
  active: 'Active',
  dormant: 'Active',
  inactive: 'Converted/Closed',
  dissolved: 'Dissolved',
  'struck-off': 'Dissolved',
  merged: 'Dissolved',
  'in-liquidation': 'Liquidation',
  bankrupt: 'In Administration',
};

type UkCompany = DemoCompany & { industry: string | null };

/**
 * Demo companies of Great Britain (the country itself, as Companies House's jurisdiction is) with a
 * company number and a registered address, picked for a day; never one an import created.
 */
async function ukCompaniesOfDay(db: Db, day: string, count: number): Promise<UkCompany[]> {
  const rows = await sql<UkCompany>`
    select l.id, l.name, n.identifier as number, 'GB' as country, 'GB' as jurisdiction,
      l.registered_on::text as registered_on, s.uri as status, ind.code as industry,
      a.address_line_1 as line1, a.address_line_2 as line2, a.locality as city, a.post_code
    from legal_entities l
    join locations loc on loc.id = l.jurisdiction_id
    join legal_entity_identifiers n on n.legal_entity_id = l.id
      and n.identifier_type_id = ${IDENTIFIER_COMPANY_NUMBER} and n.position = 0
    join legal_entity_addresses a on a.legal_entity_id = l.id
      and a.address_type_id = ${ADDRESS_REGISTERED} and a.position = 0
    left join statuses s on s.id = l.status_id
    left join industries ind on ind.id = l.primary_industry_id
    where loc.country_code = 'GB' and loc.subdivision_code is null
      and a.address_line_1 is not null and a.locality is not null and l.registered_on is not null
      and not exists (select 1 from company_changes c where c.legal_entity_id = l.id and c.field = 'company')
    order by md5(l.id::text || ${CH_PICKS} || ${day}), l.id
    limit ${count}`.execute(db.kysely);
  return rows.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** A NACE code ("62.01") as a UK SIC 2007 code ("62010": UK SIC adds a fifth digit to NACE's class). */
function ukSic(nace: string | null): string {
  return nace ? nace.replace(/\D/g, '').padEnd(5, '0') : '';
}

/** The day's Companies House rows (CSV lines without the header): moved, in liquidation, accounts due a year on. */
export async function chDayLines(db: Db, day: string): Promise<string[]> {
  const picked = await ukCompaniesOfDay(db, day, CH_COMPANIES_PER_DAY + 1);
  const donor = picked.at(-1);
  return picked.slice(0, CH_COMPANIES_PER_DAY).map((c, n) => {
    // Moved: to the last picked company's address (it does not change today).
    const address = n % 3 === 0 && donor ? donor : c;
    const status = n % 3 === 1 ? 'in-liquidation' : (c.status ?? 'active');
    const accountsDue = n % 3 === 2 ? `${Number(day.slice(0, 4)) + 1}${day.slice(4)}` : day;
    return basicCompanyCsvLine({
      CompanyName: c.name,
      CompanyNumber: c.number ?? '',
      'RegAddress.AddressLine1': address.line1 ?? '',
      'RegAddress.AddressLine2': address.line2 ?? '',
      'RegAddress.PostTown': address.city ?? '',
      'RegAddress.PostCode': address.post_code ?? '',
      CompanyCategory: 'Private Limited Company',
      CompanyStatus: CH_STATUS[status] ?? 'Active',
      CountryOfOrigin: 'United Kingdom',
      IncorporationDate: dmy(c.registered_on),
      'Accounts.NextDueDate': dmy(accountsDue),
      'SICCode.SicText_1': c.industry ? `${ukSic(c.industry)} - ${INDUSTRY_TEXT}` : '',
      URI: `http://business.data.gov.uk/id/company/${c.number ?? ''}`,
    });
  });
}

/** The SIC text after the code (the importer reads the code; the words are the register's). */
const INDUSTRY_TEXT = 'As classified by the register';

/** Writes the day's Companies House delta (BasicCompanyData layout) into `dir` and returns its path. */
export async function writeChDayFile(db: Db, day: string, dir: string): Promise<string> {
  const path = join(dir, `BasicCompanyData-${day}-delta.csv`);
  await writeFile(path, `${BASIC_COMPANY_DATA_HEADER}\n${(await chDayLines(db, day)).join('\n')}\n`);
  return path;
}

/**
 * `demo advance`: for each of the last `days` days up to `today`, writes the day's GLEIF and
 * Companies House delta files into `dir` and imports them through their importers — the same
 * framework, and so the same refresh of what the changes touch (afterCompanyWrite), as a real delta.
 */
export async function advanceDemo(
  db: Db,
  options: {
    days: number;
    dir: string;
    today?: Date;
    onImported?: (day: string, file: string, summary: ImportSummary) => void;
  },
): Promise<void> {
  for (const day of advanceDays(options.days, options.today)) {
    for (const [source, write] of [
      [gleifLei, writeDayFile],
      [chCompaniesSource, writeChDayFile],
    ] as const) {
      const file = await write(db, day, options.dir);
      options.onImported?.(day, file, await runImport(db, source, [file]));
    }
  }
}
