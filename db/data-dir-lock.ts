import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite data must be opened by one process at a time: a second `npm start` on the same folder
 * would corrupt it. Takes a pid lock file in the folder (a stale one, whose process is gone, is
 * taken over) and returns its release.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'registra.lock');
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch {
    const holder = Number(readFileSync(file, 'utf8'));
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(
        `The database in ${dataDir} is in use by process ${holder}. Stop it first, or set DATA_DIR to another folder.`,
      );
    }
    writeFileSync(file, String(process.pid));
  }
  return () => rmSync(file, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
