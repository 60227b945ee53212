import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

// db/schema.ts (the Kysely types every query is checked against) is written by hand beside the
// migrations. This test holds it to the real schema: it reads the tables, columns and their
// nullability from information_schema after the migrations, writes them as a type, and has the
// type checker compare that type with `Database` table by table (TypeScript 7 has no compiler API
// to read the types from: the checker itself compares them).

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t?.db.close());

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The migrations' own bookkeeping, which no query of the app reads through Kysely. */
const BOOKKEEPING = new Set(['schema_migrations']);

type ColumnRow = { table_name: string; column_name: string; is_nullable: 'YES' | 'NO'; data_type: string };

/** How a column reads; a JSON column may also be declared `unknown` (any JSON, read as it was written). */
function readAs(c: ColumnRow): string {
  const nullability = c.is_nullable === 'YES' ? "'null'" : "'not null'";
  return c.data_type === 'json' || c.data_type === 'jsonb' ? `${nullability} | 'unknown'` : nullability;
}

/** A TypeScript file whose type check fails, naming the table, when `Database` differs from the schema. */
function comparison(columns: ColumnRow[]): string {
  const tables = new Map<string, ColumnRow[]>();
  for (const c of columns) tables.set(c.table_name, [...(tables.get(c.table_name) ?? []), c]);
  const actual = [...tables]
    .map(([table, cols]) => {
      const fields = cols.map((c) => `${c.column_name}: ${readAs(c)}`);
      return `  ${table}: { ${fields.join('; ')} };`;
    })
    .join('\n');
  const checks = [...tables.keys()].map(
    (table) => `const ${table}: Fits<Declared['${table}'], Actual['${table}']> = true;`,
  );
  return `import type { Database } from ${JSON.stringify(join(ROOT, 'db/schema.ts'))};

// What a select gives: Kysely's ColumnType and Generated keep it as __select__.
type Selected<T> = T extends { readonly __select__: infer S } ? S : T;
type Nullability<T> = {
  [K in keyof T]-?: unknown extends Selected<T[K]> ? 'unknown' : null extends Selected<T[K]> ? 'null' : 'not null';
};
type Declared = { [T in keyof Database]: Nullability<Database[T]> };
type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : { declared: A; schema: B };
/** The columns whose declared nullability is not the schema's. */
type Mismatched<D, A> = { [K in keyof D & keyof A]: [D[K]] extends [A[K]] ? never : K }[keyof D & keyof A];
type Fits<D, A> =
  Same<keyof D, keyof A> extends true
    ? [Mismatched<D, A>] extends [never]
      ? true
      : { columns: Mismatched<D, A>; declared: D; schema: A }
    : { declared: keyof D; schema: keyof A };

type Actual = {
${actual}
};

export const tables: Same<keyof Database, keyof Actual> = true;
${checks.map((c) => `export ${c}`).join('\n')}
`;
}

describe('db/schema.ts', () => {
  it('declares every table and column of the migrated schema, with the same nullability', async () => {
    const { rows } = await sql<ColumnRow>`
      select c.table_name, c.column_name, c.is_nullable, c.data_type
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
      order by c.table_name, c.ordinal_position`.execute(t.db.kysely);
    const columns = rows.filter((r) => !BOOKKEEPING.has(r.table_name));
    expect(columns.length).toBeGreaterThan(100);

    const dir = await mkdtemp(join(tmpdir(), 'registra-schema-'));
    try {
      await writeFile(join(dir, 'check.ts'), comparison(columns));
      await writeFile(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2024',
            module: 'preserve',
            moduleResolution: 'bundler',
            allowImportingTsExtensions: true,
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: [],
          },
          files: ['check.ts'],
        }),
      );
      const tsc = join(ROOT, 'node_modules/.bin/tsc');
      const result = await promisify(execFile)(tsc, ['-p', join(dir, 'tsconfig.json')]).then(
        () => '',
        (error: { stdout?: string; message: string }) => error.stdout || error.message,
      );
      // A difference names the table and shows both shapes: fix db/schema.ts (or the migration).
      expect(result).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('values through either driver (db/client.ts)', () => {
  it('writes and reads bytea as a Buffer of the same bytes: every byte value, empty, and 1 MB', async () => {
    const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const large = Buffer.alloc(1024 * 1024, every);
    for (const bytes of [every, Buffer.alloc(0), large, every.subarray(100, 110)]) {
      const { rows } = await sql<{
        data: Buffer;
        hex: string;
      }>`select ${bytes}::bytea as data, encode(${bytes}::bytea, 'hex') as hex`.execute(t.db.kysely);
      expect(Buffer.isBuffer(rows[0].data)).toBe(true);
      expect(rows[0].data.equals(bytes)).toBe(true);
      // What the server stored is the bytes themselves, not their text.
      expect(rows[0].hex).toBe(bytes.toString('hex'));
    }
  });
});
