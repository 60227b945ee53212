import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SessionAuth } from '../../core/accounts/sessions.ts';
import { exportCredits } from '../../core/billing/catalogue.ts';
import { chargeCredits } from '../../core/billing/ledger.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { exportRequestOf } from '../../core/export/export-call.ts';
import {
  COMPANY_EXPORT_SECTIONS,
  EXPORT_FORMATS,
  EXPORT_ROW_LIMIT,
  EXPORT_ROWS_HEADER,
  EXPORT_SCOPES,
  EXPORT_SEPARATORS,
} from '../../core/export/export-options.ts';
import {
  deleteExportSettings,
  listExportSettings,
  saveExportSetting,
  updateExportSetting,
} from '../../core/export/export-settings.ts';
import { prepareExport } from '../../core/export/run-export.ts';
import { i18nFor, isLang } from '../../core/i18n/i18n.ts';
import type { Lang, Reference } from '../../core/reference/reference-data.ts';
import { SECTIONS } from '../../core/sections/sections.ts';
import type { AppServices } from '../../core/services.ts';
import type { Db } from '../../db/client.ts';
import { requireUser } from './auth.ts';
import { tellBalance } from './balance-header.ts';
import { type ApiRoutes, getRoute, intField, mutationRoute, searchParams } from './route.ts';
import {
  DeletedSchema,
  RECORD_ROUTE_ERRORS,
  requireOwnUser,
  USER_ROUTE_ERRORS,
  userIdParams,
  userRecordRoutes,
} from './user-data-route.ts';

// Export (spec §5, §7 "Export behaviour", §9): a signed-in user's download of a search's rows in
// csv, xlsx, json or xml, streamed as it is read; and their export view settings (spec §7 Users:
// export_view_settings). A guest gets 401; another user's {user_id} 403, another user's setting 404.

const TAGS = ['Export'];
const SECTION_IDS = SECTIONS.map((s) => s.id) as [string, ...string[]];

export const EXPORT_MEDIA_TYPES = [
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/json',
  'application/xml',
];

const exportQuery = z.strictObject({
  format: z.enum(EXPORT_FORMATS).optional().describe('csv (default), xlsx, json or xml; anything else is a 400.'),
  separator: z.enum(EXPORT_SEPARATORS).optional().describe('CSV separator: comma (default), semicolon or tab.'),
  scope: z
    .enum(EXPORT_SCOPES)
    .optional()
    .describe(
      `page: the page of results that page/after name; selected: the rows in ids; first: the first count rows; all (default): up to ${EXPORT_ROW_LIMIT.toLocaleString('en')} rows.`,
    ),
  count: z.string().optional().describe(`N of scope=first: 1 to ${EXPORT_ROW_LIMIT}.`),
  ids: z
    .string()
    .optional()
    .describe('scope=selected: company ids (record ids in a record section), joined by | or ,.'),
  sections: z
    .string()
    .optional()
    .describe(
      `Companies: the data sections, joined by | or , (${COMPANY_EXPORT_SECTIONS.join(', ')}); the default follows spec §3 "Export reading".`,
    ),
  lang: z.enum(['en', 'de', 'fr']).optional().describe('Language of headers and names (default en).'),
  list: z
    .string()
    .optional()
    .describe('Companies: the number of one of your company lists, exported instead of a search.'),
  q: z.string().optional().describe('Companies: the name search, as on the search page.'),
  sort: z.string().optional().describe('A sort key of the section (as on the search page).'),
  page: z.string().optional().describe('scope=page: the page number.'),
  after: z.string().optional().describe('scope=page: the cursor of the page (the search page’s `after`).'),
});

export type ExportCall = {
  db: Db;
  reference: Reference;
  auth: SessionAuth;
  section: string;
  params: URLSearchParams;
};

/** Checks an export call and reads its first rows: what the API and the export page share. */
export async function prepareExportCall(call: ExportCall) {
  const request = await exportRequestOf(call.db, call.reference, call.auth.user.id, call.section, call.params);
  return prepareExport(call.db, call.reference, request);
}

/**
 * An export spends credits: only a request of this site's own pages or of an API client (no
 * Sec-Fetch-Site), never one another site's page set off (docs/decisions/0019-billing.md).
 */
export function refuseCrossSite(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') {
    throw new AppError('forbidden', 'This request came from another site and was refused.', { reason: 'cross_site' });
  }
}

/** A refused spend (402) worded in the export's language, with its cost and the balance; other errors as they are. */
export function translatedPaymentRefusal(error: unknown, lang: string | null | undefined): unknown {
  if (!(error instanceof AppError && error.code === 'payment_required')) return error;
  const { t } = i18nFor(isLang(lang ?? undefined) ? (lang as Lang) : 'en');
  const { balance, credits } = error.details as { balance: number; credits: number };
  return new AppError(
    'payment_required',
    t('billing.cost.tooFew', {
      cost: t('billing.credits', { count: credits }),
      balance: t('billing.credits', { count: balance }),
    }),
    error.details,
  );
}

