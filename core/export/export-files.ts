import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

// An export job's file in the database (docs/decisions/0031-export-jobs.md): the writer's bytes
// cut into chunks of EXPORT_CHUNK_BYTES, one bytea row each (`export_job_chunks`), which TOAST
// compresses. Writing awaits each chunk's insert, so a file of any length holds one chunk in
// memory; a range is read from the chunks it overlaps, one at a time.

/** Bytes per stored chunk: chunk n holds bytes [n × this, (n + 1) × this). */
export const EXPORT_CHUNK_BYTES = 256 * 1024;

export type StoredFile = { size: number; etag: string; chunks: number };

/**
 * A Writable that stores what is written as the file of `exportJobId` (whose chunks the caller
 * dropped first: an earlier attempt's). `stored` resolves once the writer ended it and the last
 * chunk is in, with the file's length and ETag (a hash of its bytes).
 */
export function exportFileSink(db: Db, exportJobId: number): { sink: Writable; stored: Promise<StoredFile> } {
  const hash = createHash('sha256');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let size = 0;
  let seq = 0;
  const put = async (data: Buffer) => {
    await db.kysely.insertInto('export_job_chunks').values({ export_job_id: exportJobId, seq, data }).execute();
    seq += 1;
  };
  /** Stores every full chunk of what is pending (and, at the end, the rest). */
  const flush = async (end: boolean) => {
    while (pendingBytes >= EXPORT_CHUNK_BYTES || (end && pendingBytes > 0)) {
      const all = Buffer.concat(pending, pendingBytes);
      const take = Math.min(EXPORT_CHUNK_BYTES, all.length);
      await put(all.subarray(0, take));
      pending = take < all.length ? [all.subarray(take)] : [];
      pendingBytes = all.length - take;
    }
  };
  let resolveStored: (file: StoredFile) => void = () => {};
  let rejectStored: (error: Error) => void = () => {};
  const stored = new Promise<StoredFile>((resolve, reject) => {
    resolveStored = resolve;
    rejectStored = reject;
  });
  stored.catch(() => {});
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      hash.update(bytes);
      size += bytes.length;
      pending.push(bytes);
      pendingBytes += bytes.length;
      // The writer waits while a chunk is stored: memory stays at a chunk whatever the file's length.
      flush(false).then(() => callback(), callback);
    },
    final(callback) {
      flush(true).then(() => {
        resolveStored({ size, etag: `"${hash.digest('hex').slice(0, 32)}"`, chunks: seq });
        callback();
      }, callback);
    },
    destroy(error, callback) {
      if (error) rejectStored(error);
      callback(error);
    },
  });
  return { sink, stored };
}

/** The bytes [start, end] (inclusive) of a stored file, a chunk at a time. */
export async function* readExportFile(db: Db, exportJobId: number, start: number, end: number): AsyncGenerator<Buffer> {
  if (end < start) return;
  const first = Math.floor(start / EXPORT_CHUNK_BYTES);
  const last = Math.floor(end / EXPORT_CHUNK_BYTES);
  for (let seq = first; seq <= last; seq += 1) {
    const row = await db.kysely
      .selectFrom('export_job_chunks')
      .select('data')
      .where('export_job_id', '=', exportJobId)
      .where('seq', '=', seq)
      .executeTakeFirst();
    if (!row) throw new Error(`export file ${exportJobId} lacks its chunk ${seq}`);
    const data = Buffer.from(row.data);
    const from = seq === first ? start - seq * EXPORT_CHUNK_BYTES : 0;
    const to = seq === last ? end - seq * EXPORT_CHUNK_BYTES + 1 : data.length;
    yield data.subarray(from, to);
  }
}

/** Drops a file's chunks (an attempt that starts again, a failed or expired export). */
export async function dropExportFile(db: Db, exportJobId: number): Promise<void> {
  await db.kysely.deleteFrom('export_job_chunks').where('export_job_id', '=', exportJobId).execute();
}

/** Bytes the stored files take (the chunks' values as stored, compressed): for the ADR's measurements. */
export async function storedExportBytes(db: Db, exportJobId: number): Promise<number> {
  const row = await sql<{ bytes: string | number }>`
    select coalesce(sum(pg_column_size(data)), 0) as bytes from export_job_chunks where export_job_id = ${exportJobId}`.execute(
    db.kysely,
  );
  return Number(row.rows[0]?.bytes ?? 0);
}
