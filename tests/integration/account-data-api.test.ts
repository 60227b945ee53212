import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditBalance, grantCredits } from '../../core/billing/ledger.ts';
import { addUserContact, deleteUserContacts, listUserContacts } from '../../core/contacts/user-contacts.ts';
import { getTableViewSetting, saveTableViewSetting } from '../../core/table-views/table-view-settings.ts';
import { postJson } from '../support/accounts.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser, withContactToUnlock } from '../support/users.ts';

// The rest of the users API (spec §7 "Users"): contacts, orders, purchases and table view
// settings through app.inject with the session cookie and CSRF header. Guests get 401, another
// user's {user_id} 403 and another user's record 404 (the cross-user sweep covers every route too).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: false });
});
afterAll(() => t?.close());

const get = (url: string, user?: TestUser) =>
  t.app.inject({ method: 'GET', url, headers: user ? { cookie: user.cookie } : {} });
const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body: unknown, user?: TestUser) =>
  postJson(t.app, method, url, body, user ? { cookie: user.cookie, csrf: user.csrf } : {});

function expectBadField(
  response: { statusCode: number; json(): { error: { code: string; details: unknown } } },
  field: string,
) {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(400);
  expect(response.json().error).toMatchObject({ code: 'bad_request', details: { parameter: field } });
}

