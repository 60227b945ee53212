import { existsSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import { exportFileName } from '../export/export-options.ts';

// The comparison as a PDF (spec §1 "company comparison with PDF export", §7 "Comparison export
// headers"): A4 landscape, real text (selectable, searchable), the product name and the date in
// every page's header, the companies as columns (their names repeated on every page) and the
// compared rows below, wrapped to fit five companies across. Rows where the companies differ are
// shaded and say so in words. The layout is planned first (pure helpers below, unit-tested), then
// drawn.

/** A4 landscape in PDF points (1/72 in). */
export const A4_LANDSCAPE = { width: 841.89, height: 595.28 } as const;
export const PAGE_MARGIN = 36;

/** What the PDF shows, display-ready (translated and formatted by the caller). */
export type ComparisonDocument = {
  productName: string;
  title: string;
  /** When the comparison was made, as the reader reads dates. */
  dateText: string;
  /** The heading of the label column, above the row labels. */
  labelHeading: string;
  companies: string[];
  groups: { title: string; rows: { label: string; values: string[]; differs: boolean }[] }[];
  /** The word that marks a row whose values differ. */
  differsText: string;
  /** Explains the shading, under the title. */
  legend: string;
  /** A closing line (e.g. the record types none of them has), or empty. */
  footnote: string;
  /** "Page {{page}} of {{pages}}" with the numbers put in. */
  pageText: (page: number, pages: number) => string;
  /** BCP 47 language of the text. */
  lang: string;
};

const FONT_SIZE = 8.5;
const HEADING_SIZE = 9;
const NOTE_SIZE = 7;
const CELL_PAD_X = 4;
const CELL_PAD_Y = 3;
/** Height of the page header (product, date, title, legend) and of the footer. */
const PAGE_HEADER = 62;
const PAGE_FOOTER = 18;

export type ColumnLayout = { labelWidth: number; valueWidth: number; x: number[] };

/**
 * The columns of a page: the row labels (a fifth of the width, within bounds) and equal columns
 * for the companies, which together fill the content width exactly.
 */
export function comparisonColumns(contentWidth: number, companies: number, left = PAGE_MARGIN): ColumnLayout {
  const n = Math.max(1, companies);
  const labelWidth = Math.min(170, Math.max(120, contentWidth * 0.2));
  const valueWidth = (contentWidth - labelWidth) / n;
  const x = [left, ...Array.from({ length: n }, (_, i) => left + labelWidth + i * valueWidth)];
  return { labelWidth, valueWidth, x };
}

export type Block = {
  height: number /** Must stay on the page of the block after it (a group title). */;
  keepWithNext?: boolean;
};

/**
 * Which blocks go on which page (indices per page): a block that does not fit the space left
 * starts a new page; a block kept with the next one moves with it. A block taller than a whole
 * page gets a page of its own rather than looping.
 */
export function paginate(blocks: readonly Block[], pageSpace: number): number[][] {
  const pages: number[][] = [[]];
  let used = 0;
  for (let i = 0; i < blocks.length; i++) {
    let needed = blocks[i].height;
    // A group title stays with the first row of its group.
    for (let j = i; blocks[j]?.keepWithNext && j + 1 < blocks.length; j++) needed += blocks[j + 1].height;
    const page = pages[pages.length - 1];
    if (used + needed > pageSpace && page.length > 0) {
      pages.push([]);
      used = 0;
    }
    pages[pages.length - 1].push(i);
    used += blocks[i].height;
  }
  return pages;
}

// Characters of the standard PDF fonts' WinAnsi encoding beyond Latin-1 (used only when no
// Unicode font is installed).
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const LOOKALIKE: Record<string, string> = {
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŀ: 'l',
  Ŀ: 'L',
  ŉ: "'n",
  '\u202f': ' ',
  '\u2009': ' ',
  '\u2011': '-',
  '\u2212': '-',
  '≠': '!=',
};

/** Text the standard Helvetica can show: accents it lacks dropped, other letters by look-alikes, else "?". */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch) || ch === '\n') {
      out += ch;
      continue;
    }
    if (LOOKALIKE[ch]) {
      out += LOOKALIKE[ch];
      continue;
    }
    const bare = ch.normalize('NFKD').replace(/\p{M}/gu, '');
    out += [...bare].every((c) => (c.codePointAt(0) ?? 0) <= 0xff) && bare ? bare : '?';
  }
  return out;
}

