// A company's change history and the provenance of its facts, as imports record them
// (company_changes and company_provenance, docs/decisions/0014-importers.md): the profile's
// History tab reads the changes newest first, filtered by field and paged; the profile says of each
// section where its facts came from and when.

import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { formatDay } from '../i18n/i18n.ts';
import type { CompanyFacts } from '../imports/company-facts.ts';
import { factValues } from '../imports/company-fields.ts';
import { HISTORY_PAGE_SIZE } from '../limits.ts';
import { changesFor, type Viewer } from '../purchases/paywall.ts';
import type { Lang } from '../reference/reference-data.ts';
import { visibleChanges } from '../takedowns/visible.ts';
import { preparedStatement } from './prepared-query.ts';

export type CompanyChange = {
  id: number;
  field: string;
  old_value: unknown;
  new_value: unknown;
  source: string;
  source_date: Date | null;
  observed_at: Date;
};

export type CompanyHistory = {
  changes: CompanyChange[];
  /** Changes matching the filter. */
  total: number;
  /** Every field the company has changes of (for the filter), sorted. */
  fields: string[];
};

/** One page (from 1) of a company's changes, newest first, of one field or all. */
export async function readCompanyHistory(
  db: Db,
  legalEntityId: number,
  options: {
    field?: string;
    page?: number;
    pageSize?: number;
    /** Who reads: the contact details they did not buy are hidden (ADR 0029); a guest's by default. */
    viewer?: Viewer;
  } = {},
): Promise<CompanyHistory> {
  const pageSize = options.pageSize ?? HISTORY_PAGE_SIZE;
  const page = Math.max(1, options.page ?? 1);
  const k = db.kysely;
  let changes = k
    .selectFrom('company_changes')
    .select(['id', 'field', 'old_value', 'new_value', 'source', 'source_date', 'observed_at'])
    .where('legal_entity_id', '=', legalEntityId);
  let count = k
    .selectFrom('company_changes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('legal_entity_id', '=', legalEntityId);
  if (options.field !== undefined) {
    changes = changes.where('field', '=', options.field);
    count = count.where('field', '=', options.field);
  }
  const [rows, total, fields] = await Promise.all([
    changes
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    count.executeTakeFirstOrThrow(),
    sql<{ field: string }>`select distinct field from company_changes where legal_entity_id = ${legalEntityId}
      order by field`.execute(k),
  ]);
  return {
    // A `members` change may name someone taken down (ADR 0021).
    changes: (await changesFor(db, options.viewer, await visibleChanges(db, rows), () => legalEntityId)).map((r) => ({
      ...r,
      id: Number(r.id),
      source_date: r.source_date === null ? null : new Date(r.source_date),
      observed_at: new Date(r.observed_at),
    })),
    total: Number(total.n),
    fields: fields.rows.map((f) => f.field),
  };
}

/** The statement of `readNameChanges`, built and compiled once (core/companies/prepared-query.ts). */
const nameChanges = preparedStatement('registra-name-changes', (k, legalEntityId: number, limit: number) =>
  k
    .selectFrom('company_changes')
    .select(['old_value', 'new_value', 'source', 'source_date', 'observed_at'])
    .where('legal_entity_id', '=', legalEntityId)
    .where('field', '=', 'name')
    .orderBy('id', 'desc')
    .limit(limit),
);

/** A company's latest name changes, newest first (the profile's timeline, ADR 0022). */
export async function readNameChanges(
  db: Db,
  legalEntityId: number,
  limit = 10,
): Promise<(Pick<CompanyChange, 'old_value' | 'new_value'> & FactProvenance)[]> {
  const rows = await nameChanges(db, legalEntityId, limit);
  return rows.map((r) => ({
    ...r,
    source_date: r.source_date === null ? null : new Date(r.source_date),
    observed_at: new Date(r.observed_at),
  }));
}

export type FactProvenance = { source: string; source_date: Date | null; observed_at: Date };

/** The statements of `readCompanyProvenance`, built and compiled once (core/companies/prepared-query.ts). */
const provenanceRows = preparedStatement('registra-company-provenance', (k, legalEntityId: number) =>
  k
    .selectFrom('company_provenance')
    .select(['field', 'source', 'source_date', 'observed_at'])
    .where('legal_entity_id', '=', legalEntityId),
);
const sourceRecords = preparedStatement('registra-company-source-records', (k, legalEntityId: number) =>
  k
    .selectFrom('company_source_records as r')
    .leftJoin('imports as i', 'i.id', 'r.import_id')
    .select(['r.source', 'r.facts', 'r.source_date', 'i.started_at'])
    .where('r.legal_entity_id', '=', legalEntityId)
    .orderBy('r.import_id', 'desc'),
);

/**
 * Where each of a company's facts came from, by field: the field's company_provenance row when an
 * import changed it (the latest writer), else the newest source record stating the field — a new
 * company's fields have no rows of their own, its source record says them all (one row per company
 * and source, docs/decisions/0014-importers.md "Idempotency and the diff").
 */
export async function readCompanyProvenance(db: Db, legalEntityId: number): Promise<Map<string, FactProvenance>> {
  const [rows, records] = await Promise.all([provenanceRows(db, legalEntityId), sourceRecords(db, legalEntityId)]);
  const out = new Map<string, FactProvenance>();
  for (const r of rows)
    out.set(r.field, {
      source: r.source,
      source_date: r.source_date === null ? null : new Date(r.source_date),
      observed_at: new Date(r.observed_at),
    });
  for (const record of records) {
    const fact: FactProvenance = {
      source: record.source,
      source_date: record.source_date === null ? null : new Date(record.source_date),
      observed_at: new Date(record.started_at ?? record.source_date ?? 0),
    };
    for (const field of factValues(record.facts as CompanyFacts).keys()) if (!out.has(field)) out.set(field, fact);
  }
  return out;
}

/** The publisher a source name stands for, as a reader knows it (names, the same in every language). */
const SOURCE_PUBLISHERS: Record<string, string> = {
  'gleif-lei': 'GLEIF',
  'gleif-rr': 'GLEIF',
  'gleif-repex': 'GLEIF',
  elf: 'GLEIF',
  'ch-companies': 'Companies House',
  'ch-psc': 'Companies House',
  'sec-submissions': 'SEC EDGAR',
  'brreg-units': 'Brønnøysundregistrene',
  'brreg-roles': 'Brønnøysundregistrene',
  // The publisher of a BODS file is the file's (Open Ownership's register, a national register, a company):
  // not kept (ADR 0038 "BODS importer"); the standard's name says where the statement came from.
  bods: 'BODS statements',
  demo: 'Registra demo',
};

export function sourcePublisher(source: string): string {
  return SOURCE_PUBLISHERS[source] ?? source;
}

/** The date a fact is known by: the source's own date of it, else when we saw it. */
function provenanceDate(p: FactProvenance): Date {
  return p.source_date ?? p.observed_at;
}

/** "GLEIF, 5 May 2024": the publisher and the source's own date of the fact (else when we saw it). */
export function provenanceText(p: FactProvenance, lang: Lang): string {
  return `${sourcePublisher(p.source)}, ${formatDay(lang, provenanceDate(p))}`;
}

/**
 * The sources of a group of facts (a profile section), on one line: each publisher once, with the
 * newest date of its facts, in the order the facts come ("GLEIF, 5 May 2024; Companies House, 1 Jun
 * 2024"); empty when no fact has a source. The History tab has each fact's own.
 */
export function provenanceSummary(facts: readonly (FactProvenance | undefined)[], lang: Lang): string {
  const newest = new Map<string, Date>();
  for (const fact of facts) {
    if (!fact) continue;
    const publisher = sourcePublisher(fact.source);
    const date = provenanceDate(fact);
    const seen = newest.get(publisher);
    if (!seen || seen < date) newest.set(publisher, date);
  }
  return [...newest].map(([publisher, date]) => `${publisher}, ${formatDay(lang, date)}`).join('; ');
}
