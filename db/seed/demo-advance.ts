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
import { dayRecordWrites, type WriteRecords, writeDayRecords } from './demo-records.ts';
import { generateLei } from './identifiers.ts';
import { loadSeedCatalog, type SeedCatalog } from './seed-catalog.ts';

// `demo advance --days N` (docs/decisions/0014-importers.md "Demo updates"): the demo data gets a
// history. For each day, a GLEIF LEI-CDF delta file in the real layout is written for demo companies
// that have an LEI — some moved (another demo company's registered address in the same country),
// some renamed (" Holding" before the legal form), some gone inactive — and for a few new companies,
// then imported through the same importer as a real delta; then a Companies House BasicCompanyData
// delta (the real CSV layout) for demo companies of Great Britain — some moved, some in liquidation,
// the others with their accounts due a year on — imported through ch-companies; then records of
// some companies' sections (db/seed/demo-records.ts). Besides random companies, each day changes a
// few of the companies users track, so that tracking then advancing shows update reports. Statuses
// only move forward (LIFE_STAGE); the places a status is written: the GLEIF record's EntityStatus
// and RegistrationStatus (leiRecordXml, dayRecords), the Companies House row's CompanyStatus and
// DissolutionDate (chDayLines), and a record's status (demo-records.ts: permits pending → approved).
// The same day gives the same files, so advancing over a day again changes nothing; days before the
// newest one advanced to are skipped (advancedUpTo).

/** Demo companies a day picks for its GLEIF file (those whose status GLEIF can state are written: about 25). */
const COMPANIES_PER_DAY = 30;
/** Tracked companies of each user (of their active trackings) a day changes, besides the random ones… */
export const TRACKED_PER_USER = 3;
/** …and of all users together. */
const TRACKED_PER_DAY = 50;
/** Random companies each day gives a record (besides the tracked ones). */
const RECORD_COMPANIES_PER_DAY = 8;
const NEW_COMPANIES_PER_DAY = 3;
const ADDRESS_REGISTERED = 5;
const IDENTIFIER_LEI = 5;
const IDENTIFIER_COMPANY_NUMBER = 2;
const HOLDING = ' Holding';

/**
 * A company's stage of life: statuses move to a later stage, never back (active → in liquidation →
 * dissolved). A status the demo cannot state without moving it back is never written: GLEIF's
 * ACTIVE is our `active`, so a company past that stage gets no GLEIF record, and a company past
 * liquidation no Companies House row.
 */
export const LIFE_STAGE: Record<string, number> = {
  active: 0,
  dormant: 0,
  'in-liquidation': 1,
  bankrupt: 1,
  inactive: 2,
  dissolved: 2,
  'struck-off': 2,
  merged: 2,
};

/** The stage of a status (none: the first). */
export function lifeStage(status: string | null): number {
  return status === null ? 0 : (LIFE_STAGE[status] ?? 0);
}

type DemoCompany = {
  id: number;
  name: string;
  /** Null for a tracked company without one: its first GLEIF record gives it one. */
  lei: string | null;
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
 * ones): of a country when given, never one of `except`, and never one an import created. With
 * `tracked`, companies of active trackings instead (a few of each user's, so that every user sees
 * some of theirs change), with or without an LEI (then with a company number, which their first
 * GLEIF record is matched by).
 */
