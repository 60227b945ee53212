import { readdir, readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { type Db, execScript } from './client.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

/** Applies the numbered SQL files in db/migrations that have not run yet, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  await execScript(
    db,
    'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
  );
  const done = await sql<{ name: string }>`select name from schema_migrations`.execute(db.kysely);
  const applied = new Set(done.rows.map((r) => r.name));
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}-.+\.sql$/.test(f)).sort();
  const ran: string[] = [];
  for (const file of files) {
    if (applied.has(file)) continue;
    const body = await readFile(new URL(file, MIGRATIONS_DIR), 'utf8');
    const name = file.replaceAll("'", "''");
    await execScript(db, `begin;\n${body}\ninsert into schema_migrations (name) values ('${name}');\ncommit;`);
    ran.push(file);
  }
  return ran;
}
