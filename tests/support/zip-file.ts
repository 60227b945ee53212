import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import yazl from 'yazl';

// Writes zip archives (yazl) for tests and benches of zipped import files (ADR 0037). yazl writes
// ZIP64 records itself when there are more than 65,535 entries.

export type ZipEntry = {
  /** A name ending in `/` is a directory entry. */
  name: string;
  /** The content, or a function giving it when the entry's turn comes (a large archive is then
   * written without holding its contents: only yazl's directory stays in memory). */
  data: string | Buffer | (() => string | Buffer);
  /** Stored rather than deflated. */
  store?: boolean;
};

const bytesOf = (data: string | Buffer) => (typeof data === 'string' ? Buffer.from(data, 'utf8') : data);

export async function writeZipEntries(path: string, entries: Iterable<ZipEntry>): Promise<void> {
  const zip = new yazl.ZipFile();
  const written = new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.outputStream
      .pipe(createWriteStream(path))
      .on('close', () => resolve())
      .on('error', reject);
  });
  for (const entry of entries) {
    const options = { compress: !entry.store };
    const { data } = entry;
    if (entry.name.endsWith('/')) zip.addEmptyDirectory(entry.name);
    else if (typeof data === 'function') {
      zip.addReadStreamLazy(entry.name, options, (done) => done(null, Readable.from([bytesOf(data())])));
    } else zip.addBuffer(bytesOf(data), entry.name, options);
  }
  zip.end();
  await written;
}

/** A zip archive of texts. */
export async function writeZip(path: string, entries: { name: string; text: string }[]): Promise<void> {
  await writeZipEntries(
    path,
    entries.map((e) => ({ name: e.name, data: e.text })),
  );
}
