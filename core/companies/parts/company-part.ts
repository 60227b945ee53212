import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../../db/client.ts';
import type { Database } from '../../../db/schema.ts';
import { visibleCompany } from '../../takedowns/visible.ts';
import { preparedStatement } from '../prepared-query.ts';

// A company is read part by part (docs/decisions/0013-company-parts.md): each part of a company
// (its names, addresses, members, …) is one module that knows its table, the SQL that reads its
// rows and the shape of a row. The profile, the data API, the export and the comparison pick the
// parts they need; a new part is one module and one line of company-parts.ts.
//
// A part's SQL is a subselect of the company `le` of the enclosing statement: its rows as a JSON
// array of value arrays (no keys, in the order of `fields`), so that one statement reads every
// chosen part of many companies, one row per company.

/** The company's own columns (legal_entities), read with every part. */
export const COMPANY_COLUMNS = [
  'id',
  'uri',
  'name',
  'jurisdiction_id',
  'kind_id',
  'size_id',
  'employees_id',
  'status_id',
  'primary_industry_id',
  'registered_on',
] as const;

export type CompanyCore = Pick<Database['legal_entities'], (typeof COMPANY_COLUMNS)[number]>;

export type CompanyPart<K extends string = string, R = unknown> = {
  readonly key: K;
  /** The table holding the part's rows (keyed by legal_entity_id): where importers write the part. */
  readonly table: keyof Database;
  /** The row's fields, in the order of the values `sql` reads. */
  readonly fields: readonly string[];
  /** The part's rows of the company `le`: a JSON array of value arrays, in the part's order. */
  readonly sql: RawBuilder<unknown>;
  /** The rows of one company from the value `sql` read. */
  rows(value: unknown): R[];
  /** The same part reading only some of its fields (a reader that needs less reads less). */
  pick<F extends keyof R & string>(...fields: F[]): CompanyPart<K, Pick<R, F>>;
};

// biome-ignore lint/suspicious/noExplicitAny: any part, whatever its row.
export type AnyPart = CompanyPart<string, any>;

export type RowOf<P> = P extends CompanyPart<string, infer R> ? R : never;

/** A company with the rows of the parts `P`, each under its key. */
export type CompanyWith<P extends readonly AnyPart[]> = CompanyCore & {
  [X in P[number] as X['key']]: RowOf<X>[];
};

type PartDecl<K extends string, R> = {
  key: K;
  table: keyof Database;
  /** The row's fields in order: each the column of the part's row `x` unless `expressions` gives its SQL. */
  fields: readonly (keyof R & string)[];
  expressions?: Partial<Record<keyof R & string, RawBuilder<unknown>>>;
  /** The part's relation (alias x) and its condition on `le`; default: `table` where x.legal_entity_id = le.id. */
  from?: RawBuilder<unknown>;
  /** SQL over `x`: the order of the rows. */
  order?: string;
};

