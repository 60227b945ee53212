import { PassThrough, Readable } from 'node:stream';
import { data, redirect } from 'react-router';
import { companyRowsByIds } from '../../core/companies/find-companies.ts';
import { prepareEnrichedFile } from '../../core/enrichment/enriched-file.ts';
import { type ColumnMapping, ENRICHMENT_FIELDS } from '../../core/enrichment/enrichment-fields.ts';
import {
  acceptAllAbove,
  type Candidate,
  createEnrichment,
  decideRow,
  type Enrichment,
  enrichmentCost,
  getEnrichment,
  listEnrichments,
  outcomeCounts,
  type RowOutcome,
  reviewRows,
  rowDecision,
  startEnrichment,
} from '../../core/enrichment/enrichments.ts';
import { cleanMapping, guessColumns, isUsableMapping, readUpload } from '../../core/enrichment/read-upload.ts';
import { REVIEW_THRESHOLD } from '../../core/enrichment/run-enrichment.ts';
import { AppError, httpStatus } from '../../core/errors/app-error.ts';
import {
  COMPANY_EXPORT_SECTIONS,
  type CompanyExportSection,
  DEFAULT_COMPANY_SECTIONS,
  EXPORT_FORMATS,
  isExportFormat,
} from '../../core/export/export-options.ts';
import { labelColon, localePath } from '../../core/i18n/i18n.ts';
import { ENRICHMENT_MAX_BYTES } from '../../core/limits.ts';
import { explainFeature } from '../../core/matching/explain.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { requireUser } from '../require-user.server.ts';
import { authContext, type ContextReader, servicesContext } from '../services.ts';
import { balanceOf, creditsText } from './billing.server.ts';
import { type Presenter, presenter } from './present.server.ts';
import { userPageSeo } from './user-data.server.ts';

// The enrichment pages (ADR 0020 "Enrichment"): /companies/enrichment/ (upload, the user's runs)
// and /companies/enrichment/{id}/ (the columns and the cost of a draft, the progress of a run —
// a page that refreshes itself, no script needed —, the review of uncertain matches, and the
// download of the enriched file through core/export's writers).

const MB = Math.round(ENRICHMENT_MAX_BYTES / 1024 / 1024);
/** Rows to review shown at once. */
const REVIEW_PAGE = 50;
/** "Accept all at or above N %": N as the form first offers it (the automatic match's own threshold). */
export const ACCEPT_ALL_DEFAULT = 90;
/** …and the lowest N it takes: below the review's own threshold every row to review would qualify. */
const ACCEPT_ALL_MIN = Math.round(REVIEW_THRESHOLD * 100);

/** What a decision on a row did, in words: the one text of the page after a post and of the island's answer. */
function decisionText(p: Presenter, rowNumber: number, outcome: RowOutcome, company: Candidate | null): string {
  return outcome === 'accepted' && company
    ? p.t('enrichment.decidedAccepted', { number: rowNumber, name: company.name })
    : p.t('enrichment.decidedRejected', { number: rowNumber });
}

/** What "accept all at or above N %" did, in words. */
function acceptedText(p: Presenter, count: number, threshold: number): string {
  return count === 0
    ? p.t('enrichment.acceptedNone', { threshold })
    : p.t('enrichment.acceptedAll', { count, formatted: p.number(count) });
}

/** The anchor of a row to review, where a decision without script comes back to. */
const rowAnchor = (rowNumber: number) => `row-${rowNumber}`;

/** An AppError as the page's answer: its status and message (shown in the page's alert). */
function failure(error: unknown) {
  if (error instanceof AppError && error.code !== 'internal' && error.code !== 'unavailable') {
    return data({ error: error.message }, { status: httpStatus(error.code) });
  }
  throw error;
}

/** Refusals of a file's size (inflated or not, or the memory reading it needs): 413, the others 400. */
const SIZE_REFUSALS = new Set(['tooLarge', 'entryInflated', 'inflated', 'tooComplex']);

