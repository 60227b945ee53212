import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import yauzl from 'yauzl';

// Opening an import file streamed (docs/decisions/0014-importers.md "Files"): plain, .gz or .zip
// (every file entry of the archive in turn, e.g. the SEC's bulk zip of one JSON per company).
// Nothing is read into memory whole; `onBytes` counts the file's own bytes for the progress bar.

export type FileEntry = { name: string; stream: Readable };

export type OpenedFile = { size: number; entries: AsyncIterable<FileEntry> };

export async function openImportFile(path: string, onBytes: (bytes: number) => void): Promise<OpenedFile> {
  const { size } = await stat(path);
  const lower = path.toLowerCase();
  if (lower.endsWith('.zip')) return { size, entries: zipEntries(path, onBytes) };
  // Bytes are counted as they pass (a 'data' listener would switch the file to flowing mode and
  // read it into memory ahead of the importer: memory would grow with the file).
  const raw = createReadStream(path, { highWaterMark: 256 * 1024 });
  const counted = raw.pipe(byteCounter(onBytes));
  raw.on('error', (error) => counted.destroy(error));
  const stream = lower.endsWith('.gz') ? counted.pipe(createGunzip()) : counted;
  if (stream !== counted) counted.on('error', (error) => stream.destroy(error));
  const name = basename(path).replace(/\.gz$/i, '');
  return { size, entries: single({ name, stream }) };
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

async function* zipEntries(path: string, onBytes: (bytes: number) => void): AsyncIterable<FileEntry> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (error, file) => (error ? reject(error) : resolve(file))),
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
