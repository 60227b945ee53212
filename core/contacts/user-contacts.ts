import type { Db } from '../../db/client.ts';
import { isEmail, normaliseEmail } from '../accounts/email-address.ts';
import { AppError } from '../errors/app-error.ts';
import { CONTACT_MAX_LENGTH, MAX_CONTACTS_PER_USER, PHONE_DIGITS_MAX, PHONE_DIGITS_MIN } from '../limits.ts';
import { cleanText, type ListQuery, type Page } from '../user-data/list-query.ts';
import {
  columnIs,
  countOwned,
  deleteOwnedIds,
  listOwned,
  type OwnedResource,
  textIn,
} from '../user-data/owned-records.ts';
import { fieldProblem } from '../user-data/user-data-errors.ts';

// A user's own contact details (spec §3 "contacts", §7 POST and GET /contacts/users/{user_id},
// DELETE /contacts; the settings page /dashboard/settings/contacts/ shows Contact and Type). Each
// contact is checked for its type and stored in one spelling; the same contact twice is refused.
// Every function is scoped to the caller's user id: another user's contact is "not found".

/** The types of contact, as the contact_types reference data names them. */
export const USER_CONTACT_TYPES = ['email', 'phone', 'website', 'fax'] as const;
export type UserContactType = (typeof USER_CONTACT_TYPES)[number];

export { CONTACT_MAX_LENGTH, MAX_CONTACTS_PER_USER };

export type UserContact = {
  id: number;
  type: UserContactType;
  /** As shown: the address, the number with its spacing, the URL. */
  contact: string;
  created_at: string;
};

export type UserContactInput = { type: string; contact: string };

const MESSAGES = {
  required: 'Enter a contact.',
  tooLong: `Use at most ${CONTACT_MAX_LENGTH} characters for a contact.`,
  email: 'Enter an email address like name@example.com.',
  phone: `Enter a phone number of ${PHONE_DIGITS_MIN} to ${PHONE_DIGITS_MAX} digits, like +49 30 1234567.`,
  fax: `Enter a fax number of ${PHONE_DIGITS_MIN} to ${PHONE_DIGITS_MAX} digits, like +49 30 1234568.`,
  website: 'Enter a website address like https://example.com.',
} as const;

/**
 * A contact checked for its type: how it is shown and the spelling duplicates are compared by
 * (lower-case email; `+` and the digits of a number, `00` read as `+`; a URL without its scheme).
 */
export function normaliseContact(
  type: string,
  raw: string,
): { type: UserContactType; contact: string; normalized: string } {
  const kind = USER_CONTACT_TYPES.find((t) => t === type.trim().toLowerCase());
  if (!kind) throw fieldProblem('type', 'invalid', `type must be one of ${USER_CONTACT_TYPES.join(', ')}.`);
  const text = cleanText(raw);
  if (text === '') throw fieldProblem('contact', 'required', MESSAGES.required);
  if (text.length > CONTACT_MAX_LENGTH) throw fieldProblem('contact', 'tooLong', MESSAGES.tooLong);
  switch (kind) {
    case 'email': {
      const email = normaliseEmail(text);
      if (!isEmail(email)) throw fieldProblem('contact', 'email', MESSAGES.email);
      return { type: kind, contact: email, normalized: email };
    }
    case 'phone':
    case 'fax': {
      const number = phoneNumber(text);
      if (!number) throw fieldProblem('contact', kind, MESSAGES[kind]);
      return { type: kind, ...number };
    }
    case 'website': {
      const site = websiteUrl(text);
      if (!site) throw fieldProblem('contact', 'website', MESSAGES.website);
      return { type: kind, ...site };
    }
  }
}

function phoneNumber(text: string): { contact: string; normalized: string } | null {
  // Digits with the usual separators; one leading + (or 00) for an international number.
  if (!/^\+?[0-9 ()./-]+$/.test(text) || !/[0-9]/.test(text)) return null;
  let digits = text.replace(/\D/g, '');
  let international = text.startsWith('+');
  if (!international && digits.startsWith('00')) {
    international = true;
    digits = digits.slice(2);
  }
  if (digits.length < PHONE_DIGITS_MIN || digits.length > PHONE_DIGITS_MAX) return null;
  return { contact: text, normalized: `${international ? '+' : ''}${digits}` };
}

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function websiteUrl(text: string): { contact: string; normalized: string } | null {
  if (/\s/.test(text)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  const labels = url.hostname.split('.');
  if (labels.length < 2 || !labels.every((l) => HOST_LABEL.test(l))) return null;
  if (!/^([a-z]{2,63}|xn--[a-z0-9-]+)$/.test(labels[labels.length - 1])) return null;
  url.hash = '';
  const shown = url.pathname === '/' && !url.search ? url.origin : url.href;
  if (shown.length > CONTACT_MAX_LENGTH) return null;
  const normalized = shown.replace(/^https?:\/\//, '').replace(/\/$/, '');
  return { contact: shown, normalized };
}

type ContactRow = { id: number; type: UserContactType; contact: string; created_at: Date };

/** A user's contacts as their records (core/user-data/owned-records.ts). */
export const USER_CONTACTS: OwnedResource<ContactRow, UserContact, { type?: UserContactType }> = {
  table: 'user_contacts',
  alias: 'c',
  noun: 'contact',
  select: (db, userId) =>
    db.kysely
      .selectFrom('user_contacts as c')
      .select(['c.id', 'c.type', 'c.contact', 'c.created_at'])
      .where('c.user_id', '=', userId),
  itemOf: (row) => ({
    id: Number(row.id),
    type: row.type,
    contact: row.contact,
    created_at: new Date(row.created_at).toISOString(),
  }),
  search: textIn('c.contact'),
  filters: (query) => (query.type ? [columnIs('c.type', query.type)] : []),
};

/** A user's contacts, newest first: `q` looks in the contact, `type` keeps one type. */
export function listUserContacts(
  db: Db,
  userId: number,
  query: ListQuery & { type?: UserContactType } = {},
): Promise<Page<UserContact>> {
  return listOwned(db, USER_CONTACTS, userId, query);
}

/** Adds a contact: checked for its type, normalised; the same contact twice is a 409 naming it. */
export async function addUserContact(db: Db, userId: number, input: UserContactInput): Promise<UserContact> {
  const clean = normaliseContact(input.type, input.contact);
  if ((await countOwned(db, USER_CONTACTS, userId)) >= MAX_CONTACTS_PER_USER) {
    throw fieldProblem(
      'contact',
      'tooMany',
      `You can keep at most ${MAX_CONTACTS_PER_USER} contacts: delete one first.`,
    );
  }
  const row = await db.kysely
    .insertInto('user_contacts')
    .values({ user_id: userId, type: clean.type, contact: clean.contact, normalized: clean.normalized })
    .onConflict((oc) => oc.columns(['user_id', 'type', 'normalized']).doNothing())
    .returning(['id', 'type', 'contact', 'created_at'])
    .executeTakeFirst();
  if (!row) {
    throw new AppError('conflict', `You already have the ${clean.type} ${clean.contact}.`, {
      parameter: 'contact',
      fields: { contact: 'duplicate' },
    });
  }
  return USER_CONTACTS.itemOf(row as ContactRow);
}

/**
 * Deletes some of a user's contacts, all or none: an id that is not one of the caller's
 * contacts is a 404 and nothing is deleted. Returns how many went.
 */
export function deleteUserContacts(db: Db, userId: number, ids: readonly number[]): Promise<number> {
  return deleteOwnedIds(db, USER_CONTACTS, userId, ids, 'contact_ids');
}
