import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { NameChange } from '../companies/name-words.ts';
import type { Filing, NormalisedFigures, XbrlDimension, XbrlFact } from '../ixbrl/types.ts';
import { type RecordValues, writeCompanyRecords } from '../records/record-writes.ts';
import { type CompanyFacts, type CompanyKeys, employeesBand } from './company-facts.ts';
import { COMPANIES_HOUSE } from './sources/companies-house/ch-companies-source.ts';
import { SEC_CIK } from './sources/sec/sec-submissions-source.ts';
import { insertRows, type Tx } from './sql-rows.ts';
import { type ImportContext, writeCompanyBatch } from './write-companies.ts';

// Filed accounts into Registra (docs/decisions/0037-inline-xbrl-accounts.md "Import and product"):
// each filing once (by its bytes' sha256, or its kind and file name), every fact kept with its
// context, and the normalised figures written as the company's financial statements through the
// one record writer (core/records/record-writes.ts), so that a new filing or a restated figure is a
// `records.financial_statements` change for monitoring, the feed and webhooks (ADR 0027). A filing
// of a company not known yet creates it, from the filing's own name and number, through the
// company writer (write-companies.ts).

/** One filing read from a file: parsed, hashed and its figures derived. */
export type FilingItem = {
  kind: 'filing';
  at: number;
  filing: Filing;
  sha256: string;
  figures: NormalisedFigures[];
};

export type FilingsResult = {
  new: number;
  changed: number;
  unchanged: number;
  touched: number[];
  /** New companies' names, for the search lexicon. */
  names: NameChange[];
  rejects: { file: string; at: number; reason: string }[];
  /** Figures added and changed (restated) as records. */
  statements: { added: number; changed: number };
};

/** financial_statements.scope_id and basis_id (core/sections/records.ts, pinned in tests/fixtures/enum-ids.json). */
const SCOPE_IDS = { company: 1, consolidated: 2 } as const;
const BASIS = { current: 1, comparative: 2 } as const;
/** filing_facts.decimals for INF. */
const INF = 32767;

/** The keys a filing names its company by: the Companies House register, or the SEC's CIK. */
export function filingKeys(filing: Filing): CompanyKeys | null {
  if (filing.kind === 'ch-accounts')
    return filing.companyNumber
      ? { register: { jurisdiction: 'GB', authority: COMPANIES_HOUSE, number: filing.companyNumber } }
      : null;
  return filing.cik ? { others: [{ scheme: SEC_CIK, key: filing.cik }] } : null;
}

/** The facts a new company is created from: the filing's own name and number. */
function newCompanyFacts(filing: Filing, keys: CompanyKeys): CompanyFacts {
  if (filing.kind === 'ch-accounts')
    return {
      keys,
      sourceDate: null,
      name: filing.name ?? undefined,
      jurisdiction: 'GB',
      identifiers: { company_number: filing.companyNumber },
    };
  // dei:EntityIncorporationStateCountryCode ("DE", "CA"), when the filing states it.
  const state = filing.facts.find((f) => f.concept.localName === 'EntityIncorporationStateCountryCode')?.value;
  return {
    keys,
    sourceDate: null,
    name: filing.name ?? undefined,
    jurisdiction: state && /^[A-Z]{2}$/.test(state.trim()) ? `US-${state.trim()}` : 'US',
  };
}

/**
 * The company each filing names: by its key in company_keys, else (companies no import keyed yet)
 * by its company number among the identifiers of the companies of its country.
 */
