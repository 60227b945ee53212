// The text of an answer, decoded, for the sweeps that look for values in every answer (the takedown
// sweep, the paywall sweep): HTML entities, XLSX cells (exceljs), PDF text (PDF.js), zip entries,
// URL escapes.

import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { readPdf } from './read-pdf.ts';

export async function bodyText(body: Buffer, contentType: string): Promise<string> {
  if (contentType.includes('spreadsheetml')) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(body as unknown as ArrayBuffer);
    const cells: string[] = [];
    book.eachSheet((sheet) => {
      sheet.eachRow((row) => {
        row.eachCell((cell) => {
          cells.push(cell.text);
        });
      });
    });
    return cells.join('\n');
  }
  if (contentType.includes('application/pdf')) {
    return (await readPdf(body)).pages.map((page) => page.text).join('\n');
  }
  if (contentType.includes('zip')) {
    const zip = await JSZip.loadAsync(body);
    const texts = await Promise.all(Object.values(zip.files).map((f) => f.async('string')));
    return texts.join('\n');
  }
  const text = body.toString('utf8');
  let decoded = text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  try {
    decoded += `\n${decodeURIComponent(decoded.replace(/\+/g, ' '))}`;
  } catch {
    // Not all of it is URL-encoded text: the entity-decoded text stands.
  }
  return decoded;
}
