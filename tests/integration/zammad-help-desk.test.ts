import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../core/accounts/user-roles.ts';
import { helpDeskSettings, readEnv } from '../../server/env.ts';
import { outbox, postJson, textOf, waitForEmail } from '../support/accounts.ts';
import { pageClient } from '../support/page-forms.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, type TestUser } from '../support/users.ts';

// The Zammad help desk adapter (ADR 0021) against a Zammad of the test's own: a local HTTP server
// implementing the endpoints the adapter uses — GET /api/v1/users/search, POST /api/v1/users,
// POST /api/v1/tickets, GET and PUT /api/v1/tickets/{id}, GET /api/v1/ticket_articles/by_ticket/{id}
// and POST /api/v1/ticket_articles — with the payload shapes of Zammad's REST API documentation
// (docs.zammad.org, "API" → Tickets, Articles, Users) and its token authentication
// (`Authorization: Token token=…`). The dashboard, the contact form, the support desk and the
// public support_topics API work the same through it; a help desk that fails or is too slow is a
// 503 that says so, and nothing is stored.

const TOKEN = 'zammad-test-token-1234567890';
const WEBHOOK_SECRET = 'zammad-webhook-secret-0987654321';

type User = { id: number; login: string; firstname: string; lastname: string; email: string; role_ids: number[] };
type Article = {
  id: number;
  ticket_id: number;
  from: string;
  subject: string | null;
  body: string;
  content_type: string;
  type: string;
  internal: boolean;
  sender: 'Agent' | 'Customer' | 'System';
  sender_id: number;
  created_at: string;
  updated_at: string;
};
type Ticket = {
  id: number;
  group: string;
  number: string;
  title: string;
  customer_id: number;
  state: string;
  state_id: number;
  article_ids: number[];
  created_at: string;
  updated_at: string;
};

/** A Zammad of the test's own: users, tickets and articles in memory, and every request seen. */
class FakeZammad {
  users: User[] = [{ id: 1, login: '-', firstname: '-', lastname: '', email: '', role_ids: [] }];
  tickets = new Map<number, Ticket>();
  articles: Article[] = [];
  requests: { method: string; path: string; body: unknown }[] = [];
  /** Milliseconds each answer waits (a slow help desk). */
  delayMs = 0;
  /** Every call answers this status instead (a broken help desk). */
  failWith: number | null = null;
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** An agent answers in Zammad's own interface (a public note or an internal one). */
  agentAnswers(ticketId: number, body: string, internal = false): void {
    this.article(ticketId, { body, content_type: 'text/html', internal, sender: 'Agent', from: 'Agent Smith' });
  }

  private now = () => new Date().toISOString();

