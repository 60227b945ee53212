import { isAdvancedProfile, profileListSizes } from '../../core/companies/advanced-profile.ts';
import { endOfDay, readHistoryAfter, rebuildCompany, rebuildLeiDetails } from '../../core/companies/as-of.ts';
import {
  type FactProvenance,
  provenanceSummary,
  readCompanyProvenance,
  readNameChanges,
} from '../../core/companies/company-history.ts';
import { companyIdOfUri } from '../../core/companies/company-uri.ts';
import { describeControlNature } from '../../core/companies/control-natures.ts';
import { type CompanyProfile, getCompany } from '../../core/companies/get-company.ts';
import { getCompanyRecords, OTHER_LISTS, type RecordList } from '../../core/companies/get-company-records.ts';
import { getLeiDetails, type LeiDetails, legalFormWords } from '../../core/companies/lei-details.ts';
import { formatAddress } from '../../core/companies/parts/addresses.ts';
import { numberFormat } from '../../core/i18n/i18n.ts';
import { personPath } from '../../core/people/person-path.ts';
import { type Unlocked, unlockedFor, visibleContacts, visibleRecordRows } from '../../core/purchases/paywall.ts';
import type { Lang, Reference } from '../../core/reference/reference-data.ts';
import type { RecordRow } from '../../core/search/find-records.ts';
import { RECORD_SECTIONS } from '../../core/sections/records.ts';
import { SECTIONS } from '../../core/sections/sections.ts';
import { staleReads } from '../../core/services.ts';
import type { Db } from '../../db/client.ts';
import type { AppServices } from '../services.ts';
import {
  type ConnectionsGraph,
  type GraphEdgeInput,
  type GraphNodeInput,
  layoutConnections,
} from './connections-graph.server.ts';
import { organizationJsonLd } from './organization-json-ld.server.ts';
import { type Cell, type Presenter, presenter } from './present.server.ts';
import {
  changeDate,
  type FinancialsView,
  profileFinancials,
  profileSummary,
  profileTimeline,
  type SummaryItem,
  type TimelineEntry,
} from './profile-summary.server.ts';
import { recordCells } from './search-page.server.ts';

export type ProfileRow = {
  /** Stable within its section. */
  key: string;
  label: string;
  value: string;
  href?: string;
  note?: string;
  /** Other companies a member sits on. */
  links?: { name: string; href: string }[];
};
/**
 * A section of the profile; `sources` says once, below its rows, where its facts came from and
 * when ("Sources: GLEIF, 5 May 2024; Companies House, 1 Jun 2024"), when imports wrote them.
 */
export type ProfileSection = { id: string; title: string; rows: ProfileRow[]; sources?: string };
/** A row as drafted: with its fact's provenance, which the section gathers into its one line. */
type SectionDraft = { id: string; title: string; rows: (Omit<ProfileRow, 'key'> & { fact?: FactProvenance })[] };

/** A related-record type on the profile: its first rows and a link to all of them. */
export type ProfileRecords = {
  id: string;
  title: string;
  columns: { key: string; label: string }[];
  rows: { id: number; cells: Record<string, Cell> }[];
  totalText: string;
  /** The section search narrowed to this company (absent for lists without a section). */
  allHref?: string;
  /** Where the rows came from, said once below them (financial statements: the filings, ADR 0037). */
  sources?: string;
};

export type ProfilePage = {
  records: ProfileRecords[];
  /** Related-record types the company has none of. */
  emptyRecordTypes: string[];
  /** The company's id (lists and browsing history refer to it). */
  id: number;
  name: string;
  uri: string;
  status: Cell;
  jurisdiction: Cell;
  jurisdictionHref: string;
  advanced: boolean;
  /** Who the company is, in one screen (ADR 0022). */
  summary: Omit<SummaryItem, 'fact'>[];
  /** Where the name and the overview's facts came from, once below the overview. */
  summarySources?: string;
  /** Revenue and profit by year, when its financial statements have them. */
  financials: FinancialsView | null;
  /** Its dates, events, documents, filings and name changes, newest first. */
  timeline: TimelineEntry[];
  sections: ProfileSection[];
  description: string;
  /** The History tab: the changes imports recorded. */
  historyHref: string;
  /** Who is connected to the company, two steps out (ADR 0022); null when nobody is. */
  graph: ConnectionsGraph | null;
  /** schema.org Organization (app/presenters/organization-json-ld.server.ts, ADR 0021). */
  jsonLd: string;
  /** The profile as Registra knew it at the end of a past day (docs/decisions/0028-company-as-of.md); null for today's. */
  asOf: AsOfView | null;
  /** Where the date picker sends its day (the profile's own address). */
  asOfHref: string;
};