const ExportSettingSchema = z
  .object({
    id: z.number().int(),
    section: z.string().describe('The search section.'),
    format: z.enum(EXPORT_FORMATS),
    separator: z.enum(EXPORT_SEPARATORS),
    scope: z.enum(EXPORT_SCOPES),
    count: z.number().int().describe('N of scope=first.'),
    sections: z.array(z.enum(COMPANY_EXPORT_SECTIONS)).describe('Companies: the chosen data sections.'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ExportViewSetting' });

const settingFields = {
  format: z.enum(EXPORT_FORMATS).optional(),
  separator: z.enum(EXPORT_SEPARATORS).optional().describe('The CSV separator.'),
  scope: z.enum(EXPORT_SCOPES).optional(),
  count: z
    .number()
    .int()
    .min(1)
    .max(EXPORT_ROW_LIMIT)
    .optional()
    .describe(`N of scope=first: 1 to ${EXPORT_ROW_LIMIT}.`),
  sections: z
    .array(z.enum(COMPANY_EXPORT_SECTIONS))
    .max(COMPANY_EXPORT_SECTIONS.length * 2)
    .optional()
    .describe('Companies: the chosen data sections.'),
};

export function registerExportRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { db, reference } = services;

  // The download: its own handler (a stream with file headers), its declaration for the document.
  routes.push({
    url: '/export/:section',
    operationId: 'exportRecords',
    summary: 'Download a search’s rows as csv, xlsx, json or xml',
    description:
      'The same filters, `q` and `sort` as the section’s search. Streamed: rows are written as they are read; the ' +
      `\`${EXPORT_ROWS_HEADER}\` header says how many are expected. CSV has a byte-order mark, a header row and every value quoted; ` +
      'JSON and XML skip empty values and drop a leading #; XML has a `data` root with `legal_entities`/`legal_entity` ' +
      '(other sections alike); XLSX has typed cells and a frozen header row. A failure after the first bytes aborts the download. ' +
      'It costs 1 credit per 100 rows (at least 1; an export with no rows to write is free), spent before the first byte (the `Registra-Balance` header gives the balance after it): too few credits is a 402 naming the cost and the balance. A request set off by another site’s page (Sec-Fetch-Site cross-site or same-site) is a 403.',
    tags: TAGS,
    auth: true,
    params: z.strictObject({ section: z.enum(SECTION_IDS).describe('The search section.') }),
    query: exportQuery,
    response: z.string(),
    produces: EXPORT_MEDIA_TYPES,
    errors: [401, 402, 403, 404],
    // Reading data: a key with the read scope may export (ADR 0020).
    scope: 'read',
  });
  api.get('/export/:section', async (request, reply) => {
    const auth = await requireUser(request, 'read');
    refuseCrossSite(request);
    const { section } = request.params as { section: string };
    const prepared = await prepareExportCall({
      db,
      reference,
      auth,
      section,
      params: searchParams(request.url),
    });
    // 1 credit per 100 rows (at least 1), spent before the first byte (docs/decisions/0019-billing.md);
    // nothing for an export with no rows to write.
    const credits = exportCredits(prepared.expectedRows);
    const params = searchParams(request.url);
    try {
      if (credits > 0) {
        const balance = await chargeCredits(
          db,
          auth.user.id,
          credits,
          'export',
          `${section}: ${prepared.expectedRows} rows`,
        );
        // The pages' live balance updates from it (ADR 0030).
        tellBalance(reply, balance);
      }
    } catch (error) {
      throw translatedPaymentRefusal(error, params.get('lang'));
    }
    const body = new PassThrough();
    prepared.write(body).catch((error: unknown) => {
      // The download ends without its last chunk: the browser reports it failed, never a short file as complete.
      request.log.error({ err: error }, 'export failed');
      body.destroy(error instanceof Error ? error : new Error(String(error)));
    });
    return reply
      .header('content-type', prepared.contentType)
      .header('content-disposition', `attachment; filename="${prepared.fileName}"`)
      .header(EXPORT_ROWS_HEADER, String(prepared.expectedRows))
      .header('cache-control', 'private, no-store')
      .send(body);
  });

  // ---- export_view_settings ----

  getRoute(
    api,
    routes,
    {
      url: '/export_view_settings/users/:user_id',
      operationId: 'listExportViewSettings',
      summary: 'A user’s export view settings',
      description: 'At most one per search section; `section` keeps one.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      query: z.strictObject({ section: z.enum(SECTION_IDS).optional() }),
      response: z.object({ count: z.number().int(), data: z.array(ExportSettingSchema) }),
      errors: USER_ROUTE_ERRORS,
    },
    async (query, { request, path }) => {
      const auth = await requireOwnUser(request, path.user_id);
      const data = await listExportSettings(db, auth.user.id, query);
      return { count: data.length, data };
    },
  );

  // Saving and changing are those of every user record (server/api/user-data-route.ts); the list
  // (`{count, data}`, unpaged) and the deletion (at most 100 ids) keep their own documented shapes.
  const settings = userRecordRoutes(api, routes, { path: 'export_view_settings', tags: TAGS });
  settings.create(
    {
      operationId: 'saveExportViewSetting',
      summary: 'Save a section’s export view settings',
      description: 'Creates them, or changes the saved ones of that section; fields left out keep their value.',
      body: z.strictObject({ section: z.enum(SECTION_IDS), ...settingFields }),
      response: ExportSettingSchema,
      status: 201,
    },
    (userId, { section, ...input }) => saveExportSetting(db, userId, section, input),
  );
  settings.update(
    {
      operationId: 'updateExportViewSetting',
      summary: 'Change saved export view settings',
      body: z.strictObject(settingFields),
      response: ExportSettingSchema,
    },
    (userId, id, body) => updateExportSetting(db, userId, id, body),
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/export_view_settings',
      operationId: 'deleteExportViewSettings',
      summary: 'Delete saved export view settings',
      description: 'All of the ids or none: an id that is not yours is a 404.',
      tags: TAGS,
      auth: true,
      body: z.strictObject({
        export_view_setting_ids: z
          .array(intField('export_view_setting_ids'))
          .min(1, { error: 'export_view_setting_ids: give at least one id' })
          .max(100),
      }),
      response: DeletedSchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ body }, { request }) => {
      const auth = await requireUser(request);
      return { deleted: await deleteExportSettings(db, auth.user.id, body.export_view_setting_ids) };
    },
  );
}
