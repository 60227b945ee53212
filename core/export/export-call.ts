import type { Db } from '../../db/client.ts';
import { LANGUAGE_EN } from '../../db/reference/enumerations.ts';
import { AppError } from '../errors/app-error.ts';
import type { Reference } from '../reference/reference-data.ts';
import { sectionById } from '../sections/sections.ts';
import { notFound } from '../user-data/user-data-errors.ts';
import { getWatchlistByNumber } from '../watchlists/watchlists.ts';
import { parseExportParams } from './export-request.ts';
import type { ExportRequest } from './run-export.ts';

// A user's export call — a section and the download's parameters — as the request the runner
// takes: the parameters checked (core/export/export-request.ts, a 400 naming the bad one) and a
// list looked up among the caller's own lists (another user's is a 404). Shared by the streamed
// download, the export jobs (docs/decisions/0031-export-jobs.md) and their worker.

export async function exportRequestOf(
  db: Db,
  reference: Reference,
  userId: number,
  sectionId: string,
  params: URLSearchParams,
): Promise<ExportRequest> {
  const section = sectionById(sectionId);
  if (!section) throw new AppError('not_found', `No section ${sectionId}.`);
  const parsed = parseExportParams(section, params);
  let list: ExportRequest['list'];
  if (parsed.list !== undefined) {
    const watchlist = await getWatchlistByNumber(db, userId, parsed.list);
    if (!watchlist) throw notFound('company list');
    list = { userId, watchlistId: watchlist.id, name: watchlist.name };
  }
  return {
    section,
    state: parsed.state,
    choices: parsed.choices,
    ids: parsed.ids,
    list,
    lang: parsed.lang,
    languageId: reference.languageIds[parsed.lang] || LANGUAGE_EN,
    // The gated values of companies the user did not buy stay empty (ADR 0029).
    viewer: userId,
  };
}
