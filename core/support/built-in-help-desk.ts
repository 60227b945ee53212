import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { wantsEmail } from '../accounts/account-settings.ts';
import type { ComposedEmail, Translate } from '../email/account-emails.ts';
import type { Mailer } from '../email/mailer.ts';
import { escapeHtml } from '../html/escape-html.ts';
import { localePath } from '../i18n/i18n.ts';
import { SUPPORT_MESSAGE_MAX, SUPPORT_SUBJECT_MAX } from '../limits.ts';
import type { Lang } from '../reference/reference-data.ts';
import { insertNumbered } from '../user-data/owned-records.ts';
import { fieldProblem, notFound } from '../user-data/user-data-errors.ts';
import type { HelpDesk, NewTicket, Ticket, TicketPage, TicketStatus, TicketSummary } from './help-desk.ts';

// The built-in help desk (ADR 0021): tickets and messages in support_topics and support_messages
// (migration 0023). A user reaches only their own tickets (another's is "not found", ADR 0007);
// staff (role `support`) reach all of them through /support-desk/.

const PAGE = 50;

export type HelpDeskDeps = {
  db: Db;
  mailer: Mailer;
  siteUrl: string;
  translate: (lang: Lang) => Translate;
};

/** A subject and a message, trimmed, within their limits; a 400 names the field otherwise. */
export function cleanTicketText(field: 'name' | 'message', raw: string): string {
  const text = raw.trim();
  const max = field === 'name' ? SUPPORT_SUBJECT_MAX : SUPPORT_MESSAGE_MAX;
  if (!text) {
    throw fieldProblem(field, 'required', field === 'name' ? 'Enter a subject.' : 'Enter a message.');
  }
  if (text.length > max)
    throw fieldProblem(
      field,
      'tooLong',
      `Use at most ${max} characters for the ${field === 'name' ? 'subject' : 'message'}.`,
    );
  return text;
}

