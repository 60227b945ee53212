import {
  type ChangeWords,
  changeInWords,
  changeLineText,
  changeSourceText,
  loadChangeWords,
} from '../../core/changes/change-words.ts';
import type { FieldChange } from '../../core/monitoring/reports.ts';
import type { Db } from '../../db/client.ts';
import type { Presenter } from './present.server.ts';

// A report's changes as the page shows them (core/changes/change-words.ts has their words): each
// line with its field linked to the company's history at that field, its values as items, and when
// and by whom it was said; the fields a source filled for the first time gathered in one folded group.

/** One change on a page: its field, old and new values as items (none: nothing), its dates and source. */
export type ChangeLineView = {
  field: string;
  fieldName: string;
  old: string[];
  new: string[];
  firstRecorded: boolean;
  source: string;
  /** The company's History tab at this field; null when the company is gone. */
  historyHref: string | null;
  /** The change on one line (what a screen reader, a copy or an email reads). */
  text: string;
};

export type ReportChangesView = {
  lines: ChangeLineView[];
  /** The fields a source stated for the first time, folded: "First recorded (3 fields)". */
  firstRecorded: { summary: string; lines: ChangeLineView[] } | null;
};

/** The words of every change of a page's reports, read once for the page. */
export function loadReportWords(db: Db, p: Presenter, reports: { changes: FieldChange[] }[]): Promise<ChangeWords> {
  return loadChangeWords(
    db.kysely,
    p.reference,
    p.lang,
    reports.flatMap((r) => r.changes),
  );
}

/** The History tab of a company at one field. */
export function historyHref(p: Presenter, companyUri: string, field: string): string {
  return `${p.path(`/companies/details/${encodeURIComponent(companyUri)}/history/`)}?${new URLSearchParams({ field })}`;
}

export function reportChangesView(
  p: Presenter,
  words: ChangeWords,
  report: { created_on: string; company: { uri: string } | null; changes: FieldChange[] },
): ReportChangesView {
  const views = report.changes.map((c): ChangeLineView => {
    const w = changeInWords(c, words);
    return {
      field: w.field,
      fieldName: c.field,
      old: w.old,
      new: w.new,
      firstRecorded: w.firstRecorded,
      source: changeSourceText({ ...c, observed_at: c.observed_at ?? report.created_on }, p.lang),
      historyHref: report.company ? historyHref(p, report.company.uri, c.field) : null,
      text: changeLineText(c, words),
    };
  });
  const first = views.filter((v) => v.firstRecorded);
  return {
    lines: views.filter((v) => !v.firstRecorded),
    firstRecorded:
      first.length > 0
        ? { summary: p.t('changeWords.firstRecordedGroup', { count: first.length }), lines: first }
        : null,
  };
}
