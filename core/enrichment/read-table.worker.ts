import { parentPort, workerData } from 'node:worker_threads';
import { readTable } from './read-table.ts';
import { TableRefusal } from './table-builder.ts';

// The worker thread that reads one upload (read-upload.ts starts it): the file's bytes come in
// workerData (transferred, not copied), the header and rows or a typed refusal go back. Whatever
// the file costs to read is this thread's: the server's own keeps answering.

export type ReadTableReply =
  | { ok: true; columns: string[]; rows: string[][] }
  | { ok: false; reason: TableRefusal['reason']; values: TableRefusal['values'] }
  | { ok: false; error: string };

const { fileName, bytes } = workerData as { fileName: string; bytes: Uint8Array };

let reply: ReadTableReply;
try {
  const table = await readTable(fileName, bytes);
  reply = { ok: true, columns: table.columns, rows: table.rows };
} catch (error) {
  reply =
    error instanceof TableRefusal
      ? { ok: false, reason: error.reason, values: error.values }
      : { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
parentPort?.postMessage(reply);