/** readUpload's refusal (ADR 0020 "Enrichment"): its reason, the key of its message, and the values it names. */
function uploadRefusal(error: unknown): ({ reason: string } & Record<string, unknown>) | null {
  if (!(error instanceof AppError) || error.code !== 'bad_request') return null;
  const details = error.details as { reason?: unknown } | undefined;
  if (typeof details?.reason !== 'string') return null;
  const { parameter: _parameter, ...rest } = details as Record<string, unknown>;
  return rest as { reason: string } & Record<string, unknown>;
}

const idOf = (text: string | undefined) => {
  if (!text || !/^\d{1,15}$/.test(text)) throw data({ message: 'Not found' }, { status: 404 });
  return Number(text);
};

export async function loadEnrichmentsPage(context: ContextReader, lang: Lang) {
  const seo = userPageSeo(context, lang, '/companies/enrichment/', 'enrichment.title', 'enrichment.description');
  const auth = context.get(authContext);
  const { db, reference } = context.get(servicesContext);
  const p = presenter(reference, lang);
  const base = {
    seo,
    maxMb: MB,
    action: p.path('/companies/enrichment/'),
    pricing: p.path('/info/pricing/'),
  };
  if (!auth) return { ...base, signedIn: false as const, enrichments: [] };
  const enrichments = await listEnrichments(db, auth.user.id);
  return {
    ...base,
    signedIn: true as const,
    enrichments: enrichments.map((e) => ({
      id: e.id,
      fileName: e.fileName,
      rows: p.number(e.rowsTotal),
      status: p.t(`enrichment.statuses.${e.status}`),
      created: p.date(e.createdAt.slice(0, 10)),
      href: p.path(`/companies/enrichment/${e.id}/`),
    })),
  };
}

/** The upload: read (400/413 naming what is wrong), kept as a draft, and on to its page. */
export async function enrichmentsAction(context: ContextReader, request: Request, lang: Lang) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const p = presenter(context.get(servicesContext).reference, lang);
  // The body itself is bounded as it streams (server/plugins/ssr.ts): a larger one never gets here.
  const form = await request.formData();
  const file = form.get('file');
  if (!(file instanceof File) || file.size === 0) {
    return data({ error: p.t('enrichment.errors.noFile') }, { status: 400 });
  }
  if (file.size >= ENRICHMENT_MAX_BYTES) {
    return data({ error: p.t('enrichment.errors.tooLarge', { size: MB }) }, { status: 413 });
  }
  try {
    const upload = await readUpload(file.name || 'upload.csv', new Uint8Array(await file.arrayBuffer()), {
      signal: request.signal,
    });
    const id = await createEnrichment(db, auth.user.id, upload, guessColumns(upload.columns));
    return redirect(localePath(lang, `/companies/enrichment/${id}/`), 303);
  } catch (error) {
    const refused = uploadRefusal(error);
    if (refused) {
      const { reason, ...values } = refused;
      const status = SIZE_REFUSALS.has(reason) ? 413 : 400;
      return data({ error: p.t(`enrichment.errors.${reason}`, { size: MB, ...values }) }, { status });
    }
    return failure(error);
  }
}