async function companiesOfDay(
  db: Db,
  day: string,
  count: number,
  filter: { country?: string; except?: number[]; tracked?: boolean } = {},
): Promise<DemoCompany[]> {
  const tracked = filter.tracked === true;
  const rows = await sql<DemoCompany>`
    select l.id, l.name, i.identifier as lei, n.identifier as number, loc.country_code as country,
      coalesce(loc.subdivision_code, loc.country_code) as jurisdiction,
      l.registered_on::text as registered_on, s.uri as status,
      a.address_line_1 as line1, a.address_line_2 as line2, a.locality as city, a.post_code
    from legal_entities l
    ${tracked ? sql`left join` : sql`join`} legal_entity_identifiers i on i.legal_entity_id = l.id
      and i.identifier_type_id = ${IDENTIFIER_LEI} and i.position = 0
    join locations loc on loc.id = l.jurisdiction_id
    left join statuses s on s.id = l.status_id
    left join legal_entity_identifiers n on n.legal_entity_id = l.id
      and n.identifier_type_id = ${IDENTIFIER_COMPANY_NUMBER} and n.position = 0
    left join legal_entity_addresses a on a.legal_entity_id = l.id
      and a.address_type_id = ${ADDRESS_REGISTERED} and a.position = 0
    where a.address_line_1 is not null and a.locality is not null
      and not exists (select 1 from company_changes c where c.legal_entity_id = l.id and c.field = 'company')
      and (${filter.country ?? null}::text is null or loc.country_code = ${filter.country ?? null})
      and l.id <> all(${filter.except ?? []}::bigint[])
      ${
        tracked
          ? sql`and l.id in (select r.legal_entity_id from (select t.legal_entity_id, row_number() over (
          partition by t.user_id order by md5(t.legal_entity_id::text || ${TRACKED_PICKS} || ${day}), t.legal_entity_id) as n
        from existing_objects_tracking t where t.status = 'active') r where r.n <= ${TRACKED_PER_USER})
      and (i.identifier is not null or n.identifier is not null)`
          : sql``
      }
    order by md5(l.id::text || ${tracked ? TRACKED_PICKS : ''} || ${day}), l.id
    limit ${count}`.execute(db.kysely);
  return rows.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Mixed into the day's pick of tracked companies. */
const TRACKED_PICKS = 'tracked';

/** The tracked companies a day changes (of any user's active trackings; the same day picks the same ones). */
export async function trackedCompaniesOfDay(db: Db, day: string): Promise<DemoCompany[]> {
  return companiesOfDay(db, day, TRACKED_PER_DAY, { tracked: true });
}

/** The LEI a company without one gets from its first GLEIF record (the same company, the same LEI). */
function firstLei(companyId: number): string {
  return generateLei(seededRandom(mixSeed(companyId, 0x1e1)).next);
}

/** Whether GLEIF can state the company's status without moving it back (ACTIVE is our `active`). */
function gleifCanState(c: DemoCompany): boolean {
  return c.status === null || c.status === 'active';
}

function addressOf(c: DemoCompany): LeiRecord['address'] {
  return { lines: [c.line1, c.line2].filter((l): l is string => !!l), city: c.city ?? '', postCode: c.post_code };
}

/**
 * The records of one day: changed tracked companies (moved), changed demo companies, and a few new
 * companies. A company whose status GLEIF cannot state (gleifCanState) is left out.
 */
export async function dayRecords(db: Db, day: string): Promise<LeiRecord[]> {
  const picked = await companiesOfDay(db, day, COMPANIES_PER_DAY + NEW_COMPANIES_PER_DAY * 2);
  const changing = picked.slice(0, COMPANIES_PER_DAY);
  const donors = picked.slice(COMPANIES_PER_DAY);
  // A tracked company the random pick has already changes as picked; the others move.
  const tracked = (await trackedCompaniesOfDay(db, day)).filter((c) => !changing.some((p) => p.id === c.id));
  const random = seededRandom(mixSeed(Number(day.replaceAll('-', ''))));
  const lastUpdate = `${day}T06:00:00Z`;
  const except = [...tracked, ...picked].map((c) => c.id);
  const records: LeiRecord[] = [];
  const recordOf = (c: DemoCompany): LeiRecord => ({
    lei: c.lei ?? firstLei(c.id),
    name: c.name,
    country: c.country,
    jurisdiction: c.jurisdiction,
    number: c.number,
    address: addressOf(c),
    active: true,
    createdOn: c.registered_on,
    lastUpdate,
  });
  const destinations = new Map<string, DemoCompany | undefined>();
  /** Moved: to the address of a company of its country that does not change today (renamed when there is none). */
  const move = async (c: DemoCompany, record: LeiRecord) => {
    if (!destinations.has(c.country))
      destinations.set(c.country, (await companiesOfDay(db, day, 1, { country: c.country, except }))[0]);
    const to = destinations.get(c.country);
    if (to) record.address = addressOf(to);
    else record.name = renamed(c.name, c.country);
  };
  for (const [n, c] of changing.entries()) {
    if (!gleifCanState(c)) continue;
    const record = recordOf(c);
    switch (n % 3) {
      case 0:
        await move(c, record);
        break;
      case 1:
        record.name = renamed(c.name, c.country);
        break;
      default:
        // ACTIVE → INACTIVE, never back: an inactive company is not picked again (gleifCanState).
        record.active = false;
    }
    records.push(record);
  }
  // A tracked company moves each day it is picked: a change its users see in their update reports.
  for (const c of tracked.filter(gleifCanState)) {
    const record = recordOf(c);
    await move(c, record);
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

/** Demo companies a day picks for its Companies House file (those whose status it can state are written: about 12). */
const CH_COMPANIES_PER_DAY = 24;
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

type UkCompany = DemoCompany & {
  industry: string | null;
  /** The day (UTC) a source last changed its status; null when none has. */
  status_since: string | null;
};

/**
 * Demo companies of Great Britain (the country itself, as Companies House's jurisdiction is) with a
 * company number and a registered address, picked for a day; never one an import created, nor one
 * of `except`.
 */
async function ukCompaniesOfDay(db: Db, day: string, count: number, except: number[]): Promise<UkCompany[]> {
  const rows = await sql<UkCompany>`
    select l.id, l.name, n.identifier as number, 'GB' as country, 'GB' as jurisdiction,
      l.registered_on::text as registered_on, s.uri as status, ind.code as industry,
      (select (max(c.source_date) at time zone 'UTC')::date::text from company_changes c
        where c.legal_entity_id = l.id and c.field = 'status') as status_since,
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
      and l.id <> all(${except}::bigint[])
    order by md5(l.id::text || ${CH_PICKS} || ${day}), l.id
    limit ${count}`.execute(db.kysely);
  return rows.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** A NACE code ("62.01") as a UK SIC 2007 code ("62010": UK SIC adds a fifth digit to NACE's class). */
function ukSic(nace: string | null): string {
  return nace ? nace.replace(/\D/g, '').padEnd(5, '0') : '';
}

/** The statuses Companies House states as the demo writes them (a company of another is left out). */
const CH_WRITES = new Set(['active', 'in-liquidation', 'bankrupt']);

/**
 * The status a Companies House row of the day gives a company, forward only: a company's life-cycle
 * step (`step`) takes an active one into liquidation, and one in liquidation or administration
 * since an earlier day to dissolved; otherwise it keeps its status.
 */
export function chStatusOfDay(c: { status: string | null; status_since: string | null }, day: string, step: boolean) {
  const status = c.status ?? 'active';
  if (!step) return status;
  if (lifeStage(status) === 0) return 'in-liquidation';
  if (lifeStage(status) === 1 && (c.status_since === null || c.status_since < day)) return 'dissolved';
  return status;
}

/**
 * The day's Companies House rows (CSV lines without the header): moved, a life-cycle step (into
 * liquidation, or dissolved on the day), accounts due a year on. A company whose status Companies
 * House cannot state without moving it back (dissolved, struck off, dormant…) is left out, as are
 * the tracked companies the day's GLEIF file changes.
 */
export async function chDayLines(db: Db, day: string): Promise<string[]> {
  const tracked = (await trackedCompaniesOfDay(db, day)).map((c) => c.id);
  const picked = await ukCompaniesOfDay(db, day, CH_COMPANIES_PER_DAY + 1, tracked);
  const donor = picked.at(-1);
  return picked.slice(0, CH_COMPANIES_PER_DAY).flatMap((c, n) => {
    if (!CH_WRITES.has(c.status ?? 'active')) return [];
    // Moved: to the last picked company's address (it does not change today).
    const address = n % 3 === 0 && donor ? donor : c;
    const status = chStatusOfDay(c, day, n % 3 === 1);
    const accountsDue = n % 3 === 2 ? `${Number(day.slice(0, 4)) + 1}${day.slice(4)}` : day;
    return [
      basicCompanyCsvLine({
        CompanyName: c.name,
        CompanyNumber: c.number ?? '',
        'RegAddress.AddressLine1': address.line1 ?? '',
        'RegAddress.AddressLine2': address.line2 ?? '',
        'RegAddress.PostTown': address.city ?? '',
        'RegAddress.PostCode': address.post_code ?? '',
        CompanyCategory: 'Private Limited Company',
        CompanyStatus: CH_STATUS[status] ?? 'Active',
        CountryOfOrigin: 'United Kingdom',
        DissolutionDate: status === 'dissolved' ? dmy(day) : '',
        IncorporationDate: dmy(c.registered_on),
        'Accounts.NextDueDate': dmy(accountsDue),
        'SICCode.SicText_1': c.industry ? `${ukSic(c.industry)} - ${INDUSTRY_TEXT}` : '',
        URI: `http://business.data.gov.uk/id/company/${c.number ?? ''}`,
      }),
    ];
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
 * The companies a day gives records: the day's tracked companies and a few random demo companies
 * (never one an import created; the same day picks the same ones).
 */
export async function recordCompaniesOfDay(db: Db, day: string): Promise<number[]> {
  const tracked = (await trackedCompaniesOfDay(db, day)).map((c) => c.id);
  const random = await sql<{ id: string | number }>`
    select l.id from legal_entities l
    where not exists (select 1 from company_changes c where c.legal_entity_id = l.id and c.field = 'company')
      and l.id <> all(${tracked}::bigint[])
    order by md5(l.id::text || ${RECORD_PICKS} || ${day}), l.id
    limit ${RECORD_COMPANIES_PER_DAY}`.execute(db.kysely);
  return [...tracked, ...random.rows.map((r) => Number(r.id))];
}

/** Mixed into the day's pick of companies that get records. */
const RECORD_PICKS = 'records';

/**
 * The newest day the demo has advanced to (its GLEIF delta imported), or null. The demo's history
 * only moves forward, as a register's does: a day before it would set its companies back to that
 * day, so advancing skips those days; the newest day itself is advanced again (with the same
 * companies, nothing changes; a company tracked since is changed as the day's tracked ones are).
 */
export async function advancedUpTo(db: Db): Promise<string | null> {
  const row = await sql<{ file: string | null }>`select max(file_name) as file from imports
    where source = ${gleifLei.name} and status = 'done' and file_name ~ '^[0-9]{8}-gleif-lei2-delta[.]xml$'`.execute(
    db.kysely,
  );
  const file = row.rows[0]?.file;
  return file ? `${file.slice(0, 4)}-${file.slice(4, 6)}-${file.slice(6, 8)}` : null;
}

/** What a day's records step did. */
export type DayRecordsSummary = { companies: number; records: number };

/**
 * `demo advance`: for each of the last `days` days up to `today` (but those before the newest day
 * advanced to: advancedUpTo), writes the day's GLEIF and
 * Companies House delta files into `dir` and imports them through their importers — the same
 * framework, and so the same refresh of what the changes touch (afterCompanyWrite) and the same
 * monitoring reports job, as a real delta — then writes the day's records through `writeRecords`
 * (db/seed/demo-records.ts writeDayRecords: core/records/record-writes.ts).
 */
export async function advanceDemo(
  db: Db,
  options: {
    days: number;
    dir: string;
    today?: Date;
    writeRecords?: WriteRecords;
    onImported?: (day: string, file: string, summary: ImportSummary) => void;
    onRecords?: (day: string, summary: DayRecordsSummary) => void;
    /** Days before the newest one advanced to (advancedUpTo), not advanced again. */
    onSkipped?: (days: string[]) => void;
  },
): Promise<void> {
  const writeRecords = options.writeRecords ?? writeDayRecords;
  let catalog: SeedCatalog | null = null;
  const newest = await advancedUpTo(db);
  const days = advanceDays(options.days, options.today);
  const skipped = days.filter((day) => newest !== null && day < newest);
  if (skipped.length > 0) options.onSkipped?.(skipped);
  for (const day of days.filter((d) => !skipped.includes(d))) {
    for (const [source, write] of [
      [gleifLei, writeDayFile],
      [chCompaniesSource, writeChDayFile],
    ] as const) {
      const file = await write(db, day, options.dir);
      // Imported before the callback: `onImported?.(…, await runImport(…))` would skip the import without one.
      const summary = await runImport(db, source, [file]);
      options.onImported?.(day, file, summary);
    }
    catalog ??= await loadSeedCatalog(db);
    const companies = await recordCompaniesOfDay(db, day);
    const writes = await dayRecordWrites(db, catalog, day, companies);
    await writeRecords(db, writes, { name: 'demo', day });
    options.onRecords?.(day, { companies: new Set(writes.map((w) => w.legalEntityId)).size, records: writes.length });
  }
}
