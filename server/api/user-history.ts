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
import { type ApiRoutes, intField } from './route.ts';
import { listQuery, USER_ROUTE_ERRORS, userRecordRoutes } from './user-data-route.ts';

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

export function registerUserHistoryRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { db } = services;

  const views = userRecordRoutes(api, routes, { path: 'browsing_history', tags: TAGS });
  views.list(
    {
      operationId: 'listBrowsingHistory',
      summary: 'Company profiles a user opened',
      description: 'Newest first, 50 a page; `q` looks in company names, `from`/`to` at the day.',
      item: BrowsingEntrySchema,
    },
    (userId, query) => listCompanyViews(db, userId, query),
  );
  views.create(
    {
      operationId: 'addBrowsingHistory',
      summary: 'Record that a user opened a company profile',
      description: 'The profile pages record this themselves for signed-in users.',
      body: z.strictObject({ object_id: intField('object_id').describe('The company’s id.') }),
      response: BrowsingEntrySchema,
      status: 201,
      errors: [...USER_ROUTE_ERRORS, 404],
    },
    (userId, body) => addCompanyView(db, userId, body.object_id),
  );
  views.clear(
    {
      operationId: 'clearBrowsingHistory',
      summary: 'Clear a user’s browsing history',
      description: 'All of it, or the days from `from` to `to`.',
    },
    (userId, range) => clearCompanyViews(db, userId, range),
  );
  views.update(
    {
      operationId: 'updateBrowsingHistory',
      summary: 'Change when a profile was opened',
      description: 'Without `created_at`, the entry moves to now (opened again).',
      body: z.strictObject({
        created_at: z.iso.datetime({ offset: true }).optional().describe('ISO 8601, not in the future.'),
      }),
      response: BrowsingEntrySchema,
    },
    (userId, id, body) => updateCompanyView(db, userId, id, body),
  );
  views.remove({ operationId: 'deleteBrowsingHistory', summary: 'Delete one browsing-history entry' }, (userId, id) =>
    deleteCompanyView(db, userId, id),
  );

  const searches = userRecordRoutes(api, routes, { path: 'search_history', tags: TAGS });
  searches.list(
    {
      operationId: 'listSearchHistory',
      summary: 'Searches a user made',
      description:
        'Newest first, 50 a page; `q` looks in the query and its summary, `section` keeps one section, `from`/`to` at the day.',
      query: listQuery.extend({ section: section.optional() }),
      item: SearchEntrySchema,
    },
    (userId, query) => listSearches(db, userId, query),
  );
  searches.create(
    {
      operationId: 'addSearchHistory',
      summary: 'Record a search',
      description:
        'The search pages record this themselves for signed-in users. The same search again within 10 minutes updates the last entry.',
      body: z.strictObject({
        section,
        query: searchPath,
        results: z.number().int().min(0).describe('How many results it found.'),
        results_is_estimate: estimateFlag.optional().describe('`results` is an estimate (default false).'),
        summary: z.string().max(10_000).optional().describe(`Readable, at most ${SUMMARY_MAX} characters are kept.`),
      }),
      response: SearchEntrySchema,
      status: 201,
    },
    (userId, body) => recordSearch(db, userId, body),
  );
  searches.clear(
    {
      operationId: 'clearSearchHistory',
      summary: 'Clear a user’s search history',
      description: 'All of it, or the days from `from` to `to`.',
    },
    (userId, range) => clearSearches(db, userId, range),
  );
  searches.update(
    {
      operationId: 'updateSearchHistory',
      summary: 'Correct a search’s result count or summary',
      body: z.strictObject({
        results: z.number().int().min(0).optional(),
        results_is_estimate: estimateFlag
          .optional()
          .describe('`results` is an estimate (default false when `results` is given).'),
        summary: z.string().max(10_000).optional(),
      }),
      response: SearchEntrySchema,
    },
    (userId, id, body) => updateSearch(db, userId, id, body),
  );
  searches.remove({ operationId: 'deleteSearchHistory', summary: 'Delete one search-history entry' }, (userId, id) =>
    deleteSearch(db, userId, id),
  );

  const saved = userRecordRoutes(api, routes, { path: 'saved_searches', tags: TAGS });
  saved.list(
    {
      operationId: 'listSavedSearches',
      summary: 'A user’s saved searches',
      description: 'Newest first, 50 a page; `q` looks in names and queries, `section` keeps one section.',
      query: listQuery.extend({ section: section.optional() }),
      item: SavedSearchSchema,
    },
    (userId, query) => listSavedSearches(db, userId, query),
  );
  saved.create(
    {
      operationId: 'saveSearch',
      summary: 'Save a search under a name',
      body: z.strictObject({
        name: z.string().max(1000).describe(`1 to ${SAVED_NAME_MAX} characters.`),
        section,
        query: searchPath,
      }),
      response: SavedSearchSchema,
      status: 201,
    },
    (userId, body) => saveSearch(db, userId, body),
  );
  saved.update(
    {
      operationId: 'updateSavedSearch',
      summary: 'Rename a saved search or change its query',
      body: z.strictObject({
        name: z.string().max(1000).optional(),
        section: section.optional().describe('With a new section, give its query too.'),
        query: searchPath.optional(),
      }),
      response: SavedSearchSchema,
    },
    (userId, id, body) => updateSavedSearch(db, userId, id, body),
  );
  saved.remove({ operationId: 'deleteSavedSearch', summary: 'Delete a saved search' }, (userId, id) =>
    deleteSavedSearch(db, userId, id),
  );
}
