import { CompiledQuery, type Kysely } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

/** Stands for the n-th argument of a prepared statement while its text is built (once). */
class Argument {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

type Shape = { sql: string; parameters: readonly unknown[] };

/** A `sql` template or a query builder: what compiles to one statement. */
type Statement<R> = { compile(kysely: Kysely<Database>): CompiledQuery<R> };

/**
 * A statement whose text never changes (only its parameters do), built and compiled once (ADR 0040):
 * `build` is called once per database with its Kysely (for a query builder) and stand-ins for its
 * arguments (named ones: no defaults, no rest), which it may only place in the statement as values
 * (`${uri}` in a `sql` template, `.where('id', '=', id)`), never inspect nor spread (a list);
 * each call then fills the compiled parameters with its own arguments. Building and compiling a
 * profile's large statements through Kysely was about half a millisecond of CPU per page.
 *
 * On PostgreSQL it is a named prepared statement: each pooled connection parses and plans it once,
 * then reuses the plan. The profile's two statements spent about half their server time planning
 * (1.3 of 2.5 ms: dozens of subqueries over tables with many indexes; ADR 0002). PGlite (and a Db
 * without a pool) runs the compiled text through Kysely. A name must always stand for the same text,
 * and a statement's columns are named (no `select *`), so that its result never changes shape under a
 * connection that prepared it. A Db standing for a transaction carries no pool (the pool would run
 * the statement outside it).
 *
 * Without a name (null) the text is still built once, but each call is parsed and planned anew: for
 * statements of many shapes (ADR 0044: a company with the parts a call asks for), which prepared
 * on every connection would hold a plan per shape per connection in the server.
 */
export function preparedStatement<A extends unknown[], R>(
  name: string | null,
  build: (kysely: Kysely<Database>, ...args: A) => Statement<R>,
): (db: Db, ...args: A) => Promise<R[]> {
  const shapes = new WeakMap<Kysely<Database>, Shape>();
  const shapeFor = (kysely: Kysely<Database>): Shape => {
    let shape = shapes.get(kysely);
    if (!shape) {
      const stand = Array.from({ length: build.length - 1 }, (_, i) => new Argument(i)) as unknown as A;
      const compiled = build(kysely, ...stand).compile(kysely);
      const placed = new Set(compiled.parameters.flatMap((p) => (p instanceof Argument ? [p.index] : [])));
      if (placed.size !== stand.length)
        throw new Error(`prepared statement ${name ?? build.name}: an argument is not a parameter of it`);
      shape = { sql: compiled.sql, parameters: compiled.parameters };
      shapes.set(kysely, shape);
    }
    return shape;
  };
  return async (db, ...args) => {
    const shape = shapeFor(db.kysely);
    const values = shape.parameters.map((p) => (p instanceof Argument ? args[p.index] : p));
    if (!db.pool) return (await db.kysely.executeQuery(CompiledQuery.raw(shape.sql, values))).rows as R[];
    const result = await db.pool.query(name === null ? { text: shape.sql, values } : { name, text: shape.sql, values });
    return result.rows as R[];
  };
}
