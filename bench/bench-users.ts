// Signed-in users for benches that write through the app: activated users with a live session
// each, made in the database (no sign-up round trip, no scrypt, no rate limit).

import { csrfTokenFor } from '../core/accounts/secret-tokens.ts';
import { createSession } from '../core/accounts/sessions.ts';
import { openPostgres } from '../db/client.ts';

export type BenchUser = { id: number; cookie: string; csrf: string };

export async function makeBenchUsers(databaseUrl: string, count: number, label: string): Promise<BenchUser[]> {
  const db = await openPostgres(databaseUrl, 2);
  try {
    const users: BenchUser[] = [];
    for (let i = 0; i < count; i++) {
      const user = await db.kysely
        .insertInto('users')
        .values({
          email: `${label}-${i}@example.com`,
          name: `${label} ${i}`,
          password_hash: 'not-a-password-hash',
          activated_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const token = await createSession(db, Number(user.id), { ip: '127.0.0.1', userAgent: `${label} bench` });
      users.push({ id: Number(user.id), cookie: `token=${token}`, csrf: csrfTokenFor(token) });
    }
    return users;
  } finally {
    await db.close();
  }
}
