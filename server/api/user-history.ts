import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  addCompanyView,
  clearCompanyViews,
  deleteCompanyView,
  listCompanyViews,
  updateCompanyView,
} from '../../core/history/browsing-history.ts';
import {
  clearSearches,
  deleteSearch,
  listSearches,
  recordSearch,
  SUMMARY_MAX,
  updateSearch,
} from '../../core/history/search-history.ts';
import {
  deleteSavedSearch,
  listSavedSearches,
  SAVED_NAME_MAX,
  saveSearch,
  updateSavedSearch,
} from '../../core/saved-searches/saved-searches.ts';
import { SECTIONS } from '../../core/sections/sections.ts';
import type { AppServices } from '../../core/services.ts';
import { SEARCH_PATH_MAX_LENGTH } from '../../core/user-data/search-path.ts';
import { requireUser } from './auth.ts';
import { type ApiRoutes, getRoute, intParam, mutationRoute } from './route.ts';
import {
  DeletedSchema,
  idParams,
  listQuery,
  pageOut,
  pageSchema,
  RECORD_ROUTE_ERRORS,
  requireOwnUser,
  USER_ROUTE_ERRORS,
  userIdParams,
} from './user-data-route.ts';

// A user's histories and saved searches (spec §7 "Users": browsing_history, search_history,
// saved_searches — GET and POST on users/{user_id}, PATCH and DELETE by id, with the list filters).
// Another user's {user_id} is a 403, another user's record a 404; a guest gets 401.

const TAGS = ['History and saved searches'];

const BrowsingEntrySchema = z
  .object({
    id: z.number().int(),
    object_id: z.number().int().describe('The company’s id.'),
    created_at: z.string().describe('When the profile was opened (ISO 8601).'),
    company: z
      .object({ id: z.number().int(), uri: z.string(), name: z.string(), jurisdiction_id: z.number().int() })
      .nullable()
      .describe('The company as it is now; null when it no longer exists.'),
  })
  .meta({ id: 'BrowsingHistoryEntry' });

const SECTION_IDS = SECTIONS.map((s) => s.id) as [string, ...string[]];
const section = z.enum(SECTION_IDS).describe('The search section.');
const searchPath = z
  .string()
  .max(SEARCH_PATH_MAX_LENGTH)
  .describe('The search page’s path without language prefix, e.g. /companies/search/?q=acme or /vessels/search/f/…/.');

const estimateFlag = z
  .boolean()
  .describe('`results` was estimated (a search past the exact count, as `total_is_estimate`): pages show “About …”.');

const SearchEntrySchema = z
  .object({
    id: z.number().int(),
    section: z.string(),
    query: z.string().describe('The search page’s path without language prefix.'),
    summary: z.string().describe('What was searched, readable.'),
    results: z.number().int(),
    results_is_estimate: estimateFlag,
    created_at: z.string(),
  })
  .meta({ id: 'SearchHistoryEntry' });

const SavedSearchSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    section: z.string(),
    query: z.string().describe('The search page’s path without language prefix: open it to run the search.'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'SavedSearch' });

const clearBody = z.strictObject({
  from: z.string().max(10).optional().describe('First day to clear, yyyy-MM-dd (default: the first).'),
  to: z.string().max(10).optional().describe('Last day to clear, yyyy-MM-dd (default: today).'),
});

