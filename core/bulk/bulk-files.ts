import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

// Where the bulk data lives on disk (ADR 0036): one folder per snapshot under BULK_DATA_DIR, named
// by its time (`2026-12-03T20-14-55-123Z`), holding per section a gzipped JSON Lines and CSV file,
// the change file since the snapshot before, and manifest.json. A folder is written as
// `.building-<name>` and renamed when whole, so a listing never shows half a snapshot.

/** Snapshots kept: a week of daily ones; older folders are removed after each build. */
export const BULK_SNAPSHOTS_KEPT = 7;

/** A snapshot's name: its creation time with `-` for `:` and `.`, safe in a path. */
export const SNAPSHOT_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
/** A file of a snapshot: `companies.jsonl.gz`, `vessels.csv.gz`, `vessels.changes.jsonl.gz`. */
export const BULK_FILE_NAME = /^[a-z][a-z0-9_]*\.(jsonl|csv|changes\.jsonl)\.gz$/;

export function snapshotName(at: Date): string {
  return at.toISOString().replace(/[:.]/g, '-');
}

export const BulkFileSchema = z
  .object({
    name: z.string().describe('The file name, as in the download URL.'),
    section: z.string().describe('`companies`, or the data API name of a record section (`vessels`).'),
    kind: z.enum(['snapshot', 'changes']).describe('A whole section, or its changes since the previous snapshot.'),
    format: z.enum(['jsonl', 'csv']),
    rows: z.number().int().describe('Rows (snapshot) or change lines (changes).'),
    upserts: z.number().int().optional().describe('Change files: rows added or changed.'),
    deletes: z.number().int().optional().describe('Change files: rows removed (taken down or gone).'),
    bytes: z.number().int().describe('Size of the gzipped file.'),
    sha256: z.string().describe('SHA-256 of the gzipped file, hex.'),
  })
  .meta({ id: 'BulkFile' });
export type BulkFile = z.infer<typeof BulkFileSchema>;

export const BulkManifestSchema = z
  .object({
    snapshot: z.string().describe('The snapshot’s name (its folder and URL segment).'),
    created_at: z.string().describe('When the build started (ISO 8601): the data is as of then.'),
    previous: z.string().nullable().describe('The snapshot the change files lead from; null for the first.'),
    lang: z.literal('en').describe('Language of display names in the rows.'),
    files: z.array(BulkFileSchema),
  })
  .meta({ id: 'BulkManifest' });
export type BulkManifest = z.infer<typeof BulkManifestSchema>;

/** The snapshots on disk, newest first, each with its manifest (folders without one are skipped). */
export async function listBulkSnapshots(dir: string): Promise<BulkManifest[]> {
  const names = await snapshotFolders(dir);
  const manifests: BulkManifest[] = [];
  for (const name of names) {
    const manifest = await readManifest(dir, name);
    if (manifest) manifests.push(manifest);
  }
  return manifests;
}

/** A snapshot's manifest, or null when there is no such snapshot. */
export async function readManifest(dir: string, snapshot: string): Promise<BulkManifest | null> {
  if (!SNAPSHOT_NAME.test(snapshot)) return null;
  try {
    return BulkManifestSchema.parse(JSON.parse(await readFile(join(dir, snapshot, 'manifest.json'), 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Snapshot folder names, newest first. */
export async function snapshotFolders(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries.filter((n) => SNAPSHOT_NAME.test(n)).sort((a, b) => (a < b ? 1 : -1));
}

/** Removes the snapshots beyond the newest `kept` (and any build left half done); returns the names removed. */
export async function pruneBulkSnapshots(dir: string, kept = BULK_SNAPSHOTS_KEPT): Promise<string[]> {
  const old = (await snapshotFolders(dir)).slice(kept);
  for (const name of old) await rm(join(dir, name), { recursive: true, force: true });
  return old;
}
