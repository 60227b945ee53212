import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { CHANGE_FIELD_NAMES, isChangeField } from '../imports/fields.ts';
import { MAX_WEBHOOKS_PER_USER, WEBHOOK_URL_MAX } from '../limits.ts';
import { NEWEST_CHANGE_SQL } from '../monitoring/tracking-status.ts';
import type { ListQuery, Page } from '../user-data/list-query.ts';
import {
  countOwned,
  deleteOwned,
  listOwned,
  type OwnedResource,
  requireOwned,
  textIn,
  updateOwned,
} from '../user-data/owned-records.ts';
import { fieldProblem } from '../user-data/user-data-errors.ts';
import { type Lookup, PrivateHostError, resolvePublicHost } from './public-hosts.ts';

// A user's webhooks (docs/decisions/0018-change-feed-and-webhooks.md): endpoints to which the
// changes of the companies they track are pushed. User records (ADR 0007): another user's webhook
// is not found. The secret is shown once, when the webhook is made.

export type Webhook = {
  id: number;
  url: string;
  /** Only changes of these fields are pushed; empty = every field. */
  fields: string[];
  active: boolean;
  /** The change feed cursor pushed up to. */
  last_change_id: number;
  created_at: string;
  updated_at: string;
};

type Row = {
  id: number;
  url: string;
  fields: string[];
  active: boolean;
  last_change_id: number | string;
  created_at: Date;
  updated_at: Date;
};

export const WEBHOOKS: OwnedResource<Row, Webhook> = {
  table: 'webhooks',
  alias: 'w',
  noun: 'webhook',
  select: (db, userId) =>
    db.kysely
      .selectFrom('webhooks as w')
      .select(['w.id', 'w.url', 'w.fields', 'w.active', 'w.last_change_id', 'w.created_at', 'w.updated_at'])
      .where('w.user_id', '=', userId),
  itemOf: (row) => ({
    id: Number(row.id),
    url: row.url,
    fields: row.fields,
    active: row.active,
    last_change_id: Number(row.last_change_id),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  }),
  search: textIn('w.url'),
};

export type WebhookInput = { url?: string; fields?: string[]; active?: boolean };

/** Where a webhook may point: public hosts only unless allowed (WEBHOOKS_ALLOW_PRIVATE_HOSTS, development). */
export type WebhookHostOptions = { allowPrivateHosts?: boolean; lookup?: Lookup };

/** How long making a webhook waits for its host's name to resolve before taking it unchecked. */
const LOOKUP_WAIT_MS = 3_000;

export function listWebhooks(db: Db, userId: number, query: ListQuery = {}): Promise<Page<Webhook>> {
  return listOwned(db, WEBHOOKS, userId, query);
}

export function requireWebhook(db: Db, userId: number, id: number): Promise<Webhook> {
  return requireOwned(db, WEBHOOKS, userId, id);
}

/** Makes a webhook; its secret is returned this once. It pushes the changes recorded from now on. */
export async function createWebhook(
  db: Db,
  userId: number,
  input: { url: string; fields?: string[] },
  hosts: WebhookHostOptions = {},
): Promise<{ webhook: Webhook; secret: string }> {
  const url = await publicWebhookUrl(input.url, hosts);
  const fields = webhookFields(input.fields ?? []);
  if ((await countOwned(db, WEBHOOKS, userId)) >= MAX_WEBHOOKS_PER_USER) {
    throw fieldProblem('url', 'tooMany', `You can have at most ${MAX_WEBHOOKS_PER_USER} webhooks: delete one first.`);
  }
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const row = await db.kysely
    .insertInto('webhooks')
    .values({ user_id: userId, url, secret, fields, last_change_id: sql.raw(NEWEST_CHANGE_SQL) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { webhook: await requireWebhook(db, userId, Number(row.id)), secret };
}

export async function updateWebhook(
  db: Db,
  userId: number,
  id: number,
  input: WebhookInput,
  hosts: WebhookHostOptions = {},
): Promise<Webhook> {
  return updateOwned(db, WEBHOOKS, userId, id, {
    url: input.url === undefined ? undefined : await publicWebhookUrl(input.url, hosts),
    fields: input.fields === undefined ? undefined : webhookFields(input.fields),
    active: input.active,
    updated_at: new Date(),
  });
}

/** Deletes a webhook and its deliveries. */
export function deleteWebhook(db: Db, userId: number, id: number): Promise<void> {
  return deleteOwned(db, WEBHOOKS, userId, id);
}

/**
 * webhookUrl, on a public host: a URL whose host is, or resolves to, an address a webhook may not
 * reach (core/webhooks/public-hosts.ts) is a 400 naming `url` and why. A name that does not
 * resolve (yet, or not in time) is taken: every delivery checks the host again before it connects.
 */
export async function publicWebhookUrl(value: string, hosts: WebhookHostOptions): Promise<string> {
  const url = webhookUrl(value);
  if (hosts.allowPrivateHosts) return url;
  let timer: NodeJS.Timeout | undefined;
  try {
    const unresolved = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), LOOKUP_WAIT_MS);
    });
    await Promise.race([resolvePublicHost(new URL(url).hostname, hosts.lookup), unresolved]);
  } catch (error) {
    if (error instanceof PrivateHostError) throw fieldProblem('url', 'private', `url: ${error.message}`);
  } finally {
    clearTimeout(timer);
  }
  return url;
}

/** An http(s) URL without credentials, or a 400 naming `url`. */
export function webhookUrl(value: string): string {
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fieldProblem('url', 'invalid', 'url must be an absolute http or https address.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw fieldProblem('url', 'invalid', 'url must be an http or https address.');
  if (url.username || url.password)
    throw fieldProblem('url', 'invalid', 'url must not hold a user name or password: sign with the secret instead.');
  if (text.length > WEBHOOK_URL_MAX)
    throw fieldProblem('url', 'tooLong', `url must be at most ${WEBHOOK_URL_MAX} characters.`);
  return url.toString();
}

function webhookFields(fields: string[]): string[] {
  const unknown = fields.filter((f) => !isChangeField(f));
  if (unknown.length > 0) {
    throw fieldProblem(
      'fields',
      'unknown',
      `Unknown field ${unknown.map((f) => JSON.stringify(f)).join(', ')}: use ${CHANGE_FIELD_NAMES.join(', ')}.`,
    );
  }
  return [...new Set(fields)];
}