async function findCompany(db: Db, filing: Filing, keys: CompanyKeys): Promise<number | null> {
  const key = keys.register
    ? { scheme: 'register', key: `GB/${COMPANIES_HOUSE}/${keys.register.number}`.toUpperCase() }
    : { scheme: SEC_CIK, key: keys.others?.[0]?.key ?? '' };
  const keyed = await db.kysely
    .selectFrom('company_keys')
    .select('legal_entity_id')
    .where('scheme', '=', key.scheme)
    .where('key', '=', key.key)
    .executeTakeFirst();
  if (keyed) return keyed.legal_entity_id;
  if (!filing.companyNumber) return null;
  const row = await sql<{ id: number }>`select i.legal_entity_id as id from legal_entity_identifiers i
    join identifier_types t on t.id = i.identifier_type_id and t.uri = 'company_number'
    join legal_entities l on l.id = i.legal_entity_id
    join locations c on c.id = l.jurisdiction_id
    where i.identifier = ${filing.companyNumber} and c.country_code = 'GB'
    limit 1`.execute(db.kysely);
  return row.rows[0] ? Number(row.rows[0].id) : null;
}

/** Writes a batch of filings: each in a transaction of its own (a filing is whole or absent). */
export async function writeFilings(db: Db, context: ImportContext, items: FilingItem[]): Promise<FilingsResult> {
  const result: FilingsResult = {
    new: 0,
    changed: 0,
    unchanged: 0,
    touched: [],
    names: [],
    rejects: [],
    statements: { added: 0, changed: 0 },
  };
  const currencies = new Map(
    (await db.kysely.selectFrom('currencies').select(['id', 'code']).execute()).map((c) => [c.code.trim(), c.id]),
  );
  for (const item of items) {
    const { filing } = item;
    const seen = await db.kysely
      .selectFrom('filings')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('sha256', '=', item.sha256),
          eb.and([eb('kind', '=', filing.kind), eb('source_name', '=', filing.sourceName)]),
        ]),
      )
      .executeTakeFirst();
    if (seen) {
      result.unchanged += 1;
      continue;
    }
    const keys = filingKeys(filing);
    if (!keys) {
      result.rejects.push({
        file: filing.sourceName,
        at: item.at,
        reason: 'the filing names no company number or CIK',
      });
      continue;
    }
    let companyId = await findCompany(db, filing, keys);
    if (companyId === null) {
      if (!filing.name) {
        result.rejects.push({
          file: filing.sourceName,
          at: item.at,
          reason: 'the filing names a company not known yet, and no name to create it with',
        });
        continue;
      }
      const created = await writeCompanyBatch(db, context, [{ at: item.at, facts: newCompanyFacts(filing, keys) }]);
      if (created.rejects.length > 0 || created.touched.length === 0) {
        result.rejects.push({
          file: filing.sourceName,
          at: item.at,
          reason: created.rejects[0]?.reason ?? 'the company could not be created',
        });
        continue;
      }
      companyId = created.touched[0] as number;
      result.names.push(...created.names);
    }
    const id = companyId;
    const written = await db.kysely.transaction().execute(async (tx) => {
      const inserted = await tx
        .insertInto('filings')
        .values({
          legal_entity_id: id,
          kind: filing.kind,
          source_name: filing.sourceName,
          sha256: item.sha256,
          period_end: filing.periodEnd,
          entity_name: filing.name,
          entity_number: filing.companyNumber ?? filing.cik,
          fact_count: filing.facts.length,
          import_id: context.importId,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      // Another process took the same filing meanwhile: it is there once.
      if (!inserted) return null;
      await writeFacts(tx, id, inserted.id, filing.facts);
      const statements = await writeFigures(tx, context, id, inserted.id, item.figures, currencies);
      return statements;
    });
    if (written === null) {
      result.unchanged += 1;
      continue;
    }
    result.new += 1;
    result.statements.added += written.added;
    result.statements.changed += written.changed;
    result.touched.push(id);
    const band = await employeesBandNow(db, id);
    if (band !== null) {
      const set = await writeCompanyBatch(db, context, [
        { at: item.at, facts: { keys, sourceDate: null, employees: band } },
      ]);
      result.names.push(...set.names);
    }
  }
  return result;
}

/**
 * The company's employees band as its filed accounts give it (ADR 0037): the average employees of
 * its latest current-year statement (the most recent period end; the consolidated one where a
 * year has both, as the profile's chart shows it). Null when that statement states none or zero:
 * the band is left as it is. Read from all the company's statements, so an older filing imported
 * after a newer one gives the newer one's band again (no change).
 */
