import PDFDocument from 'pdfkit';
import type { Db } from '../../db/client.ts';
import { pdfFonts, toWinAnsi } from '../comparison/comparison-pdf.ts';
import { AppError } from '../errors/app-error.ts';
import { i18nFor, intlLocale } from '../i18n/i18n.ts';
import type { Lang } from '../reference/reference-data.ts';
import { offerOf } from './catalogue.ts';

// The invoice of a paid order as a PDF (pdfkit, the fonts of the comparison PDF): seller, buyer,
// number and date, the line (offer, credits), the total. A refunded order's invoice says so.
// Only paid and refunded orders have one.

export type Invoice = {
  number: string;
  issuedOn: string;
  buyer: { name: string; email: string };
  line: string;
  credits: number;
  amount: string;
  status: 'paid' | 'refunded';
  provider: string;
  transaction: string | null;
};

/** The invoice of one of the user's orders; another user's, or an order without one (not paid), is a 404. */
export async function readInvoice(db: Db, userId: number, where: { id?: number; number?: number }, lang: Lang) {
  let query = db.kysely
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .select([
      'o.id',
      'o.number',
      'o.amount',
      'o.currency',
      'o.status',
      'o.offer_id',
      'o.credits',
      'o.paid_at',
      'o.created_at',
      'o.provider',
      'o.provider_ref',
      'u.name',
      'u.email',
    ])
    .where('o.user_id', '=', userId)
    .where('o.status', 'in', ['paid', 'refunded']);
  if (where.id !== undefined) query = query.where('o.id', '=', where.id);
  if (where.number !== undefined) query = query.where('o.number', '=', where.number);
  const row = await query.executeTakeFirst();
  if (!row) throw new AppError('not_found', 'No paid order of yours has this id: only paid orders have an invoice.');
  const offer = row.offer_id ? offerOf(row.offer_id) : undefined;
  const issued = new Date(row.paid_at ?? row.created_at);
  const money = new Intl.NumberFormat(intlLocale(lang), { style: 'currency', currency: row.currency });
  const invoice: Invoice = {
    number: `R-${issued.getUTCFullYear()}-${userId}-${row.number}`,
    issuedOn: issued.toISOString().slice(0, 10),
    buyer: { name: row.name, email: row.email },
    line: offer?.name[lang] ?? 'Order',
    credits: Number(row.credits ?? 0),
    amount: money.format(Number(row.amount)),
    status: row.status === 'refunded' ? 'refunded' : 'paid',
    provider: row.provider ?? '',
    transaction: row.provider_ref,
  };
  return { invoice, fileName: `registra-invoice-${invoice.number}.pdf` };
}

export function writeInvoicePdf(invoice: Invoice, lang: Lang): Promise<Buffer> {
  const { t } = i18nFor(lang);
  const fonts = pdfFonts();
  const text = fonts.unicode ? (s: string) => s : toWinAnsi;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${t('billing.invoice.title')} ${invoice.number}` },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('body', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  doc
    .font('bold')
    .fontSize(20)
    .text(text(`Registra — ${t('billing.invoice.title')}`));
  doc.moveDown();
  doc.font('body').fontSize(11);
  const line = (label: string, value: string) => doc.text(text(`${label}: ${value}`));
  line(t('billing.invoice.number'), invoice.number);
  line(t('billing.invoice.issuedOn'), invoice.issuedOn);
  line(t('billing.invoice.buyer'), `${invoice.buyer.name} <${invoice.buyer.email}>`);
  doc.moveDown();
  line(t('billing.invoice.item'), invoice.line);
  line(t('billing.invoice.credits'), String(invoice.credits));
  doc.font('bold');
  line(t('billing.invoice.total'), invoice.amount);
  doc.font('body');
  doc.moveDown();
  line(t('billing.invoice.paidWith'), [invoice.provider, invoice.transaction].filter(Boolean).join(' · '));
  if (invoice.status === 'refunded') {
    doc
      .moveDown()
      .font('bold')
      .text(text(t('billing.invoice.refunded')));
  }
  doc.end();
  return done;
}