/** What an as-of profile says of itself: the day, and the way back to today's. */
export type AsOfView = { day: string; dayText: string; todayHref: string; compareHref: string };

/** A company asked for as of a day before it appeared (docs/decisions/0028-company-as-of.md). */
export type NotYetPage = { notYet: true; name: string; uri: string; asOf: AsOfView };

/**
 * The sections an as-of profile shows: those rebuilt from the change history. The others (shares,
 * contacts, indicators, specifications, where the company is a member, the record sections) have
 * no history and are left out (docs/decisions/0028-company-as-of.md).
 */
const AS_OF_SECTIONS = new Set([
  'statuses',
  'names',
  'addresses',
  'dates',
  'identifiers',
  'industries',
  'members',
  'gleif',
]);

/**
 * The import field (core/imports/fields.ts) a profile row's fact is recorded under, by the row's
 * section and reference type: its provenance is that field's (docs/decisions/0014-importers.md).
 */
const ADDRESS_FIELDS: Record<string, string> = {
  registered: 'addresses.legal',
  headquarter: 'addresses.headquarters',
  postal: 'addresses.postal',
};
const DATE_FIELDS: Record<string, string> = { accounts: 'dates.accounts', annual_report: 'dates.annual_report' };

/**
 * The company profile as the page shows it, or null when no company has this uri; with `asOf` (a
 * day, 'YYYY-MM-DD'), as Registra knew it at the end of that day (docs/decisions/0028-company-as-of.md),
 * or NotYetPage when it had not appeared by then.
 */
export async function loadProfilePage(services: AppServices, lang: Lang, uri: string): Promise<ProfilePage | null>;
export async function loadProfilePage(
  services: AppServices,
  lang: Lang,
  uri: string,
  asOf: string | null,
  viewer?: number | Unlocked,
): Promise<ProfilePage | NotYetPage | null>;
/**
 * `viewer` is the signed-in user: the contact details they bought are shown, and nobody else's
 * (ADR 0029, core/purchases/paywall.ts); without one, the profile is a guest's. A caller that has
 * already read what the viewer unlocked (unlockedFor) passes that instead.
 */