/** Drivers differ on json: pg parses it, PGlite may hand back text. */
export function parseJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** A declared name (a field, a part's key), checked to be a plain name before it goes into generated source. */
function plainName(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain name: ${name}`);
  return name;
}

/**
 * A function making a row of `fields` from a value array: an object literal of the fields (made
 * once per part from the declared names, never from data), so that every row of a part has one
 * shape. Filling an object key by key from the names cost the export ~15 ms a batch of 1,000.
 */
function rowMaker<R>(fields: readonly string[]): (tuple: unknown[]) => R {
  const source = `return { ${fields.map((f, i) => `${plainName(f)}: t[${i}]`).join(', ')} };`;
  return new Function('t', source) as (tuple: unknown[]) => R;
}

/** Declares a part whose rows have the shape R: `definePart<NameRow>()({ key: 'names', … })`. */
export function definePart<R extends Record<string, unknown>>() {
  return <K extends string>(decl: PartDecl<K, R>): CompanyPart<K, R> => {
    const from = decl.from ?? sql`${sql.table(decl.table)} x where x.legal_entity_id = le.id`;
    const order = decl.order ? sql` order by ${sql.raw(decl.order)}` : sql``;
    const part = <S>(fields: readonly (keyof R & string)[]): CompanyPart<K, S> => {
      const values = fields.map((f) => decl.expressions?.[f] ?? sql.ref(`x.${f}`));
      const row = rowMaker<S>(fields);
      return {
        key: decl.key,
        table: decl.table,
        fields,
        sql: sql`(select coalesce(json_agg(json_build_array(${sql.join(values)})${order}), '[]') from ${from})`,
        rows: (value) => parseJson<unknown[][] | null>(value)?.map(row) ?? [],
        pick: (...picked) => part(picked),
      } as CompanyPart<K, S>;
    };
    return part<R>(decl.fields);
  };
}

/** The select list of a company `le` with its own columns and `parts` (each under its key). */
export function companySelect(parts: readonly AnyPart[]): RawBuilder<unknown> {
  return sql.join([
    ...COMPANY_COLUMNS.map((c) => sql.ref(`le.${c}`)),
    ...parts.map((p) => sql`${p.sql} as ${sql.ref(p.key)}`),
  ]);
}

/** Company makers by the keys of their parts, in order (a reader's lists of parts are few). */
const companyMakers = new Map<string, (parts: readonly AnyPart[], row: Record<string, unknown>) => unknown>();

/** The parser of rows read with companySelect(parts): each row's parts parsed. */
export function companyParser<P extends readonly AnyPart[]>(
  parts: P,
): (row: Record<string, unknown>) => CompanyWith<P> {
  const keys = parts.map((p) => p.key).join();
  let make = companyMakers.get(keys);
  if (!make) {
    // One object literal per list of parts, as rowMaker. pg hands bigint as text unless told
    // otherwise: the id is a number everywhere.
    const own = COMPANY_COLUMNS.map((c) => (c === 'id' ? 'id: Number(r.id)' : `${c}: r.${c}`));
    const read = parts.map((p, i) => `${plainName(p.key)}: p[${i}].rows(r.${p.key})`);
    make = new Function('p', 'r', `return { ${[...own, ...read].join(', ')} };`) as (
      parts: readonly AnyPart[],
      row: Record<string, unknown>,
    ) => unknown;
    companyMakers.set(keys, make);
  }
  const build = make;
  return (row) => build(parts, row) as CompanyWith<P>;
}

/** A row read with companySelect(parts), its parts' rows parsed. */
export function parseCompany<P extends readonly AnyPart[]>(row: Record<string, unknown>, parts: P): CompanyWith<P> {
  return companyParser(parts)(row);
}

/**
 * The companies of `ids` with the rows of `parts`, in the order of `ids` (unknown ids left out),
 * in one statement.
 */
export async function readCompanies<P extends readonly AnyPart[]>(
  db: Db,
  ids: readonly number[],
  parts: P,
): Promise<CompanyWith<P>[]> {
  if (ids.length === 0) return [];
  const rows = await companiesStatement(parts)(db, [...ids]);
  return rows.map(companyParser(parts));
}

type CompaniesStatement = {
  parts: readonly AnyPart[];
  run: (db: Db, ids: number[]) => Promise<Record<string, unknown>[]>;
};

/** readCompanies' statements by their parts' keys and fields; at most a few hundred (cleared past that). */
const companiesStatements = new Map<string, CompaniesStatement>();

/**
 * The first lists of parts read in a process get a named prepared statement (ADR 0044, 2026-12-04):
 * at 100,000 companies PostgreSQL spent ~0.13 ms planning the data API's default read against ~0.07 ms
 * running it. Only a few: each is a plan on every pooled connection, and the sections a caller asks
 * for make up to 2,048 lists. The first ones a process meets are the common ones (its warm-up, the
 * data API's default). A name stays with its list's keys and fields for the life of the process,
 * and those make the statement's text (a part's key names its declaration).
 */
const NAMED_COMPANIES_STATEMENTS = 8;
const statementNames = new Map<string, string>();

function statementNameFor(key: string): string | null {
  const named = statementNames.get(key);
  if (named !== undefined || statementNames.size >= NAMED_COMPANIES_STATEMENTS) return named ?? null;
  const name = `registra-companies-${statementNames.size + 1}`;
  statementNames.set(key, name);
  return name;
}

/**
 * The statement of readCompanies for `parts`, its text built once (ADR 0044: the data API reads
 * every company through it, and building it through Kysely was a tenth of a millisecond a call).
 * Kept for the very part objects it was built from: another list of the same keys is built anew.
 */
function companiesStatement(parts: readonly AnyPart[]): CompaniesStatement['run'] {
  const key = parts.map((p) => `${p.key}(${p.fields.join()})`).join();
  let entry = companiesStatements.get(key);
  if (!entry || entry.parts.length !== parts.length || entry.parts.some((p, i) => p !== parts[i])) {
    if (companiesStatements.size >= 500) companiesStatements.clear();
    entry = {
      parts,
      run: preparedStatement(
        statementNameFor(key),
        (_, ids: number[]) => sql<Record<string, unknown>>`select ${companySelect(parts)}
    from unnest(${ids}::bigint[]) with ordinality as t (id, ord)
    join legal_entities le on le.id = t.id
    -- A company taken down is not served (ADR 0021).
    where ${visibleCompany('le')}
    order by t.ord`,
      ),
    };
    companiesStatements.set(key, entry);
  }
  return entry.run;
}
