import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import { FileEndedEarlyError, MalformedFileError, WrongFileError } from './company-facts.ts';

// Streaming an XML file as its records (docs/decisions/0014-importers.md "Files"): saxes parses the
// chunks as they come, and each element named `record` is handed over as a small tree once it is
// closed, so memory holds one record whatever the file's size. Names are local names (the
// namespace prefix dropped): GLEIF's schemas are read by element name, never by position.

export type XmlElement = { name: string; attrs: Record<string, string>; text: string; children: XmlElement[] };

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

export function childrenNamed(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** The trimmed text of a child (or of a path of children), or null when absent or empty. */
export function textAt(el: XmlElement | undefined, ...path: string[]): string | null {
  let at = el;
  for (const name of path) at = child(at, name);
  const value = at?.text.trim();
  return value ? value : null;
}

const localName = (qname: string): string => qname.slice(qname.indexOf(':') + 1);

export type XmlRecordOptions = {
  /** Local name of the document element the file must have. */
  root: string;
  /** Local name of the record element. */
  record: string;
  /** What the source expects, for the wrong-file message. */
  expects: string;
  /** Called with each header element (the root's children before the records) once closed. */
  onHeader?: (el: XmlElement) => void;
};

/**
 * The records of an XML stream, in order. Throws WrongFileError when the root is not `root`,
 * MalformedFileError at the first syntax error (its line and column, and the record reached: the
 * records closed before it are yielded first), FileEndedEarlyError when the input stops before the
 * document closes (a truncated file: the records closed before the cut are yielded).
 */
export async function* xmlRecords(input: Readable, options: XmlRecordOptions): AsyncIterable<XmlElement> {
  // Positions are not put into saxes' messages (`position: false`), but it counts lines and
  // columns all the same: they are read from the parser when an error comes.
  const parser = new SaxesParser({ xmlns: false, position: false });
  const stack: XmlElement[] = [];
  let ready: XmlElement[] = [];
  let sawRoot = false;
  let inRecord = false;
  /** Record elements opened so far: the number of the record being read (the sources' `at`). */
  let records = 0;
  // Set by saxes' error handler (a callback: `as` keeps TypeScript from taking it for null forever).
  let failure = null as Failure | null;
  /** Where the parser is, in words: "in record 4", "after record 4", "before the first record". */
  const reached = () =>
    inRecord ? `in record ${records}` : records > 0 ? `after record ${records}` : 'before the first record';
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (!sawRoot) {
      sawRoot = true;
      if (name !== options.root)
        throw new WrongFileError(options.expects, `the file's root element is <${tag.name}>, not <${options.root}>`);
    }
    if (name === options.record) {
      inRecord = true;
      records += 1;
    }
    // Outside records only the root's direct children (the header) are kept.
    if (inRecord || stack.length <= 2) {
      const attrs: Record<string, string> = {};
      for (const [key, value] of Object.entries(tag.attributes)) attrs[key] = String(value);
      stack.push({ name, attrs, text: '', children: [] });
    } else stack.push({ name, attrs: {}, text: '', children: [] });
  });
  parser.on('text', (text) => {
    const top = stack.at(-1);
    if (top && (inRecord || stack.length <= 3)) top.text += text;
  });
  parser.on('closetag', () => {
    const el = stack.pop();
    if (!el) return;
    const parent = stack.at(-1);
    if (el.name === options.record) {
      inRecord = false;
      ready.push(el);
    } else if (inRecord) parent?.children.push(el);
    else if (stack.length === 1) options.onHeader?.(el);
    else if (stack.length === 2) parent?.children.push(el);
  });
  parser.on('error', (error) => {
    // The first error is the one that counts (saxes reads on after it, and the rest follow from it).
    failure ??= { error, line: parser.line, column: parser.column, record: reached(), ready: ready.length };
  });
  const failed = (f: Failure): Error =>
    sawRoot
      ? new MalformedFileError(
          `The XML is malformed at line ${f.line}, column ${f.column} (${f.record}): ${messageOf(f.error)}`,
        )
      : new WrongFileError(options.expects, `it is not XML (${messageOf(f.error)})`);
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of input) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk as Buffer, { stream: true });
    try {
      parser.write(sawRoot ? text : text.replace(/^\uFEFF/, ''));
    } catch (error) {
      if (error instanceof WrongFileError) throw error;
      throw failed({ error, line: parser.line, column: parser.column, record: reached(), ready: 0 });
    }
    if (failure) {
      yield* ready.slice(0, failure.ready);
      throw failed(failure);
    }
    if (ready.length > 0) {
      const batch = ready;
      ready = [];
      yield* batch;
    }
  }
  if (!sawRoot) throw new WrongFileError(options.expects, 'the file is empty');
  // The input ended while the document is open: the file was cut short. What was closed stays.
  if (stack.length > 0) {
    yield* ready;
    throw new FileEndedEarlyError(
      `the XML stops at line ${parser.line}, column ${parser.column} (${reached()}), before <${stack[0]?.name}> is closed`,
    );
  }
  try {
    parser.close();
  } catch (error) {
    throw failed({ error, line: parser.line, column: parser.column, record: reached(), ready: 0 });
  }
  if (failure) throw failed(failure);
  yield* ready;
}

/** saxes' first error, where it was, and how many closed records came before it. */
type Failure = { error: unknown; line: number; column: number; record: string; ready: number };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