export function registerUserHistoryRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { db } = services;

  // ---- browsing_history ----

  getRoute(
    api,
    routes,
    {
      url: '/browsing_history/users/:user_id',
      operationId: 'listBrowsingHistory',
      summary: 'Company profiles a user opened',
      description: 'Newest first, 50 a page; `q` looks in company names, `from`/`to` at the day.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      query: listQuery,
      response: pageSchema(BrowsingEntrySchema),
      errors: USER_ROUTE_ERRORS,
    },
    async (query, { request, path }) => {
      const auth = await requireOwnUser(request, path.user_id);
      return pageOut(await listCompanyViews(db, auth.user.id, query));
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/browsing_history/users/:user_id',
      operationId: 'addBrowsingHistory',
      summary: 'Record that a user opened a company profile',
      description: 'The profile pages record this themselves for signed-in users.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      body: z.strictObject({ object_id: intParam('object_id').describe('The company’s id.') }),
      response: BrowsingEntrySchema,
      status: 201,
      errors: [...USER_ROUTE_ERRORS, 404],
    },
    async ({ params, body }, { request }) => {
      const auth = await requireOwnUser(request, params.user_id);
      return addCompanyView(db, auth.user.id, body.object_id);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/browsing_history/users/:user_id',
      operationId: 'clearBrowsingHistory',
      summary: 'Clear a user’s browsing history',
      description: 'All of it, or the days from `from` to `to`.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      body: clearBody,
      response: DeletedSchema,
      errors: USER_ROUTE_ERRORS,
    },
    async ({ params, body }, { request }) => {
      const auth = await requireOwnUser(request, params.user_id);
      return { deleted: await clearCompanyViews(db, auth.user.id, body) };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'patch',
      url: '/browsing_history/:id',
      operationId: 'updateBrowsingHistory',
      summary: 'Change when a profile was opened',
      description: 'Without `created_at`, the entry moves to now (opened again).',
      tags: TAGS,
      auth: true,
      params: idParams,
      body: z.strictObject({
        created_at: z.iso.datetime({ offset: true }).optional().describe('ISO 8601, not in the future.'),
      }),
      response: BrowsingEntrySchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ params, body }, { request }) => {
      const auth = await requireUser(request);
      return updateCompanyView(db, auth.user.id, params.id, body);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/browsing_history/:id',
      operationId: 'deleteBrowsingHistory',
      summary: 'Delete one browsing-history entry',
      tags: TAGS,
      auth: true,
      params: idParams,
      response: DeletedSchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ params }, { request }) => {
      const auth = await requireUser(request);
      await deleteCompanyView(db, auth.user.id, params.id);
      return { deleted: 1 };
    },
  );

  // ---- search_history ----

  getRoute(
    api,
    routes,
    {
      url: '/search_history/users/:user_id',
      operationId: 'listSearchHistory',
      summary: 'Searches a user made',
      description:
        'Newest first, 50 a page; `q` looks in the query and its summary, `section` keeps one section, `from`/`to` at the day.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      query: listQuery.extend({ section: section.optional() }),
      response: pageSchema(SearchEntrySchema),
      errors: USER_ROUTE_ERRORS,
    },
    async (query, { request, path }) => {
      const auth = await requireOwnUser(request, path.user_id);
      return pageOut(await listSearches(db, auth.user.id, query));
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/search_history/users/:user_id',
      operationId: 'addSearchHistory',
      summary: 'Record a search',
      description:
        'The search pages record this themselves for signed-in users. The same search again within 10 minutes updates the last entry.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      body: z.strictObject({
        section,
        query: searchPath,
        results: z.number().int().min(0).describe('How many results it found.'),
        results_is_estimate: estimateFlag.optional().describe('`results` is an estimate (default false).'),
        summary: z.string().max(10_000).optional().describe(`Readable, at most ${SUMMARY_MAX} characters are kept.`),
      }),
      response: SearchEntrySchema,
      status: 201,
      errors: USER_ROUTE_ERRORS,
    },
    async ({ params, body }, { request }) => {
      const auth = await requireOwnUser(request, params.user_id);
      return recordSearch(db, auth.user.id, body);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/search_history/users/:user_id',
      operationId: 'clearSearchHistory',
      summary: 'Clear a user’s search history',
      description: 'All of it, or the days from `from` to `to`.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      body: clearBody,
      response: DeletedSchema,
      errors: USER_ROUTE_ERRORS,
    },
    async ({ params, body }, { request }) => {
      const auth = await requireOwnUser(request, params.user_id);
      return { deleted: await clearSearches(db, auth.user.id, body) };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'patch',
      url: '/search_history/:id',
      operationId: 'updateSearchHistory',
      summary: 'Correct a search’s result count or summary',
      tags: TAGS,
      auth: true,
      params: idParams,
      body: z.strictObject({
        results: z.number().int().min(0).optional(),
        results_is_estimate: estimateFlag
          .optional()
          .describe('`results` is an estimate (default false when `results` is given).'),
        summary: z.string().max(10_000).optional(),
      }),
      response: SearchEntrySchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ params, body }, { request }) => {
      const auth = await requireUser(request);
      return updateSearch(db, auth.user.id, params.id, body);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/search_history/:id',
      operationId: 'deleteSearchHistory',
      summary: 'Delete one search-history entry',
      tags: TAGS,
      auth: true,
      params: idParams,
      response: DeletedSchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ params }, { request }) => {
      const auth = await requireUser(request);
      await deleteSearch(db, auth.user.id, params.id);
      return { deleted: 1 };
    },
  );

  // ---- saved_searches ----

  getRoute(
    api,
    routes,
    {
      url: '/saved_searches/users/:user_id',
      operationId: 'listSavedSearches',
      summary: 'A user’s saved searches',
      description: 'Newest first, 50 a page; `q` looks in names and queries, `section` keeps one section.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      query: listQuery.extend({ section: section.optional() }),
      response: pageSchema(SavedSearchSchema),
      errors: USER_ROUTE_ERRORS,
    },
    async (query, { request, path }) => {
      const auth = await requireOwnUser(request, path.user_id);
      return pageOut(await listSavedSearches(db, auth.user.id, query));
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/saved_searches/users/:user_id',
      operationId: 'saveSearch',
      summary: 'Save a search under a name',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      body: z.strictObject({
        name: z.string().max(1000).describe(`1 to ${SAVED_NAME_MAX} characters.`),
        section,
        query: searchPath,
      }),
      response: SavedSearchSchema,
      status: 201,
      errors: USER_ROUTE_ERRORS,
    },
    async ({ params, body }, { request }) => {
      const auth = await requireOwnUser(request, params.user_id);
      return saveSearch(db, auth.user.id, body);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'patch',
      url: '/saved_searches/:id',
      operationId: 'updateSavedSearch',
      summary: 'Rename a saved search or change its query',
      tags: TAGS,
      auth: true,
      params: idParams,
      body: z.strictObject({
        name: z.string().max(1000).optional(),
        section: section.optional().describe('With a new section, give its query too.'),
        query: searchPath.optional(),
      }),
      response: SavedSearchSchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ params, body }, { request }) => {
      const auth = await requireUser(request);
      return updateSavedSearch(db, auth.user.id, params.id, body);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/saved_searches/:id',
      operationId: 'deleteSavedSearch',
      summary: 'Delete a saved search',
      tags: TAGS,
      auth: true,
      params: idParams,
      response: DeletedSchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ params }, { request }) => {
      const auth = await requireUser(request);
      await deleteSavedSearch(db, auth.user.id, params.id);
      return { deleted: 1 };
    },
  );
}