export async function loadProfilePage(
  services: AppServices,
  lang: Lang,
  uri: string,
  asOf: string | null = null,
  viewer?: number | Unlocked,
): Promise<ProfilePage | NotYetPage | null> {
  const { reference } = services;
  // A profile is stale-tolerant: a replica's when there are some (ADR 0024); the user's own marks are read elsewhere, from the primary.
  const reads = staleReads(services);
  const id = companyIdOfUri(uri) ?? 0;
  const until = asOf === null ? null : endOfDay(asOf);
  // Independent statements, run side by side (the records find the company by its uri themselves).
  const [current, read, provenance, nameChanges, history, unlocked] = await Promise.all([
    getCompany(reads, uri),
    // An as-of profile shows no record section (they have no history): they are not read.
    until === null ? getCompanyRecords(reads, { uri }) : new Map<string, RecordList>(),
    until === null ? readCompanyProvenance(reads, id) : new Map<string, FactProvenance>(),
    readNameChanges(reads, id),
    until === null ? null : readHistoryAfter(reads, [id], until).then((h) => h.get(id) ?? null),
    // What the viewer bought (from the primary: a purchase just made shows at once).
    typeof viewer === 'object' ? viewer : unlockedFor(services.db, viewer, [id]),
  ]);
  if (!current || !read) return null;
  // The contact details a purchase unlocks, as this viewer may read them (ADR 0029).
  const lists = new Map(
    [...read].map(([key, list]) => {
      const section = RECORD_SECTIONS.find((s) => s.id === key);
      return [key, section ? { ...list, rows: visibleRecordRows(unlocked, section.table, list.rows, () => id) } : list];
    }),
  );
  const p = presenter(reference, lang);
  const t = p.t;
  const profileHref = p.companyHref(current.uri);
  const asOfView: AsOfView | null =
    asOf === null
      ? null
      : {
          day: asOf,
          dayText: p.date(asOf),
          todayHref: profileHref,
          compareHref: `${p.path(`/companies/details/${encodeURIComponent(current.uri)}/compare/`)}?${new URLSearchParams({ from: asOf, to: new Date().toISOString().slice(0, 10) })}`,
        };
  if (asOfView && history?.notYet) return { notYet: true, name: current.name, uri: current.uri, asOf: asOfView };
  const changes = history?.changes ?? [];
  const rebuilt: CompanyProfile = until === null ? current : asOfCompany(current, changes, reference);
  const company: CompanyProfile = { ...rebuilt, contacts: visibleContacts(unlocked, rebuilt.id, rebuilt.contacts) };
  const currentLei = await getLeiDetails(reads, company.id);
  const lei =
    until === null ? currentLei : { ...(await rebuildLeiDetails(reads, currentLei, changes)), exceptions: [] };
  const source = (field: string | undefined) => (field === undefined ? undefined : provenance.get(field));
  /** "Sources: …" of a group of facts, said once below it rather than on each of its rows. */
  const sourcesLine = (facts: (FactProvenance | undefined)[]) => {
    const sources = provenanceSummary(facts, lang);
    return sources ? t('profile.sources', { sources, count: sources.split('; ').length }) : undefined;
  };
  const yesNo = (v: boolean) => (v ? t('profile.yes') : t('profile.no'));
  const jurisdiction = p.jurisdiction(company.jurisdiction_id);
  const jurisdictionUri = reference.locations.byId.get(company.jurisdiction_id)?.uri ?? '';
  const searchPath = (segment: string) => p.path(`/companies/search/f/${segment}/`);
  const summaryItems = profileSummary(company, lei, p, reference, {
    source: (field) => source(field),
    today: until === null ? new Date() : new Date(until.getTime() - 1),
    searchPath,
  });
  const summary = summaryItems.map(({ fact: _, ...item }) => item);
  const summarySources = sourcesLine([source('name'), ...summaryItems.map((item) => item.fact)]);
  const financials = profileFinancials(lists.get('financial-statements'), p);
  const timeline = profileTimeline(
    company,
    lists,
    nameChanges
      .filter((c) => until === null || c.observed_at < until)
      .map((c) => ({ old_value: c.old_value, new_value: c.new_value, date: changeDate(c) })),
    p,
    reference,
  );

  const otherCompanies = Map.groupBy(company.member_companies, (o) => o.member_id);

  const drafts: SectionDraft[] = [
    {
      id: 'statuses',
      title: t('columns.status'),
      rows: company.statuses.map((s) => ({
        label: p.name(reference.statuses.byId.get(s.status_id)),
        value: '',
        fact: source('status'),
      })),
    },
    {
      id: 'names',
      title: t('profile.names'),
      rows: company.names.map((n) => {
        const type = reference.nameTypes.byId.get(n.name_type_id);
        return {
          label: p.name(type),
          value: n.name,
          fact: source(type?.uri === 'legal_name_full' ? 'name' : 'other_names'),
        };
      }),
    },
    {
      id: 'addresses',
      title: t('profile.addresses'),
      rows: company.addresses.map((a) => {
        const country = a.country_id ? p.name(reference.locations.byId.get(a.country_id)) : null;
        const type = reference.addressTypes.byId.get(a.address_type_id);
        return {
          label: p.name(type),
          value: formatAddress(a, country),
          fact: source(ADDRESS_FIELDS[type?.uri ?? '']),
        };
      }),
    },
    {
      id: 'dates',
      title: t('profile.dates'),
      rows: company.dates.map((d) => {
        const type = reference.dateTypes.byId.get(d.date_type_id);
        return {
          label: p.name(type),
          value: p.date(d.date),
          fact: source(type?.uri === 'registration' ? 'registered_on' : DATE_FIELDS[type?.uri ?? '']),
        };
      }),
    },
    {
      id: 'identifiers',
      title: t('profile.identifiers'),
      rows: company.identifiers.map((i) => {
        const type = reference.identifierTypes.byId.get(i.identifier_type_id);
        return {
          label: p.name(type),
          value: i.identifier,
          fact: source(type ? `identifiers.${type.uri}` : undefined),
        };
      }),
    },
    {
      id: 'industries',
      title: t('profile.industries'),
      rows: company.industries.map((i) => {
        const industry = reference.industries.byId.get(i.industry_id);
        const flags = [
          i.is_primary && t('profile.primary'),
          i.is_secondary && t('profile.secondary'),
          i.is_licensed && t('profile.licensed'),
          i.is_unlicensed && t('profile.unlicensed'),
        ].filter(Boolean);
        return {
          label: industry?.code ?? '',
          value: p.name(industry),
          href: industry ? searchPath(`industry-${industry.uri}-${industry.id}`) : undefined,
          note: flags.join(', '),
          fact: source('industries'),
        };
      }),
    },
    {
      id: 'indicators',
      title: t('profile.indicators'),
      rows: company.indicators.map((i) => ({
        label: p.name(reference.indicatorTypes.byId.get(i.indicator_type_id)),
        value: yesNo(i.value),
      })),
    },
    {
      id: 'shares',
      title: t('profile.shares'),
      rows: company.shares.map((s) => {
        const currency = reference.currencies.byId.get(s.currency_id ?? -1);
        const amount = s.total_price ? Number(s.total_price) : null;
        return {
          label: `${t(`profile.shareKind.${s.kind}`)} · ${t(`profile.shareType.${s.type}`)}`,
          value:
            amount === null
              ? ''
              : currency
                ? numberFormat(p.lang, { style: 'currency', currency: currency.uri.toUpperCase() }).format(amount)
                : p.number(amount),
        };
      }),
    },
    {
      id: 'specifications',
      title: t('profile.specifications'),
      rows: company.specifications.flatMap((spec) =>
        [
          { label: t('profile.membersCount'), value: String(spec.members_count ?? '') },
          { label: t('profile.officersCount'), value: String(spec.officers_count ?? '') },
          { label: t('profile.partnersCount'), value: String(spec.partners_count ?? '') },
        ].filter((r) => r.value),
      ),
    },
    {
      id: 'contacts',
      title: t('profile.contacts'),
      rows: company.contacts.map((c) => {
        const type = reference.contactTypes.byId.get(c.contact_type_id);
        const href =
          type?.uri === 'email'
            ? `mailto:${c.contact}`
            : type?.uri === 'website'
              ? /^https?:\/\//.test(c.contact)
                ? c.contact
                : `https://${c.contact}`
              : type?.uri === 'phone'
                ? `tel:${c.contact.replace(/[^+\d]/g, '')}`
                : undefined;
        return { label: p.name(type), value: c.contact, href };
      }),
    },
    {
      id: 'members',
      title: t('profile.members'),
      rows: company.members.map((m) => ({
        label: p.name(reference.positions.byId.get(m.position_id)),
        value: m.name,
        // ---- people (ADR 0022): a member that is no company in the database has a page of its own ----
        // A member since gone, in an as-of profile, has no row of ours (member_id 0): no page to link.
        href: m.company_uri
          ? p.companyHref(m.company_uri)
          : m.member_id > 0
            ? p.path(personPath(m.name, m.member_id))
            : undefined,
        note:
          [
            m.since && t('profile.since', { date: p.date(m.since) }),
            ...(m.natures ?? []).map((code) => describeControlNature(code, t)),
          ]
            .filter(Boolean)
            .join(' · ') || undefined,
        links: (otherCompanies.get(m.member_id) ?? []).map((o) => ({ name: o.name, href: p.companyHref(o.uri) })),
        fact: source('members'),
      })),
    },
    {
      id: 'member-of',
      title: t('profile.memberOf'),
      rows: company.member_of.map((m) => ({
        label: p.name(reference.positions.byId.get(m.position_id)),
        value: m.name,
        href: p.companyHref(m.uri),
      })),
    },
  ];
  const gleif = gleifRows(lei, p);
  // Only for companies GLEIF was imported for (docs/decisions/0014-importers.md).
  if (gleif.length > 0) drafts.push({ id: 'gleif', title: t('profile.gleif'), rows: gleif });
  const sections: ProfileSection[] = drafts
    .filter((d) => until === null || AS_OF_SECTIONS.has(d.id))
    .map((d) => ({
      id: d.id,
      title: d.title,
      rows: d.rows.map(({ fact: _, ...row }, i) => ({ ...row, key: `${d.id}-${i}` })),
      sources: sourcesLine(d.rows.map((row) => row.fact)),
    }));
  return {
    id: company.id,
    name: company.name,
    uri: company.uri,
    status: p.status(company.status_id),
    jurisdiction,
    jurisdictionHref: searchPath(`jurisdiction-${jurisdictionUri}-${company.jurisdiction_id}`),
    // Advanced by what the company has, bought or not (its price must not depend on who looks).
    advanced: isAdvancedProfile(profileListSizes(rebuilt, read.values())),
    ...(until === null
      ? presentRecords(company, lists, p, await filingSources(reads, company.id, lists, p))
      : { records: [], emptyRecordTypes: [] }),
    summary,
    summarySources,
    financials,
    timeline,
    sections,
    graph: companyGraph(company, p, reference),
    historyHref: p.path(`/companies/details/${encodeURIComponent(company.uri)}/history/`),
    asOf: asOfView,
    asOfHref: profileHref,
    jsonLd: organizationJsonLd(
      company,
      reference,
      `${services.siteUrl}${p.path(`/companies/details/${encodeURIComponent(company.uri)}/`)}`,
    ),
    description: t('profile.description', {
      name: company.name,
      status: p.status(company.status_id).text.toLowerCase(),
      jurisdiction: jurisdiction.text,
      date: p.date(company.registered_on),
    }),
  };
}

