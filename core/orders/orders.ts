import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import type { ListQuery, Page } from '../user-data/list-query.ts';
import {
  columnIs,
  getOwned,
  insertNumbered,
  listOwned,
  type OwnedResource,
  type OwnedSelect,
  textIn,
} from '../user-data/owned-records.ts';
import { fieldProblem, notFound } from '../user-data/user-data-errors.ts';

// A user's orders (spec §3 "orders": number, created_at, amount, status, order_data; §7 orders on
// users/{user_id}; the page /dashboard/orders/ shows #, Created on, Amount, Status, Details).
// Statuses per DESIGN.md: pending, paid, failed, refunded, cancelled. A user creates an order
// (pending) and may cancel it while it is pending; paid, failed and refunded are the payment
// provider's to set (core/billing/apply-payment-event.ts). Paid and refunded orders are records of money and stay.

export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'refunded', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** Statuses whose orders a user may delete: no money moved. */
const DELETABLE: readonly OrderStatus[] = ['pending', 'failed', 'cancelled'];

export const ORDER_DATA_MAX_CHARS = 10_000;
const AMOUNT_INTEGER_DIGITS = 12;

export type Order = {
  id: number;
  /** Per user, from 1: the # column. */
  number: number;
  created_at: string;
  updated_at: string;
  /** Exact, with the currency's minor unit of decimals: "12.50". */
  amount: string;
  /** ISO 4217 code. */
  currency: string;
  status: OrderStatus;
  /** What was ordered, as the client described it. */
  order_data: Record<string, unknown>;
  /** Why the payment failed, as the provider's code (declined, insufficient_funds, …); null otherwise. */
  failure_reason: string | null;
};

export type OrderInput = { amount: string; currency: string; order_data?: Record<string, unknown> };

type OrderRow = {
  id: number;
  number: number;
  created_at: Date;
  updated_at: Date;
  amount: string;
  currency: string;
  status: OrderStatus;
  order_data: unknown;
  failure_reason: string | null;
};

function orderOf(row: OrderRow): Order {
  const data = typeof row.order_data === 'string' ? JSON.parse(row.order_data) : row.order_data;
  return {
    id: Number(row.id),
    number: Number(row.number),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    amount: String(row.amount),
    currency: row.currency,
    status: row.status,
    order_data: data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {},
    failure_reason: row.failure_reason,
  };
}

/**
 * An amount in a currency's minor unit, exactly (decimal text, never a float): "12.5" in EUR is
 * "12.50"; more decimals than the currency has, zero or less, or a malformed number is a 400.
 */
export function orderAmount(raw: string, minorUnit: number): string {
  const text = raw.trim();
  const m = new RegExp(`^(\\d{1,${AMOUNT_INTEGER_DIGITS}})(?:\\.(\\d+))?$`).exec(text);
  if (!m) {
    throw fieldProblem(
      'amount',
      'invalid',
      `amount must be a positive decimal number like 12.50 (at most ${AMOUNT_INTEGER_DIGITS} digits before the point).`,
    );
  }
  const decimals = (m[2] ?? '').replace(/0+$/, '');
  if (decimals.length > minorUnit) {
    throw fieldProblem('amount', 'precision', `amount may have at most ${minorUnit} decimals in this currency.`);
  }
  const integer = m[1].replace(/^0+(?=\d)/, '');
  const amount = minorUnit > 0 ? `${integer}.${decimals.padEnd(minorUnit, '0')}` : integer;
  if (/^[0.]+$/.test(amount)) throw fieldProblem('amount', 'invalid', 'amount must be more than 0.');
  return amount;
}

async function currencyMinorUnit(db: Db, code: string): Promise<{ code: string; minor: number }> {
  const clean = code.trim().toUpperCase();
  const row = /^[A-Z]{3}$/.test(clean)
    ? await db.kysely
        .selectFrom('currencies')
        .select(['code', 'minor_unit'])
        .where('code', '=', clean)
        .executeTakeFirst()
    : undefined;
  if (!row) throw fieldProblem('currency', 'invalid', 'currency must be an ISO 4217 code like EUR or USD.');
  // Currencies without a minor unit (gold, SDR) are priced with up to 4 decimals.
  return { code: row.code, minor: row.minor_unit ?? 4 };
}

