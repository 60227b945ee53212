import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { receiveWebhook } from '../../core/billing/apply-payment-event.ts';
import { EXPORT_ROWS_PER_CREDIT, OFFERS, PRODUCTS } from '../../core/billing/catalogue.ts';
import { checkoutOf, placeOfferOrder } from '../../core/billing/checkout.ts';
import { readInvoice, writeInvoicePdf } from '../../core/billing/invoice-pdf.ts';
import { creditBalance, listLedger } from '../../core/billing/ledger.ts';
import { listPayments } from '../../core/billing/payments.ts';
import { cancelSubscription, listSubscriptions } from '../../core/billing/subscriptions.ts';
import { AppError } from '../../core/errors/app-error.ts';
import type { AppServices } from '../../core/services.ts';
import { requireUser } from './auth.ts';
import { type ApiRoutes, getRoute, intParam, langParam, mutationRoute } from './route.ts';
import { idParams, RECORD_ROUTE_ERRORS, requireOwnUser, USER_ROUTE_ERRORS, userIdParams } from './user-data-route.ts';

// The money side of the users API (spec §7 "Payments": GET payments, products, balances,
// subscriptions, purchases for a user; POST payments, purchases, subscriptions/cancel), the
// payment provider's webhook, and invoices (docs/decisions/0019-billing.md). Purchases are in
// user-account-data.ts. Guards as everywhere: a guest 401, another user's {user_id} 403, another
// user's record 404.

const TAGS = ['Payments'];

const translated = z.object({ en: z.string(), de: z.string(), fr: z.string() });
const money = z.object({
  amount: z.number().int().describe('In the currency’s minor unit (cents): 1990 is 19.90.'),
  currency: z.string().describe('ISO 4217 code.'),
});

const OfferSchema = z
  .object({
    id: z.string(),
    kind: z.enum(['pack', 'plan']).describe('pack: credits once; plan: a subscription with credits every month.'),
    credits: z.number().int().describe('Credits it brings (a plan: every month).'),
    price: money.describe('A pack’s price, or a plan’s price a month.'),
    name: translated,
  })
  .meta({ id: 'Offer' });

const ProductSchema = z
  .object({
    id: z.string(),
    credits: z.number().int().describe('Credits per unit.'),
    name: translated,
    unit: translated,
  })
  .meta({ id: 'Product' });

const OrderRefSchema = z.object({
  id: z.number().int(),
  number: z.number().int(),
  amount: z.string(),
  currency: z.string(),
  status: z.string(),
});

const PaymentSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(['paid', 'failed', 'refunded', 'chargeback', 'subscription']),
    provider: z.string().describe('sandbox or paddle.'),
    event_type: z.string().describe('The provider’s event, e.g. transaction.completed.'),
    order_id: z.number().int().nullable(),
    amount_minor: z.number().int().nullable().describe('Minor units; a refund is negative.'),
    currency: z.string().nullable(),
    detail: z.string().nullable().describe('A failure’s reason code (declined, insufficient_funds, …).'),
    created_at: z.string(),
  })
  .meta({ id: 'Payment' });

const SubscriptionSchema = z
  .object({
    id: z.number().int(),
    plan_id: z.string(),
    monthly_credits: z.number().int(),
    status: z.enum(['active', 'cancelled', 'ended']).describe('cancelled: ends at expires_at.'),
    started_at: z.string(),
    period_start: z.string(),
    period_end: z.string(),
    expires_at: z.string().nullable(),
    next_payment_at: z.string().nullable(),
    credits_left: z.number().int(),
  })
  .meta({ id: 'Subscription' });

const LedgerEntrySchema = z.object({
  id: z.number().int(),
  delta: z.number().int().describe('Credits added (positive) or spent or taken back (negative).'),
  reason: z.enum([
    'pack',
    'subscription',
    'profile',
    'export',
    'export_refund',
    'api',
    'api_refund',
    'refund',
    'chargeback',
    'grant',
    'enrichment',
    'enrichment_refund',
  ]),
  order_id: z.number().int().nullable(),
  purchase_id: z.number().int().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
});

const list = <T extends z.ZodType>(item: T) =>
  z.object({ count: z.number().int().describe('Items in `data`.'), data: z.array(item) });

