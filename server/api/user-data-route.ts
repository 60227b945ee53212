import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SessionAuth } from '../../core/accounts/sessions.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../core/user-data/list-query.ts';
import { requireOwner, requireUser } from './auth.ts';
import { intParam } from './route.ts';

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
