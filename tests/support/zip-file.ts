import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
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

/**
 * A ZIP64 archive of `count` stored (uncompressed) entries, `name(i)` each holding `data`: the
 * > 65,535 entries of a Companies House bulk file, whose count only the ZIP64 end record holds
 * (the classic one says 0xFFFF). Not yazl: it looks for its next entry from the first one, so
 * 66,000 entries took it 11 s of CPU on a quiet machine (and over a minute in a loaded suite); this
 * writes the same layout in a few milliseconds. Every offset and size here is below 4 GiB, so the
 * entries need no ZIP64 fields of their own (APPNOTE 4.3.14–4.3.16).
 */
export async function writeManyStoredEntries(
  path: string,
  count: number,
  name: (i: number) => string,
  data: string,
): Promise<void> {
  const body = Buffer.from(data, 'utf8');
  const crc = crc32(body);
  const UTF8_NAMES = 0x0800;
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const entryName = Buffer.from(name(i), 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(UTF8_NAMES, 6);
    // method 0 (stored), time and date 0
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(body.length, 22);
    local.writeUInt16LE(entryName.length, 26);
    parts.push(local, entryName, body);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(45, 4); // made by: ZIP64-aware
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(UTF8_NAMES, 8);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(body.length, 20);
    header.writeUInt32LE(body.length, 24);
    header.writeUInt16LE(entryName.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, entryName);
    offset += local.length + entryName.length + body.length;
  }
  const centralSize = central.reduce((sum, b) => sum + b.length, 0);
  const zip64End = Buffer.alloc(56);
  zip64End.writeUInt32LE(0x06064b50, 0);
  zip64End.writeBigUInt64LE(44n, 4); // the record's size after this field
  zip64End.writeUInt16LE(45, 12);
  zip64End.writeUInt16LE(45, 14);
  zip64End.writeBigUInt64LE(BigInt(count), 24);
  zip64End.writeBigUInt64LE(BigInt(count), 32);
  zip64End.writeBigUInt64LE(BigInt(centralSize), 40);
  zip64End.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + centralSize), 8);
  locator.writeUInt32LE(1, 16); // disks
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  await writeFile(path, Buffer.concat([...parts, ...central, zip64End, locator, end]));
}
