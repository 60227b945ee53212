import type { Readable } from 'node:stream';
import { FileEndedEarlyError } from './company-facts.ts';

// A JSON file of one object or a top-level array of objects (Brønnøysund's API answers and bulk
// files, ADR 0016), streamed: each top-level object is cut out as text and parsed on its own, so
// memory holds one record, not the file. Record numbers count from 1 in file order.

export type JsonDocument = { record: number; value: unknown } | { record: number; error: string };

export class NotJsonError extends Error {}

/** Each object of the file (the array's elements, or the one object). */
export async function* readJsonDocuments(input: Readable): AsyncGenerator<JsonDocument> {
  input.setEncoding('utf8');
  let depth = 0;
  let inString = false;
  let escaped = false;
  let started = false; // the first significant character was seen
  let topIsArray = false;
  let current: string[] = [];
  let start = -1; // where the current element starts in the chunk, or -1
  let record = 0;
  for await (const chunk of input as AsyncIterable<string>) {
    let text = chunk;
    if (!started) text = text.replace(/^\uFEFF/, '');
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (!started) {
        started = true;
        if (c === 0x5b) {
          topIsArray = true;
          depth = 1;
          continue;
        }
        if (c !== 0x7b) throw new NotJsonError(`starts with "${text[i]}", not an object or an array`);
      }
      if (c === 0x22) {
        inString = true;
        continue;
      }
      const elementDepth = topIsArray ? 1 : 0;
      if (c === 0x7b || c === 0x5b) {
        if (depth === elementDepth) start = i;
        depth += 1;
      } else if (c === 0x7d || c === 0x5d) {
        depth -= 1;
        if (depth === elementDepth && start !== -1) {
          current.push(text.slice(start, i + 1));
          start = -1;
          record += 1;
          yield parse(current.join(''), record);
          current = [];
        } else if (depth < elementDepth && start !== -1) {
          current.push(text.slice(start, i));
          start = -1;
          record += 1;
          yield parse(current.join(''), record);
          current = [];
        }
      } else if (depth === elementDepth && c !== 0x2c) {
        // A bare value in the array (a number, true, null): not a record.
        if (start === -1) start = i;
      } else if (depth === elementDepth && c === 0x2c && start !== -1) {
        current.push(text.slice(start, i));
        record += 1;
        yield parse(current.join(''), record);
        current = [];
        start = -1;
      }
    }
    if (start !== -1) {
      current.push(text.slice(start));
      start = 0;
    }
  }
  if (!started) throw new NotJsonError('is empty');
  // The input stopped inside the document: the file was cut short (the records before stay).
  if (depth > 0 || inString)
    throw new FileEndedEarlyError(
      start !== -1
        ? `the JSON stops inside record ${record + 1}`
        : `the JSON stops after record ${record}, before its array is closed`,
    );
}

function parse(text: string, record: number): JsonDocument {
  try {
    return { record, value: JSON.parse(text) };
  } catch (error) {
    return { record, error: `not JSON (${(error as Error).message})` };
  }
}