/**
 * The company as rebuilt at a day: its own parts with the later changes undone; what others say of
 * it (where it is a member) and its members' other companies have no history of their own here and
 * are left out, but for members it still has.
 */
function asOfCompany(
  current: CompanyProfile,
  changes: Parameters<typeof rebuildCompany>[1],
  reference: Reference,
): CompanyProfile {
  const company = rebuildCompany(current, changes, reference);
  const members = new Set(company.members.map((m) => m.member_id));
  return {
    ...company,
    member_of: [],
    member_companies: company.member_companies.filter((o) => members.has(o.member_id)),
  };
}

/**
 * The company's connections two steps out (ADR 0022): its members (people, and parent
 * companies and shareholders that are companies), the other companies those members sit on, and
 * the companies it sits on itself (its subsidiaries and holdings).
 */
function companyGraph(company: CompanyProfile, p: Presenter, reference: Reference): ConnectionsGraph | null {
  const positionName = (id: number) => p.name(reference.positions.byId.get(id));
  const focus = `c${company.id}`;
  const nodes: GraphNodeInput[] = [{ id: focus, label: company.name, kind: 'company' }];
  const edges: GraphEdgeInput[] = [];
  const memberNode = new Map<number, string>();
  for (const [i, m] of company.members.entries()) {
    const id = m.company_id ? `c${m.company_id}` : m.member_id > 0 ? `m${m.member_id}` : `gone${i}`;
    memberNode.set(m.member_id, id);
    nodes.push({
      id,
      label: m.name,
      kind: m.company_id || m.name_type === 'legal_entity' ? 'company' : 'person',
      href: m.company_uri
        ? p.companyHref(m.company_uri)
        : m.member_id > 0
          ? p.path(personPath(m.name, m.member_id))
          : undefined,
    });
    edges.push({ from: id, to: focus, label: positionName(m.position_id) });
  }
  for (const o of company.member_companies) {
    const from = memberNode.get(o.member_id);
    if (!from) continue;
    nodes.push({ id: `u${o.uri}`, label: o.name, kind: 'company', href: p.companyHref(o.uri) });
    edges.push({ from, to: `u${o.uri}`, label: positionName(o.position_id) });
  }
  for (const o of company.member_of) {
    nodes.push({ id: `u${o.uri}`, label: o.name, kind: 'company', href: p.companyHref(o.uri) });
    edges.push({ from: focus, to: `u${o.uri}`, label: positionName(o.position_id) });
  }
  return layoutConnections(focus, nodes, edges);
}