function checkOrderData(data: unknown): Record<string, unknown> {
  if (data === undefined) return {};
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw fieldProblem('order_data', 'invalid', 'order_data must be a JSON object.');
  }
  if (JSON.stringify(data).length > ORDER_DATA_MAX_CHARS) {
    throw fieldProblem(
      'order_data',
      'tooLong',
      `order_data may take at most ${ORDER_DATA_MAX_CHARS} characters as JSON.`,
    );
  }
  return data as Record<string, unknown>;
}

/** Orders as a user's records (core/user-data/owned-records.ts): `q` is an order number or text in its data. */
export const ORDERS: OwnedResource<OrderRow, Order, { status?: OrderStatus }> = {
  table: 'orders',
  alias: 'o',
  noun: 'order',
  select: (db, userId) =>
    db.kysely
      .selectFrom('orders as o')
      .select([
        'o.id',
        'o.number',
        'o.created_at',
        'o.updated_at',
        'o.amount',
        'o.currency',
        'o.status',
        'o.order_data',
        'o.failure_reason',
      ])
      .where('o.user_id', '=', userId) as unknown as OwnedSelect<OrderRow>,
  itemOf: orderOf,
  search: (text) => {
    const q = text.replace(/^#/, '');
    return /^\d{1,9}$/.test(q) ? columnIs('o.number', Number(q)) : textIn(sql`o.order_data::text`)(q);
  },
  filters: (query) => (query.status ? [columnIs('o.status', query.status)] : []),
};

export function getOrder(db: Db, userId: number, id: number): Promise<Order | null> {
  return getOwned(db, ORDERS, userId, id);
}

/** A user's orders, newest first: `q` is an order number or text in the order's data; `status` keeps one status. */
export function listOrders(
  db: Db,
  userId: number,
  query: ListQuery & { status?: OrderStatus } = {},
): Promise<Page<Order>> {
  return listOwned(db, ORDERS, userId, query);
}

/** Creates a pending order, numbered per user from 1. */
export async function createOrder(db: Db, userId: number, input: OrderInput): Promise<Order> {
  const currency = await currencyMinorUnit(db, input.currency);
  const amount = orderAmount(input.amount, currency.minor);
  const data = JSON.stringify(checkOrderData(input.order_data));
  const id = await insertNumbered(db, 'orders', userId, {
    amount: sql`${amount}::numeric`,
    currency: sql`${currency.code}::text`,
    order_data: sql`${data}::jsonb`,
  });
  return (await getOrder(db, userId, id))!;
}

/** Cancels a pending order (the only change a user makes); any other status is a 409. */
export async function cancelOrder(db: Db, userId: number, id: number): Promise<Order> {
  const result = await db.kysely
    .updateTable('orders')
    .set({ status: 'cancelled', updated_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  const order = await getOrder(db, userId, id);
  if (!order) throw notFound('order');
  if (Number(result.numUpdatedRows) === 0) {
    throw new AppError(
      'conflict',
      `Only a pending order can be cancelled; order #${order.number} is ${order.status}.`,
      {
        parameter: 'status',
        status: order.status,
      },
    );
  }
  return order;
}

/**
 * Deletes orders, all or none: an id that is not the caller's is a 404; a paid or refunded order
 * (money moved) is a 409 and nothing is deleted.
 */
export async function deleteOrders(db: Db, userId: number, ids: readonly number[]): Promise<number> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw fieldProblem('order_ids', 'required', 'Give the ids of the orders to delete.');
  return db.kysely.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom('orders')
      .select(['id', 'number', 'status'])
      .where('user_id', '=', userId)
      .where('id', 'in', unique)
      .forUpdate()
      .execute();
    if (rows.length !== unique.length) throw notFound('order');
    const kept = rows.filter((r) => !DELETABLE.includes(r.status));
    if (kept.length > 0) {
      throw new AppError(
        'conflict',
        `Paid and refunded orders are kept: order ${kept.map((r) => `#${r.number}`).join(', ')} cannot be deleted.`,
        { parameter: 'order_ids', ids: kept.map((r) => Number(r.id)) },
      );
    }
    await tx.deleteFrom('orders').where('user_id', '=', userId).where('id', 'in', unique).execute();
    return unique.length;
  });
}
