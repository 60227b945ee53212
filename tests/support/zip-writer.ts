import type { Writable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';

// A minimal streaming ZIP writer for tests and benches (ADR 0037): entries are written as they
// come (deflated, or stored), the central directory at the end, with ZIP64 end records when there
// are more than 65,535 entries. Only the directory (about 60 bytes an entry) stays in memory.

type Central = { name: Buffer; crc: number; compressed: number; size: number; offset: number; method: number };

export class ZipWriter {
  private offset = 0;
  private readonly central: Central[] = [];
  private readonly out: Writable;
  constructor(out: Writable) {
    this.out = out;
  }

  private async write(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    if (!this.out.write(chunk)) await new Promise((resolve) => this.out.once('drain', resolve));
  }

  async add(name: string, data: Buffer | string, store = false): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    const body = store ? bytes : deflateRawSync(bytes);
    const method = store ? 0 : 8;
    const nameBytes = Buffer.from(name);
    const crc = crc32(bytes);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6); // UTF-8 names
    header.writeUInt16LE(method, 8);
    header.writeUInt16LE(0, 10);
    header.writeUInt16LE(0x21, 12); // 1980-01-01
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(body.length, 18);
    header.writeUInt32LE(bytes.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    header.writeUInt16LE(0, 28);
    this.central.push({
      name: nameBytes,
      crc,
      compressed: body.length,
      size: bytes.length,
      offset: this.offset,
      method,
    });
    await this.write(Buffer.concat([header, nameBytes, body]));
  }

  /** Writes the central directory and ends the stream. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const e of this.central) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(45, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0800, 8);
      h.writeUInt16LE(e.method, 10);
      h.writeUInt16LE(0, 12);
      h.writeUInt16LE(0x21, 14);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt32LE(e.offset, 42);
      await this.write(Buffer.concat([h, e.name]));
    }
    const size = this.offset - start;
    const count = this.central.length;
    if (count > 0xfffe) {
      const zip64At = this.offset;
      const z = Buffer.alloc(56);
      z.writeUInt32LE(0x06064b50, 0);
      z.writeBigUInt64LE(44n, 4);
      z.writeUInt16LE(45, 12);
      z.writeUInt16LE(45, 14);
      z.writeBigUInt64LE(BigInt(count), 24);
      z.writeBigUInt64LE(BigInt(count), 32);
      z.writeBigUInt64LE(BigInt(size), 40);
      z.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(zip64At), 8);
      locator.writeUInt32LE(1, 16);
      await this.write(Buffer.concat([z, locator]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, 0xffff), 8);
    end.writeUInt16LE(Math.min(count, 0xffff), 10);
    end.writeUInt32LE(size, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
    await new Promise<void>((resolve, reject) =>
      this.out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}
