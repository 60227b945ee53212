import type { Db } from '../../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { normaliseEmail } from './email-address.ts';

// Roles beyond a plain account (ADR 0021): `support` staff answer tickets at /support-desk/.
// Granted from the command line only (`npm run cli -- users grant-role <email> support`).

export const ROLES = ['support'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Grants a role to the account with this email; false when it already had it. */
export async function grantRole(db: Db, email: string, role: Role): Promise<boolean> {
  const user = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('email', '=', normaliseEmail(email))
    .executeTakeFirst();
  if (!user) throw new AppError('not_found', `No account has the email ${email}`);
  const result = await db.kysely
    .insertInto('user_roles')
    .values({ user_id: user.id, role })
    .onConflict((oc) => oc.doNothing())
    .returning('role')
    .executeTakeFirst();
  return result !== undefined;
}

/** Takes a role away; false when the account did not have it. */
export async function revokeRole(db: Db, email: string, role: Role): Promise<boolean> {
  const result = await db.kysely
    .deleteFrom('user_roles')
    .where('role', '=', role)
    .where('user_id', '=', (eb) => eb.selectFrom('users').select('id').where('email', '=', normaliseEmail(email)))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function hasRole(db: Db, userId: number, role: Role): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('user_roles')
    .select('role')
    .where('user_id', '=', userId)
    .where('role', '=', role)
    .executeTakeFirst();
  return row !== undefined;
}