describe('contacts', () => {
  it('adds contacts of each type in one spelling, lists, filters and pages them', async () => {
    const user = await createSignedInUser(t.db, 'contacts');
    const email = await send(
      'POST',
      `/api/contacts/users/${user.id}`,
      { type: 'email', contact: ' Anna@Example.COM ' },
      user,
    );
    expect(email.statusCode).toBe(201);
    expect(email.json()).toMatchObject({ type: 'email', contact: 'anna@example.com' });
    const phone = await send(
      'POST',
      `/api/contacts/users/${user.id}`,
      { type: 'phone', contact: '+49 (30) 123-4567' },
      user,
    );
    expect(phone.json()).toMatchObject({ type: 'phone', contact: '+49 (30) 123-4567' });
    const site = await send(
      'POST',
      `/api/contacts/users/${user.id}`,
      { type: 'website', contact: 'Example.org/About' },
      user,
    );
    expect(site.json()).toMatchObject({ type: 'website', contact: 'https://example.org/About' });
    const fax = await send('POST', `/api/contacts/users/${user.id}`, { type: 'fax', contact: '030 1234568' }, user);
    expect(fax.statusCode).toBe(201);

    const all = (await get(`/api/contacts/users/${user.id}`, user)).json();
    expect(all).toMatchObject({ count: 4, next: null });
    expect(all.data.map((c: { type: string }) => c.type)).toEqual(['fax', 'website', 'phone', 'email']);
    expect((await get(`/api/contacts/users/${user.id}?type=email`, user)).json().data).toEqual([email.json()]);
    expect((await get(`/api/contacts/users/${user.id}?q=example.org`, user)).json().count).toBe(1);
    const first = (await get(`/api/contacts/users/${user.id}?count=3`, user)).json();
    expect(first).toMatchObject({ count: 3, next: first.data[2].id });
    const rest = (await get(`/api/contacts/users/${user.id}?count=3&after=${first.next}`, user)).json();
    expect(rest.data.map((c: { id: number }) => c.id)).toEqual([email.json().id]);
    // The core functions the settings page uses answer the same.
    expect((await listUserContacts(t.db, user.id)).data).toHaveLength(4);
  });

  it('refuses the same contact twice (another spelling of it too) with a 409 naming the contact', async () => {
    const user = await createSignedInUser(t.db, 'contact-dupes');
    await send('POST', `/api/contacts/users/${user.id}`, { type: 'phone', contact: '+44 20 7946 0000' }, user);
    const again = await send(
      'POST',
      `/api/contacts/users/${user.id}`,
      { type: 'phone', contact: '0044 2079460000' },
      user,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'conflict', details: { parameter: 'contact' } });
    expect(again.json().error.message).toContain('already');
    // The same number as a fax is another contact.
    expect(
      (await send('POST', `/api/contacts/users/${user.id}`, { type: 'fax', contact: '+44 20 7946 0000' }, user))
        .statusCode,
    ).toBe(201);
    await addUserContact(t.db, user.id, { type: 'website', contact: 'https://www.example.com/' });
    await expect(
      addUserContact(t.db, user.id, { type: 'website', contact: 'http://www.EXAMPLE.com' }),
    ).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('answers a bad contact with a 400 naming the field and saying what is expected', async () => {
    const user = await createSignedInUser(t.db, 'contact-bad');
    const url = `/api/contacts/users/${user.id}`;
    const cases: [unknown, string, RegExp][] = [
      [{ type: 'email', contact: 'not an email' }, 'contact', /email address/],
      [{ type: 'email', contact: '   ' }, 'contact', /Enter a contact/],
      [{ type: 'phone', contact: '12' }, 'contact', /phone number/],
      [{ type: 'phone', contact: 'call me' }, 'contact', /phone number/],
      [{ type: 'fax', contact: '+1 234 567 890 123 456 7' }, 'contact', /fax number/],
      [{ type: 'website', contact: 'ftp://example.com' }, 'contact', /website/],
      [{ type: 'website', contact: 'localhost' }, 'contact', /website/],
      [{ type: 'website', contact: 'https://user:pw@example.com' }, 'contact', /website/],
      [{ type: 'pager', contact: '123456' }, 'type', /type/],
      [{ type: 'email' }, 'contact', /contact/],
      [{ type: 'email', contact: 'a@b.co', extra: 1 }, 'extra', /extra/],
    ];
    for (const [body, field, message] of cases) {
      const response = await send('POST', url, body, user);
      expectBadField(response, field);
      expect(response.json().error.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await get(url, user)).json().count).toBe(0);
  });

  it('deletes contacts all or none: another user’s id is a 404 and deletes nothing', async () => {
    const user = await createSignedInUser(t.db, 'contact-del');
    const other = await createSignedInUser(t.db, 'contact-del-other');
    const mine = await addUserContact(t.db, user.id, { type: 'email', contact: 'me@example.com' });
    const mine2 = await addUserContact(t.db, user.id, { type: 'phone', contact: '+33 1 23 45 67 89' });
    const theirs = await addUserContact(t.db, other.id, { type: 'email', contact: 'them@example.com' });
    const mixed = await send('DELETE', '/api/contacts', { contact_ids: [mine.id, theirs.id] }, user);
    expect(mixed.statusCode).toBe(404);
    expect((await listUserContacts(t.db, user.id)).data).toHaveLength(2);
    expect((await listUserContacts(t.db, other.id)).data).toHaveLength(1);
    expectBadField(await send('DELETE', '/api/contacts', { contact_ids: [] }, user), 'contact_ids');
    const done = await send('DELETE', '/api/contacts', { contact_ids: [mine.id, mine2.id, mine.id] }, user);
    expect(done.json()).toEqual({ deleted: 2 });
    expect((await listUserContacts(t.db, user.id)).data).toEqual([]);
    await expect(deleteUserContacts(t.db, user.id, [theirs.id])).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('orders', () => {
  it('creates pending orders numbered per user, with exact amounts, lists and filters them', async () => {
    const user = await createSignedInUser(t.db, 'orders');
    const first = await send(
      'POST',
      `/api/orders/users/${user.id}`,
      { amount: '12.5', currency: 'eur', order_data: { product_id: 3, credits: 100 } },
      user,
    );
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      number: 1,
      amount: '12.50',
      currency: 'EUR',
      status: 'pending',
      order_data: { product_id: 3, credits: 100 },
    });
    const second = (
      await send(
        'POST',
        `/api/orders/users/${user.id}`,
        { amount: '1000', currency: 'JPY', order_data: { plan: 'pro' } },
        user,
      )
    ).json();
    expect(second).toMatchObject({ number: 2, amount: '1000', currency: 'JPY', order_data: { plan: 'pro' } });
    // Numbers are per user.
    const other = await createSignedInUser(t.db, 'orders-other');
    expect(
      (await send('POST', `/api/orders/users/${other.id}`, { amount: '5', currency: 'USD' }, other)).json(),
    ).toMatchObject({
      number: 1,
      amount: '5.00',
      order_data: {},
    });

    const list = (await get(`/api/orders/users/${user.id}`, user)).json();
    expect(list.data.map((o: { number: number }) => o.number)).toEqual([2, 1]);
    expect((await get(`/api/orders/users/${user.id}?q=%231`, user)).json().data[0].id).toBe(first.json().id);
    expect(
      (await get(`/api/orders/users/${user.id}?q=plan`, user)).json().data.map((o: { id: number }) => o.id),
    ).toEqual([second.id]);
    expect((await get(`/api/orders/users/${user.id}?status=paid`, user)).json().count).toBe(0);
    expectBadField(await get(`/api/orders/users/${user.id}?status=shipped`, user), 'status');
  });

  it('numbers orders made at the same time one after the other (the numbering retries a number taken meanwhile)', async () => {
    const user = await createSignedInUser(t.db, 'orders-at-once');
    const made = await Promise.all(
      [1, 2, 3].map(() => send('POST', `/api/orders/users/${user.id}`, { amount: '1', currency: 'EUR' }, user)),
    );
    expect(made.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect(made.map((r) => r.json().number).sort()).toEqual([1, 2, 3]);
  });

  it('answers a bad amount, currency or order_data with a 400 naming the field', async () => {
    const user = await createSignedInUser(t.db, 'orders-bad');
    const url = `/api/orders/users/${user.id}`;
    const cases: [unknown, string][] = [
      [{ amount: '12.345', currency: 'EUR' }, 'amount'],
      [{ amount: '100.5', currency: 'JPY' }, 'amount'],
      [{ amount: '0', currency: 'EUR' }, 'amount'],
      [{ amount: '-3', currency: 'EUR' }, 'amount'],
      [{ amount: '1e5', currency: 'EUR' }, 'amount'],
      [{ amount: 12, currency: 'EUR' }, 'amount'],
      [{ amount: '12', currency: 'ABC' }, 'currency'],
      [{ amount: '12', currency: 'EUR', order_data: [1, 2] }, 'order_data'],
      [{ amount: '12', currency: 'EUR', order_data: { note: 'x'.repeat(10_001) } }, 'order_data'],
      [{ currency: 'EUR' }, 'amount'],
    ];
    for (const [body, field] of cases) expectBadField(await send('POST', url, body, user), field);
    expect((await get(url, user)).json().count).toBe(0);
  });

  it('lets a user cancel a pending order only, and delete only orders no money moved for', async () => {
    const user = await createSignedInUser(t.db, 'orders-status');
    const make = async () =>
      (await send('POST', `/api/orders/users/${user.id}`, { amount: '9.99', currency: 'EUR' }, user)).json();
    const [a, b, c] = [await make(), await make(), await make()];
    const cancelled = await send('PATCH', `/api/orders/${a.id}`, { status: 'cancelled' }, user);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ id: a.id, status: 'cancelled' });
    const again = await send('PATCH', `/api/orders/${a.id}`, { status: 'cancelled' }, user);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toContain('is cancelled');
    expectBadField(await send('PATCH', `/api/orders/${b.id}`, { status: 'paid' }, user), 'status');

    // The payment provider marks c paid: it can be neither cancelled nor deleted.
    await t.db.kysely.updateTable('orders').set({ status: 'paid' }).where('id', '=', c.id).execute();
    expect((await send('PATCH', `/api/orders/${c.id}`, { status: 'cancelled' }, user)).statusCode).toBe(409);
    const refused = await send('DELETE', '/api/orders', { order_ids: [a.id, c.id] }, user);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details).toMatchObject({ parameter: 'order_ids', ids: [c.id] });
    expect((await get(`/api/orders/users/${user.id}`, user)).json().count).toBe(3);

    const other = await createSignedInUser(t.db, 'orders-status-other');
    expect((await send('PATCH', `/api/orders/${b.id}`, { status: 'cancelled' }, other)).statusCode).toBe(404);
    expect((await send('DELETE', '/api/orders', { order_ids: [b.id] }, other)).statusCode).toBe(404);

    expect((await send('DELETE', '/api/orders', { order_ids: [a.id, b.id] }, user)).json()).toEqual({ deleted: 2 });
    const left = (await get(`/api/orders/users/${user.id}`, user)).json();
    expect(left.data.map((o: { id: number; status: string }) => [o.id, o.status])).toEqual([[c.id, 'paid']]);
  });
});

describe('purchases', () => {
  it('records a profile purchase once per user and company, costing 1 credit or 2 for an advanced profile', async () => {
    const user = await createSignedInUser(t.db, 'purchases');
    const [plain, advanced] = await someCompanies(t.db, 2, 30);
    await withContactToUnlock(t.db, [plain.id, advanced.id]);
    // Make one company's profile advanced: 10 more names than it had.
    await t.db.kysely
      .insertInto('legal_entity_names')
      .values(
        Array.from({ length: 10 }, (_, i) => ({
          legal_entity_id: advanced.id,
          name_type_id: 1,
          position: 100 + i,
          name: `Trading name ${i}`,
        })),
      )
      .execute();
    const namesOfPlain = await t.db.kysely
      .selectFrom('legal_entity_names')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('legal_entity_id', '=', plain.id)
      .executeTakeFirstOrThrow();
    expect(Number(namesOfPlain.n)).toBeLessThan(10);

    // With no credits, nothing is bought: 402, naming the cost and the balance.
    const short = await send('POST', `/api/purchases/users/${user.id}`, { object_id: plain.id }, user);
    expect(short.statusCode).toBe(402);
    expect(short.json().error).toMatchObject({ code: 'payment_required', details: { credits: 1, balance: 0 } });
    await grantCredits(t.db, user.id, 5);
    const bought = await send('POST', `/api/purchases/users/${user.id}`, { object_id: plain.id }, user);
    expect(bought.statusCode).toBe(200);
    expect(bought.json()).toMatchObject({
      created: true,
      balance: 4,
      purchase: {
        object_id: plain.id,
        credits: 1,
        hidden: false,
        company: { id: plain.id, uri: plain.uri, name: plain.name },
      },
    });
    const adv = (await send('POST', `/api/purchases/users/${user.id}`, { object_id: advanced.id }, user)).json();
    expect(adv).toMatchObject({ created: true, balance: 2, purchase: { object_id: advanced.id, credits: 2 } });
    const again = (await send('POST', `/api/purchases/users/${user.id}`, { object_id: plain.id }, user)).json();
    expect(again).toEqual({ created: false, balance: 2, purchase: bought.json().purchase });
    expect(await creditBalance(t.db, user.id)).toBe(2);
    const missing = await send('POST', `/api/purchases/users/${user.id}`, { object_id: 999_999_999 }, user);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.details.parameter).toBe('object_id');
    expectBadField(await send('POST', `/api/purchases/users/${user.id}`, { object_id: 'x' }, user), 'object_id');

    const list = (await get(`/api/purchases/users/${user.id}`, user)).json();
    expect(list.data.map((p: { object_id: number }) => p.object_id)).toEqual([advanced.id, plain.id]);
    expect((await get(`/api/purchases/users/${user.id}?q=${encodeURIComponent(plain.name)}`, user)).json().count).toBe(
      1,
    );
  });

  it('takes object_id only as a JSON integer: an array, exponent, float, sign or text is a 400 that spends nothing', async () => {
    const user = await createSignedInUser(t.db, 'purchases-strict');
    const [company] = await someCompanies(t.db, 1, 60);
    await grantCredits(t.db, user.id, 10);
    const id = company.id;
    for (const objectId of [[id], `${id}`, `${id / 1000}e3`, `${id}e0`, `+${id}`, `${id}.0`, id + 0.5, true, null]) {
      const response = await send('POST', `/api/purchases/users/${user.id}`, { object_id: objectId }, user);
      expectBadField(response, 'object_id');
      expect(response.json().error.message, JSON.stringify(objectId)).toContain('object_id');
    }
    expect(await creditBalance(t.db, user.id)).toBe(10);
    expect((await get(`/api/purchases/users/${user.id}`, user)).json().count).toBe(0);
    // The same id as a JSON integer is bought.
    expect((await send('POST', `/api/purchases/users/${user.id}`, { object_id: id }, user)).statusCode).toBe(200);
  });

  it('hides purchases from the history (PATCH, DELETE) without un-buying them', async () => {
    const user = await createSignedInUser(t.db, 'purchases-hide');
    const other = await createSignedInUser(t.db, 'purchases-hide-other');
    const [c1, c2] = await someCompanies(t.db, 2, 40);
    await grantCredits(t.db, user.id, 10);
    const p1 = (await send('POST', `/api/purchases/users/${user.id}`, { object_id: c1.id }, user)).json().purchase;
    const p2 = (await send('POST', `/api/purchases/users/${user.id}`, { object_id: c2.id }, user)).json().purchase;

    const hidden = await send('PATCH', `/api/purchases/${p1.id}`, { hidden: true }, user);
    expect(hidden.json()).toMatchObject({ id: p1.id, hidden: true });
    expect((await get(`/api/purchases/users/${user.id}`, user)).json().data.map((p: { id: number }) => p.id)).toEqual([
      p2.id,
    ]);
    expect((await get(`/api/purchases/users/${user.id}?hidden=true`, user)).json().count).toBe(2);
    expect((await send('PATCH', `/api/purchases/${p1.id}`, { hidden: false }, user)).json().hidden).toBe(false);
    expectBadField(await send('PATCH', `/api/purchases/${p1.id}`, { hidden: 'yes' }, user), 'hidden');

    expect((await send('PATCH', `/api/purchases/${p1.id}`, { hidden: true }, other)).statusCode).toBe(404);
    expect((await send('DELETE', '/api/purchases', { purchase_ids: [p1.id, p2.id] }, other)).statusCode).toBe(404);
    expect((await send('DELETE', '/api/purchases', { purchase_ids: [p1.id, p2.id] }, user)).json()).toEqual({
      deleted: 2,
    });
    expect((await get(`/api/purchases/users/${user.id}`, user)).json().count).toBe(0);
    // Still bought: buying again charges nothing new and shows it again.
    const rebuy = (await send('POST', `/api/purchases/users/${user.id}`, { object_id: c1.id }, user)).json();
    expect(rebuy).toMatchObject({ created: false, purchase: { id: p1.id, hidden: false } });
    const rows = await t.db.kysely.selectFrom('purchases').select('id').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(2);
  });
});