export function registerBillingRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { db, payments: provider } = services;
  const own = { tags: TAGS, auth: true, params: userIdParams, query: z.strictObject({}), errors: USER_ROUTE_ERRORS };

  getRoute(
    api,
    routes,
    {
      ...own,
      url: '/products/users/:user_id',
      operationId: 'listProducts',
      summary: 'What credits buy and what credits cost',
      description: `The catalogue: the offers (credit packs and subscription plans, prices in minor units) and the products credits pay for (a full profile, an advanced profile, an export: 1 credit per ${EXPORT_ROWS_PER_CREDIT} rows, at least 1).`,
      response: z.object({ offers: z.array(OfferSchema), products: z.array(ProductSchema) }),
    },
    async (_q, { request, path }) => {
      await requireOwnUser(request, path.user_id);
      return { offers: [...OFFERS], products: [...PRODUCTS] };
    },
  );

  getRoute(
    api,
    routes,
    {
      ...own,
      url: '/balances/users/:user_id',
      operationId: 'getBalance',
      summary: 'A user’s credits: the balance and the latest ledger entries',
      description:
        'The balance is the sum of the ledger, which is only ever appended to: credits of paid orders and subscription periods, spends on profiles and exports, refunds and chargebacks taking an order’s credits back. The 50 newest entries.',
      response: z.object({ balance: z.number().int(), entries: z.array(LedgerEntrySchema) }),
    },
    async (_q, { request, path }) => {
      const auth = await requireOwnUser(request, path.user_id);
      const [balance, entries] = await Promise.all([creditBalance(db, auth.user.id), listLedger(db, auth.user.id)]);
      return { balance, entries };
    },
  );

  getRoute(
    api,
    routes,
    {
      ...own,
      url: '/payments/users/:user_id',
      operationId: 'listPayments',
      summary: 'What the payment provider reported about a user’s orders',
      description: 'Newest first, the 50 latest: payments, failures (with the reason), refunds and chargebacks.',
      response: list(PaymentSchema),
    },
    async (_q, { request, path }) => {
      const auth = await requireOwnUser(request, path.user_id);
      const data = await listPayments(db, auth.user.id);
      return { count: data.length, data };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/payments/users/:user_id',
      operationId: 'createPayment',
      summary: 'Order an offer and start its checkout',
      description:
        'Places a pending order of a catalogue offer at the catalogue’s price and answers what the checkout needs: the sandbox checkout page, or Paddle.js’s settings (client token, price id, custom data naming the order, and `transactionId`: the Paddle transaction the server opened with them, which Paddle.js opens — only it pays the order; 503 when Paddle cannot be reached, the order staying pending). The order becomes paid when the provider’s webhook says so. A plan while another subscription renews is a 409.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      body: z.strictObject({
        offer_id: z.string().max(100).describe('An offer’s id (GET /products/users/{user_id}).'),
      }),
      response: z.object({
        order: OrderRefSchema,
        checkout_url: z.string().describe('The page that takes the payment.'),
        checkout: z.record(z.string(), z.unknown()).describe('The provider’s checkout settings.'),
      }),
      status: 201,
      errors: [...USER_ROUTE_ERRORS, 409],
    },
    async ({ params, body }, { request }) => {
      const auth = await requireOwnUser(request, params.user_id);
      const order = await placeOfferOrder(db, provider, auth.user.id, body.offer_id);
      const { view } = await checkoutOf(db, provider, { id: auth.user.id, email: auth.user.email }, order.number);
      return {
        order: {
          id: order.id,
          number: order.number,
          amount: order.amount,
          currency: order.currency,
          status: order.status,
        },
        checkout_url: `/dashboard/orders/${order.number}/checkout/`,
        checkout: view,
      };
    },
  );

  getRoute(
    api,
    routes,
    {
      ...own,
      url: '/subscriptions/users/:user_id',
      operationId: 'listSubscriptions',
      summary: 'A user’s subscriptions',
      description:
        'Newest first: the plan, when it started, its period, and either its next payment (renewing) or when it expires (cancelled). Credits left is the balance.',
      response: list(SubscriptionSchema),
    },
    async (_q, { request, path }) => {
      const auth = await requireOwnUser(request, path.user_id);
      const data = await listSubscriptions(db, auth.user.id);
      return { count: data.length, data };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/subscriptions/:id/cancel',
      operationId: 'cancelSubscription',
      summary: 'Cancel a subscription at the end of its period',
      description:
        'The provider is told not to renew it; it stays active until the period’s end (`expires_at`), and the credits stay. One that is already cancelled is a 409.',
      tags: TAGS,
      auth: true,
      params: idParams,
      response: SubscriptionSchema,
      errors: [...RECORD_ROUTE_ERRORS, 409],
    },
    async ({ params }, { request }) => {
      const auth = await requireUser(request);
      return cancelSubscription(db, provider, auth.user.id, params.id);
    },
  );

  // The invoice: a file, declared for the document.
  routes.push({
    url: '/orders/:id/invoice',
    operationId: 'getInvoice',
    summary: 'The invoice of a paid order (PDF)',
    description: 'Only paid and refunded orders have one; another user’s order, or one not paid, is a 404.',
    tags: TAGS,
    auth: true,
    params: idParams,
    query: z.strictObject({ lang: langParam.optional() }),
    response: z.string(),
    produces: ['application/pdf'],
    errors: RECORD_ROUTE_ERRORS,
  });
  api.get('/orders/:id/invoice', async (request, reply) => {
    const auth = await requireUser(request);
    const id = intParam('id').safeParse((request.params as { id: string }).id);
    if (!id.success) throw new AppError('bad_request', 'id must be a whole number', { parameter: 'id' });
    const langText = new URL(request.url, 'http://x').searchParams.get('lang') ?? 'en';
    const lang = langText === 'de' || langText === 'fr' ? langText : 'en';
    const { invoice, fileName } = await readInvoice(db, auth.user.id, { id: id.data }, lang);
    const pdf = await writeInvoicePdf(invoice, lang);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });

  // The provider's webhook: its raw body is what the signature covers, so this scope reads JSON as text.
  routes.push({
    url: '/payments/webhooks/:provider',
    method: 'post',
    operationId: 'receivePaymentWebhook',
    summary: 'The payment provider’s webhook (Paddle’s format)',
    description:
      'Verified with the Paddle SDK before anything in it is read (the Paddle-Signature header: HMAC-SHA256 of `ts:body`, at most 5 seconds old and at most 5 seconds ahead of our clock; else 401). Each event acts once: the same event id again answers 200 with `duplicate: true`. transaction.completed pays an order and adds its credits when its total, currency and item (the price of the order’s offer, quantity 1) are the order’s and, in Paddle mode, it is the transaction opened for the order’s checkout; else the order fails with `amount_mismatch`, `currency_mismatch`, `price_mismatch` or `transaction_mismatch` and is flagged for review, and no credits are added. transaction.payment_failed fails it with the reason; an approved refund or chargeback adjustment takes the credits back; subscription.canceled ends a subscription. Authenticated by its signature, it counts against a per-address limit of its own, not the anonymous plan’s; one whose signature is refused counts against the anonymous limit (429 past it).',
    tags: TAGS,
    params: z.strictObject({ provider: z.enum(['sandbox', 'paddle']).describe('The configured provider.') }),
    query: z.strictObject({}),
    body: z.object({ event_id: z.string(), event_type: z.string(), data: z.record(z.string(), z.unknown()) }).loose(),
    response: z.object({ received: z.boolean(), duplicate: z.boolean() }),
    signed: true,
    errors: [401, 404],
  });
  api.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post('/payments/webhooks/:provider', async (request, reply) => {
      // Until the signature is verified, the sender is anonymous (server/plugins/api-limits.ts).
      const unverified = async (error: AppError) => {
        await request.refuseUnverifiedWebhook?.(reply);
        return error;
      };
      const parsed = z.enum(['sandbox', 'paddle']).safeParse((request.params as { provider: string }).provider);
      if (!parsed.success) {
        throw await unverified(
          new AppError('bad_request', 'provider must be sandbox or paddle', { parameter: 'provider' }),
        );
      }
      const name = parsed.data;
      if (name !== provider.id)
        throw await unverified(new AppError('not_found', `No ${name} provider is configured here.`));
      const signature = request.headers['paddle-signature'];
      const event = await receiveWebhook(
        services,
        typeof request.body === 'string' ? request.body : '',
        typeof signature === 'string' ? signature : '',
      ).catch(async (error) => {
        // The signature was refused (the provider's verification answers 401): still anonymous.
        throw error instanceof AppError && error.code === 'unauthorized' ? await unverified(error) : error;
      });
      if (event.review) {
        // Money was taken that does not pay the order: someone must settle it with the provider.
        request.log.warn(
          { provider: name, orderId: event.orderId, review: event.review },
          'a paid transaction does not match its order: the order is failed and flagged for review',
        );
      }
      return { received: true, duplicate: event.duplicate };
    });
  });
}
