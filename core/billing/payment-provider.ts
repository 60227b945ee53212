import { randomBytes } from 'node:crypto';
import { Environment, Paddle } from '@paddle/paddle-node-sdk';
import { AppError } from '../errors/app-error.ts';
import type { Offer } from './catalogue.ts';
import { type BillingEvent, paddleSignature, sandboxPriceId, verifyPaddleWebhook } from './paddle-events.ts';

// Who takes the money (docs/decisions/0019-billing.md). One interface, two providers: Paddle
// (Paddle.js opens its checkout on our page, the official Node SDK verifies its webhooks and
// cancels subscriptions through its API) when its keys are configured, and otherwise the sandbox:
// a checkout page of our own whose outcome is sent as a webhook in Paddle's format, signed with a
// secret of this process and verified by the same SDK call — so `npm start` buys credits end to
// end with no account anywhere, and the path a real payment takes is the one the sandbox takes.

/** An order as a checkout needs it; `transactionId`: the one the server opened for it (openTransaction), if any. */
export type CheckoutOrder = {
  id: number;
  number: number;
  userId: number;
  email: string;
  offer: Offer;
  transactionId: string | null;
};

/** What the checkout page renders to take the payment. */
export type CheckoutView =
  | { provider: 'sandbox' }
  | {
      provider: 'paddle';
      /** Paddle.js's client-side token (public by design). */
      clientToken: string;
      environment: 'sandbox' | 'production';
      /** The Paddle price of the offer; null when none is configured (the page says so). */
      priceId: string | null;
      /** Comes back in the webhooks: which order and user the payment is for. */
      customData: { order_id: string; user_id: string };
      /**
       * The transaction the server opened with that price and custom data, which Paddle.js opens:
       * the browser chooses neither. Only it pays the order (core/billing/payment-mismatch.ts).
       */
      transactionId: string | null;
      email: string;
    };

export type PaymentProvider = {
  id: 'sandbox' | 'paddle';
  checkout(order: CheckoutOrder): CheckoutView;
  /** The provider's price id of an offer (null: none configured); a paid transaction must be of it. */
  priceIdOf(offer: Offer): string | null;
  /** Verifies a webhook (its raw body and signature header) and reads it; throws a 401 AppError when it is not the provider's. */
  verifyWebhook(rawBody: string, signature: string): Promise<BillingEvent>;
  /**
   * Opens the provider's transaction of an order, with the order's price and custom data (Paddle:
   * transactions.create), for its checkout to open; the sandbox has none (its page is the checkout).
   */
  openTransaction?(order: Pick<CheckoutOrder, 'id' | 'userId' | 'offer'>): Promise<string>;
  /** Asks the provider to end a subscription at the end of its period. */
  cancelSubscription(providerRef: string): Promise<void>;
  /** Origins the checkout page loads scripts and frames from (the Content-Security-Policy). */
  origins: { script: string[]; frame: string[]; connect: string[] };
};

/** The sandbox provider, and how its checkout page makes a signed webhook of an outcome. */
export type SandboxProvider = PaymentProvider & {
  id: 'sandbox';
  /** A Paddle-format event as its body and Paddle-Signature header, signed with this provider's secret. */
  sign(event: unknown): { body: string; signature: string };
};

export function isSandbox(provider: PaymentProvider): provider is SandboxProvider {
  return provider.id === 'sandbox' && 'sign' in provider;
}

export function createSandboxProvider(secret = randomBytes(32).toString('hex')): SandboxProvider {
  return {
    id: 'sandbox',
    checkout: () => ({ provider: 'sandbox' }),
    priceIdOf: (offer) => sandboxPriceId(offer.id),
    verifyWebhook: (rawBody, signature) => verifyPaddleWebhook(rawBody, secret, signature),
    // Nothing to tell: the subscription is ours alone.
    cancelSubscription: async () => {},
    origins: { script: [], frame: [], connect: [] },
    sign(event) {
      const body = JSON.stringify(event);
      return { body, signature: paddleSignature(body, secret) };
    },
  };
}

export type PaddleSettings = {
  apiKey: string;
  clientToken: string;
  webhookSecret: string;
  environment: 'sandbox' | 'production';
  /** Paddle price ids by catalogue offer id (core/billing/catalogue.ts). */
  prices: Record<string, string>;
  /** Paddle's API at another address than the environment's (a local stand-in, in tests). */
  apiUrl?: string;
};

export function createPaddleProvider(settings: PaddleSettings): PaymentProvider {
  const paddle = new Paddle(settings.apiKey, {
    // The SDK takes an environment that is not one of its own as the API's base URL.
    environment:
      (settings.apiUrl as Environment | undefined) ??
      (settings.environment === 'production' ? Environment.production : Environment.sandbox),
  });
  const customData = (order: { id: number; userId: number }) => ({
    order_id: String(order.id),
    user_id: String(order.userId),
  });
  const checkoutHost =
    settings.environment === 'production' ? 'https://buy.paddle.com' : 'https://sandbox-buy.paddle.com';
  return {
    id: 'paddle',
    checkout: (order) => ({
      provider: 'paddle',
      clientToken: settings.clientToken,
      environment: settings.environment,
      priceId: settings.prices[order.offer.id] ?? null,
      customData: customData(order),
      transactionId: order.transactionId,
      email: order.email,
    }),
    async openTransaction(order) {
      const priceId = settings.prices[order.offer.id];
      if (!priceId) throw new AppError('conflict', `No Paddle price is configured for ${order.offer.id}.`);
      try {
        const transaction = await paddle.transactions.create({
          items: [{ priceId, quantity: 1 }],
          customData: customData(order),
        });
        return transaction.id;
      } catch {
        // A 503 (Retry-After): the order stays pending, and the next visit of its checkout tries again.
        throw new AppError('unavailable', 'The payment provider could not open the checkout: try again in a moment.', {
          reason: 'payment_provider',
        });
      }
    },
    priceIdOf: (offer) => settings.prices[offer.id] ?? null,
    verifyWebhook: (rawBody, signature) => verifyPaddleWebhook(rawBody, settings.webhookSecret, signature),
    async cancelSubscription(providerRef) {
      await paddle.subscriptions.cancel(providerRef, { effectiveFrom: 'next_billing_period' });
    },
    origins: {
      script: ['https://cdn.paddle.com'],
      frame: [checkoutHost],
      connect: ['https://cdn.paddle.com', checkoutHost],
    },
  };
}