describe('table view settings', () => {
  it('saves a section’s style and columns, merges later saves, lists and deletes them', async () => {
    const user = await createSignedInUser(t.db, 'table-views');
    const url = `/api/table_view_settings/users/${user.id}`;
    const saved = await send(
      'POST',
      url,
      { section: 'vessels', style: 'style-3', columns: ['imo_number', 'vessel_name'] },
      user,
    );
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      section: 'vessels',
      style: 'style-3',
      columns: ['imo_number', 'vessel_name'],
    });
    // A later save of the style alone keeps the columns; one setting per section.
    const restyled = (await send('POST', url, { section: 'vessels', style: 'style-1' }, user)).json();
    expect(restyled).toMatchObject({ id: saved.json().id, style: 'style-1', columns: ['imo_number', 'vessel_name'] });
    const patents = (await send('POST', url, { section: 'patents', columns: null }, user)).json();
    expect(patents).toMatchObject({ section: 'patents', style: 'style-2', columns: null });

    const list = (await get(url, user)).json();
    expect(list.data.map((s: { section: string }) => s.section)).toEqual(['patents', 'vessels']);
    expect((await get(`${url}?section=vessels`, user)).json().data).toEqual([restyled]);
    expect(await getTableViewSetting(t.db, user.id, 'vessels')).toEqual(restyled);
    expect(await getTableViewSetting(t.db, user.id, 'companies')).toBeNull();

    const patched = await send('PATCH', `/api/table_view_settings/${patents.id}`, { columns: ['title'] }, user);
    expect(patched.json()).toMatchObject({ section: 'patents', columns: ['title'], style: 'style-2' });

    const deleted = await send('DELETE', '/api/table_view_settings', { table_view_setting_ids: [patents.id] }, user);
    expect(deleted.json()).toEqual({ deleted: 1 });
    expect((await get(url, user)).json().data.map((s: { section: string }) => s.section)).toEqual(['vessels']);
  });

  it('checks columns against the section’s declaration, and every column in order is the default', async () => {
    const user = await createSignedInUser(t.db, 'table-views-bad');
    const url = `/api/table_view_settings/users/${user.id}`;
    const unknown = await send('POST', url, { section: 'vessels', columns: ['imo_number', 'revenue'] }, user);
    expectBadField(unknown, 'columns');
    expect(unknown.json().error.message).toContain('no column "revenue"');
    expectBadField(
      await send('POST', url, { section: 'vessels', columns: ['imo_number', 'imo_number'] }, user),
      'columns',
    );
    expectBadField(await send('POST', url, { section: 'vessels', columns: [] }, user), 'columns');
    expectBadField(await send('POST', url, { section: 'spaceships' }, user), 'section');
    expectBadField(await send('POST', url, { section: 'vessels', style: 'style-9' }, user), 'style');
    expect((await get(url, user)).json().count).toBe(0);

    const { SECTIONS } = await import('../../core/sections/sections.ts');
    const declared = SECTIONS.find((s) => s.id === 'companies')!.columns.map((c) => c.key);
    const all = await saveTableViewSetting(t.db, user.id, 'companies', { columns: declared });
    expect(all.columns).toBeNull();
    const reversed = await saveTableViewSetting(t.db, user.id, 'companies', { columns: [...declared].reverse() });
    expect(reversed.columns).toEqual([...declared].reverse());
  });
});

