// Reads a PDF back with an independent reader (Mozilla's PDF.js engine, through unpdf's serverless
// build; not pdfkit, the writer): each page's size and its text, as a viewer's "select all" would
// get it, with positions.

import { getDocumentProxy } from 'unpdf';

export type PdfTextItem = { text: string; x: number; y: number; width: number; height: number };
export type PdfPage = { width: number; height: number; text: string; items: PdfTextItem[] };
export type PdfRead = { pages: PdfPage[]; title: string | undefined };

export async function readPdf(bytes: Uint8Array): Promise<PdfRead> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { useSystemFonts: false, verbosity: 0 });
  try {
    const pages: PdfPage[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const { width, height } = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const items: PdfTextItem[] = [];
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        items.push({
          text: item.str,
          x: item.transform[4],
          y: item.transform[5],
          width: item.width,
          height: item.height,
        });
        text += item.str + (item.hasEOL ? '\n' : ' ');
      }
      pages.push({ width, height, text, items });
    }
    const meta = await pdf.getMetadata();
    const info = meta.info as { Title?: string } | undefined;
    return { pages, title: info?.Title };
  } finally {
    await pdf.cleanup();
  }
}
