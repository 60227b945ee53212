// Independent readers of exported files, for the export tests: a strict RFC 4180 parser written
// here (it refuses what the standard does not allow, unlike lenient CSV libraries), a strict XML
// 1.0 parser (saxes, which fails on anything not well-formed), and the XLSX package read with jszip
// + saxes (not exceljs, the writer).

import JSZip from 'jszip';
import { SaxesParser } from 'saxes';

const BOM = '\uFEFF';

/**
 * Parses CSV strictly by RFC 4180 with every field quoted: records end with CRLF, a quote inside a
 * field is doubled, nothing stands outside the quotes. Returns the records; throws on any breach.
 */
export function parseStrictCsv(text: string, separator = ','): string[][] {
  if (!text.startsWith(BOM)) throw new Error('no byte-order mark');
  const s = text.slice(BOM.length);
  const records: string[][] = [];
  let i = 0;
  while (i < s.length) {
    const record: string[] = [];
    for (;;) {
      if (s[i] !== '"') throw new Error(`unquoted field at ${i}: ${JSON.stringify(s.slice(i, i + 20))}`);
      i++;
      let field = '';
      for (;;) {
        if (i >= s.length) throw new Error('unterminated quoted field');
        if (s[i] === '"') {
          if (s[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += s[i++];
      }
      record.push(field);
      if (s[i] === separator) {
        i++;
        continue;
      }
      if (s[i] === '\r' && s[i + 1] === '\n') {
        i += 2;
        break;
      }
      throw new Error(`expected separator or CRLF at ${i}: ${JSON.stringify(s.slice(i, i + 10))}`);
    }
    if (records.length > 0 && record.length !== records[0].length) {
      throw new Error(`record ${records.length + 1} has ${record.length} fields, the header ${records[0].length}`);
    }
    records.push(record);
  }
  return records;
}

export type XmlElement = { name: string; text: string; children: XmlElement[] };

/** Parses XML 1.0 strictly (saxes); throws on anything not well-formed. Returns the root element. */
export function parseStrictXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let failure: Error | null = null;
  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, text: '', children: [] };
    if (stack.length > 0) stack[stack.length - 1].children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('text', (t) => {
    if (stack.length > 0) stack[stack.length - 1].text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(text).close();
  if (failure) throw failure;
  if (!root) throw new Error('no root element');
  return root;
}

/** A cell as stored: its t= type, s= style, value (<v> or inline <t>) and formula (<f>), if any. */
export type SheetCell = { ref: string; type: string | null; style: string | null; value: string; formula?: string };

/** The first worksheet of an XLSX package, read with jszip and saxes: its cells and frozen pane. */
export async function readXlsxSheet(
  buffer: Buffer,
): Promise<{ cells: SheetCell[]; pane: Record<string, string> | null; numFmts: string[]; cellXfs: string[] }> {
  const zip = await JSZip.loadAsync(buffer);
  const sheetFile = Object.keys(zip.files).find((f) => /^xl\/worksheets\/sheet\d+\.xml$/.test(f));
  if (!sheetFile) throw new Error('no worksheet');
  const sheet = await zip.file(sheetFile)!.async('string');
  const styles = (await zip.file('xl/styles.xml')?.async('string')) ?? '';
  const cells: SheetCell[] = [];
  let pane: Record<string, string> | null = null;
  let current: SheetCell | null = null;
  let inValue = false;
  let inFormula = false;
  const parser = new SaxesParser({ xmlns: false });
  let failure: Error | null = null;
  parser.on('error', (e) => {
    failure ??= e;
  });
  parser.on('opentag', (tag) => {
    const attr = tag.attributes as Record<string, string>;
    if (tag.name === 'pane') pane = { ...attr };
    if (tag.name === 'c') current = { ref: attr.r, type: attr.t ?? null, style: attr.s ?? null, value: '' };
    if ((tag.name === 'v' || tag.name === 't') && current) inValue = true;
    if (tag.name === 'f' && current) {
      current.formula = '';
      inFormula = true;
    }
  });
  parser.on('text', (t) => {
    if (inValue && current) current.value += t;
    if (inFormula && current) current.formula += t;
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'v' || tag.name === 't') inValue = false;
    if (tag.name === 'f') inFormula = false;
    if (tag.name === 'c' && current) {
      cells.push(current);
      current = null;
    }
  });
  parser.write(sheet).close();
  if (failure) throw failure;
  // The number formats of the cell styles, by style index (dates are styles with a date format).
  const numFmts = new Map<string, string>();
  for (const m of styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"/g)) numFmts.set(m[1], m[2]);
  const xfsBlock = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '';
  const cellXfs = [...xfsBlock.matchAll(/<xf [^>]*numFmtId="(\d+)"/g)].map((m) => numFmts.get(m[1]) ?? m[1]);
  return { cells, pane, numFmts: [...numFmts.values()], cellXfs };
}