/** The legal form, the LEI registration and the reporting exceptions, as profile rows. */
function gleifRows(lei: LeiDetails, p: Presenter): Omit<ProfileRow, 'key'>[] {
  const t = p.t;
  const rows: Omit<ProfileRow, 'key'>[] = [];
  const form = lei.legalForm;
  if (form && (form.code || form.other)) {
    const words = legalFormWords(form, p.lang);
    rows.push({
      label: t('profile.legalForm'),
      value: words || (form.code ?? ''),
      note: form.code ? `ELF ${form.code}` : undefined,
    });
  }
  const r = lei.registration;
  if (r) {
    const day = (d: Date | null) => (d ? p.date(new Date(d)) : '—');
    rows.push({
      label: t('profile.leiRegistration', { lei: r.lei }),
      value: p.code('profile.leiStatus', r.registrationStatus),
      note: t('profile.leiRegistrationNote', {
        initial: day(r.initialRegistration),
        updated: day(r.lastUpdate),
        renewal: day(r.nextRenewal),
      }),
    });
  }
  for (const e of lei.exceptions)
    rows.push({
      label: p.code('profile.reportingException', e.category),
      value: e.reasons.map((reason) => p.code('profile.exceptionReason', reason)).join(', '),
      note: e.reference ?? undefined,
    });
  return rows;
}

