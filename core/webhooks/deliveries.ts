import { createHmac } from 'node:crypto';
import { type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { type ChangeItem, changeItems, changeRows, visibleChangeItems } from '../changes/change-feed.ts';
import { isLang } from '../i18n/i18n.ts';
import { WEBHOOK_CHANGES_PER_DELIVERY, WEBHOOK_MAX_ATTEMPTS } from '../limits.ts';
import { changesFor } from '../purchases/paywall.ts';
import { type Lang, loadReference, type Reference } from '../reference/reference-data.ts';
import { visibleChanges } from '../takedowns/visible.ts';
import type { ListQuery, Page } from '../user-data/list-query.ts';
import { columnIs, listOwned, type OwnedResource, requireOwned } from '../user-data/owned-records.ts';
import { notFound } from '../user-data/user-data-errors.ts';
import { postToAddresses } from './post-webhook.ts';
import { type Lookup, requirePublicAddresses, resolveHost, systemLookup } from './public-hosts.ts';

// Pushing changes to webhooks (docs/decisions/0018-change-feed-and-webhooks.md). Collecting turns
// the changes of the companies a user tracks (active trackings) into deliveries, moving each
// webhook's cursor in the same transaction, so a change is delivered once. Sending claims due
// deliveries with SKIP LOCKED (any number of workers), posts them signed, and on failure waits
// longer each time (RETRY_DELAYS) until WEBHOOK_MAX_ATTEMPTS; the user can replay any delivery.

export const SIGNATURE_HEADER = 'registra-signature';
export const DELIVERY_HEADER = 'registra-delivery';
export const WEBHOOK_USER_AGENT = 'Registra-Webhooks/1';

/** The wait after the 1st, 2nd … failed attempt. */
export const RETRY_DELAYS_SECONDS = [60, 5 * 60, 30 * 60, 2 * 3600, 12 * 3600];
/** How long a claimed delivery is left to its sender before another worker may take it. */
const LEASE_SECONDS = 120;
export const SEND_TIMEOUT_MS = 10_000;
/** Deliveries one collection makes per webhook (the rest wait for the next run). */
const DELIVERIES_PER_COLLECTION = 20;
const RESPONSE_ERROR_MAX = 300;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** `language`: what the changes' `display` is written in (the webhook owner's). */
export type WebhookPayload = { webhook_id: number; cursor: number; language?: Lang; changes: ChangeItem[] };

export type WebhookDelivery = {
  id: number;
  webhook_id: number;
  status: DeliveryStatus;
  changes: number;
  attempts: number;
  next_attempt_at: string | null;
  response_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
};

type DeliveryRow = {
  id: number;
  webhook_id: number;
  status: DeliveryStatus;
  changes: number;
  attempts: number;
  next_attempt_at: Date | null;
  response_status: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
};

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

export const WEBHOOK_DELIVERIES: OwnedResource<
  DeliveryRow,
  WebhookDelivery,
  { webhook_id?: number; status?: DeliveryStatus }
> = {
  table: 'webhook_deliveries',
  alias: 'd',
  noun: 'webhook delivery',
  select: (db, userId) =>
    db.kysely
      .selectFrom('webhook_deliveries as d')
      .select([
        'd.id',
        'd.webhook_id',
        'd.status',
        'd.changes',
        'd.attempts',
        'd.next_attempt_at',
        'd.response_status',
        'd.last_error',
        'd.created_at',
        'd.delivered_at',
      ])
      .where('d.user_id', '=', userId),
  itemOf: (row) => ({
    id: Number(row.id),
    webhook_id: Number(row.webhook_id),
    status: row.status,
    changes: row.changes,
    attempts: row.attempts,
    next_attempt_at: iso(row.next_attempt_at),
    response_status: row.response_status,
    last_error: row.last_error,
    created_at: iso(row.created_at) ?? '',
    delivered_at: iso(row.delivered_at),
  }),
  filters: (query) => [
    ...(query.webhook_id !== undefined ? [columnIs('d.webhook_id', query.webhook_id)] : []),
    ...(query.status ? [columnIs('d.status', query.status)] : []),
  ],
};

export function listDeliveries(
  db: Db,
  userId: number,
  query: ListQuery & { webhook_id?: number; status?: DeliveryStatus } = {},
): Promise<Page<WebhookDelivery>> {
  return listOwned(db, WEBHOOK_DELIVERIES, userId, query);
}

