import { createWriteStream } from 'node:fs';
import yazl from 'yazl';

// Writes a zip archive of texts (yazl), for tests of zipped import files.
export async function writeZip(path: string, entries: { name: string; text: string }[]): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) zip.addBuffer(Buffer.from(entry.text, 'utf8'), entry.name);
  zip.end();
  await new Promise<void>((resolve, reject) =>
    zip.outputStream
      .pipe(createWriteStream(path))
      .on('close', () => resolve())
      .on('error', reject),
  );
}
