import type { Db } from '../../db/client.ts';
import { LANGS, type Lang } from '../reference/reference-data.ts';
import { type FieldErrors, invalidFields } from './account-errors.ts';
import { nameProblem, normaliseName, PROFILE_COLUMNS, type Profile, profileOf } from './users.ts';

/** Changes a user's name and/or language (what is absent stays). */
export async function updateProfile(
  db: Db,
  userId: number,
  input: { name?: string; language?: string },
  now = new Date(),
): Promise<Profile> {
  const fields: FieldErrors = {};
  const changes: { name?: string; language?: Lang; updated_at: Date } = { updated_at: now };
  if (input.name !== undefined) {
    const name = normaliseName(input.name);
    const problem = nameProblem(name);
    if (problem) fields.name = problem;
    else changes.name = name;
  }
  if (input.language !== undefined) {
    if ((LANGS as string[]).includes(input.language)) changes.language = input.language as Lang;
    else fields.language = 'invalid';
  }
  if (Object.keys(fields).length > 0) throw invalidFields(fields);
  const row = await db.kysely
    .updateTable('users')
    .set(changes)
    .where('id', '=', userId)
    .returning([...PROFILE_COLUMNS])
    .executeTakeFirstOrThrow();
  return profileOf(row);
}

export async function getProfile(db: Db, userId: number): Promise<Profile | null> {
  const row = await db.kysely.selectFrom('users').select(PROFILE_COLUMNS).where('id', '=', userId).executeTakeFirst();
  return row ? profileOf(row) : null;
}
