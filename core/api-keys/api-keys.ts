import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { digest, randomToken } from '../accounts/secret-tokens.ts';
import type { SessionAuth } from '../accounts/sessions.ts';
import { PROFILE_COLUMNS, profileOf } from '../accounts/users.ts';
import { AppError } from '../errors/app-error.ts';
import { API_KEY_NAME_MAX, API_USAGE_DAYS, MAX_API_KEYS_PER_USER } from '../limits.ts';

// API keys (docs/decisions/0020-api-keys-matching-reconciliation.md): `Authorization: Bearer <key>`
// on any /api route acts as the key's user within the key's scopes. The key is shown once, at
// creation; the database keeps its SHA-256 and its first characters (to tell keys apart).

export const API_KEY_SCOPES = ['read', 'manage'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Every key starts so, which lets secret scanners and people recognise one. */
export const API_KEY_PREFIX = 'rk_';
/** Characters of a key the list shows (the prefix and a few of the random part). */
const SHOWN = API_KEY_PREFIX.length + 6;

export type ApiKeyRow = {
  id: number;
  name: string;
  scopes: ApiKeyScope[];
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

/** A key as the API found it: its id, scopes and user. */
export type ApiKeyAuth = { keyId: number; scopes: ApiKeyScope[]; auth: SessionAuth };

export type ApiKeyProblem = { name?: 'required' | 'tooLong'; scopes?: 'required'; keys?: 'tooMany' };

function keyProblem(fields: ApiKeyProblem, message: string): AppError {
  return new AppError('bad_request', message, { fields, parameter: Object.keys(fields)[0] });
}

/** Checks a new key's name and scopes: the 400 names the field. */
export function checkNewKey(input: { name: string; scopes: readonly string[] }): {
  name: string;
  scopes: ApiKeyScope[];
} {
  const name = input.name.trim();
  if (!name) throw keyProblem({ name: 'required' }, 'name: give the key a name');
  if (name.length > API_KEY_NAME_MAX) {
    throw keyProblem({ name: 'tooLong' }, `name: use at most ${API_KEY_NAME_MAX} characters`);
  }
  const unknown = input.scopes.filter((s) => !(API_KEY_SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw keyProblem({ scopes: 'required' }, `scopes: unknown scope ${unknown[0]} (read, manage)`);
  const scopes = API_KEY_SCOPES.filter((s) => input.scopes.includes(s));
  if (!scopes.length) throw keyProblem({ scopes: 'required' }, 'scopes: choose read, manage or both');
  return { name, scopes };
}

/** Creates a key; the answer holds the key itself, which is never readable again. */
export async function createApiKey(
  db: Db,
  userId: number,
  input: { name: string; scopes: readonly string[] },
): Promise<{ key: string; row: ApiKeyRow }> {
  const { name, scopes } = checkNewKey(input);
  const active = await db.kysely
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(active.n) >= MAX_API_KEYS_PER_USER) {
    throw keyProblem({ keys: 'tooMany' }, `You can have at most ${MAX_API_KEYS_PER_USER} keys: revoke one first.`);
  }
  const key = `${API_KEY_PREFIX}${randomToken()}`;
  const row = await db.kysely
    .insertInto('api_keys')
    .values({ user_id: userId, name, scopes, key_hash: digest(key), prefix: key.slice(0, SHOWN) })
    .returning(['id', 'name', 'scopes', 'prefix', 'created_at', 'last_used_at', 'revoked_at'])
    .executeTakeFirstOrThrow();
  return { key, row: rowOf(row) };
}

type StoredKey = {
  id: number;
  name: string;
  scopes: string[];
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

function rowOf(r: StoredKey): ApiKeyRow {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: Number(r.id),
    name: r.name,
    scopes: r.scopes as ApiKeyScope[],
    prefix: r.prefix,
    created_at: new Date(r.created_at).toISOString(),
    last_used_at: iso(r.last_used_at),
    revoked_at: iso(r.revoked_at),
  };
}

/** A user's keys, newest first (revoked ones too, marked). */
export async function listApiKeys(db: Db, userId: number): Promise<ApiKeyRow[]> {
  const rows = await db.kysely
    .selectFrom('api_keys')
    .select(['id', 'name', 'scopes', 'prefix', 'created_at', 'last_used_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(rowOf);
}

/** Revokes one of the user's keys; another user's key, or none, is a 404. */
export async function revokeApiKey(db: Db, userId: number, keyId: number, now = new Date()): Promise<void> {
  const result = await db.kysely
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!result.numUpdatedRows) throw new AppError('not_found', 'No such key (or it is revoked already).');
}

/** The key a request's bearer token names, with its user; null when unknown, revoked or the user inactive. */
export async function findApiKey(db: Db, key: string): Promise<ApiKeyAuth | null> {
  if (!key.startsWith(API_KEY_PREFIX) || key.length > 100) return null;
  const row = await db.kysely
    .selectFrom('api_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select(PROFILE_COLUMNS.map((c) => `u.${c}` as const))
    .select(['k.id as key_id', 'k.scopes', 'u.table_style'])
    .where('k.key_hash', '=', digest(key))
    .where('k.revoked_at', 'is', null)
    .where('u.activated_at', 'is not', null)
    .executeTakeFirst();
  if (!row) return null;
  return {
    keyId: Number(row.key_id),
    scopes: row.scopes as ApiKeyScope[],
    // A key is not a session: nothing to sign out, and no CSRF token (a bearer header is no ambient credential).
    auth: { user: profileOf(row), sessionId: '', csrfToken: '', tableStyle: row.table_style },
  };
}

/** Counts one request of a key (per day, UTC) and stamps its last use: one statement. */
export async function recordKeyUse(db: Db, keyId: number, now = new Date()): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  await sql`
    with used as (update api_keys set last_used_at = ${now} where id = ${keyId})
    insert into api_key_usage (api_key_id, day, requests) values (${keyId}, ${day}, 1)
    on conflict (api_key_id, day) do update set requests = api_key_usage.requests + 1`.execute(db.kysely);
}

export type KeyUsage = { api_key_id: number; day: string; requests: number };

/** Requests per key per day of a user's keys over the last API_USAGE_DAYS days, newest day first. */
export async function apiKeyUsage(db: Db, userId: number, now = new Date()): Promise<KeyUsage[]> {
  const since = new Date(now.getTime() - (API_USAGE_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const rows = await db.kysely
    .selectFrom('api_key_usage as u')
    .innerJoin('api_keys as k', 'k.id', 'u.api_key_id')
    .select(['u.api_key_id', 'u.day', 'u.requests'])
    .where('k.user_id', '=', userId)
    .where('u.day', '>=', since)
    .orderBy('u.day', 'desc')
    .orderBy('u.api_key_id', 'desc')
    .execute();
  return rows.map((r) => ({ api_key_id: Number(r.api_key_id), day: String(r.day), requests: Number(r.requests) }));
}