/**
 * "Sources: …" of the financial statements from filed accounts (ADR 0037): each filing shown once,
 * by its kind and file name, with the period it closes.
 */
async function filingSources(
  db: Db,
  companyId: number,
  lists: Map<string, RecordList>,
  p: Presenter,
): Promise<Map<string, string>> {
  const ids = [
    ...new Set(
      (lists.get('financial-statements')?.rows ?? []).flatMap((r) =>
        r.filing_id === null || r.filing_id === undefined ? [] : [Number(r.filing_id)],
      ),
    ),
  ];
  if (ids.length === 0) return new Map();
  const filings = await db.kysely
    .selectFrom('filings')
    .select(['kind', 'source_name', 'period_end'])
    .where('legal_entity_id', '=', companyId)
    .where('id', 'in', ids)
    .orderBy('period_end', 'desc')
    .execute();
  const sources = filings
    .map((f) =>
      p.t('profile.filingSource', {
        kind: p.t(`profile.filingKind.${f.kind}`),
        name: f.source_name,
        date: f.period_end ? p.date(f.period_end) : '',
      }),
    )
    .join('; ');
  return new Map([['financial-statements', p.t('profile.sources', { sources, count: filings.length })]]);
}

function presentRecords(
  company: CompanyProfile,
  lists: Map<string, RecordList>,
  p: Presenter,
  sources: Map<string, string> = new Map(),
): Pick<ProfilePage, 'records' | 'emptyRecordTypes'> {
  const records: ProfileRecords[] = [];
  const emptyRecordTypes: string[] = [];
  const totalText = (n: number) => p.t('search.records', { count: n });
  for (const section of SECTIONS) {
    const list = lists.get(section.id);
    if (!section.record || !list) continue;
    const title = p.label(section.title);
    if (list.total === 0) {
      emptyRecordTypes.push(title);
      continue;
    }
    const own = new Set(section.record.columns);
    records.push({
      id: `records-${section.id}`,
      title,
      columns: section.columns.filter((c) => own.has(c.key)).map((c) => ({ key: c.key, label: p.label(c.label) })),
      rows: list.rows.map((row) => ({
        id: Number(row.id),
        cells: recordCells(
          section,
          { ...row, legal_entity_id: company.id, company_uri: company.uri, company_name: company.name } as RecordRow,
          p,
        ),
      })),
      totalText: totalText(list.total),
      allHref: p.path(`/${section.id}/search/?company=${company.id}`),
      ...(sources.has(section.id) ? { sources: sources.get(section.id) } : {}),
    });
  }
  for (const other of OTHER_LISTS) {
    const list = lists.get(other.key);
    const title = p.t(`profile.${other.key}`);
    if (!list || list.total === 0) {
      emptyRecordTypes.push(title);
      continue;
    }
    records.push({
      id: `records-${other.key}`,
      title,
      columns: other.columns.map((c) => ({ key: c.key, label: p.t(`profile.column.${c.key}`) })),
      rows: list.rows.map((row) => ({
        id: Number(row.id),
        cells: Object.fromEntries(
          other.columns.map((c) => {
            const value = row[c.key];
            if (value === null) return [c.key, { text: '' }];
            if (c.type === 'date') return [c.key, { text: p.date(String(value)) }];
            if (c.type === 'code') return [c.key, { text: p.code(c.codes, String(value)) }];
            return [c.key, { text: String(value) }];
          }),
        ),
      })),
      totalText: totalText(list.total),
    });
  }
  return { records, emptyRecordTypes };
}