export async function loadEnrichmentPage(context: ContextReader, request: Request, lang: Lang, idText?: string) {
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const p = presenter(reference, lang);
  const id = idOf(idText);
  let enrichment: Enrichment;
  try {
    enrichment = await getEnrichment(db, auth.user.id, id);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found')
      throw data({ message: error.message }, { status: 404 });
    throw error;
  }
  const url = new URL(request.url);
  const path = `/companies/enrichment/${id}/`;
  const seo = { ...userPageSeo(context, lang, path, 'enrichment.title', 'enrichment.description'), noindex: true };
  seo.title = `${enrichment.fileName} · ${p.t('enrichment.title')}`;
  const rowsText = p.t('enrichment.rows', { count: enrichment.rowsTotal, formatted: p.number(enrichment.rowsTotal) });
  const base = {
    seo,
    id,
    fileName: enrichment.fileName,
    rows: rowsText,
    status: enrichment.status,
    statusText: p.t(`enrichment.statuses.${enrichment.status}`),
    action: p.path(path),
    reviewAction: p.path(`${path}review/`),
    back: p.path('/companies/enrichment/'),
    decided: url.searchParams.get('done') === 'decided',
  };
  if (enrichment.status === 'draft') {
    const cost = enrichmentCost(enrichment);
    const balance = (await balanceOf(db, auth.user.id)) ?? 0;
    const sample = await db.kysely
      .selectFrom('enrichment_rows')
      .select(['cells'])
      .where('enrichment_id', '=', id)
      .orderBy('row_number')
      .limit(5)
      .execute();
    return {
      ...base,
      draft: {
        columns: enrichment.columns,
        fields: ENRICHMENT_FIELDS.map((field) => ({
          field,
          label: p.t(`enrichment.fields.${field}`),
          column: enrichment.mapping[field] ?? null,
        })),
        usable: isUsableMapping(enrichment.mapping),
        sample: sample.map((r) => (typeof r.cells === 'string' ? JSON.parse(r.cells) : r.cells) as string[]),
        cost: p.t('enrichment.cost', { rows: rowsText, cost: creditsText(p, cost) }),
        balance: p.t('enrichment.balanceAfter', {
          balance: creditsText(p, balance),
          after: creditsText(p, balance - cost),
        }),
        enough: balance >= cost,
        pricing: p.path('/info/pricing/'),
      },
    };
  }
  if (enrichment.status === 'queued' || enrichment.status === 'running') {
    return {
      ...base,
      progress: {
        done: enrichment.rowsDone,
        total: enrichment.rowsTotal,
        text: p.t('enrichment.progress', {
          done: p.number(enrichment.rowsDone),
          total: p.number(enrichment.rowsTotal),
        }),
      },
    };
  }
  if (enrichment.status === 'failed') {
    return {
      ...base,
      failed: p.t('enrichment.failed', { credits: creditsText(p, enrichment.credits), error: enrichment.error ?? '' }),
    };
  }
  const counts = await outcomeCounts(db, id);
  const remembered = await db.kysely
    .selectFrom('enrichment_rows')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('enrichment_id', '=', id)
    .where('remembered', '=', true)
    .executeTakeFirstOrThrow();
  const review = await reviewRows(db, auth.user.id, id, REVIEW_PAGE);
  // Number, town and status as the registers say now (the candidates were copied when matched).
  const companies = new Map(
    (await companyRowsByIds(db, [...new Set(review.flatMap((r) => r.candidates.map((c) => c.id)))])).map((c) => [
      c.id,
      c,
    ]),
  );
  const colon = labelColon(lang);
  // Back from a decision without script: the row decided, in its place, with what was decided.
  const decidedNumber = Number(url.searchParams.get('row'));
  const decidedRow =
    base.decided && Number.isSafeInteger(decidedNumber) && decidedNumber > 0
      ? await rowDecision(db, auth.user.id, id, decidedNumber)
      : null;
  const acceptedCount = Number(url.searchParams.get('count'));
  const acceptedThreshold = Number(url.searchParams.get('threshold'));
  const accepted =
    url.searchParams.get('done') === 'accepted' && Number.isSafeInteger(acceptedCount) && acceptedCount >= 0
      ? acceptedText(p, acceptedCount, acceptedThreshold || ACCEPT_ALL_DEFAULT)
      : null;
  return {
    ...base,
    done: {
      counts: countsShown(p, counts),
      remembered:
        Number(remembered.n) > 0
          ? p.t('enrichment.remembered', { count: Number(remembered.n), formatted: p.number(Number(remembered.n)) })
          : null,
      review: review.map((r) => {
        const input = r.cells.filter((c) => c.trim() !== '').join(' · ');
        return {
          rowNumber: r.rowNumber,
          anchor: rowAnchor(r.rowNumber),
          label: p.t('enrichment.row', { number: r.rowNumber }),
          caption: p.t('enrichment.candidates', { number: r.rowNumber, input }),
          input,
          candidates: r.candidates.map((c) => {
            const company = companies.get(c.id);
            return {
              id: c.id,
              name: c.name,
              choose: p.t('enrichment.choose', { name: c.name }),
              number: company?.company_number ?? '',
              town: company?.town ?? '',
              status: company ? p.status(company.status_id) : null,
              score: p.t('enrichment.score', { score: Math.round(c.score * 100) }),
              href: p.path(`/companies/details/${encodeURIComponent(c.uri)}/`),
              // The explanation of POST /api/match, in the reader's language (ADR 0032).
              features: c.features
                ? c.features.map((f) => `${p.t(`enrichment.fields.${f.id}`)}${colon}${explainFeature(f.reason, lang)}`)
                : [p.t('enrichment.noExplanation')],
            };
          }),
        };
      }),
      decidedRow: decidedRow
        ? {
            rowNumber: decidedNumber,
            anchor: rowAnchor(decidedNumber),
            text: decisionText(p, decidedNumber, decidedRow.outcome, decidedRow.company),
          }
        : null,
      accepted,
      acceptAll: { value: ACCEPT_ALL_DEFAULT, min: ACCEPT_ALL_MIN, max: 100 },
      reviewMore: counts.review > review.length ? p.t('enrichment.reviewMore', { count: review.length }) : null,
      download: p.path(`/companies/enrichment/${id}/download/`),
      formats: EXPORT_FORMATS.map((value) => ({ value, label: p.t(`export.formats.${value}`) })),
      sections: COMPANY_EXPORT_SECTIONS.map((value) => ({
        value,
        label: p.t(`export.sectionNames.${value}`),
        checked: DEFAULT_COMPANY_SECTIONS.includes(value),
      })),
    },
  };
}