async function employeesBandNow(db: Db, companyId: number): Promise<string | null> {
  const latest = await db.kysely
    .selectFrom('financial_statements')
    .select('average_employees')
    .where('legal_entity_id', '=', companyId)
    .where('basis_id', '=', BASIS.current)
    .orderBy('period_end', 'desc')
    .orderBy(sql`scope_id = ${SCOPE_IDS.consolidated}`, 'desc')
    .limit(1)
    .executeTakeFirst();
  return employeesBand(latest?.average_employees ?? null);
}

const qname = (q: { namespace: string; localName: string }) => `${q.namespace}#${q.localName}`;

function dimensionsJson(dimensions: XbrlDimension[]): object[] | null {
  if (dimensions.length === 0) return null;
  return dimensions.map((d) => ({
    axis: qname(d.axis),
    member: d.member ? qname(d.member) : null,
    typed: d.typedValue,
  }));
}

/** Every fact of a filing: its contexts once, its concepts by id, the facts in document order. */
async function writeFacts(tx: Tx, companyId: number, filingId: number, facts: XbrlFact[]): Promise<void> {
  const contexts = new Map<string, number>();
  const contextRows: object[] = [];
  for (const fact of facts) {
    if (contexts.has(fact.contextId)) continue;
    const no = contexts.size + 1;
    contexts.set(fact.contextId, no);
    const p = fact.period;
    contextRows.push({
      legal_entity_id: companyId,
      filing_id: filingId,
      context_no: no,
      period_start: p.kind === 'duration' ? p.start : null,
      period_end: p.kind === 'duration' ? p.end : p.kind === 'instant' ? p.date : null,
      instant: p.kind === 'instant',
      dimensions: dimensionsJson(fact.dimensions),
    });
  }
  await insertRows(
    tx,
    'filing_contexts',
    {
      legal_entity_id: 'bigint',
      filing_id: 'bigint',
      context_no: 'smallint',
      period_start: 'date',
      period_end: 'date',
      instant: 'boolean',
      dimensions: 'jsonb',
    },
    contextRows,
  );
  const concepts = [...new Map(facts.map((f) => [qname(f.concept), f.concept])).values()];
  await sql`insert into xbrl_concepts (namespace, local_name)
    select * from unnest(${concepts.map((c) => c.namespace)}::text[], ${concepts.map((c) => c.localName)}::text[])
    on conflict (namespace, local_name) do nothing`.execute(tx);
  const ids = new Map(
    (
      await sql<{ id: number; namespace: string; local_name: string }>`select id, namespace, local_name
        from xbrl_concepts c join unnest(${concepts.map((c) => c.namespace)}::text[], ${concepts.map((c) => c.localName)}::text[])
          as w(namespace, local_name) using (namespace, local_name)`.execute(tx)
    ).rows.map((r) => [`${r.namespace}#${r.local_name}`, r.id]),
  );
  await insertRows(
    tx,
    'filing_facts',
    {
      legal_entity_id: 'bigint',
      filing_id: 'bigint',
      position: 'int',
      context_no: 'smallint',
      concept_id: 'int',
      amount: 'numeric',
      value: 'text',
      decimals: 'smallint',
      unit: 'text',
      currency: 'text',
      hidden: 'boolean',
    },
    facts.map((f, i) => ({
      legal_entity_id: companyId,
      filing_id: filingId,
      position: i + 1,
      context_no: contexts.get(f.contextId),
      concept_id: ids.get(qname(f.concept)),
      amount: f.numeric ? f.value : null,
      value: f.numeric ? null : f.value,
      decimals: f.decimals === 'INF' ? INF : f.decimals === null ? null : Math.max(-INF, Math.min(INF - 1, f.decimals)),
      unit: f.unit,
      currency: f.currency,
      hidden: f.hidden,
    })),
  );
}

