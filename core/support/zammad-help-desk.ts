import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { builtInHelpDesk, cleanTicketText, type HelpDeskDeps, notifySupportReply } from './built-in-help-desk.ts';
import type { HelpDesk, HelpDeskSettings, Requester, Ticket } from './help-desk.ts';

// Zammad as the help desk (ADR 0021): tickets are created, answered, closed and reopened through
// Zammad's REST API (https://docs.zammad.org/en/latest/api/ — tickets, ticket articles, users;
// `Authorization: Token token=…`). Our tables keep a copy — the ticket's Zammad id in
// `support_topics.external_id`, each message's article id in `support_messages.external_id` — so
// that a user's numbering, lists and the ownership checks of ADR 0007 stay ours. Reading a ticket
// reads Zammad's thread and state again: an agent's public answer written in Zammad becomes a
// support message (the requester is emailed, as with the built-in desk) and the ticket answered;
// a ticket closed in Zammad is closed here. A call that fails or takes longer than the timeout is
// a 503 ("unavailable") for the user — never a hang, and nothing is stored when Zammad did not
// take it.

type ZammadSettings = Extract<HelpDeskSettings, { kind: 'zammad' }>;

type ZammadUser = { id: number; email?: string };
type ZammadTicket = { id: number; state?: string; state_id?: number; article_ids?: number[] };
type ZammadArticle = {
  id: number;
  body: string;
  content_type?: string;
  internal?: boolean;
  sender?: string;
  sender_id?: number;
  created_at?: string;
};

/** Zammad's default ticket states that end a ticket (by name, and by id when not expanded). */
const CLOSED_STATES = new Set(['closed', 'merged', 'removed']);
const CLOSED_STATE_IDS = new Set([4, 5]);
/** Zammad's article senders: 1 Agent, 2 Customer, 3 System. */
const AGENT_SENDER_ID = 1;

/** An article's HTML body as the plain text our threads show (escaped when rendered). */
export function articleText(article: Pick<ZammadArticle, 'body' | 'content_type'>): string {
  if (article.content_type && !article.content_type.includes('html')) return article.body.trim();
  return article.body
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|blockquote|h\d)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Whether a webhook's body is Zammad's: its X-Hub-Signature header is `sha1=` and the hex
 * HMAC-SHA1 of the raw body under the webhook's token (Zammad's admin documentation, "Webhook").
 */
