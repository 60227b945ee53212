import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

// A streaming ZIP writer (PKWARE APPNOTE 6.3: deflated entries, UTF-8 names, no ZIP64), enough
// for an XLSX package (ADR 0041): small parts compressed whole, and one part — the worksheet —
// deflated as it is written, its CRC and sizes in a data descriptor after its data. Written here
// on node:zlib rather than through a library: the workbook writer it serves writes its XML itself.

/** General purpose flags: bit 3 (sizes in a data descriptor), bit 11 (the name is UTF-8). */
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const DEFLATE = 8;
const VERSION = 20;
/**
 * Deflate level of the streamed entry: 3 compresses a worksheet's XML ~2.5× faster than the
 * default 6 for ~10% more bytes (21 MB of a 10,000-row sheet: 58 against 127 ms of CPU, ADR 0041).
 */
const STREAM_LEVEL = 3;

type Entry = { name: Buffer; flags: number; crc: number; compressed: number; size: number; offset: number };

export type ZipEntryStream = {
  /** Writes to the entry, waiting while the archive's stream is full. */
  write(chunk: string | Buffer): Promise<void>;
  end(): Promise<void>;
};

export type ZipWriter = {
  /** A whole entry at once (a small part). */
  add(name: string, data: string | Buffer): Promise<void>;
  /** An entry written in pieces; no other entry may be added until it ends. */
  stream(name: string): ZipEntryStream;
  /** The central directory; ends `out` and waits until it has finished. */
  finish(): Promise<void>;
};

/** The time of day and date as MS-DOS stores them (local fields, taken as UTC). */
function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

export function zipWriter(out: Writable, now = new Date()): ZipWriter {
  const { time, date } = dosDateTime(now);
  const entries: Entry[] = [];
  let offset = 0;
  let open = false;

  const write = async (chunk: Buffer) => {
    if (out.destroyed) throw new Error('the export stream was closed');
    offset += chunk.length;
    if (!out.write(chunk)) await drainedOrClosed(out);
  };

  const localHeader = (entry: Entry) => {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(entry.flags, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    // With a data descriptor the CRC and sizes here are zero.
    header.writeUInt32LE(entry.crc >>> 0, 14);
    header.writeUInt32LE(entry.compressed, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(entry.name.length, 26);
    header.writeUInt16LE(0, 28);
    return Buffer.concat([header, entry.name]);
  };

  return {
    async add(name, data) {
      if (open) throw new Error('a zip entry is still being written');
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      const compressed = deflateRawSync(bytes);
      const entry: Entry = {
        name: Buffer.from(name, 'utf8'),
        flags: FLAG_UTF8,
        crc: crc32(bytes),
        compressed: compressed.length,
        size: bytes.length,
        offset,
      };
      entries.push(entry);
      await write(localHeader(entry));
      await write(compressed);
    },

    stream(name) {
      if (open) throw new Error('a zip entry is still being written');
      open = true;
      const entry: Entry = {
        name: Buffer.from(name, 'utf8'),
        flags: FLAG_UTF8 | FLAG_DESCRIPTOR,
        crc: 0,
        compressed: 0,
        size: 0,
        offset,
      };
      entries.push(entry);
      const deflate = createDeflateRaw({ level: STREAM_LEVEL, strategy: constants.Z_DEFAULT_STRATEGY });
      let failed: Error | null = null;
      let started: Promise<void> | null = null;
      // The compressed bytes go on to `out` in order, each waiting for room.
      let chain: Promise<void> = Promise.resolve();
      deflate.on('data', (chunk: Buffer) => {
        entry.compressed += chunk.length;
        deflate.pause();
        chain = chain
          .then(() => write(chunk))
          .then(
            () => {
              deflate.resume();
            },
            (error: Error) => {
              failed ??= error;
              deflate.destroy(error);
            },
          );
      });
      deflate.on('error', (error) => {
        failed ??= error;
      });
      const begin = () => {
        started ??= write(localHeader(entry));
        return started;
      };
      return {
        async write(chunk) {
          await begin();
          if (failed) throw failed;
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
          if (bytes.length === 0) return;
          entry.crc = crc32(bytes, entry.crc);
          entry.size += bytes.length;
          if (!deflate.write(bytes)) await drainedOrClosed(deflate);
          if (failed) throw failed;
        },
        async end() {
          await begin();
          const ended = once(deflate, 'end');
          deflate.end();
          await ended;
          await chain;
          if (failed) throw failed;
          const descriptor = Buffer.alloc(16);
          descriptor.writeUInt32LE(0x08074b50, 0);
          descriptor.writeUInt32LE(entry.crc >>> 0, 4);
          descriptor.writeUInt32LE(entry.compressed, 8);
          descriptor.writeUInt32LE(entry.size, 12);
          await write(descriptor);
          open = false;
        },
      };
    },

    async finish() {
      if (open) throw new Error('a zip entry is still being written');
      const start = offset;
      for (const entry of entries) {
        const header = Buffer.alloc(46);
        header.writeUInt32LE(0x02014b50, 0);
        header.writeUInt16LE(VERSION, 4);
        header.writeUInt16LE(VERSION, 6);
        header.writeUInt16LE(entry.flags, 8);
        header.writeUInt16LE(DEFLATE, 10);
        header.writeUInt16LE(time, 12);
        header.writeUInt16LE(date, 14);
        header.writeUInt32LE(entry.crc >>> 0, 16);
        header.writeUInt32LE(entry.compressed, 20);
        header.writeUInt32LE(entry.size, 24);
        header.writeUInt16LE(entry.name.length, 28);
        // Extra field, comment, disk number, internal and external attributes: none.
        header.writeUInt32LE(entry.offset, 42);
        await write(Buffer.concat([header, entry.name]));
      }
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(entries.length, 8);
      end.writeUInt16LE(entries.length, 10);
      end.writeUInt32LE(offset - start, 12);
      end.writeUInt32LE(start, 16);
      await write(end);
      if (out.writableFinished) return;
      const finished = once(out, 'finish');
      out.end();
      await finished;
    },
  };
}

/** Waits for 'drain', failing when the stream closes first (both listeners withdrawn after). */
async function drainedOrClosed(stream: Writable): Promise<void> {
  const settled = new AbortController();
  const closed = once(stream, 'close', { signal: settled.signal }).then(() => {
    throw new Error('the export stream was closed');
  });
  closed.catch(() => {});
  try {
    await Promise.race([once(stream, 'drain', { signal: settled.signal }), closed]);
  } finally {
    settled.abort();
  }
}
