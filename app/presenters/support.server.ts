import { data } from 'react-router';
import type { SessionAuth } from '../../core/accounts/sessions.ts';
import { hasRole } from '../../core/accounts/user-roles.ts';
import { AppError } from '../../core/errors/app-error.ts';
import type { HelpDesk, Ticket } from '../../core/support/help-desk.ts';
import { helpDeskOf } from '../../core/support/help-desk-of.ts';
import type { ThreadMessage } from '../components/support.tsx';
import { requireUser } from '../require-user.server.ts';
import { type ContextReader, servicesContext } from '../services.ts';
import type { Presenter } from './present.server.ts';

// What the support pages show of a ticket (app/routes/support, app/routes/info/contact-us.tsx).

/** What a page throws when the help desk does not answer; the error boundary says so (app/root.tsx). */
export const HELP_DESK_UNAVAILABLE = 'help_desk_unavailable';

/**
 * The help desk for pages (ADR 0021): the app's (helpDeskOf), where a help desk that fails or
 * times out (AppError 'unavailable') becomes a 503 page saying support is briefly unavailable and
 * nothing was sent, never a hang nor a generic error.
 */
export function pageHelpDesk(services: Parameters<typeof helpDeskOf>[0]): HelpDesk {
  const desk = helpDeskOf(services);
  const wrapped: Record<string, unknown> = {};
  for (const [key, method] of Object.entries(desk) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    wrapped[key] = (...args: unknown[]) =>
      method(...args).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'unavailable') {
          console.warn(`help desk unavailable: ${error.message}`);
          throw data({ message: HELP_DESK_UNAVAILABLE }, { status: 503 });
        }
        throw error;
      });
  }
  return wrapped as HelpDesk;
}

/** A day and a time in UTC, as the other dashboard pages write them. */
export function when(p: Presenter, at: Date): string {
  return p.dateTime(at);
}

export function threadOf(p: Presenter, ticket: Ticket): ThreadMessage[] {
  return ticket.messages.map((m) => ({
    id: m.id,
    author: m.author,
    body: m.body,
    at: m.created_at.toISOString(),
    on: when(p, m.created_at),
  }));
}

/** The support desk is for accounts with the `support` role: a guest gets 401, anyone else 403. */
export async function requireSupportStaff(context: ContextReader): Promise<SessionAuth> {
  const auth = requireUser(context);
  if (!(await hasRole(context.get(servicesContext).db, auth.user.id, 'support'))) {
    throw data({ message: 'forbidden' }, { status: 403 });
  }
  return auth;
}
