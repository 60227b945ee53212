import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requestPasswordRecovery } from '../../core/accounts/password-recovery.ts';
import { clearedSessionCookie, sessionCookie } from '../../core/accounts/session-cookie.ts';
import { revokeSession } from '../../core/accounts/sessions.ts';
import { signIn } from '../../core/accounts/sign-in.ts';
import { signUp } from '../../core/accounts/sign-up.ts';
import { updateProfile } from '../../core/accounts/update-profile.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import { LANGS, type Lang } from '../../core/reference/reference-data.ts';
import type { AppServices } from '../../core/services.ts';
import { clientRequest } from '../plugins/session.ts';
import { requireOwner, requireUser } from './auth.ts';
import { type ApiRoutes, getRoute, intParam, mutationRoute } from './route.ts';

// The users API (spec §7 "Users"): sign-up, sign-in (the token cookie), the signed-in user's
// profile, profile changes and password recovery. Every route that takes a {user_id} serves only
// its owner; a guest gets 401. Unsafe calls signed in by the cookie need the x-csrf-token header.

const TAGS = ['Users'];

export const ProfileSchema = z
  .object({
    id: z.number().int(),
    email: z.string(),
    name: z.string(),
    language: z.enum(LANGS).describe('Language of emails and pages: en, de or fr.'),
    activated_at: z.string().nullable().describe('When the account was activated (ISO 8601).'),
    created_at: z.string(),
  })
  .meta({ id: 'Profile' });

const SignedInSchema = z.object({
  user: ProfileSchema,
  csrf_token: z.string().describe('Send it as the x-csrf-token header of every POST, PATCH and DELETE.'),
});

const MessageSchema = z.object({ message: z.string() });

const email = z.string().max(1000).describe('Compared case-insensitively.');
const password = z.string().max(1000);

/** The language a JSON client asked for (Accept-Language), for messages people read (the 429). */
export function preferredLang(acceptLanguage: string | undefined): Lang {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().slice(0, 2).toLowerCase();
  return first === 'de' || first === 'fr' ? first : 'en';
}

/** A rate-limit refusal, translated for the client, with Retry-After. */
async function limited<T>(request: FastifyRequest, reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.code === 'rate_limited') {
      const details = error.details as { retry_after_seconds: number; minutes: number };
      reply.header('retry-after', String(details.retry_after_seconds));
      const { t } = i18nFor(preferredLang(request.headers['accept-language']));
      throw new AppError('rate_limited', t('account.errors.rateLimited', { count: details.minutes }), details);
    }
    throw error;
  }
}

export function registerUserRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/users',
      operationId: 'createUser',
      summary: 'Sign up',
      description:
        'Creates an account and emails its activation link (valid 24 hours, once); the account can sign in once activated. ' +
        'The answer is the same when the email already has an account (its owner is told by email). Password: at least 10 characters, not a common one.',
      tags: TAGS,
      body: z.strictObject({
        email,
        password,
        name: z.string().max(1000),
        language: z.enum(LANGS).optional().describe('Language of the emails (default en).'),
      }),
      response: MessageSchema,
      status: 202,
      errors: [429],
    },
    async ({ body }, { request, reply }) => {
      await limited(request, reply, () => signUp(services, body, clientRequest(request, services.siteUrl)));
      return { message: 'Check your email: we have sent a link to activate your account.' };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/authentication',
      operationId: 'signIn',
      summary: 'Sign in',
      description:
        'Checks email and password of an activated account and sets the `token` session cookie (HttpOnly, SameSite=Lax, 30 days). ' +
        'Wrong email and wrong password answer alike (401); an account not activated yet gets 403 and a new activation email.',
      tags: TAGS,
      body: z.strictObject({ email, password }),
      response: SignedInSchema,
      errors: [401, 403, 429],
    },
    async ({ body }, { request, reply }) => {
      const client = clientRequest(request, services.siteUrl);
      const { token, auth } = await limited(request, reply, () => signIn(services, body, client));
      reply.header('set-cookie', sessionCookie(token, client.secure));
      return { user: auth.user, csrf_token: auth.csrfToken };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/authentication',
      operationId: 'signOut',
      summary: 'Sign out',
      description: 'Ends the session of the `token` cookie and clears the cookie.',
      tags: TAGS,
      auth: true,
      response: MessageSchema,
      errors: [401, 403],
    },
    async (_input, { request, reply }) => {
      const auth = await requireUser(request);
      await revokeSession(services.db, auth.sessionId);
      reply.header('set-cookie', clearedSessionCookie(clientRequest(request, services.siteUrl).secure));
      return { message: 'Signed out.' };
    },
  );

  getRoute(
    api,
    routes,
    {
      url: '/profiles',
      operationId: 'getProfile',
      summary: 'The signed-in user',
      description: 'The profile of the signed-in user, and the CSRF token of the session.',
      tags: TAGS,
      auth: true,
      query: z.strictObject({}),
      response: SignedInSchema,
      errors: [401],
    },
    async (_query, { request }) => {
      const auth = await requireUser(request);
      return { user: auth.user, csrf_token: auth.csrfToken };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'patch',
      url: '/users/:user_id',
      operationId: 'updateUser',
      summary: 'Change name or language',
      description: 'Only the signed-in user’s own id: any other is a 403.',
      tags: TAGS,
      auth: true,
      params: z.strictObject({ user_id: intParam('user_id').describe('The signed-in user’s id.') }),
      body: z.strictObject({
        name: z.string().max(1000).optional(),
        language: z.enum(LANGS).optional(),
      }),
      response: z.object({ user: ProfileSchema }),
      errors: [401, 403],
    },
    async ({ params, body }, { request }) => {
      const auth = await requireUser(request);
      requireOwner(auth, params.user_id);
      return { user: await updateProfile(services.db, auth.user.id, body) };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/password_recovery/recovery',
      operationId: 'requestPasswordRecovery',
      summary: 'Ask for a password-recovery email',
      description:
        'Emails a link to choose a new password (valid 1 hour, once) when the address has an account. ' +
        'The answer is the same whether or not it has one.',
      tags: TAGS,
      body: z.strictObject({ email }),
      response: MessageSchema,
      status: 202,
      errors: [429],
    },
    async ({ body }, { request, reply }) => {
      await limited(request, reply, () =>
        requestPasswordRecovery(services, body, clientRequest(request, services.siteUrl)),
      );
      return { message: 'If an account uses this email, we have sent it a link to choose a new password.' };
    },
  );
}
