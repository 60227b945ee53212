import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SessionAuth } from '../../core/accounts/sessions.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../core/user-data/list-query.ts';
import { requireOwner, requireUser } from './auth.ts';
import { tellBalance } from './balance-header.ts';
import { type ApiRoutes, getRoute, intField, intParam, mutationRoute } from './route.ts';

// What the routes of a user's data share (spec §7: `/{resource}/users/{user_id}` and
// `/{resource}/{id}`): the path parameters, the list filters and page shape, and the guards.

export const userIdParams = z.strictObject({
  user_id: intParam('user_id').describe('The signed-in user’s id: any other is a 403.'),
});

export const idParams = z.strictObject({
  id: intParam('id').describe('The record’s id: one of another user is not found (404).'),
});

const day = z
  .string()
  .max(10)
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a day like 2026-01-31' });

/** The list filters (spec §7 "filters for browsing history, search history, tracking and watchlists"). */
export const listQuery = z.strictObject({
  q: z.string().max(200).optional().describe('Text to look for (case-insensitive).'),
  from: day.optional().describe('First day, yyyy-MM-dd (UTC), inclusive.'),
  to: day.optional().describe('Last day, yyyy-MM-dd (UTC), inclusive.'),
  count: intParam('count', 1, MAX_PAGE_SIZE)
    .optional()
    .describe(`Items per page: ${DEFAULT_PAGE_SIZE} unless asked (at most ${MAX_PAGE_SIZE}).`),
  after: intParam('after').optional().describe('The `next` of the previous page: the page after it.'),
});

/** A page of items, newest first. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int().describe('Items in `data`.'),
    next: z.number().int().nullable().describe('Pass as `after` for the next page; null on the last page.'),
    data: z.array(item),
  });
}

export function pageOut<T>(page: { data: T[]; next: number | null }) {
  return { count: page.data.length, next: page.next, data: page.data };
}

/** The signed-in caller, when {user_id} is theirs: else 401 (guest) or 403 (another user's id). */
export async function requireOwnUser(request: FastifyRequest, userId: number): Promise<SessionAuth> {
  const auth = await requireUser(request);
  requireOwner(auth, userId);
  return auth;
}

export const DeletedSchema = z.object({ deleted: z.number().int().describe('How many records were deleted.') });

/** Errors of a route that takes a {user_id}: 401 guest, 403 another user's id or a bad CSRF token. */
export const USER_ROUTE_ERRORS = [401, 403];
/** Errors of a route that takes a record {id}: also 404 for an id that is not the caller's. */
export const RECORD_ROUTE_ERRORS = [401, 403, 404];

/** A list of record ids in a DELETE body, named after the resource (`contact_ids`, …). */
export function idList(name: string, what: string) {
  return z
    .array(intField(name))
    .min(1, { error: `${name}: give at least one id` })
    .max(MAX_PAGE_SIZE, { error: `${name}: at most ${MAX_PAGE_SIZE} ids at once` })
    .describe(`The ids of ${what}: all of them must be yours, or nothing is deleted (404).`);
}

const clearBody = z.strictObject({
  from: z.string().max(10).optional().describe('First day to clear, yyyy-MM-dd (default: the first).'),
  to: z.string().max(10).optional().describe('Last day to clear, yyyy-MM-dd (default: today).'),
});

/** What each route of a user's record says of itself in the OpenAPI document. */
type RouteText = { operationId: string; summary: string; description?: string; errors?: number[] };

/**
 * The routes of one kind of user record (spec §7 "Users"), declared like core's resources
 * (core/user-data/owned-records.ts): `GET`, `POST` and `DELETE` (clear) on
 * `/{resource}/users/{user_id}`, `PATCH` and `DELETE` on `/{resource}/{id}`, `DELETE /{resource}`
 * with ids. Each is given its texts, schemas and the core call with the caller's id; the guards
 * are the same for all: a guest 401, another user's {user_id} 403, another user's record 404.
 */