  private article(ticketId: number, fields: Partial<Article>): Article {
    const article: Article = {
      id: this.articles.length + 100,
      ticket_id: ticketId,
      from: 'Someone',
      subject: null,
      body: '',
      content_type: 'text/plain',
      type: 'note',
      internal: false,
      sender: 'Customer',
      sender_id: 2,
      created_at: this.now(),
      updated_at: this.now(),
      ...fields,
    };
    article.sender_id = article.sender === 'Agent' ? 1 : article.sender === 'Customer' ? 2 : 3;
    this.articles.push(article);
    const ticket = this.tickets.get(ticketId);
    if (ticket) {
      ticket.article_ids.unshift(article.id);
      ticket.updated_at = this.now();
    }
    return article;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://zammad.test');
    const body = text ? JSON.parse(text) : undefined;
    this.requests.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(payload));
    };
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (res.destroyed) return;
    if (this.failWith !== null) return send(this.failWith, { error: 'broken' });
    if (req.headers.authorization !== `Token token=${TOKEN}`) {
      return send(401, { error: 'authentication failed', error_human: 'Authentication failed' });
    }
    const path = url.pathname;
    const ticketPath = /^\/api\/v1\/tickets\/(\d+)$/.exec(path);
    const articlesPath = /^\/api\/v1\/ticket_articles\/by_ticket\/(\d+)$/.exec(path);
    if (req.method === 'GET' && path === '/api/v1/users/search') {
      const query = url.searchParams.get('query') ?? '';
      const email = query.startsWith('email:') ? query.slice(6) : query;
      return send(
        200,
        this.users.filter((u) => u.email && u.email === email),
      );
    }
    if (req.method === 'POST' && path === '/api/v1/users') {
      if (this.users.some((u) => u.email === body.email)) {
        return send(422, { error: `Email address '${body.email}' is already used for other user.` });
      }
      const user: User = {
        id: this.users.length + 1,
        login: body.email,
        firstname: body.firstname,
        lastname: body.lastname,
        email: body.email,
        role_ids: body.roles?.includes('Customer') ? [3] : [],
      };
      this.users.push(user);
      return send(201, { ...user, created_at: this.now(), updated_at: this.now() });
    }
    if (req.method === 'POST' && path === '/api/v1/tickets') {
      if (!body.title || !body.group || !body.customer_id || !body.article?.body) {
        return send(422, { error: 'title, group, customer and article are needed' });
      }
      const id = this.tickets.size + 1;
      const ticket: Ticket = {
        id,
        group: body.group,
        number: String(22000 + id),
        title: body.title,
        customer_id: body.customer_id,
        state: 'new',
        state_id: 1,
        article_ids: [],
        created_at: this.now(),
        updated_at: this.now(),
      };
      this.tickets.set(id, ticket);
      this.article(id, { ...body.article, sender: body.article.sender ?? 'Agent' });
      const { state, group, ...unexpanded } = ticket;
      return send(201, { ...unexpanded, group_id: 1, priority_id: 2, owner_id: 1, article_count: 1 });
    }
    if (ticketPath) {
      const ticket = this.tickets.get(Number(ticketPath[1]));
      if (!ticket) return send(404, { error: "Couldn't find Ticket" });
      if (req.method === 'PUT') {
        if (body.state) {
          ticket.state = body.state;
          ticket.state_id = { new: 1, open: 2, 'pending reminder': 3, closed: 4 }[body.state as string] ?? 2;
        }
        ticket.updated_at = this.now();
      }
      const expanded = url.searchParams.get('expand') === 'true';
      const { state, group, ...rest } = ticket;
      return send(200, expanded ? { ...rest, state, group } : rest);
    }
    if (req.method === 'GET' && articlesPath) {
      return send(
        200,
        this.articles.filter((a) => a.ticket_id === Number(articlesPath[1])),
      );
    }
    if (req.method === 'POST' && path === '/api/v1/ticket_articles') {
      if (!this.tickets.has(body.ticket_id)) return send(422, { error: 'ticket not found' });
      const article = this.article(body.ticket_id, { ...body, sender: body.sender ?? 'Agent' });
      const ticket = this.tickets.get(body.ticket_id);
      if (ticket && article.sender === 'Customer' && ticket.state === 'closed') {
        ticket.state = 'open';
        ticket.state_id = 2;
      }
      return send(201, article);
    }
    return send(404, { error: `no route ${req.method} ${path}` });
  }
}

const zammad = new FakeZammad();
let t: TestApp;
let staff: TestUser;
beforeAll(async () => {
  await zammad.start();
  t = await buildTestApp({
    pages: 'build',
    helpDesk: {
      kind: 'zammad',
      url: `${zammad.url}/`,
      token: TOKEN,
      group: 'Registra',
      timeoutMs: 400,
      webhookSecret: WEBHOOK_SECRET,
    },
  });
  staff = await createSignedInUser(t.db, 'zammad-staff', { name: 'Sam Support' });
  await grantRole(t.db, staff.email, 'support');
});
afterAll(async () => {
  await t?.close();
  await zammad.stop();
});

