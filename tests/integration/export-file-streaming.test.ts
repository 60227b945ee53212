import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_CHUNK_BYTES, exportFileSink, readExportFile } from '../../core/export/export-files.ts';
import { type Cell, createWriter, type ExportColumn } from '../../core/export/writers.ts';
import type { Db } from '../../db/client.ts';
import { parseStrictCsv } from '../support/export-readers.ts';
import { openTestDatabase } from '../support/test-database.ts';
import { createSignedInUser } from '../support/users.ts';

// An export job's file streams into the database (docs/decisions/0031-export-jobs.md): 50,000 rows
// through the real CSV writer into the chunk sink. Chunks are stored while rows are still being
// written (the file is never held whole), what waits in the sink stays under a chunk and the
// stream's buffer, the memory kept stays flat, and the stored bytes read back as the whole file.

const ROWS = 50_000;
// The collector, to weigh what is kept rather than what is garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/**
 * Memory kept after a full collection: the JS heap and the buffers outside it. V8 frees the memory of
 * collected ArrayBuffers on a background thread after the collection: on a busy machine a weighing
 * taken at once still counted tens of slices' buffers. A second collection after a pause lets it finish.
 */
const kept = async () => {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
let db: Db;
let exportJobId: number;

beforeAll(async () => {
  ({ db } = await openTestDatabase());
  const user = await createSignedInUser(db, 'export-streaming');
  const row = await db.kysely
    .insertInto('export_jobs')
    .values({
      user_id: user.id,
      section: 'companies',
      params: '',
      file_name: 'big.csv',
      content_type: 'text/csv; charset=utf-8',
      rows_total: ROWS,
      expires_at: new Date(Date.now() + 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  exportJobId = Number(row.id);
});
afterAll(() => db?.close());

const columns: ExportColumn[] = [
  { key: 'id', label: 'ID', type: 'number' },
  { key: 'name', label: 'Name', type: 'text' },
  { key: 'address', label: 'Address', type: 'text' },
  { key: 'note', label: 'Note', type: 'text' },
];
const NOTE = 'x'.repeat(600);
const rowOf = (i: number): Cell[] => [i, `Company number ${i} Ltd`, `${i} Long Street, Some Town`, NOTE];

async function storedChunks(): Promise<number> {
  const rows = await db.kysely
    .selectFrom('export_job_chunks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('export_job_id', '=', exportJobId)
    .executeTakeFirstOrThrow();
  return Number(rows.n);
}

describe('an export file', () => {
  it('streams 50,000 rows into stored chunks with flat memory', async () => {
    const { sink, stored } = exportFileSink(db, exportJobId);
    const writer = createWriter('csv', sink, columns, {
      separator: 'comma',
      entity: { plural: 'legal_entities', singular: 'legal_entity' },
      title: 'Legal entities',
    });
    const keptAt = new Map<number, number>();
    let waitingPeak = 0;
    let halfway = { bytes: 0, chunks: 0 };
    for (let i = 0; i < ROWS; i += 100) {
      await writer.writeRows(Array.from({ length: 100 }, (_, k) => rowOf(i + k)));
      waitingPeak = Math.max(waitingPeak, sink.writableLength);
      if (i === 10_000 || i === ROWS - 100) keptAt.set(i, await kept());
      if (i === ROWS / 2) halfway = { bytes: sink.writableLength, chunks: await storedChunks() };
    }
    await writer.finish();
    const file = await stored;
    // ~33 MB: many chunks, of which half were in the database halfway through the rows.
    expect(file.size).toBeGreaterThan(120 * EXPORT_CHUNK_BYTES);
    expect(file.chunks).toBe(Math.ceil(file.size / EXPORT_CHUNK_BYTES));
    expect(halfway.chunks).toBeGreaterThanOrEqual(Math.floor(file.chunks / 2) - 1);
    // What waits in the stream stays under a chunk and its buffer (16 KiB), never the file.
    expect(waitingPeak).toBeLessThan(EXPORT_CHUNK_BYTES + 64 * 1024);
    // Flat: the 40,000 rows between the two weighings (~26 MB of file) left under 8 MB more kept.
    expect((keptAt.get(ROWS - 100) ?? 0) - (keptAt.get(10_000) ?? 0)).toBeLessThan(8 * 1024 * 1024);

    const parts: Buffer[] = [];
    for await (const part of readExportFile(db, exportJobId, 0, file.size - 1)) parts.push(part);
    const text = Buffer.concat(parts).toString('utf8');
    expect(Buffer.byteLength(text)).toBe(file.size);
    const records = parseStrictCsv(text);
    expect(records.length).toBe(ROWS + 1);
    expect(records[ROWS]).toEqual([
      String(ROWS - 1),
      `Company number ${ROWS - 1} Ltd`,
      `${ROWS - 1} Long Street, Some Town`,
      NOTE,
    ]);
  }, 120_000);
});
