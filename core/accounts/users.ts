import type { Lang } from '../reference/reference-data.ts';

/** What the product shows of a user: to themselves (GET /profiles) and in the page header. */
export type Profile = {
  id: number;
  email: string;
  name: string;
  language: Lang;
  activated_at: string | null;
  created_at: string;
};

export type UserRow = {
  id: number;
  email: string;
  name: string;
  language: Lang;
  activated_at: Date | null;
  created_at: Date;
};

export const PROFILE_COLUMNS = ['id', 'email', 'name', 'language', 'activated_at', 'created_at'] as const;

export function profileOf(row: UserRow): Profile {
  return {
    id: Number(row.id),
    email: row.email,
    name: row.name,
    language: row.language,
    activated_at: row.activated_at ? new Date(row.activated_at).toISOString() : null,
    created_at: new Date(row.created_at).toISOString(),
  };
}

import { NAME_MAX_LENGTH } from '../limits.ts';

export { NAME_MAX_LENGTH };

export type NameProblem = 'required' | 'tooLong';

/** A display name: trimmed, inner runs of white space made one space. */
export function normaliseName(raw: string): string {
  return raw.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

export function nameProblem(name: string): NameProblem | null {
  if (name.length === 0) return 'required';
  if ([...name].length > NAME_MAX_LENGTH) return 'tooLong';
  return null;
}
