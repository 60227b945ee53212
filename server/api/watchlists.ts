import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../core/services.ts';
import { MAX_REFS, resolveCompanyRefs } from '../../core/watchlists/company-refs.ts';
import {
  addWatchlistObjects,
  listWatchlistObjects,
  MAX_TAGS_PER_OBJECT,
  removeWatchlistObjects,
  removeWatchlistTag,
  TAG_MAX,
  type WatchlistObject,
} from '../../core/watchlists/watchlist-objects.ts';
import {
  createWatchlist,
  deleteWatchlist,
  LIST_DESCRIPTION_MAX,
  LIST_NAME_MAX,
  listWatchlists,
  requireWatchlist,
  updateWatchlist,
} from '../../core/watchlists/watchlists.ts';
import { requireUser } from './auth.ts';
import { type ApiRoutes, getRoute, intField, mutationRoute } from './route.ts';
import {
  DeletedSchema,
  idParams,
  listQuery,
  pageOut,
  pageSchema,
  RECORD_ROUTE_ERRORS,
  userRecordRoutes,
} from './user-data-route.ts';

// Company lists (spec §7 "Watchlists"): GET and POST on a user, GET, PATCH and DELETE by id, the
// objects of a list and their tags. Only the owner reaches a list: another user's {user_id} is a
// 403, another user's list id a 404; a guest gets 401.

const TAGS = ['Watchlists'];

