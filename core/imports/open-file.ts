import { createReadStream } from 'node:fs';
import { type FileHandle, open, readdir, stat } from 'node:fs/promises';
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
  const handle = await open(path);
  const reader = new WindowedFileReader(handle);
  let zip: yauzl.ZipFile;
  try {
    const { size } = await handle.stat();
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromRandomAccessReader(reader, size, { lazyEntries: true, autoClose: true }, (error, file) =>
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
  } catch (error) {
    await reader.closeHandle();
    throw error;
  }
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

/** Reads of at most this many bytes are served from a window of the file (WindowedFileReader). */
const SMALL_READ = 64 * 1024;
const WINDOW = 1024 * 1024;
const WINDOWS = 2;

/**
 * yauzl's reader of a zip file, serving its small reads — each directory record, each entry's
 * header, small entries whole — from a window of WINDOW bytes read at once. yauzl's own file reader
 * asks the file for every one of them: a round trip through libuv's thread pool each (some 45 µs
 * here), two per directory record and two more per entry; the 66,000 entries of a Companies House
 * sized archive took 9.7 s to list, and about 5 s through the windows (ADR 0039). Larger ranges are
 * read from the file in SMALL_READ pieces as before. A window is replaced, never written over, so a
 * slice already handed out stays as it was, and reads that overlap each get their own bytes.
 */
class WindowedFileReader extends yauzl.RandomAccessReader {
  readonly #handle: FileHandle;
  /** The most recently used first. */
  #windows: { start: number; bytes: Buffer }[] = [];
  #closed = false;

  constructor(handle: FileHandle) {
    super();
    this.#handle = handle;
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const small = end - start <= SMALL_READ;
    let position = start;
    // Not fs.createReadStream on the descriptor: destroying it (yauzl does) closes the descriptor.
    const stream: Readable = new Readable({
      highWaterMark: SMALL_READ,
      read: () => {
        if (position >= end) {
          stream.push(null);
          return;
        }
        const length = Math.min(end - position, SMALL_READ);
        (small ? this.#slice(position, end) : this.#read(position, length)).then(
          (bytes) => {
            position += bytes.length;
            stream.push(bytes.length > 0 ? bytes : null);
          },
          (error: Error) => stream.destroy(error),
        );
      },
    });
    return stream;
  }

  /** yauzl's reads of its records (each directory record, each entry's header): copied from a window, with no stream each. */
  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (error: Error | null, bytesRead?: number) => void,
  ): void {
    this.#slice(position, position + length).then((bytes) => callback(null, bytes.copy(buffer, offset)), callback);
  }

  async #read(position: number, length: number): Promise<Buffer> {
    const buffer = Buffer.allocUnsafe(length);
    const { bytesRead } = await this.#handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  }

  /**
   * Bytes start to end from a window, reading a new one from `start` when no window holds them all.
   * Two windows: yauzl goes back and forth between the directory at the end of the file and each
   * entry's header and data before it.
   */
  async #slice(start: number, end: number): Promise<Buffer> {
    for (const [i, window] of this.#windows.entries()) {
      if (start >= window.start && end <= window.start + window.bytes.length) {
        if (i > 0) this.#windows.unshift(...this.#windows.splice(i, 1));
        return window.bytes.subarray(start - window.start, end - window.start);
      }
    }
    const bytes = await this.#read(start, Math.max(WINDOW, end - start));
    this.#windows.unshift({ start, bytes });
    this.#windows.length = Math.min(this.#windows.length, WINDOWS);
    return bytes.subarray(0, end - start);
  }

  override close(callback: (error: Error | null) => void): void {
    this.closeHandle().then(() => callback(null), callback);
  }

  async closeHandle(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#handle.close();
  }
}
