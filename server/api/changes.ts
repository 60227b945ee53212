import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { listChanges } from '../../core/changes/change-feed.ts';
import { CHANGE_FIELD_NAMES } from '../../core/imports/fields.ts';
import {
  CHANGE_FEED_PAGE_DEFAULT,
  CHANGE_FEED_PAGE_MAX,
  MAX_WEBHOOKS_PER_USER,
  WEBHOOK_CHANGES_PER_DELIVERY,
  WEBHOOK_MAX_ATTEMPTS,
} from '../../core/limits.ts';
import { LANGS } from '../../core/reference/reference-data.ts';
import type { AppServices } from '../../core/services.ts';
import {
  DELIVERY_HEADER,
  listDeliveries,
  RETRY_DELAYS_SECONDS,
  replayDelivery,
  SEND_TIMEOUT_MS,
  SIGNATURE_HEADER,
  WEBHOOK_USER_AGENT,
} from '../../core/webhooks/deliveries.ts';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  requireWebhook,
  updateWebhook,
} from '../../core/webhooks/webhooks.ts';
import { requireUser } from './auth.ts';
import { type ApiRoutes, getRoute, intParam, mutationRoute, type OutgoingWebhookDecl } from './route.ts';
import { idParams, listQuery, RECORD_ROUTE_ERRORS, userRecordRoutes } from './user-data-route.ts';
import { preferredLang } from './users.ts';

// The change feed and webhooks (docs/decisions/0018-change-feed-and-webhooks.md): every change an
// import made, from any cursor, and a user's endpoints to which the changes of the companies they
// track are pushed, signed, retried and replayable.

const TAGS = ['Changes and webhooks'];

const field = z.enum(CHANGE_FIELD_NAMES as [string, ...string[]]);

export const ChangeSchema = z
  .object({
    id: z.number().int().describe('The change’s id: the cursor, increasing in the order changes were recorded.'),
    company: z
      .object({ id: z.number().int(), uri: z.string(), name: z.string() })
      .nullable()
      .describe('The company as it is now; null when it no longer exists.'),
    field: z
      .string()
      .describe(
        'What changed (one of the `field` values); `company`: the company appeared; `records.<table>`: one of its records (a trademark, a vessel, …).',
      ),
    old_value: z
      .unknown()
      .describe(
        'The value before; null when it was added. A record’s: its summary (id, identifying and status fields).',
      ),
    new_value: z.unknown().describe('The value after; null when it was removed.'),
    source: z.string().describe('The import source that recorded it, e.g. gleif-lei.'),
    source_date: z.string().nullable().describe('The source’s own date for the record, when it gives one.'),
    observed_at: z.string().describe('When Registra recorded it.'),
    display: z
      .object({
        field: z.string().describe('The field’s label.'),
        old: z.string().nullable().describe('The value before in words; null when there was none.'),
        new: z.string().nullable().describe('The value after in words; null when there is none.'),
      })
      .describe(
        'The change as the profile words it, in the language asked for: codes as names, dates as the language writes them, a list’s items joined by "; ". `old_value` and `new_value` stay raw.',
      ),
  })
  .meta({ id: 'Change' });

const WebhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    fields: z.array(z.string()).describe('Only changes of these fields are pushed; empty: every field.'),
    active: z.boolean(),
    last_change_id: z.number().int().describe('The change cursor pushed up to.'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Webhook' });

const DeliverySchema = z
  .object({
    id: z.number().int().describe(`Sent as the \`${DELIVERY_HEADER}\` header.`),
    webhook_id: z.number().int(),
    status: z.enum(['pending', 'delivered', 'failed']),
    changes: z.number().int(),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    response_status: z
      .number()
      .int()
      .nullable()
      .describe('The endpoint’s last HTTP status; null if it did not answer.'),
    last_error: z.string().nullable(),
    created_at: z.string(),
    delivered_at: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

/** A header's name as it is written in the docs: `registra-signature` → `Registra-Signature`. */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (letter) => letter.toUpperCase());

const duration = (seconds: number) => (seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`);

/** How a delivery is retried, as core/webhooks/deliveries.ts does it. */
const RETRIES_TEXT =
  `A delivery not answered with a 2xx within ${SEND_TIMEOUT_MS / 1000} s is retried after ` +
  `${RETRY_DELAYS_SECONDS.map(duration).join(', ')}, then marked failed (${WEBHOOK_MAX_ATTEMPTS} attempts); ` +
  'POST /api/webhook_deliveries/{id}/replay sends it again.';

const SIGNATURE_TEXT = `\`${headerName(SIGNATURE_HEADER)}: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the secret>\``;

const WebhookPayloadSchema = z
  .object({
    webhook_id: z.number().int().describe('The webhook (GET /api/webhooks/{id}).'),
    cursor: z
      .number()
      .int()
      .describe('The change-feed cursor this delivery reaches: GET /api/changes?since=<cursor> goes on from it.'),
    language: z
      .enum(LANGS)
      .describe(
        'What each change’s `display` is written in: the webhook owner’s language (en when theirs is none of these).',
      ),
    changes: z
      .array(ChangeSchema)
      .describe(`Oldest first, at most ${WEBHOOK_CHANGES_PER_DELIVERY}; the same items as the change feed’s.`),
  })
  .meta({ id: 'WebhookPayload' });

/** The changes webhook, as core/webhooks/deliveries.ts posts it (ADR 0018). */
export const CHANGES_WEBHOOK: OutgoingWebhookDecl = {
  name: 'changes',
  operationId: 'changesWebhook',
  summary: 'Changes of the companies you track, posted to your webhook’s URL',
  description:
    `Posted as JSON to the \`url\` of each active webhook (POST /api/webhooks/users/{user_id}) with the changes recorded to a company you track (an active existing_objects_tracking), only those of its \`fields\` when it has some. ` +
    `Verify it before reading it: the ${SIGNATURE_TEXT} header; recompute the HMAC over the raw body as received, compare in constant time, and refuse an old \`t\` (a replayed request). ` +
    `${RETRIES_TEXT} A retry or replay carries the same \`${headerName(DELIVERY_HEADER)}\` (deduplicate on it) and a fresh signature; it leaves out what was taken down since. ` +
    'Only public hosts are posted to: the host is resolved and checked at every delivery.',
  tags: TAGS,
  body: WebhookPayloadSchema,
  headers: {
    [headerName(SIGNATURE_HEADER)]: {
      description:
        '`t=<unix seconds>,v1=<hex>`: v1 is the HMAC-SHA256, keyed with the webhook’s secret (the `secret` of its creation), of `<t>.<raw body>`.',
      example: 't=1764786000,v1=5d41402abc4b2a76b9719d911017c592…',
    },
    [headerName(DELIVERY_HEADER)]: {
      description: 'The delivery’s id (GET /api/webhook_deliveries/users/{user_id}): the same on each retry.',
      example: '42',
    },
    'User-Agent': { description: 'Who posts it.', example: WEBHOOK_USER_AGENT },
  },
  responses: {
    '2XX': 'Received: the delivery is done.',
    default: `Anything else, or no answer within ${SEND_TIMEOUT_MS / 1000} s, is retried (${RETRY_DELAYS_SECONDS.map(duration).join(', ')}).`,
  },
};

const webhookUrlField = z.string().max(10_000).describe('Where changes are posted: an http(s) URL on a public host.');
const fields = z
  .array(field)
  .max(CHANGE_FIELD_NAMES.length)
  .describe('Only changes of these fields; empty or absent: every field.');

export function registerChangeRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { db } = services;
  const webhookHosts = { allowPrivateHosts: services.allowPrivateWebhookHosts };

  getRoute(
    api,
    routes,
    {
      url: '/changes',
      operationId: 'listChanges',
      summary: 'The change feed: every change imports made, oldest first, from a cursor',
      description:
        'Keep the `next` of the last page and ask again with `since=<next>`: nothing is missed and nothing comes twice; `since=0` replays everything. An empty page keeps `next` at `since`.',
      tags: TAGS,
      auth: true,
      query: z.strictObject({
        since: intParam('since', 0).prefault(0).describe('The cursor: changes after this id (0 = from the first).'),
        count: intParam('count', 1, CHANGE_FEED_PAGE_MAX)
          .optional()
          .describe(`Changes per page: ${CHANGE_FEED_PAGE_DEFAULT} unless asked (at most ${CHANGE_FEED_PAGE_MAX}).`),
        company: intParam('company').optional().describe('Only the changes of this company (its id).'),
        tracking: intParam('tracking')
          .optional()
          .describe('Only the changes of the company one of your trackings (existing_objects_tracking) follows.'),
        field: field.optional().describe('Only changes of this field.'),
        lang: z
          .enum(LANGS)
          .optional()
          .describe('Language of each change’s `display`: en, de or fr; else the Accept-Language header’s, else en.'),
      }),
      response: z.object({
        count: z.number().int(),
        next: z.number().int().describe('Pass as `since` for the changes after these.'),
        data: z.array(ChangeSchema),
      }),
      errors: [401, 404],
    },
    async (q, { request }) => {
      const auth = await requireUser(request);
      const page = await listChanges(
        db,
        auth.user.id,
        {
          since: q.since,
          count: q.count,
          companyId: q.company,
          trackingId: q.tracking,
          fields: q.field ? [q.field] : undefined,
        },
        { reference: services.reference, lang: q.lang ?? preferredLang(request.headers['accept-language']) },
      );
      return { count: page.data.length, next: page.next, data: page.data };
    },
  );

  const webhooks = userRecordRoutes(api, routes, { path: 'webhooks', tags: TAGS });
  webhooks.list(
    {
      operationId: 'listWebhooks',
      summary: 'A user’s webhooks',
      description: 'Newest first; `q` looks in the URLs.',
      item: WebhookSchema,
    },
    (userId, q) => listWebhooks(db, userId, q),
  );
  webhooks.create(
    {
      operationId: 'createWebhook',
      summary: 'Push the changes of the companies you track to a URL',
      description: `Every change recorded from now on to a company you track (an active existing_objects_tracking) is posted to \`url\` as JSON \`{ webhook_id, cursor, language, changes: [Change] }\` (each change’s \`display\` in your account’s language, \`language\`), at most ${WEBHOOK_CHANGES_PER_DELIVERY} a delivery, with the header ${SIGNATURE_TEXT} (the \`changes\` webhook of this document). ${RETRIES_TEXT} The secret is in this answer only. At most ${MAX_WEBHOOKS_PER_USER} webhooks. A \`url\` whose host is or resolves to an address that is not public (loopback, private, link-local, multicast, reserved, or an IPv6 form of one) is a 400 naming \`url\` and why; every delivery checks the host again and connects to the address it checked.`,
      body: z.strictObject({ url: webhookUrlField, fields: fields.optional() }),
      response: z.object({
        webhook: WebhookSchema,
        secret: z.string().describe('The signing key: keep it, it is not shown again.'),
      }),
      status: 201,
    },
    (userId, body) => createWebhook(db, userId, body, webhookHosts),
  );
  getRoute(
    api,
    routes,
    {
      url: '/webhooks/:id',
      operationId: 'getWebhook',
      summary: 'One webhook',
      tags: TAGS,
      auth: true,
      params: idParams,
      query: z.strictObject({}),
      response: z.object({ webhook: WebhookSchema }),
      errors: RECORD_ROUTE_ERRORS,
    },
    async (_q, { request, path }) => {
      const auth = await requireUser(request);
      return { webhook: await requireWebhook(db, auth.user.id, path.id) };
    },
  );
  webhooks.update(
    {
      operationId: 'updateWebhook',
      summary: 'Change a webhook’s URL or fields, or pause it (active: false)',
      body: z.strictObject({
        url: webhookUrlField.optional(),
        fields: fields.optional(),
        active: z.boolean().optional(),
      }),
      response: z.object({ webhook: WebhookSchema }),
    },
    async (userId, id, body) => ({ webhook: await updateWebhook(db, userId, id, body, webhookHosts) }),
  );
  webhooks.remove({ operationId: 'deleteWebhook', summary: 'Delete a webhook (its deliveries go too)' }, (userId, id) =>
    deleteWebhook(db, userId, id),
  );

  userRecordRoutes(api, routes, { path: 'webhook_deliveries', tags: TAGS }).list(
    {
      operationId: 'listWebhookDeliveries',
      summary: 'The delivery log of a user’s webhooks',
      description: 'Newest first, with each delivery’s attempts, last answer and error.',
      query: listQuery.extend({
        webhook_id: intParam('webhook_id').optional().describe('Only the deliveries of this webhook.'),
        status: z.enum(['pending', 'delivered', 'failed']).optional(),
      }),
      item: DeliverySchema,
    },
    (userId, q) => listDeliveries(db, userId, q),
  );
  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/webhook_deliveries/:id/replay',
      operationId: 'replayWebhookDelivery',
      summary: 'Send a delivery again',
      description: 'The delivery is due at once, with its attempts counted afresh; it carries the same changes.',
      tags: TAGS,
      auth: true,
      params: idParams,
      response: z.object({ delivery: DeliverySchema }),
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ params }, { request }) => {
      const auth = await requireUser(request);
      return { delivery: await replayDelivery(db, auth.user.id, params.id) };
    },
  );
}
