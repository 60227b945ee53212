import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { enforceRateLimits } from '../../core/accounts/rate-limits.ts';
import type { AppServices } from '../../core/services.ts';
import {
  checkVisitor,
  newVisitorId,
  recordVisitor,
  SITE_ID_MAX_LENGTH,
  siteIdOf,
  TOOL_TYPE_MAX_LENGTH,
  USER_AGENT_MAX_LENGTH,
  UTM_MAX_LENGTH,
  VISITOR_RATE_LIMIT,
  visitorCookie,
  visitorIdOf,
} from '../../core/visitors/visitors.ts';
import { clientRequest } from '../plugins/session.ts';
import { type ApiRoutes, intField, mutationRoute } from './route.ts';

// Partner stats (spec §7): POST a visitor record. The pages record new visitors themselves
// (server/plugins/visitors.ts); this call is for clients that are not served our pages. One
// record per uid: posting the same uid again changes nothing.

const utm = (name: string) =>
  z
    .string()
    .max(2000)
    .nullable()
    .optional()
    .describe(`The ${name} parameter of the landing URL, at most ${UTM_MAX_LENGTH} characters.`);

export function registerPartnerStatsRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/visitors',
      operationId: 'recordVisitor',
      summary: 'Record a visitor (partner stats)',
      description: `Once per visitor: a second post of the same uid records nothing (recorded false). Without uid, the visitor's \`uid\` cookie is used, or a new id is made and set as that cookie (one year). user_id is the partner who sent the visitor (1000 when none). No sign-in needed; at most ${VISITOR_RATE_LIMIT.limit} posts an hour from one address (429).`,
      tags: ['Partner stats'],
      body: z.strictObject({
        uid: z.string().max(200).optional().describe('The visitor id: 8 to 64 letters, digits, - or _.'),
        user_agent: z
          .string()
          .max(4000)
          .optional()
          .describe(`At most ${USER_AGENT_MAX_LENGTH} characters; default: this request’s User-Agent.`),
        site_id: z
          .string()
          .max(1000)
          .optional()
          .describe(`The site’s host name, at most ${SITE_ID_MAX_LENGTH} characters; default: this request’s host.`),
        user_id: intField('user_id', 1, 2_147_483_647)
          .nullable()
          .optional()
          .describe('The partner’s id (default 1000).'),
        utm_term: utm('utm_term'),
        utm_source: utm('utm_source'),
        utm_medium: utm('utm_medium'),
        utm_content: utm('utm_content'),
        utm_campaign: utm('utm_campaign'),
        product_id: intField('product_id', 1, 2_147_483_647).nullable().optional(),
        tool_id: intField('tool_id', 1, 2_147_483_647).nullable().optional(),
        tool_type: z
          .string()
          .max(1000)
          .nullable()
          .optional()
          .describe(`Lower-case letters, digits, - or _; at most ${TOOL_TYPE_MAX_LENGTH} characters.`),
      }),
      response: z.object({
        uid: z.string(),
        recorded: z.boolean().describe('false: this visitor was already recorded.'),
      }),
      errors: [429],
    },
    async ({ body }, { request, reply }) => {
      const client = clientRequest(request, services.siteUrl);
      await enforceRateLimits(services.db, [[VISITOR_RATE_LIMIT, client.ip]]);
      const fromCookie = visitorIdOf(request.headers.cookie);
      const uid = body.uid ?? fromCookie ?? newVisitorId();
      const visitor = checkVisitor({
        ...body,
        uid,
        user_agent: body.user_agent ?? client.userAgent.slice(0, USER_AGENT_MAX_LENGTH),
        site_id: body.site_id ?? siteIdOf(request.host),
      });
      if (!body.uid && !fromCookie) reply.header('set-cookie', visitorCookie(uid, client.secure));
      return { uid, recorded: await recordVisitor(services.db, visitor) };
    },
  );
}
