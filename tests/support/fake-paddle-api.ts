// A local stand-in for Paddle's API (docs/decisions/0019-billing.md), for the official SDK to talk
// to over HTTP (PaddleSettings.apiUrl): `POST /transactions` opens a transaction of the prices it
// knows, with the custom data it was sent, and answers it as Paddle does. Once the test says the
// buyer paid, `completedEvent(id)` is the transaction.completed Paddle would then send: the
// webhook's price, total and custom data are the ones our server opened the transaction with.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Offer } from '../../core/billing/catalogue.ts';
import { completedEvent, paddleId } from '../../core/billing/paddle-events.ts';

type Opened = { offer: Offer; priceId: string; orderId: number; userId: number };

export class FakePaddleApi {
  /** Transactions opened, by id. */
  readonly transactions = new Map<string, Opened>();
  /** Every call answers 500 instead (Paddle unreachable or broken). */
  failing = false;
  url = '';
  private server: Server | null = null;
  private readonly apiKey: string;
  private readonly offers: Record<string, Offer>;

  /** `offers`: the catalogue offer of each Paddle price id, as PADDLE_PRICES configures them. */
  constructor(apiKey: string, offers: Record<string, Offer>) {
    this.apiKey = apiKey;
    this.offers = offers;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** The transaction.completed Paddle sends once the buyer paid the transaction `id`. */
  completedEvent(id: string) {
    const opened = this.transactions.get(id);
    if (!opened) throw new Error(`Paddle opened no transaction ${id}`);
    return completedEvent(
      {
        orderId: opened.orderId,
        userId: opened.userId,
        offer: opened.offer,
        amountMinor: opened.offer.price.amount,
        currency: opened.offer.price.currency,
        transactionId: id,
        priceId: opened.priceId,
      },
      null,
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, code: string) =>
      answer(status, { error: { type: 'request_error', code, detail: code, documentation_url: '' } });
    if (this.failing) return error(500, 'internal_error');
    if (req.headers.authorization !== `bearer ${this.apiKey}`) return error(403, 'forbidden');
    if (req.method !== 'POST' || new URL(req.url ?? '/', this.url).pathname !== '/transactions') {
      return error(404, 'not_found');
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      items?: { price_id?: string; quantity?: number }[];
      custom_data?: { order_id?: string; user_id?: string };
    };
    const [item, ...others] = body.items ?? [];
    const offer = item?.price_id ? this.offers[item.price_id] : undefined;
    if (!item?.price_id || !offer || others.length > 0 || item.quantity !== 1) return error(400, 'bad_request');
    const id = paddleId('txn');
    const opened = {
      offer,
      priceId: item.price_id,
      orderId: Number(body.custom_data?.order_id),
      userId: Number(body.custom_data?.user_id),
    };
    this.transactions.set(id, opened);
    // Paddle answers the transaction, ready to be paid.
    const { data } = this.completedEvent(id);
    answer(201, {
      data: { ...(data as object), status: 'ready', payments: [] },
      meta: { request_id: paddleId('req') },
    });
  }
}
