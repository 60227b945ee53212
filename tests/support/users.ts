// Signed-in users for the tests of a user's data, made directly in the database (no sign-up
// round trip, no scrypt): an activated user, a live session, its cookie and CSRF token.

import { csrfTokenFor } from '../../core/accounts/secret-tokens.ts';
import { createSession } from '../../core/accounts/sessions.ts';
import type { Db } from '../../db/client.ts';
import { uniqueEmail } from './accounts.ts';

export type TestUser = {
  id: number;
  email: string;
  /** `token=…`, for a Cookie header. */
  cookie: string;
  /** The session's CSRF token (x-csrf-token header, `_csrf` form field). */
  csrf: string;
};

export async function createSignedInUser(
  db: Db,
  label: string,
  options: { name?: string; passwordHash?: string } = {},
): Promise<TestUser> {
  const email = uniqueEmail(label);
  const user = await db.kysely
    .insertInto('users')
    .values({
      email,
      name: options.name ?? `User ${label}`,
      // Not a valid hash unless given: these users never sign in with a password.
      password_hash: options.passwordHash ?? 'not-a-password-hash',
      activated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(user.id);
  const token = await createSession(db, id, { ip: '127.0.0.1', userAgent: 'vitest' });
  return { id, email, cookie: `token=${token}`, csrf: csrfTokenFor(token) };
}

/** Some companies of the test template (ids, uris and company numbers), in a stable order. */
export async function someCompanies(db: Db, count: number, offset = 0) {
  const rows = await db.kysely
    .selectFrom('legal_entities as b')
    .innerJoin('legal_entity_identifiers as i', (join) =>
      join.onRef('i.legal_entity_id', '=', 'b.id').on('i.identifier_type_id', '=', 2).on('i.position', '=', 0),
    )
    .select(['b.id', 'b.uri', 'b.name', 'i.identifier as company_number'])
    .orderBy('b.id')
    .offset(offset)
    .limit(count)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), uri: r.uri, name: r.name, companyNumber: r.company_number }));
}

/** Gives each company an email of its own, so that its full profile has something to unlock (ADR 0029). */
export async function withContactToUnlock(db: Db, companyIds: number[]): Promise<void> {
  await db.kysely
    .insertInto('legal_entity_contacts')
    .values(
      companyIds.map((id) => ({
        legal_entity_id: id,
        contact_type_id: 1,
        position: 900,
        contact: `unlock-${id}@example.com`,
      })),
    )
    .execute();
}
