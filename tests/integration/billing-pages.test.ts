// The money side's pages (docs/decisions/0019-billing.md), in every language: the pricing page,
// the sandbox checkout, orders, subscriptions and their cancel dialog, the balance in the header
// and dashboard, and the full profile's price before it is bought.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPaymentEvent } from '../../core/billing/apply-payment-event.ts';
import { CREDIT_PACKS, PLANS } from '../../core/billing/catalogue.ts';
import { creditBalance, grantCredits } from '../../core/billing/ledger.ts';
import { paddleId, sandboxPriceId } from '../../core/billing/paddle-events.ts';
import { createSandboxProvider } from '../../core/billing/payment-provider.ts';
import { addWatchlistObjects } from '../../core/watchlists/watchlist-objects.ts';
import { createWatchlist } from '../../core/watchlists/watchlists.ts';
import { textOf } from '../support/accounts.ts';
import { pageClient } from '../support/page-forms.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser } from '../support/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());
const { get, post } = pageClient(() => t.app);

describe('pricing', () => {
  it('lists packs, plans and what credits pay for, in en, de and fr', async () => {
    const en = textOf((await get('/info/pricing/')).body);
    expect(en).toContain('Credit packs');
    expect(en).toContain(CREDIT_PACKS[0].name.en);
    expect(en).toContain('€9.00');
    expect(en).toContain(`${PLANS[0].credits} credits every month`);
    expect(en).toContain('Full company profile');
    const de = textOf((await get('/de/info/pricing/')).body);
    expect(de).toContain('Credit-Pakete');
    expect(de).toContain('9,00 €');
    expect(de).toContain(CREDIT_PACKS[0].name.de);
    const fr = textOf((await get('/fr/info/pricing/')).body);
    expect(fr).toContain('Packs de crédits');
    expect(fr).toContain(CREDIT_PACKS[0].name.fr);
  });

  it('offers a guest the sign-in gate instead of the buy form', async () => {
    const html = (await get('/info/pricing/')).body;
    expect(html).toContain(`data-gate="buy-${CREDIT_PACKS[0].id}"`);
    expect(html).toContain('id="sign-in-gate"');
    expect((await post('/info/pricing/', { offer: CREDIT_PACKS[0].id })).statusCode).toBe(401);
  });
});

