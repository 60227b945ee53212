import { readdir, readFile } from 'node:fs/promises';
import { withAdvisoryLock } from './advisory-lock.ts';
import type { Db } from './client.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

/**
 * Applies the numbered SQL files in db/migrations that have not run yet, each in its own
 * transaction, and returns their names. Processes starting together take turns (an advisory lock
 * over the whole run): the first applies them, the others find them applied.
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}-.+\.sql$/.test(f)).sort();
  return withAdvisoryLock(db, 'migrate', async (session) => {
    await session.run(
      'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
    );
    const done = await session.rows<{ name: string }>('select name from schema_migrations');
    const applied = new Set(done.map((r) => r.name));
    const ran: string[] = [];
    for (const file of files) {
      if (applied.has(file)) continue;
      const body = await readFile(new URL(file, MIGRATIONS_DIR), 'utf8');
      const name = file.replaceAll("'", "''");
      await session.run(`begin;\n${body}\ninsert into schema_migrations (name) values ('${name}');\ncommit;`);
      ran.push(file);
    }
    return ran;
  });
}
