import { type Expression, type SqlBool, sql } from 'kysely';
import { AppError } from '../errors/app-error.ts';
import { dateBoundDay, type FilterParam, paramName, parseDateValue } from '../filters/grammar.ts';
import {
  industryWithDescendants,
  locationWithChildren,
  type Reference,
  type RefItem,
} from '../reference/reference-data.ts';
import { enumValue } from '../sections/record-fields.ts';
import type { FilterDecl, SectionDecl } from '../sections/section.ts';

/**
 * Maps the filters of a search state to SQL conditions on the section's base table (alias `b`),
 * from the declarations alone. Values that name nothing (an unknown id or type) are a 400 naming
 * the parameter.
 */
export function filterConditions(
  section: SectionDecl,
  filters: FilterParam[],
  reference: Reference,
): Expression<SqlBool>[] {
  return filters.map((p) => {
    const decl = section.filters.find((f) => f.field === p.field);
    if (!decl) throw new AppError('bad_request', `unknown parameter ${paramName(p)}`, { parameter: paramName(p) });
    return condition(decl, p, reference, sql.ref(`b.${section.companyKey}`));
  });
}

/** The ids a reference filter selects (a parent with everything below it). */
export function refValues(
  decl: Extract<FilterDecl, { kind: 'reference' }>,
  p: FilterParam,
  reference: Reference,
): number[] {
  const list = reference[decl.ref] as { byId: Map<number, RefItem>; byUri: Map<string, RefItem> };
  const ids = p.values.map((v) => {
    const item = decl.valueKey === 'id' ? list.byId.get(Number(v)) : list.byUri.get(v);
    if (!item) throw badValue(p, v);
    return item.id;
  });
  if (!decl.hierarchical) return ids;
  const below = decl.ref === 'industries' ? industryWithDescendants : locationWithChildren;
  return [...new Set(ids.flatMap((id) => below(reference, id)))];
}

function typeId(decl: { types: keyof Reference }, p: FilterParam, reference: Reference): number {
  const list = reference[decl.types] as { byUri: Map<string, RefItem> };
  const item = list.byUri.get(p.keys[0]);
  if (!item) {
    throw new AppError('bad_request', `${paramName(p)}: unknown type "${p.keys[0]}"`, { parameter: paramName(p) });
  }
  return item.id;
}