/** The figure fields of a financial_statements record (core/sections/records.ts) and their NormalisedFigures names. */
const FIGURES = [
  ['revenue', 'revenue'],
  ['gross_profit', 'grossProfit'],
  ['operating_profit', 'operatingProfit'],
  ['profit_before_tax', 'profitBeforeTax'],
  ['profit', 'profitAfterTax'],
  ['total_assets', 'totalAssets'],
  ['current_assets', 'currentAssets'],
  ['cash', 'cash'],
  ['total_liabilities', 'totalLiabilities'],
  ['equity', 'netAssets'],
] as const;

/** An amount as the record writer compares it with numeric(18, 2): a number of major units, cents rounded. */
function amount(value: string | null): number | null {
  if (value === null) return null;
  const n = Number(value);
  return Number.isFinite(n) ? Math.round(n * 100) / 100 : null;
}

function recordValues(f: NormalisedFigures, currencies: Map<string, number>): RecordValues {
  const values: RecordValues = {};
  for (const [field, name] of FIGURES) values[field] = amount(f[name]);
  const employees = f.averageEmployees === null ? null : Math.round(Number(f.averageEmployees));
  values.average_employees = Number.isFinite(employees) ? employees : null;
  values.currency = f.currency ? (currencies.get(f.currency) ?? null) : null;
  values.report_year = Number(f.periodEnd.slice(0, 4));
  values.period_start = f.periodStart;
  values.period_end = f.periodEnd;
  values.scope = SCOPE_IDS[f.scope];
  values.basis = f.comparative ? BASIS.comparative : BASIS.current;
  return values;
}

function hasFigures(f: NormalisedFigures): boolean {
  return FIGURES.some(([, name]) => f[name] !== null) || f.averageEmployees !== null;
}

/**
 * The filing's figures onto the company's statements, one per (period end, scope):
 * - a period no statement covers gets one (current year or comparative);
 * - the current year of a filing replaces what a comparative said of its period, and a later
 *   filing's current year replaces an earlier one's where they differ (a restated figure);
 * - a comparative only fills or follows another comparative: it never overrides what a filing
 *   said of that period as its current year.
 * Every add and change goes through writeCompanyRecords: it is a `records.financial_statements` change.
 */
async function writeFigures(
  tx: Tx,
  context: ImportContext,
  companyId: number,
  filingId: number,
  figures: NormalisedFigures[],
  currencies: Map<string, number>,
): Promise<{ added: number; changed: number }> {
  const useful = figures.filter(hasFigures);
  if (useful.length === 0) return { added: 0, changed: 0 };
  const existing = await tx
    .selectFrom('financial_statements')
    .select(['id', 'period_end', 'scope_id', 'basis_id'])
    .where('legal_entity_id', '=', companyId)
    .where(
      'period_end',
      'in',
      useful.map((f) => f.periodEnd),
    )
    .execute();
  const added: RecordValues[] = [];
  const changed: { id: number; values: RecordValues }[] = [];
  for (const f of useful) {
    const scope = SCOPE_IDS[f.scope];
    const row = existing.find((r) => r.period_end === f.periodEnd && r.scope_id === scope);
    const values = recordValues(f, currencies);
    if (!row) added.push(values);
    else if (!f.comparative || row.basis_id !== BASIS.current) changed.push({ id: row.id, values });
  }
  const written = await writeCompanyRecords(tx, {
    companyId,
    section: 'financial_statements',
    added,
    changed,
    source: context.source,
    importId: context.importId,
  });
  // The filing is the figures' source (not news of itself: no change row for it).
  const ids = [...written.added, ...changed.map((c) => c.id)];
  if (ids.length > 0)
    await tx
      .updateTable('financial_statements')
      .set({ filing_id: filingId })
      .where('legal_entity_id', '=', companyId)
      .where('id', 'in', ids)
      .execute();
  return { added: written.added.length, changed: written.changes - written.added.length };
}