export const WatchlistSchema = z
  .object({
    id: z.number().int(),
    number: z.number().int().describe('Per user, from 1: the page /companies/lists/{number}/.'),
    name: z.string(),
    description: z.string(),
    total_objects: z.number().int().describe('Companies in the list.'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Watchlist' });

const WatchlistObjectSchema = z
  .object({
    id: z.number().int().describe('The entry’s id (the `after` cursor of the next page).'),
    object_id: z.number().int().describe('The company’s id.'),
    added_at: z.string(),
    tags: z.array(z.string()),
    company: z.object({
      id: z.number().int(),
      uri: z.string(),
      name: z.string(),
      company_number: z.string().nullable(),
      status_id: z.number().int().nullable(),
      jurisdiction_id: z.number().int(),
      registered_on: z.string().nullable().describe('yyyy-MM-dd'),
      primary_industry_id: z.number().int().nullable(),
      size_id: z.number().int().nullable(),
      employees_id: z.number().int().nullable(),
    }),
  })
  .meta({ id: 'WatchlistObject' });

const name = z.string().max(1000).describe(`The list's name (1 to ${LIST_NAME_MAX} characters).`);
const description = z.string().max(10_000).describe(`At most ${LIST_DESCRIPTION_MAX} characters.`);
const tag = z.string().max(1000).describe(`At most ${TAG_MAX} characters.`);
const objectIds = z.array(intField('object_ids')).max(MAX_REFS);

function objectOut(o: WatchlistObject) {
  return {
    id: o.object_row_id,
    object_id: o.id,
    added_at: o.added_at,
    tags: o.tags,
    company: {
      id: o.id,
      uri: o.uri,
      name: o.name,
      company_number: o.company_number,
      status_id: o.status_id,
      jurisdiction_id: o.jurisdiction_id,
      registered_on: o.registered_on,
      primary_industry_id: o.primary_industry_id,
      size_id: o.size_id,
      employees_id: o.employees_id,
    },
  };
}

export function registerWatchlistRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { db } = services;

  const lists = userRecordRoutes(api, routes, { path: 'watchlists', tags: TAGS });
  lists.list(
    {
      operationId: 'listWatchlists',
      summary: 'A user’s company lists',
      description: 'Newest first, 50 a page; `q` looks in names and descriptions, `from`/`to` at the creation day.',
      item: WatchlistSchema,
    },
    (userId, query) => listWatchlists(db, userId, query),
  );
  lists.create(
    {
      operationId: 'createWatchlist',
      summary: 'Create a company list',
      body: z.strictObject({ name, description: description.optional() }),
      response: z.object({ watchlist: WatchlistSchema }),
      status: 201,
    },
    async (userId, body) => ({ watchlist: await createWatchlist(db, userId, body) }),
  );

  getRoute(
    api,
    routes,
    {
      url: '/watchlists/:id',
      operationId: 'getWatchlist',
      summary: 'A company list and its companies',
      description:
        'The list, every tag used in it, and its companies newest first (50 a page): `q` looks in legal names, `tag` keeps the companies with that tag.',
      tags: TAGS,
      auth: true,
      params: idParams,
      query: listQuery.pick({ q: true, count: true, after: true }).extend({
        tag: tag.optional().describe('Only companies with this tag.'),
      }),
      response: z.object({
        watchlist: WatchlistSchema,
        tags: z.array(z.string()).describe('Every tag used in the list, sorted.'),
        objects: pageSchema(WatchlistObjectSchema),
      }),
      errors: RECORD_ROUTE_ERRORS,
    },
    async (query, { request, path }) => {
      const auth = await requireUser(request);
      const watchlist = await requireWatchlist(db, auth.user.id, path.id);
      const page = await listWatchlistObjects(db, auth.user.id, watchlist.id, query);
      return { watchlist, tags: page.tags, objects: pageOut({ data: page.data.map(objectOut), next: page.next }) };
    },
  );

  lists.update(
    {
      operationId: 'updateWatchlist',
      summary: 'Rename a company list or change its description',
      body: z.strictObject({ name: name.optional(), description: description.optional() }),
      response: z.object({ watchlist: WatchlistSchema }),
    },
    async (userId, id, body) => ({ watchlist: await updateWatchlist(db, userId, id, body) }),
  );
  lists.remove(
    {
      operationId: 'deleteWatchlist',
      summary: 'Delete a company list',
      description: 'The list and its companies (the companies themselves stay, of course).',
    },
    (userId, id) => deleteWatchlist(db, userId, id),
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/watchlists/:id/objects',
      operationId: 'addWatchlistObjects',
      summary: 'Add companies to a list (and tag them)',
      description:
        'Companies by id (`object_ids`) and/or by what people paste (`company_refs`: company numbers or other identifiers, profile addresses, uris or ids), ' +
        `at most ${MAX_REFS} at once. With \`tags\` (at most ${MAX_TAGS_PER_OBJECT} per company), each of them gets the tags, ` +
        'whether new in the list or already there. References that name no company are listed in `not_found`.',
      tags: TAGS,
      auth: true,
      params: idParams,
      body: z
        .strictObject({
          object_ids: objectIds.optional().describe('Company ids.'),
          company_refs: z
            .array(z.string().max(300))
            .max(MAX_REFS)
            .optional()
            .describe('Company numbers, addresses, ids.'),
          tags: z.array(tag).max(MAX_TAGS_PER_OBJECT).optional(),
        })
        .refine((b) => (b.object_ids?.length ?? 0) + (b.company_refs?.length ?? 0) > 0, {
          error: 'give object_ids or company_refs',
          path: ['object_ids'],
        }),
      response: z.object({
        watchlist: WatchlistSchema,
        added: z.number().int().describe('Companies new in the list.'),
        already: z.number().int().describe('Companies that were in it already.'),
        tagged: z.number().int().describe('Companies already in it that got a new tag.'),
        not_found: z
          .array(z.union([z.number().int(), z.string()]))
          .describe('Ids and references that name no company.'),
      }),
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ params, body }, { request }) => {
      const auth = await requireUser(request);
      await requireWatchlist(db, auth.user.id, params.id);
      const refs = body.company_refs?.length
        ? await resolveCompanyRefs(db, body.company_refs)
        : { ids: [], notFound: [] as string[] };
      const ids = [...(body.object_ids ?? []), ...refs.ids];
      const result =
        ids.length > 0
          ? await addWatchlistObjects(db, auth.user.id, params.id, ids, body.tags ?? [])
          : { added: 0, already: 0, tagged: 0, notFound: [] as number[] };
      return {
        watchlist: await requireWatchlist(db, auth.user.id, params.id),
        added: result.added,
        already: result.already,
        tagged: result.tagged,
        not_found: [...result.notFound, ...refs.notFound],
      };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/watchlist_objects',
      operationId: 'deleteWatchlistObjects',
      summary: 'Remove companies from a list',
      tags: TAGS,
      auth: true,
      body: z.strictObject({
        watchlist_id: intField('watchlist_id').describe('One of your lists.'),
        object_ids: objectIds.min(1, { error: 'object_ids: give at least one company id' }).describe('Company ids.'),
      }),
      response: DeletedSchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ body }, { request }) => {
      const auth = await requireUser(request);
      return { deleted: await removeWatchlistObjects(db, auth.user.id, body.watchlist_id, body.object_ids) };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/watchlist_tags',
      operationId: 'deleteWatchlistTag',
      summary: 'Remove a tag from companies of a list',
      description: 'From the companies given, or from every company of the list when `object_ids` is absent.',
      tags: TAGS,
      auth: true,
      body: z.strictObject({
        watchlist_id: intField('watchlist_id').describe('One of your lists.'),
        tag,
        object_ids: objectIds.optional().describe('Company ids (default: all of the list).'),
      }),
      response: z.object({ updated: z.number().int().describe('Companies that lost the tag.') }),
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ body }, { request }) => {
      const auth = await requireUser(request);
      return { updated: await removeWatchlistTag(db, auth.user.id, body.watchlist_id, body.tag, body.object_ids) };
    },
  );
}
