import { mkdir } from 'node:fs/promises';
import { type Db, openPglite, openPostgres } from './client.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { migrate } from './migrate.ts';

export type OpenOptions = { databaseUrl?: string; dataDir: string };

/** Opens the configured database (PostgreSQL when a URL is given, else PGlite under dataDir) and migrates it. */
export async function openDatabase(options: OpenOptions): Promise<Db> {
  let db: Db;
  if (options.databaseUrl) db = await openPostgres(options.databaseUrl);
  else {
    await mkdir(options.dataDir, { recursive: true });
    const unlock = lockDataDir(options.dataDir);
    db = await openPglite({ dataDir: options.dataDir });
    const close = db.close;
    db.close = async () => {
      await close();
      unlock();
    };
  }
  await migrate(db);
  return db;
}
