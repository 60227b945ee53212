import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../core/errors/app-error.ts';
import { SUPPORT_MESSAGE_MAX, SUPPORT_SUBJECT_MAX } from '../../core/limits.ts';
import type { AppServices } from '../../core/services.ts';
import type { Ticket, TicketSummary } from '../../core/support/help-desk.ts';
import { helpDeskOf } from '../../core/support/help-desk-of.ts';
import { createSupportToken } from '../../core/support/support-token.ts';
import { topicOfZammadTicket, zammadSignatureValid } from '../../core/support/zammad-help-desk.ts';
import { notFound } from '../../core/user-data/user-data-errors.ts';
import { requireOwner, requireUser } from './auth.ts';
import { type ApiRoutes, getRoute, intParam, mutationRoute } from './route.ts';
import { RECORD_ROUTE_ERRORS, userIdParams } from './user-data-route.ts';

// Support tickets (spec §7 "Support and knowledge base"): GET and POST /public/support_topics, GET
// one, POST /public/support_topics/{id}/support_messages, and the users API's support token. Every
// call goes through the help desk adapter (core/support, ADR 0021); a ticket is its requester's
// alone: another user's id is not found (404).

const TAGS = ['Help and support'];

const SupportTopicSchema = z
  .object({
    id: z.number().int(),
    number: z.number().int().nullable().describe('Per user, from 1: the page /dashboard/support/topics/{number}/.'),
    name: z.string(),
    status: z.enum(['open', 'answered', 'closed']),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'SupportTopic' });

const SupportMessageSchema = z
  .object({
    id: z.number().int(),
    author: z.enum(['requester', 'support']),
    body: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'SupportMessage' });

const SupportTopicWithMessagesSchema = SupportTopicSchema.extend({
  support_messages: z.array(SupportMessageSchema),
}).meta({ id: 'SupportTopicWithMessages' });

const name = z.string().max(100_000).describe(`The subject (1 to ${SUPPORT_SUBJECT_MAX} characters).`);
const body = z.string().max(100_000).describe(`The message (1 to ${SUPPORT_MESSAGE_MAX} characters).`);

function topicOut(t: TicketSummary) {
  return {
    id: t.id,
    number: t.number,
    name: t.name,
    status: t.status,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  };
}

function withMessages(t: Ticket) {
  return {
    ...topicOut(t),
    support_messages: t.messages.map((m) => ({
      id: m.id,
      author: m.author,
      body: m.body,
      created_at: m.created_at.toISOString(),
    })),
  };
}