/** The outcomes' counts as the page's summary shows them (and the island updates them). */
function countsShown(p: Presenter, counts: Record<RowOutcome, number>) {
  return (['matched', 'review', 'accepted', 'rejected', 'unmatched'] as const).map((outcome) => ({
    outcome,
    label: p.t(`enrichment.summary.${outcome}`),
    count: p.number(counts[outcome]),
  }));
}

/** The mapping of the run form: `map.<field>` is a column's number or empty. */
function formMapping(form: FormData, columnCount: number): ColumnMapping {
  const raw: Record<string, number> = {};
  for (const field of ENRICHMENT_FIELDS) {
    const value = form.get(`map.${field}`);
    if (typeof value === 'string' && /^\d{1,4}$/.test(value)) raw[field] = Number(value);
  }
  return cleanMapping(raw, columnCount);
}

/**
 * Run a draft (charge and job in one transaction), decide on a row to review, or accept every row's
 * best candidate at or above a score. A decision sent by the review island (`json`, through
 * …/{id}/review/) is answered with the row's new state as JSON, the page staying as it is;
 * without script, the post is redirected back to the row's place on the page.
 */
export async function enrichmentAction(
  context: ContextReader,
  request: Request,
  lang: Lang,
  idText?: string,
  options: { json?: boolean } = {},
) {
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const p = presenter(reference, lang);
  const id = idOf(idText);
  const form = await request.formData();
  const intent = form.get('intent');
  const json = options.json === true;
  if (json && intent !== 'decide' && intent !== 'accept-all') {
    return Response.json({ error: 'intent: decide or accept-all' }, { status: 400 });
  }
  const page = localePath(lang, `/companies/enrichment/${id}/`);
  try {
    if (intent === 'run') {
      const enrichment = await getEnrichment(db, auth.user.id, id);
      await startEnrichment(db, auth.user.id, id, formMapping(form, enrichment.columns.length));
      return redirect(page, 303);
    }
    if (intent === 'decide') {
      const row = form.get('row');
      if (typeof row !== 'string' || !/^\d{1,9}$/.test(row)) {
        throw new AppError('bad_request', 'row: the number of a row of the file', { parameter: 'row' });
      }
      const companyId = chosenCompany(form);
      const decided = await decideRow(db, auth.user.id, id, Number(row), companyId);
      if (json) {
        return Response.json(
          {
            row: Number(row),
            anchor: rowAnchor(Number(row)),
            outcome: decided.outcome,
            company: decided.company && { id: decided.company.id, name: decided.company.name },
            text: decisionText(p, Number(row), decided.outcome, decided.company),
            counts: countsShown(p, await outcomeCounts(db, id)),
          },
          { headers: { 'cache-control': 'no-store' } },
        );
      }
      return redirect(`${page}?done=decided&row=${Number(row)}#${rowAnchor(Number(row))}`, 303);
    }
    if (intent === 'accept-all') {
      const raw = form.get('threshold');
      const threshold = typeof raw === 'string' && /^\d{1,3}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
      if (!(threshold >= ACCEPT_ALL_MIN && threshold <= 100)) {
        throw new AppError('bad_request', `threshold: a whole percentage from ${ACCEPT_ALL_MIN} to 100`, {
          parameter: 'threshold',
        });
      }
      const accepted = await acceptAllAbove(db, auth.user.id, id, threshold / 100);
      if (json) {
        // The island replaces each accepted row on the page by what was decided.
        return Response.json(
          {
            text: acceptedText(p, accepted.length, threshold),
            rows: accepted.map((a) => ({
              anchor: rowAnchor(a.rowNumber),
              text: decisionText(p, a.rowNumber, 'accepted', a.company),
            })),
            counts: countsShown(p, await outcomeCounts(db, id)),
          },
          { headers: { 'cache-control': 'no-store' } },
        );
      }
      return redirect(`${page}?done=accepted&count=${accepted.length}&threshold=${threshold}#enrichment-review`, 303);
    }
  } catch (error) {
    if (json && error instanceof AppError && error.code !== 'internal' && error.code !== 'unavailable') {
      return Response.json({ error: error.message }, { status: httpStatus(error.code) });
    }
    return failure(error);
  }
  return data({ error: 'intent: run, decide or accept-all' }, { status: 400 });
}

