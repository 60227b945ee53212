import yazl from 'yazl';

// Hostile enrichment uploads (ADR 0020 "Enrichment"), built in memory with yazl: XLSX workbooks whose parts are
// written by hand, so that rows, cells, shared strings and the archive itself can be anything a
// hostile client sends. Used by tests/integration/hostile-uploads.test.ts and bench/hostile-uploads.ts.

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export type Part = { name: string; data: string | Buffer; level?: number };

/** A ZIP archive of the parts (deflated, level 6 unless a part says otherwise). */
export async function zipOf(parts: Part[]): Promise<Uint8Array> {
  const zip = new yazl.ZipFile();
  for (const part of parts) {
    const data = typeof part.data === 'string' ? Buffer.from(part.data, 'utf8') : part.data;
    zip.addBuffer(data, part.name, { compressionLevel: part.level ?? 6 });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/** A worksheet around `sheetData`'s content (a string, or bytes for one too large for a string). */
export function sheetXml(rows: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`;
}

/** A shared strings part of the `<si>` elements given. */
export function sharedStringsXml(items: string, count: number): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="${MAIN}" count="${count}" uniqueCount="${count}">${items}</sst>`;
}

/**
 * A workbook of one sheet, as Excel lays it out (content types, relationships, workbook), with the
 * sheet's XML and optionally shared strings and more parts.
 */
export function workbookParts(
  sheet: string | Buffer,
  options: { sharedStrings?: string | Buffer; extra?: Part[] } = {},
): Part[] {
  const shared = options.sharedStrings !== undefined;
  return [
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>${shared ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ''}</Types>`,
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>${shared ? `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : ''}</Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet },
    ...(shared ? [{ name: 'xl/sharedStrings.xml', data: options.sharedStrings as string | Buffer }] : []),
    ...(options.extra ?? []),
  ];
}

const inline = (text: string, reference = '') =>
  `<c${reference ? ` r="${reference}"` : ''} t="inlineStr"><is><t>${text}</t></is></c>`;
const header = `<row r="1">${inline('Name', 'A1')}</row>`;

/** `count` rows of one company each, numbered (`<row r=…>`, `<c r=…>`), after a header. */
export function rowsBomb(count: number): Promise<Uint8Array> {
  const rows: string[] = [header];
  for (let n = 2; n <= count + 1; n++) rows.push(`<row r="${n}">${inline('Acme', `A${n}`)}</row>`);
  return zipOf(workbookParts(sheetXml(rows.join(''))));
}

/** `count` rows of one value without `r=` on rows or cells (each is the next one), after a header. */
export function rowsWithoutReferencesBomb(count: number): Promise<Uint8Array> {
  const row = '<row><c><v>1</v></c></row>';
  return zipOf(workbookParts(sheetXml(`<row>${inline('Name')}</row>${row.repeat(count)}`)));
}

/** One shared string of `chars` characters, used by the one cell under a header. */
export function hugeSharedStringBomb(chars: number): Promise<Uint8Array> {
  const items = Buffer.concat([
    Buffer.from(sharedStringsXml('<si><t>Name</t></si><si><t>', 2).replace('</sst>', '')),
    Buffer.alloc(chars, 'a'),
    Buffer.from('</t></si></sst>'),
  ]);
  const sheet = sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>');
  return zipOf(workbookParts(sheet, { sharedStrings: items }));
}

/** `count` distinct shared strings (only the first two used). */
export function sharedStringsBomb(count: number): Promise<Uint8Array> {
  const items: string[] = [];
  for (let n = 0; n < count; n++) items.push(`<si><t>s${n}</t></si>`);
  const sheet = sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>');
  return zipOf(workbookParts(sheet, { sharedStrings: sharedStringsXml(items.join(''), count) }));
}

/** A valid small workbook with `count` more (tiny) entries in the archive. */
export function zipEntriesBomb(count: number): Promise<Uint8Array> {
  const extra = Array.from({ length: count }, (_, n) => ({ name: `xl/media/pad${n}.bin`, data: 'x' }));
  return zipOf(workbookParts(sheetXml(`${header}<row r="2">${inline('Acme', 'A2')}</row>`), { extra }));
}

/**
 * Parts that inflate far beyond their compressed size: each of `parts` (the sheet, its shared strings
 * and styles) `megabytes` MB of spaces inside a valid root element, a few hundred KB compressed.
 */
export function inflationBomb(megabytes: number, parts: 1 | 3): Promise<Uint8Array> {
  const padded = (open: string, close: string) =>
    Buffer.concat([Buffer.from(open), Buffer.alloc(megabytes * 1024 * 1024, ' '), Buffer.from(close)]);
  const sheet = padded(
    `<?xml version="1.0"?><worksheet xmlns="${MAIN}"><sheetData>${header}`,
    '</sheetData></worksheet>',
  );
  // Deflated fast (level 1): spaces compress a thousandfold at any level.
  const fast = (list: Part[]) => zipOf(list.map((p) => (Buffer.isBuffer(p.data) ? { ...p, level: 1 } : p)));
  if (parts === 1) return fast(workbookParts(sheet));
  const styles = padded(`<?xml version="1.0"?><styleSheet xmlns="${MAIN}">`, '</styleSheet>');
  const strings = padded(`<?xml version="1.0"?><sst xmlns="${MAIN}">`, '</sst>');
  const withStyles = workbookParts(sheet, { sharedStrings: strings, extra: [{ name: 'xl/styles.xml', data: styles }] });
  const rels = withStyles.find((p) => p.name === 'xl/_rels/workbook.xml.rels') as Part;
  rels.data = String(rels.data).replace(
    '</Relationships>',
    `<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  );
  return fast(withStyles);
}

/** A workbook whose one data cell has `chars` characters, inline. */
export function longCellWorkbook(chars: number): Promise<Uint8Array> {
  return zipOf(workbookParts(sheetXml(`${header}<row r="2">${inline('a'.repeat(chars), 'A2')}</row>`)));
}

/** A workbook whose header has `count` columns. */
export function wideWorkbook(count: number): Promise<Uint8Array> {
  const cells = Array.from({ length: count }, (_, n) => `<c t="inlineStr"><is><t>c${n}</t></is></c>`).join('');
  return zipOf(workbookParts(sheetXml(`<row>${cells}</row><row>${inline('Acme')}</row>`)));
}

/** A CSV whose header has `count` columns. */
export function wideCsv(count: number): string {
  const header = Array.from({ length: count }, (_, n) => `c${n}`).join(',');
  return `${header}\n${'Acme,'.repeat(count - 1)}Acme\n`;
}