/** Sends a delivery again (whatever became of it): it is due now, with its attempts counted afresh. */
export async function replayDelivery(db: Db, userId: number, id: number): Promise<WebhookDelivery> {
  const result = await db.kysely
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: new Date(), last_error: null })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound(WEBHOOK_DELIVERIES.noun);
  return requireOwned(db, WEBHOOK_DELIVERIES, userId, id);
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: what a receiver recomputes with its secret. */
export function signature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** Turns the new changes of tracked companies into deliveries; returns how many were made. */
export async function collectDeliveries(db: Db, reference?: Reference): Promise<number> {
  // The changes' words (`display`) need the reference data: a caller without it in memory has it read.
  const words = reference ?? (await loadReference(db));
  const webhooks = await db.kysely
    .selectFrom('webhooks')
    .select(['user_id', 'id'])
    .where('active', '=', true)
    .execute();
  let made = 0;
  for (const webhook of webhooks) made += await collectFor(db, Number(webhook.user_id), Number(webhook.id), words);
  return made;
}

async function collectFor(db: Db, userId: number, webhookId: number, reference: Reference): Promise<number> {
  return db.kysely.transaction().execute(async (tx) => {
    // Another collector on the same webhook skips it: the cursor moves once per change.
    const locked = (
      await sql<{ last_change_id: string | number; fields: string[]; language: string | null }>`select w.last_change_id,
        w.fields, (select u.language from users u where u.id = w.user_id) as language from webhooks w
        where w.user_id = ${userId} and w.id = ${webhookId} and w.active for update of w skip locked`.execute(tx)
    ).rows[0];
    if (!locked) return 0;
    const newest = Number(
      (await sql<{ id: string | number }>`select coalesce(max(id), 0) as id from company_changes`.execute(tx)).rows[0]
        .id,
    );
    let cursor = Number(locked.last_change_id);
    let made = 0;
    while (made < DELIVERIES_PER_COLLECTION) {
      const rows = await changeRows(
        tx,
        [
          sql<SqlBool>`c.id > ${cursor}`,
          sql<SqlBool>`c.id <= ${newest}`,
          sql<SqlBool>`c.legal_entity_id in (select t.legal_entity_id from existing_objects_tracking t
            where t.user_id = ${userId} and t.status = 'active')`,
          ...(locked.fields.length > 0 ? [sql<SqlBool>`c.field = any(${locked.fields}::text[])`] : []),
        ],
        WEBHOOK_CHANGES_PER_DELIVERY,
      );
      if (rows.length === 0) {
        cursor = newest;
        break;
      }
      // In the webhook owner's language (English when theirs is none the site speaks).
      const lang = isLang(locked.language ?? undefined) ? (locked.language as Lang) : 'en';
      // What the owner did not buy is pushed hidden (ADR 0029).
      const readable = await changesFor(tx, userId, await visibleChanges(tx, rows), (r) => Number(r.legal_entity_id));
      const changes = await changeItems(tx, readable, { reference, lang });
      // Past the changes left out too (a connection naming someone taken down): none comes back.
      cursor = Number(rows[rows.length - 1].id);
      if (changes.length > 0) {
        const payload: WebhookPayload = { webhook_id: webhookId, cursor, language: lang, changes };
        await tx
          .insertInto('webhook_deliveries')
          .values({
            user_id: userId,
            webhook_id: webhookId,
            payload: JSON.stringify(payload),
            changes: changes.length,
            next_attempt_at: new Date(),
          })
          .execute();
        made++;
      }
      if (rows.length < WEBHOOK_CHANGES_PER_DELIVERY) {
        cursor = newest;
        break;
      }
    }
    await tx
      .updateTable('webhooks')
      .set({ last_change_id: cursor })
      .where('user_id', '=', userId)
      .where('id', '=', webhookId)
      .execute();
    return made;
  });
}

export type SendOptions = {
  /** Allow endpoints on loopback and private networks (development and tests only). */
  allowPrivateHosts: boolean;
  /** How host names are resolved (default: the system's resolver; tests use a stand-in). */
  lookup?: Lookup;
  /** How long an endpoint has to answer (default 10 s). */
  timeoutMs?: number;
  /** The reference data in memory, to write a change's words again (read from the database when absent). */
  reference?: Reference;
  /** Deliveries one call sends at most. */
  limit?: number;
};

