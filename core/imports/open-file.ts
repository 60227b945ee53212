import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import yauzl from 'yauzl';
import { FileEndedEarlyError } from './company-facts.ts';

// Opening an import file streamed (docs/decisions/0014-importers.md "Files"): plain, .gz or .zip
// (every file entry of the archive in turn, e.g. the SEC's bulk zip of one JSON per company), or a
// directory (each of its files in turn, in name order; filed accounts: ADR 0037).
// Nothing is read into memory whole; `onBytes` counts the file's own bytes for the progress bar.

export type FileEntry = { name: string; stream: Readable };

export type OpenedFile = { size: number; entries: AsyncIterable<FileEntry> };

/** The files of a path: itself, or a directory's files (and its subdirectories'), in name order. */
export async function filesOf(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const out: string[] = [];
  const entries = (await readdir(path, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const inner = join(path, entry.name);
    if (entry.isDirectory()) out.push(...(await filesOf(inner)));
    else if (entry.isFile()) out.push(inner);
  }
  return out;
}

export async function openImportFile(path: string, onBytes: (bytes: number) => void): Promise<OpenedFile> {
  const stats = await stat(path);
  if (stats.isDirectory()) {
    const files = await filesOf(path);
    let size = 0;
    for (const file of files) size += (await stat(file)).size;
    return { size, entries: directoryEntries(files, onBytes) };
  }
  const { size } = stats;
  const lower = path.toLowerCase();
  if (lower.endsWith('.zip')) return { size, entries: zipEntries(path, onBytes) };
  // Bytes are counted as they pass (a 'data' listener would switch the file to flowing mode and
  // read it into memory ahead of the importer: memory would grow with the file).
  const raw = createReadStream(path, { highWaterMark: 256 * 1024 });
  const counted = raw.pipe(byteCounter(onBytes));
  raw.on('error', (error) => counted.destroy(error));
  const stream = lower.endsWith('.gz') ? gunzipped(counted) : counted;
  if (stream !== counted) counted.on('error', (error) => stream.destroy(error));
  const name = basename(path).replace(/\.gz$/i, '');
  return { size, entries: single({ name, stream }) };
}

/** How much inflated text waits for the reader before the compressed file is paused. */
const INFLATED_AHEAD = 4 * 1024 * 1024;

/**
 * A .gz stream inflated. One cut short says the file ended early — but only once everything
 * inflated before the cut was read: zlib's "unexpected end of file" destroys its stream with its
 * unread output, so its output is taken as it comes (a queue of at most INFLATED_AHEAD, the
 * compressed input paused beyond it) and the error is handed on when the queue is empty.
 */
function gunzipped(input: Readable): Readable {
  const gunzip = createGunzip();
  const queue: Buffer[] = [];
  let queued = 0;
  /** undefined while inflating, null at the end, the error when it failed. */
  let outcome: Error | null | undefined;
  let asked = false;
  const resumeInput = () => {
    if (queued < INFLATED_AHEAD && !gunzip.writableNeedDrain && input.isPaused()) input.resume();
  };
  const serve = () => {
    asked = false;
    const chunk = queue.shift();
    if (chunk) {
      queued -= chunk.length;
      resumeInput();
      out.push(chunk);
    } else if (outcome === undefined) asked = true;
    else if (outcome === null) out.push(null);
    else out.destroy(outcome);
  };
  // highWaterMark 0: read() comes only when the reader wants more, so the error waits for it.
  const out = new Readable({ highWaterMark: 0, read: serve });
  gunzip.on('data', (chunk: Buffer) => {
    queue.push(chunk);
    queued += chunk.length;
    if (queued >= INFLATED_AHEAD) input.pause();
    if (asked) serve();
  });
  const finish = (result: Error | null) => {
    outcome = result;
    if (asked) serve();
  };
  gunzip.on('end', () => finish(null));
  gunzip.on('error', (error: Error & { code?: string }) =>
    finish(
      error.code === 'Z_BUF_ERROR'
        ? new FileEndedEarlyError('the .gz file stops before the end of its compressed data (a download cut short?)')
        : error,
    ),
  );
  gunzip.on('drain', resumeInput);
  input.on('data', (chunk: Buffer) => {
    if (!gunzip.write(chunk) || queued >= INFLATED_AHEAD) input.pause();
  });
  input.on('end', () => gunzip.end());
  out.on('close', () => {
    gunzip.destroy();
    input.destroy();
  });
  return out;
}

function byteCounter(onBytes: (bytes: number) => void): Transform {
  return new Transform({
    highWaterMark: 256 * 1024,
    transform(chunk: Buffer, _encoding, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

async function* single(entry: FileEntry): AsyncIterable<FileEntry> {
  yield entry;
}

/** A directory's files one after the other, each opened only when its turn comes (.gz and .zip as above). */
async function* directoryEntries(files: string[], onBytes: (bytes: number) => void): AsyncIterable<FileEntry> {
  for (const file of files) {
    const opened = await openImportFile(file, onBytes);
    yield* opened.entries;
  }
}

async function* zipEntries(path: string, onBytes: (bytes: number) => void): AsyncIterable<FileEntry> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (error, file) =>
      // A zip's directory is at its end: a zip cut short has none.
      error
        ? reject(
            /end of central directory record signature not found/i.test(error.message)
              ? new FileEndedEarlyError('the zip has no directory at its end (cut short, or not a zip file)')
              : error,
          )
        : resolve(file),
    ),
  );
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        const onEntry = (e: yauzl.Entry) => {
          zip.off('end', onEnd);
          zip.off('error', onError);
          resolve(e);
        };
        const onEnd = () => {
          zip.off('entry', onEntry);
          zip.off('error', onError);
          resolve(null);
        };
        const onError = (error: Error) => {
          zip.off('entry', onEntry);
          zip.off('end', onEnd);
          reject(error);
        };
        zip.once('entry', onEntry);
        zip.once('end', onEnd);
        zip.once('error', onError);
        zip.readEntry();
      });
      if (entry === null) return;
      if (entry.fileName.endsWith('/')) continue;
      const inner = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (error, s) => (error ? reject(error) : resolve(s))),
      );
      // Progress by compressed bytes: the bar's total is the file's size on disk.
      const ratio = entry.uncompressedSize > 0 ? entry.compressedSize / entry.uncompressedSize : 1;
      const counted = inner.pipe(byteCounter((n) => onBytes(n * ratio)));
      inner.on('error', (error) => counted.destroy(error));
      yield { name: entry.fileName, stream: counted };
      // The consumer may stop early (a wrong file): drain what is left so the next entry can open.
      if (!inner.readableEnded) inner.resume();
      if (!counted.readableEnded) counted.resume();
    }
  } finally {
    zip.close();
  }
}