const { get, post } = pageClient(() => t.app);
const topicOf = (id: number) =>
  t.db.kysely.selectFrom('support_topics').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('tickets through Zammad', () => {
  it('opens the ticket in Zammad, shows the agent’s answer, emails it, and sends replies and closing back', async () => {
    const user = await createSignedInUser(t.db, 'zammad-user', { name: 'Ada Lovelace' });
    const opened = await post('/dashboard/support/', { name: 'Export is empty', message: 'My CSV has no rows.' }, user);
    expect(opened.statusCode, opened.body).toBe(302);
    expect(opened.headers.location).toBe('/dashboard/support/topics/1/?done=created');
    // Zammad got a customer (created, as none had the email) and the ticket with its first article.
    const customer = zammad.users.find((u) => u.email === user.email.toLowerCase());
    expect(customer).toMatchObject({ firstname: 'Ada', lastname: 'Lovelace', role_ids: [3] });
    const [ticket] = [...zammad.tickets.values()];
    expect(ticket).toMatchObject({ title: 'Export is empty', group: 'Registra', customer_id: customer?.id });
    expect(zammad.articles.find((a) => a.ticket_id === ticket.id)).toMatchObject({
      body: 'My CSV has no rows.',
      sender: 'Customer',
      internal: false,
    });
    const row = await t.db.kysely
      .selectFrom('support_topics')
      .select(['id', 'external_id'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.external_id).toBe(String(ticket.id));
    const id = Number(row.id);

    // An agent answers in Zammad (HTML, as Zammad stores it), and writes an internal note.
    zammad.agentAnswers(ticket.id, '<p>Hello Ada,</p><p>choose the &quot;All&quot; columns &amp; export again.</p>');
    zammad.agentAnswers(ticket.id, 'Internal: customer is on the free plan', true);
    const page = textOf((await get('/dashboard/support/topics/1/', user)).body);
    expect(page).toContain('choose the "All" columns & export again.');
    expect(page).not.toContain('Internal: customer is on the free plan');
    expect((await topicOf(id)).status).toBe('answered');
    const mail = await waitForEmail(t.db, user.email, 'support_reply');
    expect(mail.text_body).toContain('choose the "All" columns & export again.');
    // Reading again copies nothing twice, and emails once.
    await get('/dashboard/support/topics/1/', user);
    const support = await t.db.kysely
      .selectFrom('support_messages')
      .select('body')
      .where('topic_id', '=', id)
      .where('author', '=', 'support')
      .execute();
    expect(support).toHaveLength(1);
    expect((await outbox(t.db, user.email)).filter((m) => m.kind === 'support_reply')).toHaveLength(1);

    // The user's reply and closing go to Zammad.
    const replied = await post('/dashboard/support/topics/1/', { intent: 'reply', message: 'Thanks, it works.' }, user);
    expect(replied.statusCode).toBe(302);
    expect(zammad.articles.filter((a) => a.ticket_id === ticket.id).map((a) => a.body)).toContain('Thanks, it works.');
    const closed = await post('/dashboard/support/topics/1/', { intent: 'close' }, user);
    expect(closed.statusCode).toBe(302);
    expect(ticket.state).toBe('closed');
    expect((await topicOf(id)).status).toBe('closed');
    // Reopened by the agent in Zammad: open here too on the next read.
    ticket.state = 'open';
    ticket.state_id = 2;
    await get('/dashboard/support/topics/1/', user);
    expect((await topicOf(id)).status).toBe('open');
    // Our own messages (sent to Zammad) are not copied back as answers.
    const thread = await t.db.kysely
      .selectFrom('support_messages')
      .select(['author', 'body'])
      .where('topic_id', '=', id)
      .orderBy('id')
      .execute();
    expect(thread.map((m) => m.author)).toEqual(['requester', 'support', 'requester']);
  });

  it('answers from /support-desk/ reach Zammad as the agent’s article, and a guest’s contact form opens a ticket there', async () => {
    const email = `guest.${Date.now()}@example.com`;
    const sent = await post('/info/contact-us/', {
      requester: 'Gaston Guest',
      email,
      name: 'Remove my entry',
      message: 'Please remove my listing.',
      website: '',
    });
    expect(sent.statusCode, sent.body).toBe(302);
    const ticket = [...zammad.tickets.values()].find((x) => x.title === 'Remove my entry');
    expect(ticket).toBeDefined();
    expect(zammad.users.find((u) => u.id === ticket?.customer_id)?.email).toBe(email);
    const row = await t.db.kysely
      .selectFrom('support_topics')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const answered = await post(`/support-desk/topics/${row.id}/`, { intent: 'answer', message: 'Done.' }, staff);
    expect(answered.statusCode, answered.body).toBe(302);
    const article = zammad.articles.find((a) => a.ticket_id === ticket?.id && a.body === 'Done.');
    expect(article).toMatchObject({ sender: 'Agent', internal: false });
    // Read again: the article we sent is not copied back.
    await get(`/support-desk/topics/${row.id}/`, staff);
    const messages = await t.db.kysely
      .selectFrom('support_messages')
      .select('body')
      .where('topic_id', '=', Number(row.id))
      .execute();
    expect(messages.map((m) => m.body)).toEqual(['Please remove my listing.', 'Done.']);
    await waitForEmail(t.db, email, 'support_reply');
  });

  it('the public support_topics API opens and reads tickets through Zammad', async () => {
    const user = await createSignedInUser(t.db, 'zammad-api');
    const created = await postJson(
      t.app,
      'POST',
      '/api/public/support_topics',
      { name: 'API question', message: 'Hi' },
      { cookie: user.cookie, csrf: user.csrf },
    );
    expect(created.statusCode, created.body).toBe(201);
    const topic = created.json().support_topic;
    const ticket = [...zammad.tickets.values()].find((x) => x.title === 'API question');
    expect(ticket).toBeDefined();
    zammad.agentAnswers(ticket?.id ?? 0, 'An answer from Zammad');
    const read = await t.app.inject({
      url: `/api/public/support_topics/${topic.id}`,
      headers: { cookie: user.cookie },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().support_topic.status).toBe('answered');
    expect(read.json().support_topic.support_messages.map((m: { body: string }) => m.body)).toEqual([
      'Hi',
      'An answer from Zammad',
    ]);
  });
});

describe('Zammad’s webhook', () => {
  it('brings an agent’s answer to the user at once (page and email), and refuses a body it did not sign', async () => {
    const user = await createSignedInUser(t.db, 'zammad-hook');
    const opened = await post('/dashboard/support/', { name: 'Webhook', message: 'Question' }, user);
    expect(opened.statusCode).toBe(302);
    const ticket = [...zammad.tickets.values()].find((x) => x.title === 'Webhook');
    if (!ticket) throw new Error('no ticket in Zammad');
    zammad.agentAnswers(ticket.id, 'Answered in Zammad');
    // Zammad's default payload: the ticket (and its article), signed with the trigger's token.
    const body = JSON.stringify({ ticket: { id: ticket.id, number: ticket.number, title: ticket.title }, article: {} });
    const hook = (signature: string, payload = body) =>
      t.app.inject({
        method: 'POST',
        url: '/api/support/webhooks/zammad',
        headers: { 'content-type': 'application/json', 'x-hub-signature': signature },
        payload,
      });
    const sign = (payload: string) => `sha1=${createHmac('sha1', WEBHOOK_SECRET).update(payload).digest('hex')}`;
    expect((await hook('sha1=0000')).statusCode).toBe(401);
    expect((await hook(sign(body), body.replace('Webhook', 'Forged'))).statusCode).toBe(401);
    const received = await hook(sign(body));
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json()).toEqual({ received: true, known: true });
    // Without the user opening anything: the answer is in our copy and in their inbox.
    const mail = await waitForEmail(t.db, user.email, 'support_reply');
    expect(mail.text_body).toContain('Answered in Zammad');
    const unknown = JSON.stringify({ ticket: { id: 999999 } });
    expect((await hook(sign(unknown), unknown)).json()).toEqual({ received: true, known: false });
  });
});

describe('a help desk that fails', () => {
  it('is a clear 503 page (and API answer) when it is too slow or broken, never a hang, and nothing is stored', async () => {
    const user = await createSignedInUser(t.db, 'zammad-slow');
    const count = async () =>
      (await t.db.kysely.selectFrom('support_topics').select('id').where('user_id', '=', user.id).execute()).length;
    zammad.delayMs = 2_000;
    try {
      const started = Date.now();
      const slow = await post('/de/dashboard/support/', { name: 'Slow', message: 'Anyone there?' }, user);
      expect(Date.now() - started).toBeLessThan(1_900);
      expect(slow.statusCode).toBe(503);
      expect(textOf(slow.body)).toContain('Unser Helpdesk antwortet gerade nicht');
      expect(await count()).toBe(0);
    } finally {
      zammad.delayMs = 0;
    }
    zammad.failWith = 500;
    try {
      const broken = await postJson(
        t.app,
        'POST',
        '/api/public/support_topics',
        { name: 'Broken', message: 'Hello?' },
        { cookie: user.cookie, csrf: user.csrf },
      );
      expect(broken.statusCode).toBe(503);
      expect(broken.json()).toMatchObject({ error: { code: 'unavailable' } });
      expect(await count()).toBe(0);
    } finally {
      zammad.failWith = null;
    }
    // Back again: the same form works.
    const ok = await post('/dashboard/support/', { name: 'Back', message: 'Works again' }, user);
    expect(ok.statusCode).toBe(302);
    expect(await count()).toBe(1);
  });

  it('refuses to start without the URL and token it needs, naming them', () => {
    expect(() => helpDeskSettings(readEnv({ HELPDESK: 'zammad' }))).toThrow(
      /HELPDESK=zammad needs ZAMMAD_URL and ZAMMAD_TOKEN/,
    );
    expect(() => helpDeskSettings(readEnv({ HELPDESK: 'zammad', ZAMMAD_URL: 'https://help.example.com' }))).toThrow(
      /needs ZAMMAD_TOKEN/,
    );
    expect(() => readEnv({ HELPDESK: 'freescout' })).toThrow(/HELPDESK/);
    expect(
      helpDeskSettings(readEnv({ HELPDESK: 'zammad', ZAMMAD_URL: 'https://help.example.com', ZAMMAD_TOKEN: 'x' })),
    ).toMatchObject({ kind: 'zammad', group: 'Users', timeoutMs: 8000 });
    expect(helpDeskSettings(readEnv({}))).toEqual({ kind: 'built-in' });
  });
});
