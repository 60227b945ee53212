import { type Expression, type SqlBool, sql } from 'kysely';
import { AppError } from '../errors/app-error.ts';
import { dateBoundDay, type FilterParam, paramName, parseDateValue } from '../filters/grammar.ts';
import { industryWithDescendants, type Reference, type RefItem } from '../reference/reference-data.ts';
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
    return condition(decl, p, reference);
  });
}

function refValues(decl: Extract<FilterDecl, { kind: 'reference' }>, p: FilterParam, reference: Reference): number[] {
  const list = reference[decl.ref] as { byId: Map<number, RefItem>; byUri: Map<string, RefItem> };
  const ids = p.values.map((v) => {
    const item = decl.valueKey === 'id' ? list.byId.get(Number(v)) : list.byUri.get(v);
    if (!item) {
      throw new AppError('bad_request', `${paramName(p)} has an unknown value "${v}"`, {
        parameter: paramName(p),
        value: v,
      });
    }
    return item.id;
  });
  return decl.hierarchical ? [...new Set(ids.flatMap((id) => industryWithDescendants(reference, id)))] : ids;
}

function typeId(decl: { types: keyof Reference }, p: FilterParam, reference: Reference): number {
  const list = reference[decl.types] as { byUri: Map<string, RefItem> };
  const item = list.byUri.get(p.keys[0]);
  if (!item) {
    throw new AppError('bad_request', `${paramName(p)}: unknown type "${p.keys[0]}"`, { parameter: paramName(p) });
  }
  return item.id;
}

function condition(decl: FilterDecl, p: FilterParam, reference: Reference): Expression<SqlBool> {
  const base = sql.ref('b.id');
  switch (decl.kind) {
    case 'reference': {
      const column = sql.ref(`b.${decl.column}`);
      if (p.op === 'is_known') return sql<SqlBool>`${column} is not null`;
      if (p.op === 'is_unknown') return sql<SqlBool>`${column} is null`;
      const ids = refValues(decl, p, reference);
      return sql<SqlBool>`${column} in (${sql.join(ids)})`;
    }
    case 'typed_date_range': {
      const type = typeId(decl, p, reference);
      const direct = decl.direct?.[p.keys[0]];
      const exists = (extra: ReturnType<typeof sql>) =>
        sql<SqlBool>`exists (select 1 from ${sql.table(decl.table)} t where t.legal_entity_id = ${base} and t.${sql.ref(decl.typeColumn)} = ${type}${extra})`;
      if (p.op === 'is_known' || p.op === 'is_unknown') {
        const known = direct
          ? sql<SqlBool>`${sql.ref(`b.${direct.column}`)} <> ${direct.unknown}::date`
          : exists(sql``);
        return p.op === 'is_known' ? known : sql<SqlBool>`not (${known})`;
      }
      const bound = parseDateValue(p.values[0]);
      if (!bound) throw new AppError('bad_request', `${paramName(p)} is not a date`, { parameter: paramName(p) });
      const day = dateBoundDay(bound, p.op === 'from' ? 'from' : 'to');
      const cmp = sql.raw(p.op === 'from' ? '>=' : '<=');
      if (direct) {
        const column = sql.ref(`b.${direct.column}`);
        const bounded = sql<SqlBool>`${column} ${cmp} ${day}::date`;
        return p.op === 'from' ? bounded : sql<SqlBool>`${bounded} and ${column} <> ${direct.unknown}::date`;
      }
      return exists(sql` and t.${sql.ref(decl.valueColumn)} ${cmp} ${day}::date`);
    }
    case 'typed_text': {
      const type = typeId(decl, p, reference);
      const where = sql`t.legal_entity_id = ${base} and t.${sql.ref(decl.typeColumn)} = ${type}`;
      if (p.op === 'is_known') return sql<SqlBool>`exists (select 1 from ${sql.table(decl.table)} t where ${where})`;
      if (p.op === 'is_unknown')
        return sql<SqlBool>`not exists (select 1 from ${sql.table(decl.table)} t where ${where})`;
      return sql<SqlBool>`exists (select 1 from ${sql.table(decl.table)} t where ${where} and t.${sql.ref(decl.valueColumn)} in (${sql.join(p.values)}))`;
    }
    case 'typed_availability': {
      const type = typeId(decl, p, reference);
      const known = sql<SqlBool>`exists (select 1 from ${sql.table(decl.table)} t where t.legal_entity_id = ${base} and t.${sql.ref(decl.typeColumn)} = ${type})`;
      return p.op === 'is_known' ? known : sql<SqlBool>`not ${known}`;
    }
  }
}
