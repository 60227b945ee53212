import { Worker } from 'node:worker_threads';
import { AppError } from '../errors/app-error.ts';
import { i18nFor } from '../i18n/i18n.ts';
import { ENRICHMENT_MAX_BYTES, ENRICHMENT_READ_HEAP_MB, ENRICHMENT_READ_SECONDS } from '../limits.ts';
import type { MatchQuery } from '../matching/match-companies.ts';
import { type ColumnMapping, ENRICHMENT_FIELDS, type EnrichmentField } from './enrichment-fields.ts';
import type { ReadTableReply } from './read-table.worker.ts';
import type { RefusalReason, RefusalValues } from './table-builder.ts';

// An enrichment's upload (ADR 0020 "Enrichment"): a CSV (any of the usual separators, UTF-8 with
// or without a byte-order mark) or an XLSX workbook (its first sheet), its first row the header.
// Columns are guessed from their headers and the user may map them otherwise. A file that is
// neither, too big, or without a column to match on is refused with a message naming what is wrong.
// Reading happens in a worker thread, bounded as it streams (read-table.ts).

/** Fields that can find a company on their own (country and address only help). */
const IDENTIFYING: readonly EnrichmentField[] = ['name', 'registration_number', 'lei', 'vat', 'domain'];

export type Upload = { fileName: string; columns: string[]; rows: string[][] };

const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * Header patterns per field, in the order fields are guessed (the most specific first), in
 * English, German and French; matched against the folded header (lower case, no accents).
 */
const GUESSES: [EnrichmentField, RegExp][] = [
  ['lei', /^(lei|lei code|legal entity identifier)$/],
  ['vat', /\b(vat|tva|ust|ust ?id|ustidnr|tax|tin|ein|steuer ?nummer|steuernr|mwst|numero fiscal|n tva)\b/],
  [
    'registration_number',
    /\b(registration|registered number|reg ?no|reg nr|company (number|no|id)|crn|handelsregister|register ?nummer|registernr|hrb|hra|immatriculation|siren|siret|rcs|orgnr|organisasjonsnummer|kvk)\b/,
  ],
  ['domain', /\b(website|web ?site|web|domain|domaine|url|homepage|site|site web|webseite|internet)\b/],
  ['country', /\b(country|country code|land|pays|jurisdiction|rechtsraum|juridiction|staat|nation)\b/],
  ['address', /\b(address|adresse|anschrift|street|strasse|rue|city|town|ort|stadt|ville|post ?code|zip|plz)\b/],
  [
    'name',
    /\b(name|company|firm|firma|firmenname|unternehmen|organisation|organization|nom|entreprise|societe|raison sociale|legal name|account)\b/,
  ],
];

/** Guesses which column holds which field from the headers: each field at most one column, each column one field. */
export function guessColumns(columns: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  const taken = new Set<number>();
  const folded = columns.map(fold);
  for (const [field, pattern] of GUESSES) {
    const index = folded.findIndex((h, i) => !taken.has(i) && h !== '' && pattern.test(h));
    if (index >= 0) {
      mapping[field] = index;
      taken.add(index);
    }
  }
  return mapping;
}

/** Whether a mapping can find companies: at least one column that identifies one. */
export function isUsableMapping(mapping: ColumnMapping): boolean {
  return IDENTIFYING.some((field) => mapping[field] !== undefined);
}

/** A row as the matching engine's query, through the mapping (blank cells left out). */
export function rowQuery(cells: readonly string[], mapping: ColumnMapping): MatchQuery {
  const query: MatchQuery = {};
  for (const field of ENRICHMENT_FIELDS) {
    const index = mapping[field];
    const value = index === undefined ? '' : (cells[index] ?? '').trim();
    if (value) query[field] = value.slice(0, 1000);
  }
  return query;
}

/** A mapping from untrusted JSON (the database, a form): known fields and columns of the file only. */
export function cleanMapping(value: unknown, columnCount: number): ColumnMapping {
  const mapping: ColumnMapping = {};
  if (!value || typeof value !== 'object') return mapping;
  for (const field of ENRICHMENT_FIELDS) {
    const index = (value as Record<string, unknown>)[field];
    if (typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < columnCount) {
      mapping[field] = index;
    }
  }
  return mapping;
}

/** Readers at work at once: more uploads wait their turn rather than each holding a worker's memory. */
const MAX_READERS = 2;
let readers = 0;
const waiting: (() => void)[] = [];

async function turn(): Promise<() => void> {
  if (readers >= MAX_READERS) await new Promise<void>((resolve) => waiting.push(resolve));
  readers++;
  return () => {
    readers--;
    waiting.shift()?.();
  };
}

const WORKER = new URL('./read-table.worker.ts', import.meta.url);

/** A refusal as the AppError the pages and the CLI show: its message in English, its reason and values in details. */
function refusal(reason: RefusalReason, values: RefusalValues = {}): AppError {
  const size = Math.round(ENRICHMENT_MAX_BYTES / 1024 / 1024);
  const message = i18nFor('en').t(`enrichment.errors.${reason}`, { size, ...values });
  return new AppError('bad_request', message, { parameter: 'file', reason, ...values });
}

/**
 * Reads an uploaded file: its header and rows (trailing blank rows dropped), or a 400 naming the
 * problem (details.reason: the key of its message, `enrichment.errors.<reason>`). The reading runs in
 * a worker thread (read-table.worker.ts), which is ended at once when the file passes a limit, the
 * read takes longer than ENRICHMENT_READ_SECONDS (or `timeoutMs`), its heap passes ENRICHMENT_READ_HEAP_MB or `signal`
 * aborts (the request is gone): its memory goes with it. `bytes` is handed to the worker, not copied:
 * the caller must not use it afterwards.
 */
export async function readUpload(
  fileName: string,
  bytes: Uint8Array,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Upload> {
  const { signal, timeoutMs = ENRICHMENT_READ_SECONDS * 1000 } = options;
  // Checked here too, so that an oversized file never starts a worker.
  if (bytes.byteLength >= ENRICHMENT_MAX_BYTES) throw refusal('tooLarge');
  if (bytes.byteLength === 0) throw refusal('empty');
  signal?.throwIfAborted();
  const done = await turn();
  try {
    signal?.throwIfAborted();
    const reply = await inWorker(fileName, bytes, timeoutMs, signal);
    if (reply.ok) return { fileName, columns: reply.columns, rows: reply.rows };
    if ('reason' in reply) throw refusal(reply.reason, reply.values);
    throw new Error(`reading the upload failed: ${reply.error}`);
  } finally {
    done();
  }
}

function inWorker(
  fileName: string,
  bytes: Uint8Array,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ReadTableReply> {
  // The whole buffer is transferred (a view into a shared or larger one is copied first).
  const own =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
      ? bytes
      : bytes.slice();
  const worker = new Worker(WORKER, {
    workerData: { fileName, bytes: own },
    transferList: [own.buffer as ArrayBuffer],
    resourceLimits: { maxOldGenerationSizeMb: ENRICHMENT_READ_HEAP_MB },
  });
  return new Promise<ReadTableReply>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Ended whatever its state, before the answer: a refused or abandoned read has given its
      // memory back by then.
      worker.terminate().then(outcome, outcome);
    };
    const timer = setTimeout(() => settle(() => reject(refusal('timeout'))), timeoutMs);
    const onAbort = () => settle(() => reject(signal?.reason ?? new Error('aborted')));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (reply: ReadTableReply) => settle(() => resolve(reply)));
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? refusal('tooComplex') : error)),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`the upload reader stopped (exit code ${code})`))));
  });
}
