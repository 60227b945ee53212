import type { Readable } from 'node:stream';
import type { ImportItem, ImportSource, ReportingException } from '../company-facts.ts';
import { csvRows } from '../csv-rows.ts';
import { childrenNamed, textAt, xmlRecords } from '../xml-records.ts';
import { isoInstant } from './gleif-dates.ts';
import { byFirstByte } from './gleif-rr.ts';

// GLEIF Level 2 reporting exceptions (RepEx): why an entity reports no direct or ultimate
// accounting-consolidation parent. XML as GLEIF publishes it — <ReportingExceptionData> with a
// <Header> (ContentDate …) and <ReportingExceptions> of <Exception> (LEI, ExceptionCategory, one
// or more ExceptionReason, optional ExceptionReference) — or CSV with those header names
// (numbered reason columns allowed). Mapping: docs/decisions/0014-importers.md "gleif-repex".

const EXPECTS =
  'GLEIF reporting exceptions: RepEx XML (<ReportingExceptionData> with <Exception>s) or CSV (a header with “LEI” and “ExceptionCategory”)';

async function* fromXml(input: Readable): AsyncIterable<ImportItem> {
  let contentDate: string | null = null;
  let at = 0;
  for await (const record of xmlRecords(input, {
    root: 'ReportingExceptionData',
    record: 'Exception',
    expects: EXPECTS,
    onHeader: (el) => {
      if (el.name === 'Header') contentDate = textAt(el, 'ContentDate');
    },
  })) {
    at += 1;
    try {
      const exception: ReportingException = {
        lei: textAt(record, 'LEI') ?? '',
        category: textAt(record, 'ExceptionCategory') ?? '',
        reasons: childrenNamed(record, 'ExceptionReason')
          .map((r) => r.text.trim())
          .filter(Boolean),
        reference:
          childrenNamed(record, 'ExceptionReference')
            .map((r) => r.text.trim())
            .filter(Boolean)
            .join(' ') || null,
        sourceDate: isoInstant(contentDate),
      };
      yield { kind: 'reporting-exception', at, exception };
    } catch (error) {
      yield { kind: 'reject', at, reason: error instanceof Error ? error.message : String(error) };
    }
  }
}

async function* fromCsv(input: Readable): AsyncIterable<ImportItem> {
  for await (const r of csvRows(input, { required: ['LEI', 'ExceptionCategory'], expects: EXPECTS })) {
    if ('error' in r) {
      yield { kind: 'reject', at: r.line, unit: 'line', reason: r.error };
      continue;
    }
    const columns = Object.keys(r.row);
    const values = (start: string) =>
      columns
        .filter((c) => c.startsWith(start))
        .map((c) => r.row[c] ?? '')
        .filter(Boolean);
    const exception: ReportingException = {
      lei: r.row.LEI ?? '',
      category: r.row.ExceptionCategory ?? '',
      reasons: values('ExceptionReason'),
      reference: values('ExceptionReference').join(' ') || null,
      sourceDate: null,
    };
    yield { kind: 'reporting-exception', at: r.line, unit: 'line', exception };
  }
}

export const gleifRepex: ImportSource = {
  name: 'gleif-repex',
  expects: EXPECTS,
  unit: 'record',
  read: (input) => byFirstByte(input, fromXml, fromCsv),
};