/**
 * The company a review form chose: a candidate's id, or none ("none of these": `company=none`, or
 * the older `decision=reject`); a 400 naming `company` for anything else.
 */
function chosenCompany(form: FormData): number | null {
  const company = form.get('company');
  if (form.get('decision') === 'reject' || company === 'none') return null;
  if (typeof company !== 'string' || !/^\d{1,15}$/.test(company)) {
    throw new AppError('bad_request', 'company: choose one of the row’s candidates or “none”', {
      parameter: 'company',
    });
  }
  return Number(company);
}

function plain(text: string, status: number): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/** GET …/{id}/download/?format=csv&sections=addresses…: the enriched file, streamed; guests get a 401. */
export async function enrichedDownload(context: ContextReader, request: Request, lang: Lang, idText?: string) {
  const auth = context.get(authContext);
  if (!auth) return plain('Sign in to download your enriched file.', 401);
  const services = context.get(servicesContext);
  const url = new URL(request.url);
  const format = url.searchParams.get('format') ?? 'csv';
  if (!isExportFormat(format)) return plain(`format: one of ${EXPORT_FORMATS.join(', ')}`, 400);
  const asked = url.searchParams.getAll('sections').flatMap((s) => s.split(','));
  const unknown = asked.find((s) => s !== '' && !(COMPANY_EXPORT_SECTIONS as readonly string[]).includes(s));
  if (unknown !== undefined) return plain(`sections: “${unknown}” is no company data section`, 400);
  const sections = asked.filter((s): s is CompanyExportSection => s !== '');
  if (!idText || !/^\d{1,15}$/.test(idText)) return plain('Not found', 404);
  let file: Awaited<ReturnType<typeof prepareEnrichedFile>>;
  try {
    file = await prepareEnrichedFile(services.db, services.reference, {
      userId: auth.user.id,
      id: Number(idText),
      format,
      sections,
      lang,
    });
  } catch (error) {
    if (error instanceof AppError && error.code !== 'internal') return plain(error.message, httpStatus(error.code));
    throw error;
  }
  if (file.enrichment.status !== 'done') return plain('The enrichment has not finished yet.', 409);
  const out = new PassThrough();
  file.write(out).catch((error) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return new Response(Readable.toWeb(out) as ReadableStream, {
    status: 200,
    headers: {
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="${file.fileName}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
