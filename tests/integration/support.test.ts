import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../core/accounts/user-roles.ts';
import { createSupportToken, verifySupportToken } from '../../core/support/support-token.ts';
import { freshIp, linkPath, outbox, postForm, postJson, textOf } from '../support/accounts.ts';
import { pageClient } from '../support/page-forms.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, type TestUser } from '../support/users.ts';

// Support (ADR 0021): tickets in the dashboard, the contact form for guests, the support desk for
// staff, the answer by email as the user's settings say, the API, and nobody reaching another's ticket.

let t: TestApp;
let staff: TestUser;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  staff = await createSignedInUser(t.db, 'staff', { name: 'Sam Support' });
  expect(await grantRole(t.db, staff.email, 'support')).toBe(true);
  expect(await grantRole(t.db, staff.email, 'support')).toBe(false);
});
afterAll(() => t?.close());

const { get, post } = pageClient(() => t.app);
const statusOf = async (id: number) =>
  (await t.db.kysely.selectFrom('support_topics').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;

async function openTicket(user: TestUser, name: string, message: string) {
  const res = await post('/dashboard/support/', { name, message }, user);
  expect(res.statusCode, res.body).toBe(302);
  const number = Number(/\/topics\/(\d+)\//.exec(res.headers.location as string)?.[1]);
  const row = await t.db.kysely
    .selectFrom('support_topics')
    .select('id')
    .where('user_id', '=', user.id)
    .where('number', '=', number)
    .executeTakeFirstOrThrow();
  return { number, id: Number(row.id), location: res.headers.location as string };
}

describe('a user’s tickets', () => {
  it('opens a ticket, lists it (#, name, status, last update), and refuses an empty one naming the field', async () => {
    const user = await createSignedInUser(t.db, 'ticket-owner');
    const bad = await post('/dashboard/support/', { name: '  ', message: 'Hello' }, user);
    expect(bad.statusCode).toBe(400);
    expect(textOf(bad.body)).toContain('Enter a subject.');
    const { number, location } = await openTicket(user, 'Export is empty', 'My CSV has no rows.');
    expect(number).toBe(1);
    expect(location).toBe('/dashboard/support/topics/1/?done=created');
    const page = await get(location, user);
    expect(textOf(page.body)).toContain('Ticket #1: Export is empty');
    expect(textOf(page.body)).toContain('My CSV has no rows.');
    expect(page.body).toContain('noindex');
    const list = textOf((await get('/de/dashboard/support/', user)).body);
    expect(list).toContain('Export is empty');
    expect(list).toContain('Offen');
    expect((await openTicket(user, 'Second', 'Another question')).number).toBe(2);
  });

  it('answers a guest 401, and another user 404 for a ticket number that is not theirs', async () => {
    const owner = await createSignedInUser(t.db, 'private-owner');
    const other = await createSignedInUser(t.db, 'private-other');
    const { id, number } = await openTicket(owner, 'Private matter', 'Only mine');
    expect((await get('/dashboard/support/')).statusCode).toBe(401);
    expect((await get(`/dashboard/support/topics/${number}/`, other)).statusCode).toBe(404);
    const reply = await post(`/dashboard/support/topics/${number}/`, { intent: 'reply', message: 'Hijack' }, other);
    expect(reply.statusCode).toBe(404);
    const messages = await t.db.kysely
      .selectFrom('support_messages')
      .select('body')
      .where('topic_id', '=', id)
      .execute();
    expect(messages.map((m) => m.body)).toEqual(['Only mine']);
    // The other user's own list does not show it.
    expect(textOf((await get('/dashboard/support/', other)).body)).not.toContain('Private matter');
  });

  it('shows what people wrote as text, never as markup', async () => {
    const user = await createSignedInUser(t.db, 'ticket-markup');
    const { location } = await openTicket(
      user,
      '<b>bold</b>',
      '<script>alert("x")</script><img src=x onerror=alert(1)>',
    );
    const page = await get(location, user);
    expect(page.body).not.toContain('<script>alert');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toContain('&lt;script&gt;alert');
  });
});

describe('the support desk', () => {
  it('is for the support role only: a guest 401, a user 403', async () => {
    const user = await createSignedInUser(t.db, 'not-staff');
    expect((await get('/support-desk/')).statusCode).toBe(401);
    expect((await get('/support-desk/', user)).statusCode).toBe(403);
    const desk = await get('/support-desk/', staff);
    expect(desk.statusCode).toBe(200);
    expect(desk.body).toContain('noindex');
  });

  it('answers a ticket: answered, emailed to the user with a link, shown to the user; replying reopens it', async () => {
    const user = await createSignedInUser(t.db, 'answered-user', { name: 'Ada Asker' });
    const { id, number } = await openTicket(user, 'How fresh is GLEIF data?', 'When do you import?');
    expect(textOf((await get('/support-desk/?status=open', staff)).body)).toContain('How fresh is GLEIF data?');
    const answer = await post(
      `/support-desk/topics/${id}/`,
      { intent: 'answer', message: 'Every day at 06:00 UTC.' },
      staff,
    );
    expect(answer.statusCode).toBe(302);
    expect(await statusOf(id)).toBe('answered');
    const [mail] = (await outbox(t.db, user.email)).filter((m) => m.kind === 'support_reply');
    expect(mail.subject).toBe('Re: How fresh is GLEIF data?');
    expect(mail.text_body).toContain('Every day at 06:00 UTC.');
    const link = linkPath(mail.text_body, /support\/topics/);
    expect(link).toBe(`/dashboard/support/topics/${number}/`);
    const page = textOf((await get(link, user)).body);
    expect(page).toContain('Registra support');
    expect(page).toContain('Every day at 06:00 UTC.');
    expect(page).toContain('Answered');
    await post(link, { intent: 'reply', message: 'Thanks, and on weekends?' }, user);
    expect(await statusOf(id)).toBe('open');
    await post(link, { intent: 'close' }, user);
    expect(await statusOf(id)).toBe('closed');
    await post(link, { intent: 'reopen' }, user);
    expect(await statusOf(id)).toBe('open');
  });

  it('sends no email to a user who turned support answers off', async () => {
    const user = await createSignedInUser(t.db, 'no-support-mail');
    await post('/dashboard/settings/notifications/', { emails: ['new_sign_in'] }, user);
    const { id } = await openTicket(user, 'Quiet please', 'No emails');
    await post(`/support-desk/topics/${id}/`, { intent: 'answer', message: 'Answered quietly' }, staff);
    expect(await statusOf(id)).toBe('answered');
    expect((await outbox(t.db, user.email)).filter((m) => m.kind === 'support_reply')).toHaveLength(0);
  });

  it('refuses a user’s post to the desk (403) and leaves the ticket as it was', async () => {
    const user = await createSignedInUser(t.db, 'desk-poster');
    const { id } = await openTicket(user, 'Mine', 'Mine');
    const res = await post(`/support-desk/topics/${id}/`, { intent: 'answer', message: 'Fake answer' }, user);
    expect(res.statusCode).toBe(403);
    expect(await statusOf(id)).toBe('open');
  });
});

describe('the contact form', () => {
  it('opens a guest ticket and confirms it; support’s answer goes to the guest by email', async () => {
    const ip = freshIp();
    const page = await get('/fr/info/contact-us/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="website"');
    const email = `guest.${Date.now()}@example.com`;
    const sent = await postForm(
      t.app,
      '/fr/info/contact-us/',
      { requester: 'Gaston Guest', email, name: 'Retrait', message: 'Merci de retirer ma fiche.', website: '' },
      { ip },
    );
    expect(sent.statusCode).toBe(302);
    const confirmation = await get(sent.headers.location as string);
    expect(textOf(confirmation.body)).toContain(`Nous vous répondrons à ${email}`);
    const ticket = await t.db.kysely
      .selectFrom('support_topics')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(ticket).toMatchObject({
      user_id: null,
      number: null,
      language: 'fr',
      source: 'contact_form',
      status: 'open',
    });
    await post(`/support-desk/topics/${ticket.id}/`, { intent: 'answer', message: 'C’est fait.' }, staff);
    const [mail] = (await outbox(t.db, email)).filter((m) => m.kind === 'support_reply');
    expect(mail.subject).toBe('Re : Retrait');
    expect(mail.text_body).toContain('C’est fait.');
    expect(mail.text_body).not.toContain('/dashboard/');
  });

  it('makes a signed-in user’s message their own ticket', async () => {
    const user = await createSignedInUser(t.db, 'contact-user');
    const sent = await post('/info/contact-us/', { name: 'From the form', message: 'Hello' }, user);
    expect(sent.headers.location).toBe('/info/contact-us/?done=sent&ticket=1');
    expect(textOf((await get('/dashboard/support/', user)).body)).toContain('From the form');
  });

  it('names a missing or bad field, drops what a bot sends (looking the same), and limits the rate', async () => {
    const ip = freshIp();
    const bad = await postForm(
      t.app,
      '/info/contact-us/',
      { requester: 'X', email: 'not-an-email', name: 'S', message: 'M', website: '' },
      { ip },
    );
    expect(bad.statusCode).toBe(400);
    expect(textOf(bad.body)).toContain('Enter a valid email address');
    const before = await t.db.kysely
      .selectFrom('support_topics')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const bot = await postForm(
      t.app,
      '/info/contact-us/',
      { requester: 'Bot', email: 'bot@example.com', name: 'Buy', message: 'Spam', website: 'https://spam.example' },
      { ip },
    );
    expect(bot.statusCode).toBe(302);
    const after = await t.db.kysely
      .selectFrom('support_topics')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const sender = `flood.${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await postForm(
        t.app,
        '/info/contact-us/',
        { requester: 'Flo', email: sender, name: `Try ${i}`, message: 'Again', website: '' },
        { ip: freshIp() },
      );
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([302, 302, 302, 302, 302, 429]);
  });
});

describe('the support API', () => {
  it('opens, lists, reads and writes in a ticket; another user’s is 404; bad input 400 naming the field', async () => {
    const user = await createSignedInUser(t.db, 'api-support');
    const other = await createSignedInUser(t.db, 'api-other');
    const as = (u: TestUser, method: 'POST', url: string, body: unknown) =>
      postJson(t.app, method, url, body, { cookie: u.cookie, csrf: u.csrf });
    const created = await as(user, 'POST', '/api/public/support_topics', { name: 'API question', message: 'Hi' });
    expect(created.statusCode).toBe(201);
    const topic = created.json().support_topic;
    expect(topic).toMatchObject({ number: 1, name: 'API question', status: 'open' });
    const list = await t.app.inject({ url: '/api/public/support_topics', headers: { cookie: user.cookie } });
    expect(list.json().data.map((x: { id: number }) => x.id)).toEqual([topic.id]);
    const written = await as(user, 'POST', `/api/public/support_topics/${topic.id}/support_messages`, { body: 'More' });
    expect(written.statusCode).toBe(201);
    expect(written.json().support_topic.support_messages.map((m: { body: string }) => m.body)).toEqual(['Hi', 'More']);
    const theirs = await t.app.inject({
      url: `/api/public/support_topics/${topic.id}`,
      headers: { cookie: other.cookie },
    });
    expect(theirs.statusCode).toBe(404);
    const empty = await as(user, 'POST', '/api/public/support_topics', { name: 'x', message: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details.parameter).toBe('message');
    expect((await t.app.inject({ url: '/api/public/support_topics' })).statusCode).toBe(401);
  });

  it('gives a support token that names the user while the session lasts', async () => {
    const user = await createSignedInUser(t.db, 'token-user');
    const res = await t.app.inject({ url: `/api/users/${user.id}/support_token`, headers: { cookie: user.cookie } });
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    expect(await verifySupportToken(t.db, token)).toBe(user.id);
    expect(await verifySupportToken(t.db, token.replace(/^\d+/, String(user.id + 1)))).toBeNull();
    expect(await verifySupportToken(t.db, createSupportToken(user.id, 'not-a-session').token)).toBeNull();
    const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
    expect(await verifySupportToken(t.db, token, later)).toBeNull();
  });
});