describe('guards', () => {
  const routes = (userId: number): [method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown][] => [
    ['GET', `/api/contacts/users/${userId}`],
    ['POST', `/api/contacts/users/${userId}`, { type: 'email', contact: 'x@example.com' }],
    ['DELETE', '/api/contacts', { contact_ids: [1] }],
    ['GET', `/api/orders/users/${userId}`],
    ['POST', `/api/orders/users/${userId}`, { amount: '1', currency: 'EUR' }],
    ['PATCH', '/api/orders/1', { status: 'cancelled' }],
    ['DELETE', '/api/orders', { order_ids: [1] }],
    ['GET', `/api/purchases/users/${userId}`],
    ['POST', `/api/purchases/users/${userId}`, { object_id: 1 }],
    ['PATCH', '/api/purchases/1', { hidden: true }],
    ['DELETE', '/api/purchases', { purchase_ids: [1] }],
    ['GET', `/api/table_view_settings/users/${userId}`],
    ['POST', `/api/table_view_settings/users/${userId}`, { section: 'companies', style: 'style-1' }],
    ['PATCH', '/api/table_view_settings/1', { style: 'style-1' }],
    ['DELETE', '/api/table_view_settings', { table_view_setting_ids: [1] }],
  ];

  it('answers a guest 401 on every route', async () => {
    const owner = await createSignedInUser(t.db, 'guard-owner');
    for (const [method, url, body] of routes(owner.id)) {
      const response = method === 'GET' ? await get(url) : await send(method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json().error.code).toBe('unauthorized');
    }
  });

  it('answers 403 for another user’s {user_id}, and 404 for records that are not the caller’s', async () => {
    const owner = await createSignedInUser(t.db, 'guard-owner2');
    const intruder = await createSignedInUser(t.db, 'guard-intruder');
    for (const [method, url, body] of routes(owner.id)) {
      const response = method === 'GET' ? await get(url, intruder) : await send(method, url, body, intruder);
      expect(response.statusCode, `${method} ${url}`).toBe(url.includes('/users/') ? 403 : 404);
    }
  });

  it('refuses a signed-in mutation without the session’s CSRF token', async () => {
    const user = await createSignedInUser(t.db, 'guard-csrf');
    const response = await postJson(
      t.app,
      'POST',
      `/api/contacts/users/${user.id}`,
      { type: 'email', contact: 'x@example.com' },
      { cookie: user.cookie },
    );
    expect(response.statusCode).toBe(403);
    expect((await listUserContacts(t.db, user.id)).data).toEqual([]);
    const crossSite = await postJson(
      t.app,
      'POST',
      `/api/orders/users/${user.id}`,
      { amount: '1', currency: 'EUR' },
      { cookie: user.cookie, csrf: user.csrf, headers: { origin: 'https://evil.example' } },
    );
    expect(crossSite.statusCode).toBe(403);
  });
});