export type SendSummary = { delivered: number; retrying: number; failed: number };

/** Sends the deliveries that are due; a failure is retried later, or marked failed after the last attempt. */
export async function sendDueDeliveries(db: Db, options: SendOptions): Promise<SendSummary> {
  const claimed = (
    await sql<{
      user_id: string | number;
      id: string | number;
      webhook_id: string | number;
      payload: unknown;
      attempts: number;
      url: string;
      secret: string;
    }>`update webhook_deliveries d
        set attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
      from webhooks w
      where w.user_id = d.user_id and w.id = d.webhook_id and w.active
        and (d.user_id, d.id) in (select user_id, id from webhook_deliveries
          where status = 'pending' and next_attempt_at <= now()
          order by next_attempt_at, id limit ${options.limit ?? 50} for update skip locked)
      returning d.user_id, d.id, d.webhook_id, d.payload, d.attempts, w.url, w.secret`.execute(db.kysely)
  ).rows;
  const summary: SendSummary = { delivered: 0, retrying: 0, failed: 0 };
  for (const delivery of claimed) {
    const outcome = await post(
      { ...delivery, payload: await visiblePayload(db, delivery.payload, options.reference) },
      options,
    );
    const where = { user_id: Number(delivery.user_id), id: Number(delivery.id) };
    if (outcome.ok) {
      summary.delivered++;
      await db.kysely
        .updateTable('webhook_deliveries')
        .set({
          status: 'delivered',
          delivered_at: new Date(),
          response_status: outcome.status,
          last_error: null,
          next_attempt_at: null,
        })
        .where('user_id', '=', where.user_id)
        .where('id', '=', where.id)
        .execute();
      continue;
    }
    const last = delivery.attempts >= WEBHOOK_MAX_ATTEMPTS;
    if (last) summary.failed++;
    else summary.retrying++;
    const delay = RETRY_DELAYS_SECONDS[Math.min(delivery.attempts, RETRY_DELAYS_SECONDS.length) - 1];
    await db.kysely
      .updateTable('webhook_deliveries')
      .set({
        status: last ? 'failed' : 'pending',
        response_status: outcome.status,
        last_error: outcome.error.slice(0, RESPONSE_ERROR_MAX),
        next_attempt_at: last ? null : new Date(Date.now() + delay * 1000),
      })
      .where('user_id', '=', where.user_id)
      .where('id', '=', where.id)
      .execute();
  }
  return summary;
}

/**
 * A delivery's payload as it may be sent now: it was written when its changes were collected, and
 * what was taken down since (a company, a member) is left out of it (ADR 0021). A retry or a replay
 * sends no more than the change feed would show.
 */
async function visiblePayload(db: Db, payload: unknown, reference?: Reference): Promise<unknown> {
  let parsed: WebhookPayload;
  try {
    parsed = (typeof payload === 'string' ? JSON.parse(payload) : payload) as WebhookPayload;
  } catch {
    return payload;
  }
  if (!Array.isArray(parsed?.changes)) return payload;
  const lang = isLang(parsed.language) ? parsed.language : 'en';
  return JSON.stringify({ ...parsed, changes: await visibleChangeItems(db, parsed.changes, { lang, reference }) });
}

type Outcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

async function post(
  delivery: { id: string | number; payload: unknown; url: string; secret: string },
  options: SendOptions,
): Promise<Outcome> {
  const body = typeof delivery.payload === 'string' ? delivery.payload : JSON.stringify(delivery.payload);
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  try {
    // Resolved once: the addresses checked are the addresses connected to (no rebinding window).
    const url = new URL(delivery.url);
    const addresses = await resolveHost(url.hostname, options.lookup ?? systemLookup);
    if (!options.allowPrivateHosts) requirePublicAddresses(url.hostname, addresses);
    const response = await postToAddresses(url, addresses, {
      body,
      timeoutMs,
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        [DELIVERY_HEADER]: String(delivery.id),
        [SIGNATURE_HEADER]: signature(delivery.secret, Math.floor(Date.now() / 1000), body),
      },
    });
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    return { ok: false, status: response.status, error: `The endpoint answered ${response.status}.` };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
    const message = timedOut
      ? `The endpoint did not answer within ${timeoutMs / 1000} s.`
      : error instanceof Error
        ? error.message
        : String(error);
    return { ok: false, status: null, error: message };
  }
}
