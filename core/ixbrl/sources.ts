import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';
import type { FilingSource } from './types.ts';

// The filings to read (ADR 0037): files, directories (walked, in name order) and .zip archives
// (Companies House's daily and monthly Accounts Data files, EDGAR bundles). A zip is read with
// yauzl from its central directory, entry by entry: never unpacked to disk and never held whole in
// memory (one entry's bytes at a time, when the consumer calls read()). Inside directories and
// zips only .html / .htm / .xhtml files are filings; a path named explicitly is read whatever its
// extension.

const FILING = /\.(x?html?)$/i;

/** A source that cannot be opened; the message names the path. */
export class FilingSourceError extends Error {
  readonly path: string;
  constructor(path: string, detail: string) {
    super(`${path}: ${detail}`);
    this.name = 'FilingSourceError';
    this.path = path;
  }
}

/**
 * Each filing of `paths`, lazily. `read()` gives the file's bytes; for a zip entry it must be
 * called before the iteration moves on (the entry is skipped otherwise), and at most once.
 */
export async function* readFilingSources(paths: string[]): AsyncIterable<FilingSource> {
  for (const path of paths) {
    const info = await stat(path).catch((e: NodeJS.ErrnoException) => {
      throw new FilingSourceError(path, e.code === 'ENOENT' ? 'no such file or directory' : e.message);
    });
    if (info.isDirectory()) {
      const names = (await readdir(path)).sort();
      const inside = names.map((n) => join(path, n));
      const wanted: string[] = [];
      for (const p of inside) {
        const s = await stat(p);
        if (s.isDirectory() || /\.zip$/i.test(p) || FILING.test(p)) wanted.push(p);
      }
      yield* readFilingSources(wanted);
    } else if (/\.zip$/i.test(path)) {
      yield* zipEntries(path);
    } else {
      yield { name: basename(path), bytes: info.size, read: () => readFile(path) };
    }
  }
}

async function* zipEntries(path: string): AsyncIterable<FilingSource> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: true, validateEntrySizes: true }, (error, file) =>
      error
        ? reject(
            new FilingSourceError(
              path,
              /end of central directory record signature not found/i.test(error.message)
                ? 'the zip has no directory at its end (cut short, or not a zip file)'
                : `not a readable zip: ${error.message}`,
            ),
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
          reject(new FilingSourceError(path, `broken zip: ${error.message}`));
        };
        zip.once('entry', onEntry);
        zip.once('end', onEnd);
        zip.once('error', onError);
        zip.readEntry();
      });
      if (entry === null) return;
      if (entry.fileName.endsWith('/') || !FILING.test(entry.fileName)) continue;
      let open = true;
      const current = entry;
      yield {
        name: entry.fileName,
        bytes: entry.uncompressedSize,
        read: async () => {
          if (!open)
            throw new FilingSourceError(`${path}!${current.fileName}`, 'read after the next entry was reached');
          open = false;
          const stream = await new Promise<Readable>((resolve, reject) =>
            zip.openReadStream(current, (error, s) =>
              error ? reject(new FilingSourceError(`${path}!${current.fileName}`, error.message)) : resolve(s),
            ),
          );
          try {
            return await buffer(stream);
          } catch (e) {
            throw new FilingSourceError(`${path}!${current.fileName}`, (e as Error).message);
          }
        },
      };
      open = false;
    }
  } finally {
    zip.close();
  }
}