describe('buying through the sandbox checkout', () => {
  it('orders a pack, pays it, shows the order paid and the balance in the header and dashboard', async () => {
    const user = await createSignedInUser(t.db, 'pages-buy');
    const pack = CREDIT_PACKS[1];
    const bought = await post('/info/pricing/', { offer: pack.id }, user);
    expect(bought.statusCode).toBe(303);
    expect(bought.headers.location).toBe('/dashboard/orders/1/checkout/');
    const checkout = textOf((await get('/dashboard/orders/1/checkout/', user)).body);
    expect(checkout).toContain('Pay order #1');
    expect(checkout).toContain('no money moves');
    const paid = await post('/dashboard/orders/1/checkout/', { intent: 'pay' }, user);
    expect(paid.headers.location).toBe('/dashboard/orders/?order=1');
    expect(await creditBalance(t.db, user.id)).toBe(pack.credits);
    const orders = await get('/dashboard/orders/?order=1', user);
    const text = textOf(orders.body);
    expect(text).toContain('Thank you: order #1 is paid');
    for (const column of ['#', 'Created on', 'Amount', 'Status', 'Details']) expect(text).toContain(column);
    expect(text).toContain('Paid');
    expect(text).toContain('€39.00');
    expect(orders.body).toContain('/api/orders/');
    expect(orders.body).toContain(`>${pack.credits} credits</a>`);
    expect(textOf((await get('/dashboard/', user)).body)).toContain(`Your balance: ${pack.credits} credits.`);
    // Paid: nothing more to pay.
    expect((await get('/dashboard/orders/1/checkout/', user)).headers.location).toBe('/dashboard/orders/?order=1');
  });

  it('leaves a declined order failed, saying why, in German', async () => {
    const user = await createSignedInUser(t.db, 'pages-decline');
    await post('/de/info/pricing/', { offer: CREDIT_PACKS[0].id }, user);
    await post('/de/dashboard/orders/1/checkout/', { intent: 'decline' }, user);
    const text = textOf((await get('/de/dashboard/orders/?order=1', user)).body);
    expect(text).toContain('Bestellung Nr. 1 wurde nicht bezahlt: Die Karte wurde abgelehnt.');
    expect(text).toContain('Fehlgeschlagen');
    expect(await creditBalance(t.db, user.id)).toBe(0);
  });

  it('shows an order paid at another amount as failed, saying why, in every language', async () => {
    const user = await createSignedInUser(t.db, 'pages-mismatch');
    const pack = CREDIT_PACKS[2];
    await post('/info/pricing/', { offer: pack.id }, user);
    const order = await t.db.kysely
      .selectFrom('orders')
      .select('id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    // A verified transaction naming the order, at 1 cent (core/billing/payment-mismatch.ts).
    const applied = await applyPaymentEvent(t.db, createSandboxProvider(), {
      eventId: paddleId('evt'),
      eventType: 'transaction.completed',
      type: 'paid',
      transactionId: paddleId('txn'),
      orderId: Number(order.id),
      userId: user.id,
      subscriptionId: null,
      period: null,
      amountMinor: 1,
      currency: pack.price.currency,
      items: [{ priceId: sandboxPriceId(CREDIT_PACKS[0].id), quantity: 1 }],
    });
    expect(applied).toMatchObject({ kind: 'failed', review: 'amount_mismatch' });
    expect(await creditBalance(t.db, user.id)).toBe(0);
    const en = textOf((await get('/dashboard/orders/?order=1', user)).body);
    expect(en).toContain('Order #1 was not paid: the amount paid was not the order’s, so no credits were added');
    expect(en).toContain('Failed');
    expect(textOf((await get('/de/dashboard/orders/', user)).body)).toContain(
      'Der gezahlte Betrag entsprach nicht dem der Bestellung',
    );
    expect(textOf((await get('/fr/dashboard/orders/', user)).body)).toContain(
      'le montant payé n’était pas celui de la commande',
    );
    // It can still be paid, at its price.
    expect((await post('/dashboard/orders/1/checkout/', { intent: 'pay' }, user)).statusCode).toBe(303);
    expect(await creditBalance(t.db, user.id)).toBe(pack.credits);
  });

  it('does not show another user’s order', async () => {
    const user = await createSignedInUser(t.db, 'pages-order-owner');
    const other = await createSignedInUser(t.db, 'pages-order-other');
    await post('/info/pricing/', { offer: CREDIT_PACKS[0].id }, user);
    expect((await get('/dashboard/orders/1/checkout/', other)).statusCode).toBe(404);
    expect((await post('/dashboard/orders/1/checkout/', { intent: 'pay' }, other)).statusCode).toBe(404);
    expect(await creditBalance(t.db, other.id)).toBe(0);
  });
});

describe('subscriptions', () => {
  it('opens the cancel dialog only with a subscription, and cancels at the period’s end', async () => {
    const user = await createSignedInUser(t.db, 'pages-subscription');
    const none = await get('/dashboard/subscriptions/?cancel=1', user);
    expect(textOf(none.body)).toContain('You have no subscription.');
    expect(none.body).not.toContain('<dialog');
    await post('/info/pricing/', { offer: PLANS[0].id }, user);
    await post('/dashboard/orders/1/checkout/', { intent: 'pay' }, user);
    const page = textOf((await get('/dashboard/subscriptions/', user)).body);
    for (const column of ['Current plan', 'Started on', 'Credits left', 'Expires on', 'Next payment on'])
      expect(page).toContain(column);
    expect(page).toContain(`${PLANS[0].credits} credits`);
    const dialog = await get('/dashboard/subscriptions/?cancel=1', user);
    expect(dialog.body).toContain('<dialog open');
    const id = /name="id" value="(\d+)"/.exec(dialog.body)?.[1];
    const done = await post('/dashboard/subscriptions/', { id: id ?? '' }, user);
    expect(done.headers.location).toBe('/dashboard/subscriptions/?done=cancelled');
    const after = await get('/dashboard/subscriptions/?done=cancelled&cancel=1', user);
    expect(textOf(after.body)).toContain('Your subscription is cancelled: it ends on');
    expect(after.body).not.toContain('<dialog');
  });

  it('answers another user’s subscription id in the cancel form with the 404 page, and a second cancel with the 409 page', async () => {
    const owner = await createSignedInUser(t.db, 'pages-sub-owner');
    const other = await createSignedInUser(t.db, 'pages-sub-other');
    await post('/info/pricing/', { offer: PLANS[0].id }, owner);
    await post('/dashboard/orders/1/checkout/', { intent: 'pay' }, owner);
    const id = /name="id" value="(\d+)"/.exec((await get('/dashboard/subscriptions/?cancel=1', owner)).body)?.[1];
    expect(id).toBeDefined();
    const cancelled = () =>
      t.db.kysely
        .selectFrom('subscriptions')
        .select('cancel_at_period_end')
        .where('id', '=', Number(id))
        .executeTakeFirstOrThrow()
        .then((r) => r.cancel_at_period_end);
    for (const [prefix, title] of [
      ['', 'Page not found'],
      ['/de', 'Seite nicht gefunden'],
      ['/fr', 'Page introuvable'],
    ]) {
      const response = await post(`${prefix}/dashboard/subscriptions/`, { id: id ?? '' }, other);
      expect(response.statusCode, prefix).toBe(404);
      expect(textOf(response.body), prefix).toContain(title);
    }
    expect(await cancelled()).toBe(false);
    expect((await post('/dashboard/subscriptions/', { id: id ?? '' }, owner)).statusCode).toBe(303);
    expect(await cancelled()).toBe(true);
    const again = await post('/de/dashboard/subscriptions/', { id: id ?? '' }, owner);
    expect(again.statusCode).toBe(409);
    expect(textOf(again.body)).toContain('Das ist jetzt nicht möglich');
  });
});

describe('a full profile’s price', () => {
  it('shows the cost and the balance after, buys it once, and shows its contact details', async () => {
    const user = await createSignedInUser(t.db, 'pages-profile');
    const row = await sql<{ uri: string; contact: string }>`
      select le.uri, c.contact from legal_entities le
      join legal_entity_contacts c on c.legal_entity_id = le.id
      where c.contact like '%@%'
      order by le.id limit 1`.execute(t.db.kysely);
    const { uri, contact } = row.rows[0];
    const path = `/companies/details/${uri}/`;
    const guest = await get(path);
    expect(guest.body).toContain('data-gate="buy-profile"');
    expect(guest.body).not.toContain(contact);
    const poor = textOf((await get(path, user)).body);
    expect(poor).toMatch(/This costs \d credits? and your balance is 0 credits\./);
    const short = await post(path, { intent: 'buy-profile' }, user);
    expect(short.headers.location).toMatch(/^\/info\/pricing\/\?cost=\d$/);
    await grantCredits(t.db, user.id, 5);
    const offer = textOf((await get(path, user)).body);
    const cost = Number(/Open the full profile \((\d) credits?\)/.exec(offer)?.[1]);
    expect(offer).toContain(`Your balance after: ${5 - cost} credit`);
    expect((await post(path, { intent: 'buy-profile' }, user)).statusCode).toBe(303);
    expect((await post(path, { intent: 'buy-profile' }, user)).statusCode).toBe(303);
    expect(await creditBalance(t.db, user.id)).toBe(5 - cost);
    const full = await get(path, user);
    expect(full.body).toContain(contact);
    expect(textOf(full.body)).toContain('You bought the full profile of this company on');
  });
});

describe('an export’s price', () => {
  it('says what the ticked rows cost and the balance after, before the download', async () => {
    const user = await createSignedInUser(t.db, 'pages-export-cost');
    await grantCredits(t.db, user.id, 3);
    const ids = await t.db.kysely.selectFrom('legal_entities').select('id').orderBy('id').limit(2).execute();
    const text = textOf((await get(`/companies/export/?ids=${ids.map((r) => r.id).join(',')}`, user)).body);
    expect(text).toContain('these 2 rows cost 1 credit.');
    expect(text).toContain('Your balance: 3 credits. Your balance after: 2 credits.');
    const fr = textOf((await get('/fr/companies/export/', user)).body);
    expect(fr).toContain('Un export coûte 1 crédit par 100 lignes');
  });

  /** "… these N rows cost M credits." of an export page, as numbers. */
  function statedPrice(text: string) {
    const found = /these ([\d,]+) rows? cost ([\d,]+) credits?\./.exec(text);
    expect(found, text).not.toBeNull();
    return { rows: Number(found?.[1].replace(/,/g, '')), credits: Number(found?.[2].replace(/,/g, '')) };
  }

  it('states the exact price of a whole search and of each scope, and the download costs exactly that', async () => {
    const user = await createSignedInUser(t.db, 'pages-export-search');
    await grantCredits(t.db, user.id, 500);
    const top = await sql<{ id: number; n: number }>`
      select jurisdiction_id as id, count(*)::int as n from legal_entities group by 1 order by 2 desc, 1 limit 1`.execute(
      t.db.kysely,
    );
    const { id: jurisdiction, n } = top.rows[0];
    const query = `?jurisdiction=${jurisdiction}&scope=all`;
    const text = textOf((await get(`/companies/export/${query}`, user)).body);
    const price = statedPrice(text);
    expect(price.rows).toBe(n);
    expect(price.credits).toBe(Math.max(1, Math.ceil(n / 100)));
    expect(text).toContain(`Your balance: 500 credits. Your balance after: ${500 - price.credits} credit`);
    // Every scope offered says its own price beside it (the current page: one page of results).
    expect(text).toMatch(/The current page [\d,]+ rows?: 1 credit\./);
    expect(text).toMatch(
      new RegExp(`All records \\(at most [\\d,]+\\) ${n.toLocaleString('en')} rows: ${price.credits} credits?\\.`),
    );
    // The download writes exactly the rows stated and spends exactly the credits stated.
    const download = await t.app.inject({
      url: `/api/export/companies${query}&format=csv`,
      headers: { cookie: user.cookie },
    });
    expect(download.statusCode).toBe(200);
    expect(Number(download.headers['x-export-rows'])).toBe(price.rows);
    expect(await creditBalance(t.db, user.id)).toBe(500 - price.credits);
  });

  it('states a list’s price, and offers the pricing page when the balance is too low', async () => {
    const user = await createSignedInUser(t.db, 'pages-export-list');
    const companies = await t.db.kysely.selectFrom('legal_entities').select('id').orderBy('id').limit(3).execute();
    const list = await createWatchlist(t.db, user.id, { name: 'Priced' });
    await addWatchlistObjects(
      t.db,
      user.id,
      list.id,
      companies.map((c) => Number(c.id)),
    );
    const html = (await get(`/companies/export/?list=${list.number}`, user)).body;
    const text = textOf(html);
    expect(statedPrice(text)).toEqual({ rows: 3, credits: 1 });
    expect(text).toContain('This costs 1 credit and your balance is 0 credits.');
    expect(html).toMatch(/<a class="button" href="\/info\/pricing\/">Buy credits<\/a>/);
    expect(text).not.toContain('Your balance after');
  });
});
