import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

// JSON lines, streamed line by line (LF or CRLF, a BOM on the first line ignored), ADR 0016.

export type JsonLine = { line: number; value: unknown } | { line: number; error: string };

/** Each non-blank line of the input, parsed, or the reason it is not JSON. */
export async function* readJsonLines(input: Readable): AsyncGenerator<JsonLine> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const raw of lines) {
    line += 1;
    const text = (line === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
    if (text === '') continue;
    try {
      yield { line, value: JSON.parse(text) };
    } catch (error) {
      yield { line, error: `not JSON (${(error as Error).message})` };
    }
  }
}
