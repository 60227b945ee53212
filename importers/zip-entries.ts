import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

// The entries of a zip archive one at a time (yauzl, lazily: the next entry is read only when the
// caller asks), for sources whose archive holds one document per record (ADR 0016).

export type ZipEntry = { name: string; size: number; open: () => Promise<Readable> };

export async function* zipEntries(path: string): AsyncGenerator<ZipEntry> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  try {
    while (true) {
      const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        const onEntry = (found: yauzl.Entry) => {
          cleanup();
          resolve(found);
        };
        const onEnd = () => {
          cleanup();
          resolve(null);
        };
        const onError = (error: Error) => {
          cleanup();
          reject(error);
        };
        const cleanup = () => {
          zip.off('entry', onEntry);
          zip.off('end', onEnd);
          zip.off('error', onError);
        };
        zip.on('entry', onEntry);
        zip.on('end', onEnd);
        zip.on('error', onError);
        zip.readEntry();
      });
      if (entry === null) return;
      if (entry.fileName.endsWith('/')) continue;
      yield {
        name: entry.fileName,
        size: entry.uncompressedSize,
        open: () =>
          new Promise<Readable>((resolve, reject) =>
            zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
          ),
      };
    }
  } finally {
    zip.close();
  }
}

/** A stream's whole text (UTF-8, a BOM dropped): for documents of bounded size, one per record. */
export async function readText(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}
