import type { Db } from '../../db/client.ts';
import { isEmail, normaliseEmail } from '../accounts/email-address.ts';
import { enforceRateLimits, RATE_LIMITS } from '../accounts/rate-limits.ts';
import { NAME_MAX_LENGTH } from '../limits.ts';
import type { Lang } from '../reference/reference-data.ts';
import { fieldProblem } from '../user-data/user-data-errors.ts';
import type { HelpDesk, Ticket } from './help-desk.ts';

// /info/contact-us/ (ADR 0021): anyone may write; the message becomes a ticket of the help desk.
// A signed-in user's is their own ticket (followed in the dashboard); a guest's is answered by
// email. Bots are kept out by a honeypot field (filled in: accepted in appearance, dropped) and a
// rate limit per address and per sender.

export type ContactInput = {
  name: string;
  email: string;
  subject: string;
  message: string;
  /** The field people never see; a bot fills it in. */
  honeypot: string;
  lang: Lang;
  ip: string;
  user: { id: number; email: string; name: string } | null;
};

/** The ticket opened, or null when the honeypot caught a bot (the page answers the same). */
export async function submitContactForm(db: Db, desk: HelpDesk, input: ContactInput): Promise<Ticket | null> {
  if (input.honeypot.trim() !== '') return null;
  const user = input.user;
  const name = user ? user.name : input.name.trim();
  const email = user ? user.email : normaliseEmail(input.email);
  if (!user) {
    if (!name) throw fieldProblem('requester', 'required', 'Enter your name.');
    if (name.length > NAME_MAX_LENGTH) {
      throw fieldProblem('requester', 'tooLong', `Use at most ${NAME_MAX_LENGTH} characters for your name.`);
    }
    if (!email) throw fieldProblem('email', 'required', 'Enter your email address.');
    if (!isEmail(email)) throw fieldProblem('email', 'invalid', 'Enter a valid email address, like name@example.com.');
  }
  await enforceRateLimits(db, [
    [RATE_LIMITS.contactIp, input.ip],
    [RATE_LIMITS.contactSender, email],
  ]);
  return desk.open({
    requester: user
      ? { kind: 'user', userId: user.id, email, name, lang: input.lang }
      : { kind: 'guest', email, name, lang: input.lang },
    name: input.subject,
    message: input.message,
    source: 'contact_form',
  });
}