/** Unicode fonts looked for on the machine (Debian's fonts-dejavu-core, and other distributions' paths). */
const FONT_CANDIDATES = [
  ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'],
  ['/usr/share/fonts/TTF/DejaVuSans.ttf', '/usr/share/fonts/TTF/DejaVuSans-Bold.ttf'],
  ['/usr/share/fonts/dejavu/DejaVuSans.ttf', '/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf'],
  [
    '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  ],
] as const;

export type PdfFonts = { regular: string; bold: string; unicode: boolean };

let foundFonts: PdfFonts | undefined;

/** A Unicode font when one is installed (every name shows as written); else the built-in Helvetica. */
export function pdfFonts(): PdfFonts {
  foundFonts ??= (() => {
    const pair = FONT_CANDIDATES.find(([regular, bold]) => existsSync(regular) && existsSync(bold));
    return pair
      ? { regular: pair[0], bold: pair[1], unicode: true }
      : { regular: 'Helvetica', bold: 'Helvetica-Bold', unicode: false };
  })();
  return foundFonts;
}

/** Writes the comparison as a PDF and returns its bytes. */
export function writeComparisonPdf(
  document: ComparisonDocument,
  options: { fonts?: PdfFonts; now?: Date } = {},
): Promise<Buffer> {
  const fonts = options.fonts ?? pdfFonts();
  const text = fonts.unicode ? (s: string) => s : toWinAnsi;
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: PAGE_MARGIN,
    autoFirstPage: false,
    lang: document.lang,
    displayTitle: true,
    info: {
      Title: `${document.productName} — ${document.title}`,
      Author: document.productName,
      Creator: document.productName,
      CreationDate: options.now ?? new Date(),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('body', fonts.regular);
  doc.registerFont('bold', fonts.bold);

  const contentWidth = A4_LANDSCAPE.width - 2 * PAGE_MARGIN;
  const columns = comparisonColumns(contentWidth, document.companies.length);
  const cellWidth = (i: number) => (i === 0 ? columns.labelWidth : columns.valueWidth) - 2 * CELL_PAD_X;
  const measure = (s: string, font: 'body' | 'bold', size: number, width: number) =>
    s ? doc.font(font).fontSize(size).heightOfString(text(s), { width }) : 0;

  // The company names head every page's table.
  const headerHeight =
    Math.max(
      measure(document.labelHeading, 'bold', HEADING_SIZE, cellWidth(0)),
      ...document.companies.map((name) => measure(name, 'bold', HEADING_SIZE, cellWidth(1))),
    ) +
    2 * CELL_PAD_Y;

  type Drawn =
    | { kind: 'group'; title: string; height: number; keepWithNext: true }
    | { kind: 'row'; label: string; values: string[]; differs: boolean; height: number };
  // Measuring needs a page with the fonts set: the first page is added before planning.
  doc.addPage();
  const blocks: Drawn[] = [];
  for (const group of document.groups) {
    if (group.rows.length === 0) continue;
    const height = measure(group.title, 'bold', HEADING_SIZE, contentWidth - 2 * CELL_PAD_X) + 2 * CELL_PAD_Y + 2;
    blocks.push({ kind: 'group', title: group.title, height, keepWithNext: true });
    for (const r of group.rows) {
      const label =
        measure(r.label, 'bold', FONT_SIZE, cellWidth(0)) +
        (r.differs ? measure(document.differsText, 'body', NOTE_SIZE, cellWidth(0)) + 1 : 0);
      const values = r.values.map((v) => measure(v, 'body', FONT_SIZE, cellWidth(1)));
      blocks.push({ ...r, kind: 'row', height: Math.max(label, ...values, FONT_SIZE) + 2 * CELL_PAD_Y });
    }
  }
  const footnoteHeight = document.footnote
    ? measure(document.footnote, 'body', NOTE_SIZE, contentWidth) + 2 * CELL_PAD_Y
    : 0;
  const tableTop = PAGE_MARGIN + PAGE_HEADER;
  const pageSpace = A4_LANDSCAPE.height - PAGE_MARGIN - PAGE_FOOTER - tableTop - headerHeight;
  const pages = paginate([...blocks, ...(footnoteHeight ? [{ height: footnoteHeight }] : [])], pageSpace);

  pages.forEach((indices, p) => {
    if (p > 0) doc.addPage();
    // Pages are planned above: pdfkit must not start one by itself when text nears the bottom
    // margin (the footer sits in it).
    doc.page.margins.bottom = 0;
    drawPageHeader(p + 1, pages.length);
    let y = drawTableHeader(tableTop);
    for (const i of indices) {
      const block = blocks[i];
      if (!block) {
        doc
          .font('body')
          .fontSize(NOTE_SIZE)
          .fillColor('#5b6675')
          .text(text(document.footnote), PAGE_MARGIN, y + CELL_PAD_Y, { width: contentWidth });
        continue;
      }
      y = block.kind === 'group' ? drawGroup(block.title, y, block.height) : drawRow(block, y);
    }
  });
  doc.end();
  return done;

  function drawPageHeader(page: number, total: number) {
    const top = PAGE_MARGIN;
    doc.font('bold').fontSize(16).fillColor('#1f4e8c').text(text(document.productName), PAGE_MARGIN, top, {
      lineBreak: false,
    });
    doc
      .font('body')
      .fontSize(9)
      .fillColor('#1b2430')
      .text(text(document.dateText), PAGE_MARGIN, top + 4, { width: contentWidth, align: 'right', lineBreak: false });
    doc
      .font('bold')
      .fontSize(12)
      .fillColor('#1b2430')
      .text(text(document.title), PAGE_MARGIN, top + 24, { lineBreak: false });
    doc
      .font('body')
      .fontSize(NOTE_SIZE)
      .fillColor('#5b6675')
      .text(text(document.legend), PAGE_MARGIN, top + 42, { width: contentWidth, lineBreak: false, ellipsis: true });
    doc
      .font('body')
      .fontSize(NOTE_SIZE)
      .fillColor('#5b6675')
      .text(text(document.pageText(page, total)), PAGE_MARGIN, A4_LANDSCAPE.height - PAGE_MARGIN - 8, {
        width: contentWidth,
        align: 'right',
        lineBreak: false,
      });
  }

  function drawTableHeader(top: number): number {
    doc.rect(PAGE_MARGIN, top, contentWidth, headerHeight).fill('#e7eef8');
    const cells = [document.labelHeading, ...document.companies];
    cells.forEach((cell, i) => {
      doc
        .font('bold')
        .fontSize(HEADING_SIZE)
        .fillColor('#1b2430')
        .text(text(cell), columns.x[i] + CELL_PAD_X, top + CELL_PAD_Y, { width: cellWidth(i) });
    });
    return top + headerHeight;
  }

  function drawGroup(title: string, y: number, height: number): number {
    doc
      .font('bold')
      .fontSize(HEADING_SIZE)
      .fillColor('#1f4e8c')
      .text(text(title), PAGE_MARGIN + CELL_PAD_X, y + CELL_PAD_Y + 2, { width: contentWidth - 2 * CELL_PAD_X });
    doc
      .moveTo(PAGE_MARGIN, y + height)
      .lineTo(PAGE_MARGIN + contentWidth, y + height)
      .lineWidth(0.75)
      .strokeColor('#1f4e8c')
      .stroke();
    return y + height;
  }

  function drawRow(r: Extract<Drawn, { kind: 'row' }>, y: number): number {
    if (r.differs) {
      doc.rect(PAGE_MARGIN, y, contentWidth, r.height).fill('#fff4d6');
      doc.rect(PAGE_MARGIN, y, 2.5, r.height).fill('#b07d00');
    }
    doc
      .font('bold')
      .fontSize(FONT_SIZE)
      .fillColor('#1b2430')
      .text(text(r.label), columns.x[0] + CELL_PAD_X, y + CELL_PAD_Y, { width: cellWidth(0) });
    if (r.differs) {
      doc
        .font('body')
        .fontSize(NOTE_SIZE)
        .fillColor('#7a5600')
        .text(text(document.differsText), columns.x[0] + CELL_PAD_X, doc.y + 1, { width: cellWidth(0) });
    }
    r.values.forEach((value, i) => {
      doc
        .font('body')
        .fontSize(FONT_SIZE)
        .fillColor('#1b2430')
        .text(text(value), columns.x[i + 1] + CELL_PAD_X, y + CELL_PAD_Y, { width: cellWidth(i + 1) });
    });
    doc
      .moveTo(PAGE_MARGIN, y + r.height)
      .lineTo(PAGE_MARGIN + contentWidth, y + r.height)
      .lineWidth(0.4)
      .strokeColor('#d9dee5')
      .stroke();
    return y + r.height;
  }
}

/** The download's file name, named like the exports (spec §7 "Export behaviour"): `…_comparison_2026-11-05_09-07.pdf`. */
export function comparisonFileName(at: Date): string {
  return exportFileName('comparison', 'pdf', at);
}