export function zammadSignatureValid(secret: string, body: string, header: string | undefined): boolean {
  if (!secret || !header?.startsWith('sha1=')) return false;
  const expected = Buffer.from(createHmac('sha1', secret).update(body).digest('hex'));
  const given = Buffer.from(header.slice('sha1='.length));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Our copy of the ticket Zammad knows by `zammadId` (its `external_id`), or null. */
export async function topicOfZammadTicket(db: Db, zammadId: number): Promise<number | null> {
  const row = await db.kysely
    .selectFrom('support_topics')
    .select('id')
    .where('external_id', '=', String(zammadId))
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** Calls Zammad's API: JSON in and out, the token, a timeout; any failure is AppError('unavailable'). */
export function zammadClient(settings: ZammadSettings, fetchImpl: typeof fetch = fetch) {
  const base = settings.url.replace(/\/+$/, '');
  return async function call<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, {
        method,
        headers: {
          authorization: `Token token=${settings.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new AppError(
        'unavailable',
        timedOut ? 'The help desk did not answer in time' : 'The help desk cannot be reached',
        { reason: 'help_desk', cause: (error as Error).message },
      );
    }
    if (!response.ok) {
      // The body may say why (a wrong token, a missing group): kept for the log, not shown.
      const text = await response.text().catch(() => '');
      throw new AppError('unavailable', `The help desk answered ${response.status}`, {
        reason: 'help_desk',
        status: response.status,
        body: text.slice(0, 300),
      });
    }
    try {
      return (await response.json()) as T;
    } catch {
      throw new AppError('unavailable', 'The help desk answered something that is not JSON', { reason: 'help_desk' });
    }
  };
}

export function zammadHelpDesk(
  deps: HelpDeskDeps,
  settings: ZammadSettings,
  fetchImpl: typeof fetch = fetch,
): HelpDesk {
  const { db } = deps;
  const local = builtInHelpDesk(deps);
  const zammad = zammadClient(settings, fetchImpl);

  /** The requester's Zammad user: found by email, else created as a customer. */
  async function customerOf(requester: Requester): Promise<number> {
    const email = requester.email.trim().toLowerCase();
    const found = await zammad<ZammadUser[]>(
      'GET',
      `/api/v1/users/search?query=${encodeURIComponent(`email:${email}`)}&limit=1`,
    );
    const same = found.find((u) => (u.email ?? '').toLowerCase() === email);
    if (same) return same.id;
    const [firstname, ...rest] = requester.name.trim().split(/\s+/);
    const created = await zammad<ZammadUser>('POST', '/api/v1/users', {
      firstname: firstname || email,
      lastname: rest.join(' '),
      email,
      roles: ['Customer'],
    });
    return created.id;
  }

  async function externalId(id: number): Promise<number | null> {
    const row = await db.kysely
      .selectFrom('support_topics')
      .select('external_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.external_id ? Number(row.external_id) : null;
  }

  /** Marks the newest message of an author on a ticket as the Zammad article it was sent as. */
  async function linkNewest(id: number, author: 'requester' | 'support', articleId: number): Promise<void> {
    await sql`update support_messages set external_id = ${String(articleId)}
      where id = (select max(id) from support_messages where topic_id = ${id} and author = ${author})`.execute(
      db.kysely,
    );
  }

  const newArticle = (ticketId: number, body: string, sender: 'Customer' | 'Agent') => ({
    ticket_id: ticketId,
    body,
    content_type: 'text/plain',
    type: 'note',
    internal: false,
    sender,
  });

  /**
   * Reads the ticket's thread and state from Zammad into our copy: public agent articles not yet
   * held become support messages (the requester is emailed for the newest), and the status
   * follows (closed in Zammad: closed; a new answer: answered).
   */
  async function refresh(ticket: Ticket | null): Promise<void> {
    if (!ticket) return;
    const ext = await externalId(ticket.id);
    if (ext === null) return;
    const [state, articles] = await Promise.all([
      zammad<ZammadTicket>('GET', `/api/v1/tickets/${ext}?expand=true`),
      zammad<ZammadArticle[]>('GET', `/api/v1/ticket_articles/by_ticket/${ext}?expand=true`),
    ]);
    const answers = articles.filter(
      (a) => !a.internal && (a.sender === 'Agent' || (a.sender === undefined && a.sender_id === AGENT_SENDER_ID)),
    );
    let newest: string | null = null;
    for (const article of answers) {
      const body = articleText(article);
      if (!body) continue;
      const inserted = await sql<{ id: number }>`
        insert into support_messages (topic_id, author, author_user_id, body, external_id)
        values (${ticket.id}, 'support', null, ${body}, ${String(article.id)})
        on conflict (topic_id, external_id) where external_id is not null do nothing
        returning id`.execute(db.kysely);
      if (inserted.rows.length > 0) newest = body;
    }
    const closed = state.state ? CLOSED_STATES.has(state.state) : CLOSED_STATE_IDS.has(state.state_id ?? 0);
    const status = closed ? 'closed' : newest !== null ? 'answered' : ticket.status === 'closed' ? 'open' : null;
    if (status !== null && status !== ticket.status) {
      await db.kysely
        .updateTable('support_topics')
        .set({ status, updated_at: sql`now()` })
        .where('id', '=', ticket.id)
        .execute();
    }
    if (newest !== null) {
      const updated = await local.get(ticket.id);
      if (updated) await notifySupportReply(deps, updated, newest);
    }
  }

  const required = (ticket: Ticket | null): Ticket => {
    if (!ticket) throw new AppError('not_found', 'support ticket not found');
    return ticket;
  };

  return {
    async open(input) {
      // Our own checks first: a bad subject is a 400 without a call to Zammad.
      const name = cleanTicketText('name', input.name);
      const message = cleanTicketText('message', input.message);
      const customer = await customerOf(input.requester);
      const created = await zammad<ZammadTicket>('POST', '/api/v1/tickets', {
        title: name,
        group: settings.group,
        customer_id: customer,
        article: {
          subject: name,
          body: message,
          content_type: 'text/plain',
          type: 'note',
          internal: false,
          sender: 'Customer',
          origin_by_id: customer,
        },
      });
      const ticket = await local.open(input);
      await db.kysely
        .updateTable('support_topics')
        .set({ external_id: String(created.id) })
        .where('id', '=', ticket.id)
        .execute();
      const first = created.article_ids?.[created.article_ids.length - 1];
      if (first !== undefined) await linkNewest(ticket.id, 'requester', first);
      return ticket;
    },

    listOfUser: (userId, page) => local.listOfUser(userId, page),

    async ofUser(userId, ref) {
      const ticket = await local.ofUser(userId, ref);
      if (!ticket) return null;
      await refresh(ticket);
      return local.ofUser(userId, { id: ticket.id });
    },

    async reply(userId, id, message) {
      const body = cleanTicketText('message', message);
      required(await local.ofUser(userId, { id }));
      const ext = await externalId(id);
      const article =
        ext === null
          ? null
          : await zammad<ZammadArticle>('POST', '/api/v1/ticket_articles', newArticle(ext, body, 'Customer'));
      const ticket = await local.reply(userId, id, body);
      if (article) await linkNewest(id, 'requester', article.id);
      if (ext !== null && ticket.status === 'open') {
        // A requester writing again reopens a ticket Zammad had closed.
        await zammad('PUT', `/api/v1/tickets/${ext}`, { state: 'open' });
      }
      return ticket;
    },

    async setStatus(userId, id, status) {
      required(await local.ofUser(userId, { id }));
      const ext = await externalId(id);
      if (ext !== null)
        await zammad('PUT', `/api/v1/tickets/${ext}`, { state: status === 'closed' ? 'closed' : 'open' });
      return local.setStatus(userId, id, status);
    },

    desk: (filter) => local.desk(filter),

    async get(id) {
      const ticket = await local.get(id);
      await refresh(ticket);
      return ticket ? local.get(id) : null;
    },

    async answer(id, staffUserId, message) {
      const body = cleanTicketText('message', message);
      required(await local.get(id));
      const ext = await externalId(id);
      const article =
        ext === null
          ? null
          : await zammad<ZammadArticle>('POST', '/api/v1/ticket_articles', newArticle(ext, body, 'Agent'));
      // Linked before the copy is read again, so the article is not copied a second time.
      const ticket = await local.answer(id, staffUserId, body);
      if (article) await linkNewest(id, 'support', article.id);
      return ticket;
    },

    async setDeskStatus(id, status) {
      required(await local.get(id));
      const ext = await externalId(id);
      if (ext !== null) {
        // Zammad has no "answered": an answered ticket waits for the customer, still open there.
        await zammad('PUT', `/api/v1/tickets/${ext}`, { state: status === 'closed' ? 'closed' : 'open' });
      }
      return local.setDeskStatus(id, status);
    },
  };
}
