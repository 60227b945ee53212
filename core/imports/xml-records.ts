import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import { WrongFileError } from './company-facts.ts';

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

/** The records of an XML stream, in order. Throws WrongFileError when the root is not `root`. */
export async function* xmlRecords(input: Readable, options: XmlRecordOptions): AsyncIterable<XmlElement> {
  const parser = new SaxesParser({ xmlns: false, position: false });
  const stack: XmlElement[] = [];
  let ready: XmlElement[] = [];
  let sawRoot = false;
  let inRecord = false;
  let failure: Error | null = null;
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (!sawRoot) {
      sawRoot = true;
      if (name !== options.root)
        throw new WrongFileError(options.expects, `the file's root element is <${tag.name}>, not <${options.root}>`);
    }
    if (name === options.record) inRecord = true;
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
    failure = error;
  });
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of input) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk as Buffer, { stream: true });
    try {
      parser.write(sawRoot ? text : text.replace(/^\uFEFF/, ''));
    } catch (error) {
      if (error instanceof WrongFileError) throw error;
      throw notXml(options.expects, sawRoot, error);
    }
    if (failure) throw notXml(options.expects, sawRoot, failure);
    if (ready.length > 0) {
      const batch = ready;
      ready = [];
      yield* batch;
    }
  }
  try {
    parser.close();
  } catch (error) {
    throw notXml(options.expects, sawRoot, error);
  }
  if (failure) throw notXml(options.expects, sawRoot, failure);
  if (!sawRoot) throw new WrongFileError(options.expects, 'the file is empty');
  yield* ready;
}

function notXml(expects: string, sawRoot: boolean, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return sawRoot
    ? new Error(`The XML is malformed: ${message}`)
    : new WrongFileError(expects, `it is not XML (${message})`);
}