export function registerSupportRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const desk = () => helpDeskOf(services);
  const idParams = z.strictObject({
    id: intParam('id').describe('The ticket’s id: another user’s is not found (404).'),
  });

  getRoute(
    api,
    routes,
    {
      url: '/public/support_topics',
      operationId: 'listSupportTopics',
      summary: 'The signed-in user’s support tickets',
      description: 'Most recently updated first, 50 a page; pass `next` as `after` for the next page.',
      tags: TAGS,
      auth: true,
      query: z.strictObject({
        after: intParam('after').optional(),
        count: intParam('count', 1, 500).optional(),
      }),
      response: z.object({ data: z.array(SupportTopicSchema), next: z.number().int().nullable() }),
      errors: [401],
    },
    async ({ after, count }, { request }) => {
      const auth = await requireUser(request);
      const page = await desk().listOfUser(auth.user.id, { after, count });
      return { data: page.data.map(topicOut), next: page.next };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/public/support_topics',
      operationId: 'createSupportTopic',
      summary: 'Open a support ticket',
      description: 'With its first message; support answers in the ticket and by email.',
      tags: TAGS,
      auth: true,
      body: z.strictObject({ name, message: body }),
      response: z.object({ support_topic: SupportTopicWithMessagesSchema }),
      status: 201,
      errors: [401],
    },
    async ({ body: input }, { request }) => {
      const auth = await requireUser(request);
      const ticket = await desk().open({
        requester: {
          kind: 'user',
          userId: auth.user.id,
          email: auth.user.email,
          name: auth.user.name,
          lang: auth.user.language,
        },
        name: input.name,
        message: input.message,
        source: 'api',
      });
      return { support_topic: withMessages(ticket) };
    },
  );

  getRoute(
    api,
    routes,
    {
      url: '/public/support_topics/:id',
      operationId: 'getSupportTopic',
      summary: 'One support ticket, with its messages',
      tags: TAGS,
      auth: true,
      params: idParams,
      query: z.strictObject({}),
      response: z.object({ support_topic: SupportTopicWithMessagesSchema }),
      errors: [401, 404],
    },
    async (_query, { request, path }) => {
      const auth = await requireUser(request);
      const ticket = await desk().ofUser(auth.user.id, { id: path.id });
      if (!ticket) throw notFound('support ticket');
      return { support_topic: withMessages(ticket) };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/public/support_topics/:id/support_messages',
      operationId: 'createSupportMessage',
      summary: 'Write in a support ticket',
      description: 'The ticket is open (again) until support answers.',
      tags: TAGS,
      auth: true,
      params: idParams,
      body: z.strictObject({ body }),
      response: z.object({ support_topic: SupportTopicWithMessagesSchema }),
      status: 201,
      errors: [401, 404],
    },
    async ({ params, body: input }, { request }) => {
      const auth = await requireUser(request);
      const ticket = await desk().reply(auth.user.id, params.id, input.body);
      return { support_topic: withMessages(ticket) };
    },
  );

  getRoute(
    api,
    routes,
    {
      url: '/users/:user_id/support_token',
      operationId: 'getSupportToken',
      summary: 'A support token for the help desk',
      description:
        'Names the signed-in user to a help-desk widget or an external help desk without the session cookie; valid for an hour while this session lasts.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      query: z.strictObject({}),
      response: z.object({ token: z.string(), expires_at: z.string() }),
      errors: RECORD_ROUTE_ERRORS.filter((s) => s !== 404),
    },
    async (_query, { request, path }) => {
      const auth = await requireUser(request);
      requireOwner(auth, path.user_id);
      return createSupportToken(auth.user.id, auth.sessionId);
    },
  );

  // Zammad's webhook (ADR 0021): a trigger on "ticket updated" posts the ticket; we read it again
  // (its articles and state), so an agent's answer reaches the user's page and inbox at once. The
  // signature covers the raw body, so this scope reads JSON as text.
  routes.push({
    url: '/support/webhooks/zammad',
    method: 'post',
    operationId: 'receiveZammadWebhook',
    summary: 'Zammad’s webhook: a ticket changed',
    description:
      'Only when the help desk is Zammad with ZAMMAD_WEBHOOK_SECRET set (else 404). Verified before anything in it is read: X-Hub-Signature is `sha1=` and the HMAC-SHA1 of the raw body (else 401). Reads the ticket named by `ticket.id` from Zammad into our copy: new public agent articles become answers (the requester is emailed), the state follows. A ticket we do not hold answers `known: false`. Authenticated by its signature, it counts against a per-address limit of its own, not the anonymous plan’s; one not verified counts against the anonymous limit (429 past it).',
    tags: TAGS,
    query: z.strictObject({}),
    body: z.object({ ticket: z.object({ id: z.number().int() }).loose() }).loose(),
    response: z.object({ received: z.boolean(), known: z.boolean() }),
    signed: true,
    errors: [400, 401, 404],
  });
  api.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post('/support/webhooks/zammad', async (request, reply) => {
      const settings = services.helpDesk;
      if (settings?.kind !== 'zammad' || !settings.webhookSecret) {
        // Its sender is not verified: it counts as anonymous (server/plugins/api-limits.ts).
        await request.refuseUnverifiedWebhook?.(reply);
        throw new AppError('not_found', 'No Zammad webhook is configured here.');
      }
      const body = typeof request.body === 'string' ? request.body : '';
      const signature = request.headers['x-hub-signature'];
      if (!zammadSignatureValid(settings.webhookSecret, body, typeof signature === 'string' ? signature : undefined)) {
        await request.refuseUnverifiedWebhook?.(reply);
        throw new AppError('unauthorized', 'The X-Hub-Signature header does not match the body.');
      }
      let id: unknown;
      try {
        id = (JSON.parse(body) as { ticket?: { id?: unknown } }).ticket?.id;
      } catch {
        throw new AppError('bad_request', 'The body is not JSON.');
      }
      if (typeof id !== 'number' || !Number.isInteger(id)) {
        throw new AppError('bad_request', 'ticket.id must be a whole number', { parameter: 'ticket.id' });
      }
      const topic = await topicOfZammadTicket(services.db, id);
      if (topic !== null) await desk().get(topic);
      return { received: true, known: topic !== null };
    });
  });
}