/** The email that tells a requester support answered, in their language, with the answer. */
export function composeSupportReplyEmail(
  t: Translate,
  values: { name: string; subject: string; answer: string; link: string | null; lang: Lang },
): ComposedEmail {
  const subject = t('support.email.subject', { subject: values.subject });
  const greeting = t('account.email.greeting', { name: values.name });
  const intro = t('support.email.intro', { subject: values.subject });
  const action = values.link ? t('support.email.action') : t('support.email.replyByEmail');
  const signature = t('account.email.signature');
  const text = [greeting, '', intro, '', values.answer, '', action, values.link ?? '', '', signature, ''].join('\n');
  const paragraphs = values.answer
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const html = [
    '<!DOCTYPE html>',
    `<html lang="${values.lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1b2430;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<blockquote style="border-left:3px solid #d9dee5;margin:0;padding-left:12px">${paragraphs}</blockquote>`,
    values.link
      ? `<p><a href="${escapeHtml(values.link)}" style="display:inline-block;padding:10px 16px;background:#1f4e8c;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>`
      : `<p>${escapeHtml(action)}</p>`,
    `<p>${escapeHtml(signature)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

/**
 * Emails the requester that support answered (ADR 0021): a user only if `support_replies` is on
 * in their notification settings, a guest always; in the ticket's language, with a link to it.
 */
export async function notifySupportReply(deps: HelpDeskDeps, ticket: Ticket, answer: string): Promise<void> {
  const { db } = deps;
  if (ticket.user_id !== null && !(await wantsEmail(db, ticket.user_id, 'support_replies'))) return;
  const link =
    ticket.number === null
      ? null
      : `${deps.siteUrl}${localePath(ticket.language, `/dashboard/support/topics/${ticket.number}/`)}`;
  const email = composeSupportReplyEmail(deps.translate(ticket.language), {
    name: ticket.requester_name,
    subject: ticket.name,
    answer,
    link,
    lang: ticket.language,
  });
  await deps.mailer.send({ to: ticket.email, ...email, kind: 'support_reply', link: link ?? undefined });
}

export function builtInHelpDesk(deps: HelpDeskDeps): HelpDesk {
  const { db } = deps;

  const summaries = () =>
    db.kysely.selectFrom('support_topics').select(['id', 'number', 'name', 'status', 'created_at', 'updated_at']);

  const toSummary = (r: {
    id: number;
    number: number | null;
    name: string;
    status: TicketStatus;
    created_at: Date;
    updated_at: Date;
  }): TicketSummary => ({ ...r, id: Number(r.id) });

  async function load(id: number, userId?: number): Promise<Ticket | null> {
    let query = db.kysely
      .selectFrom('support_topics')
      .select([
        'id',
        'number',
        'name',
        'status',
        'created_at',
        'updated_at',
        'user_id',
        'email',
        'requester_name',
        'language',
        'source',
      ])
      .where('id', '=', id);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    const row = await query.executeTakeFirst();
    if (!row) return null;
    const messages = await db.kysely
      .selectFrom('support_messages')
      .select(['id', 'author', 'body', 'created_at'])
      .where('topic_id', '=', id)
      .orderBy('id')
      .execute();
    return {
      ...toSummary(row),
      user_id: row.user_id === null ? null : Number(row.user_id),
      email: row.email,
      requester_name: row.requester_name,
      language: row.language,
      source: row.source,
      messages: messages.map((m) => ({ ...m, id: Number(m.id) })),
    };
  }

  async function addMessage(
    id: number,
    author: 'requester' | 'support',
    authorUserId: number | null,
    body: string,
    status: TicketStatus,
  ): Promise<void> {
    await db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('support_messages')
        .values({ topic_id: id, author, author_user_id: authorUserId, body })
        .execute();
      await trx.updateTable('support_topics').set({ status, updated_at: sql`now()` }).where('id', '=', id).execute();
    });
  }

  async function page(
    query: ReturnType<typeof summaries>,
    after: number | undefined,
    count = PAGE,
  ): Promise<TicketPage> {
    let q = query;
    if (after !== undefined) {
      // Keyset on (updated_at, id) from the last ticket seen.
      q = q.where(({ eb, refTuple, selectFrom }) =>
        eb(
          refTuple('updated_at', 'id'),
          '<',
          selectFrom('support_topics as a').select(['a.updated_at', 'a.id']).where('a.id', '=', after) as never,
        ),
      );
    }
    const rows = await q
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(count + 1)
      .execute();
    const data = rows.slice(0, count).map(toSummary);
    return { data, next: rows.length > count ? data[data.length - 1].id : null };
  }

  const required = async (id: number, userId?: number) => {
    const ticket = await load(id, userId);
    if (!ticket) throw notFound('support ticket');
    return ticket;
  };

  return {
    async open(input: NewTicket) {
      const name = cleanTicketText('name', input.name);
      const message = cleanTicketText('message', input.message);
      const r = input.requester;
      const values = {
        name: sql`${name}::text`,
        email: sql`${r.email}::text`,
        requester_name: sql`${r.name}::text`,
        language: sql`${r.lang}::text`,
        source: sql`${input.source}::text`,
      };
      const id =
        r.kind === 'user'
          ? await insertNumbered(db, 'support_topics', r.userId, values)
          : Number(
              (
                await db.kysely
                  .insertInto('support_topics')
                  .values({
                    user_id: null,
                    number: null,
                    name,
                    email: r.email,
                    requester_name: r.name,
                    language: r.lang,
                    source: input.source,
                  })
                  .returning('id')
                  .executeTakeFirstOrThrow()
              ).id,
            );
      await db.kysely
        .insertInto('support_messages')
        .values({
          topic_id: id,
          author: 'requester',
          author_user_id: r.kind === 'user' ? r.userId : null,
          body: message,
        })
        .execute();
      return required(id);
    },

    listOfUser(userId, options = {}) {
      return page(summaries().where('user_id', '=', userId), options.after, options.count);
    },

    async ofUser(userId, ref) {
      if ('id' in ref) return load(ref.id, userId);
      const row = await db.kysely
        .selectFrom('support_topics')
        .select('id')
        .where('user_id', '=', userId)
        .where('number', '=', ref.number)
        .executeTakeFirst();
      return row ? load(Number(row.id), userId) : null;
    },

    async reply(userId, id, message) {
      const body = cleanTicketText('message', message);
      await required(id, userId);
      await addMessage(id, 'requester', userId, body, 'open');
      return required(id, userId);
    },

    async setStatus(userId, id, status) {
      await required(id, userId);
      await db.kysely
        .updateTable('support_topics')
        .set({ status, updated_at: sql`now()` })
        .where('id', '=', id)
        .execute();
      return required(id, userId);
    },

    desk(filter) {
      const query = filter.status ? summaries().where('status', '=', filter.status) : summaries();
      return page(query, filter.after);
    },

    get: (id) => load(id),

    async answer(id, staffUserId, message) {
      const body = cleanTicketText('message', message);
      await required(id);
      await addMessage(id, 'support', staffUserId, body, 'answered');
      const ticket = await required(id);
      await notifySupportReply(deps, ticket, body);
      return ticket;
    },

    async setDeskStatus(id, status) {
      await required(id);
      await db.kysely
        .updateTable('support_topics')
        .set({ status, updated_at: sql`now()` })
        .where('id', '=', id)
        .execute();
      return required(id);
    },
  };
}
