import type { Writable } from 'node:stream';
import type { Db } from '../../db/client.ts';
import { companyExportLayout } from '../export/export-columns.ts';
import { type CompanyExportSection, type ExportFormat, exportFileName } from '../export/export-options.ts';
import { type CompanyExportData, readCompanyRows } from '../export/read-company-rows.ts';
import { type Cell, createWriter, type ExportColumn } from '../export/writers.ts';
import { unlockedFor } from '../purchases/paywall.ts';
import type { Lang, Reference } from '../reference/reference-data.ts';
import { visibleCompany } from '../takedowns/visible.ts';
import { type Enrichment, getEnrichment } from './enrichments.ts';

// The enriched file (ADR 0020 "Enrichment"): the user's own columns as uploaded, then the match
// (its outcome, score and the company's URI), then the company's columns as the export writes them
// (core/export: the same layout, sections and writers for csv, xlsx, json and xml). Rows left for
// review, rejected or unmatched have the match columns and no company.

/** Rows read and written at a time. */
const BATCH = 1_000;

const LABELS = {
  outcome: { en: 'Match', de: 'Zuordnung', fr: 'Correspondance' },
  score: { en: 'Match score', de: 'Übereinstimmung', fr: 'Score de correspondance' },
  uri: { en: 'Registra URI', de: 'Registra-URI', fr: 'URI Registra' },
  prefix: { en: 'Registra', de: 'Registra', fr: 'Registra' },
} as const;

export type EnrichedFileRequest = {
  userId: number;
  id: number;
  format: ExportFormat;
  sections: readonly CompanyExportSection[];
  lang: Lang;
  now?: Date;
};

export type EnrichedFile = {
  fileName: string;
  contentType: string;
  enrichment: Enrichment;
  write(out: Writable): Promise<void>;
};

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** A header as a JSON key or XML element: letters, digits and `_` (a column's number when nothing is left). */
function columnKey(header: string, index: number, taken: Set<string>): string {
  const base =
    header
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || `column_${index + 1}`;
  let key = `input.${base}`;
  for (let n = 2; taken.has(key); n++) key = `input.${base}_${n}`;
  taken.add(key);
  return key;
}

/** The user's enrichment as a file to download (a 404 for another user's; only a finished one). */
export async function prepareEnrichedFile(
  db: Db,
  reference: Reference,
  request: EnrichedFileRequest,
): Promise<EnrichedFile> {
  const enrichment = await getEnrichment(db, request.userId, request.id);
  const languageId = reference.languageIds[request.lang] || reference.languageIds.en;
  const company = companyExportLayout(reference, request.lang, languageId, request.sections);
  const taken = new Set<string>();
  const columns: ExportColumn[] = [
    ...enrichment.columns.map((label, i) => ({ key: columnKey(label, i, taken), label, type: 'text' as const })),
    { key: 'match.outcome', label: LABELS.outcome[request.lang], type: 'text' },
    { key: 'match.score', label: LABELS.score[request.lang], type: 'number' },
    { key: 'match.uri', label: LABELS.uri[request.lang], type: 'text' },
    ...company.columns.map((c) => ({
      ...c,
      key: `registra.${c.key}`,
      label: `${LABELS.prefix[request.lang]}: ${c.label}`,
    })),
  ];
  const empty: Cell[] = company.columns.map(() => null);
  const base = enrichment.fileName.replace(/\.[A-Za-z0-9]+$/, '').replace(/[^A-Za-z0-9_-]+/g, '-') || 'file';
  return {
    fileName: exportFileName(`enriched_${base}`.slice(0, 80), request.format, request.now ?? new Date()),
    contentType: CONTENT_TYPES[request.format],
    enrichment,
    async write(out) {
      const writer = createWriter(request.format, out, columns, {
        separator: 'comma',
        entity: { plural: 'rows', singular: 'row' },
        title: 'Enriched',
      });
      let after = 0;
      for (;;) {
        const rows = await db.kysely
          .selectFrom('enrichment_rows as r')
          // A company taken down since the file was matched is written as no match (ADR 0021).
          .leftJoin('legal_entities as c', (join) => join.onRef('c.id', '=', 'r.company_id').on(visibleCompany('c')))
          .select(['r.row_number', 'r.cells', 'r.outcome', 'r.score', 'r.company_id', 'c.uri'])
          .where('r.enrichment_id', '=', enrichment.id)
          .where('r.row_number', '>', after)
          .orderBy('r.row_number')
          .limit(BATCH)
          .execute();
        if (rows.length === 0) break;
        after = rows[rows.length - 1].row_number;
        const ids = [
          ...new Set(rows.filter((r) => r.company_id !== null && r.uri !== null).map((r) => Number(r.company_id))),
        ];
        const companies = new Map<number, CompanyExportData>(
          (
            await readCompanyRows(
              db,
              reference,
              ids,
              request.sections,
              languageId,
              // The contact details of companies the user did not buy are left out (ADR 0029).
              await unlockedFor(db, request.userId, ids),
            )
          ).map((c) => [Number(c.id), c]),
        );
        await writer.writeRows(
          rows.map((r) => {
            const cells = (typeof r.cells === 'string' ? JSON.parse(r.cells) : r.cells) as string[];
            const found = r.company_id === null ? undefined : companies.get(Number(r.company_id));
            const chosen = r.outcome === 'matched' || r.outcome === 'accepted';
            return [
              ...enrichment.columns.map((_, i) => cells[i] ?? null),
              r.outcome,
              r.score === null ? null : Math.round(r.score * 1000) / 1000,
              chosen && r.uri ? r.uri : null,
              ...(chosen && found ? company.values(found) : empty),
            ];
          }),
        );
      }
      await writer.finish();
    },
  };
}