export function userRecordRoutes(api: FastifyInstance, routes: ApiRoutes, resource: { path: string; tags: string[] }) {
  const own = `/${resource.path}/users/:user_id`;
  const base = { tags: resource.tags, auth: true };
  return {
    list<Q extends z.ZodObject, R extends z.ZodType>(
      decl: RouteText & { query?: Q; item: R },
      run: (userId: number, query: z.output<Q>) => Promise<{ data: z.input<R>[]; next: number | null }>,
    ) {
      const { item, query, ...text } = decl;
      getRoute(
        api,
        routes,
        {
          url: own,
          ...text,
          ...base,
          params: userIdParams,
          query: (query ?? listQuery) as Q,
          response: pageSchema(item),
          errors: text.errors ?? USER_ROUTE_ERRORS,
        },
        async (q, { request, path }) => {
          const auth = await requireOwnUser(request, path.user_id);
          return pageOut(await run(auth.user.id, q));
        },
      );
    },
    create<B extends z.ZodType, R extends z.ZodType>(
      decl: RouteText & { body: B; response: R; status?: number },
      run: (userId: number, body: z.output<B>) => Promise<z.input<R>>,
    ) {
      mutationRoute(
        api,
        routes,
        { method: 'post', url: own, ...decl, ...base, params: userIdParams, errors: decl.errors ?? USER_ROUTE_ERRORS },
        async ({ params, body }, { request, reply }) => {
          const auth = await requireOwnUser(request, params.user_id);
          const result = await run(auth.user.id, body);
          // A creation that spends (a profile purchase) says the balance after it (ADR 0030).
          const balance = (result as { balance?: unknown } | null)?.balance;
          if (typeof balance === 'number') tellBalance(reply, balance);
          return result;
        },
      );
    },
    clear(decl: RouteText, run: (userId: number, range: z.output<typeof clearBody>) => Promise<number>) {
      mutationRoute(
        api,
        routes,
        {
          method: 'delete',
          url: own,
          ...decl,
          ...base,
          params: userIdParams,
          body: clearBody,
          response: DeletedSchema,
          errors: decl.errors ?? USER_ROUTE_ERRORS,
        },
        async ({ params, body }, { request }) => {
          const auth = await requireOwnUser(request, params.user_id);
          return { deleted: await run(auth.user.id, body) };
        },
      );
    },
    /** `PATCH /{resource}/{id}`, or `/{resource}/{id}/{path}` (a tracking's status). */
    update<B extends z.ZodType, R extends z.ZodType>(
      decl: RouteText & { body: B; response: R; path?: string },
      run: (userId: number, id: number, body: z.output<B>) => Promise<z.input<R>>,
    ) {
      const { path, ...rest } = decl;
      mutationRoute(
        api,
        routes,
        {
          method: 'patch',
          url: `/${resource.path}/:id${path ? `/${path}` : ''}`,
          ...rest,
          ...base,
          params: idParams,
          errors: rest.errors ?? RECORD_ROUTE_ERRORS,
        },
        async ({ params, body }, { request }) => {
          const auth = await requireUser(request);
          return run(auth.user.id, params.id, body);
        },
      );
    },
    remove(decl: RouteText, run: (userId: number, id: number) => Promise<void>) {
      mutationRoute(
        api,
        routes,
        {
          method: 'delete',
          url: `/${resource.path}/:id`,
          ...decl,
          ...base,
          params: idParams,
          response: DeletedSchema,
          errors: decl.errors ?? RECORD_ROUTE_ERRORS,
        },
        async ({ params }, { request }) => {
          const auth = await requireUser(request);
          await run(auth.user.id, params.id);
          return { deleted: 1 };
        },
      );
    },
    /** `DELETE /{resource}` with a list of ids named `ids` (all the caller's, or nothing is deleted). */
    removeMany(
      decl: RouteText & { ids: string; what: string },
      run: (userId: number, ids: number[]) => Promise<number>,
    ) {
      const { ids, what, ...text } = decl;
      mutationRoute(
        api,
        routes,
        {
          method: 'delete',
          url: `/${resource.path}`,
          ...text,
          ...base,
          body: z.strictObject({ [ids]: idList(ids, what) }),
          response: DeletedSchema,
          errors: text.errors ?? RECORD_ROUTE_ERRORS,
        },
        async ({ body }, { request }) => {
          const auth = await requireUser(request);
          return { deleted: await run(auth.user.id, (body as Record<string, number[]>)[ids]) };
        },
      );
    },
  };
}