function condition(
  decl: FilterDecl,
  p: FilterParam,
  reference: Reference,
  company: Expression<unknown>,
): Expression<SqlBool> {
  const typedExists = (d: { table: string; typeColumn: string }, extra: Expression<unknown> = sql``) =>
    sql<SqlBool>`exists (select 1 from ${sql.table(d.table)} t where t.legal_entity_id = ${company} and t.${sql.ref(d.typeColumn)} = ${typeId(d as never, p, reference)}${extra})`;
  const known = (c: Expression<SqlBool>) => (p.op === 'is_known' ? c : sql<SqlBool>`not (${c})`);
  switch (decl.kind) {
    case 'reference': {
      if (decl.via === 'ultimate_parent') {
        // Companies in a group whose top is in one of these countries (ADR 0038, migration 0036).
        const below = sql<SqlBool>`o.depth > 0 and o.ultimate_country is not null`;
        if (p.op === 'is_known')
          return sql<SqlBool>`${company} in (select o.legal_entity_id from ownership_tree o where ${below})`;
        if (p.op === 'is_unknown')
          return sql<SqlBool>`${company} not in (select o.legal_entity_id from ownership_tree o where ${below})`;
        return sql<SqlBool>`${company} in (select o.legal_entity_id from ownership_tree o where o.depth > 0
          and o.ultimate_country in (select l.country_code from locations l where l.id in (${sql.join(refValues(decl, p, reference))})))`;
      }
      const column = sql.ref(decl.via === 'company' ? `c.${decl.column}` : `b.${decl.column}`);
      let test: Expression<SqlBool>;
      if (p.op === 'is_known') test = sql<SqlBool>`${column} is not null`;
      else if (p.op === 'is_unknown') test = sql<SqlBool>`${column} is null`;
      else test = sql<SqlBool>`${column} in (${sql.join(refValues(decl, p, reference))})`;
      return decl.via === 'company'
        ? sql<SqlBool>`exists (select 1 from legal_entities c where c.id = ${company} and ${test})`
        : test;
    }
    case 'typed_date_range': {
      const direct = decl.direct?.[p.keys[0]];
      if (p.op === 'is_known' || p.op === 'is_unknown') {
        return known(
          direct ? sql<SqlBool>`${sql.ref(`b.${direct.column}`)} <> ${direct.unknown}::date` : typedExists(decl),
        );
      }
      typeId(decl, p, reference);
      const day = dateBound(p);
      const cmp = sql.raw(p.op === 'from' ? '>=' : '<=');
      if (direct) {
        const column = sql.ref(`b.${direct.column}`);
        const bounded = sql<SqlBool>`${column} ${cmp} ${day}::date`;
        return p.op === 'from' ? bounded : sql<SqlBool>`${bounded} and ${column} <> ${direct.unknown}::date`;
      }
      return typedExists(decl, sql` and t.${sql.ref(decl.valueColumn)} ${cmp} ${day}::date`);
    }
    case 'typed_text': {
      if (p.op === 'is_known' || p.op === 'is_unknown') return known(typedExists(decl));
      return typedExists(decl, sql` and t.${sql.ref(decl.valueColumn)} in (${sql.join(p.values)})`);
    }
    case 'typed_availability':
      return known(typedExists(decl));
    case 'typed_parts': {
      const part = sql.ref(`t.${p.keys[1]}`);
      if (p.op === 'is_known' || p.op === 'is_unknown') return known(typedExists(decl, sql` and ${part} is not null`));
      const values = p.values.map((v) => v.toLowerCase());
      return typedExists(decl, sql` and lower(${part}) in (${sql.join(values)})`);
    }
    case 'typed_boolean': {
      if (p.op === 'is_known' || p.op === 'is_unknown') return known(typedExists(decl));
      return typedExists(
        decl,
        sql` and t.${sql.ref(decl.valueColumn)} in (${sql.join(p.values.map((v) => v === 'true'))})`,
      );
    }
    case 'text': {
      const column = sql.ref(`b.${decl.column}`);
      if (p.op === 'is_known' || p.op === 'is_unknown') return known(sql<SqlBool>`${column} is not null`);
      return sql<SqlBool>`lower(${column}) in (${sql.join(p.values.map((v) => v.toLowerCase()))})`;
    }
    case 'range': {
      const column = sql.ref(`b.${decl.column}`);
      if (p.op === 'is_known' || p.op === 'is_unknown') return known(sql<SqlBool>`${column} is not null`);
      const cmp = sql.raw(p.op === 'from' ? '>=' : '<=');
      if (decl.valueType === 'date') return sql<SqlBool>`${column} ${cmp} ${dateBound(p)}::date`;
      const cast = sql.raw(
        decl.valueType === 'amount' ? 'numeric' : decl.valueType === 'year' ? 'smallint' : 'integer',
      );
      return sql<SqlBool>`${column} ${cmp} ${p.values[0]}::${cast}`;
    }
    case 'enum': {
      const column = sql.ref(`b.${decl.column}`);
      if (p.op === 'is_known' || p.op === 'is_unknown') return known(sql<SqlBool>`${column} is not null`);
      const ids = p.values.map((v) => {
        const value = enumValue(decl.values, v);
        if (!value) throw badValue(p, v);
        return value.id;
      });
      return sql<SqlBool>`${column} in (${sql.join(ids)})`;
    }
    case 'ids':
      if (decl.via === 'ownership_group')
        // All subsidiaries, any depth, of these companies: the ancestors' GIN index (migration 0036).
        return sql<SqlBool>`${company} in (select o.legal_entity_id from ownership_tree o
          where o.ancestors && ${p.values.map(Number)}::bigint[])`;
      return sql<SqlBool>`${sql.ref(`b.${decl.column}`)} in (${sql.join(p.values.map(Number))})`;
    case 'column_choice': {
      const columns = p.values.map((v) => {
        if (!Object.hasOwn(decl.columns, v)) throw badValue(p, v);
        return sql<SqlBool>`${sql.ref(`b.${decl.columns[v]}`)} is not null`;
      });
      return sql<SqlBool>`(${sql.join(columns, sql` or `)})`;
    }
  }
}

function badValue(p: FilterParam, v: string): AppError {
  return new AppError('bad_request', `${paramName(p)} has an unknown value "${v}"`, {
    parameter: paramName(p),
    value: v,
  });
}

/** The calendar day a :from or :to date bound stands for. */
function dateBound(p: FilterParam): string {
  const bound = parseDateValue(p.values[0]);
  if (!bound) throw new AppError('bad_request', `${paramName(p)} is not a date`, { parameter: paramName(p) });
  return dateBoundDay(bound, p.op === 'from' ? 'from' : 'to');
}
