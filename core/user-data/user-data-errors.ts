import { AppError } from '../errors/app-error.ts';
import {
  LIST_DESCRIPTION_MAX,
  LIST_NAME_MAX,
  MAX_LISTS_PER_USER,
  MAX_OBJECTS_PER_LIST,
  MAX_REFS,
  MAX_SAVED_SEARCHES,
  MAX_TAGS_PER_OBJECT,
  TAG_MAX,
} from '../limits.ts';

// Field problems of lists, tags and saved searches travel as codes in `details.fields`
// ({ name: 'tooLong' }): pages translate them (core/i18n `lists.problems.<field>.<code>`), the
// API answers with the English message.

export type UserDataFields = Record<string, string>;

const MESSAGES: Record<string, Record<string, string>> = {
  name: { required: 'Enter a name.', tooLong: `Use at most ${LIST_NAME_MAX} characters for the name.` },
  description: { tooLong: `Use at most ${LIST_DESCRIPTION_MAX} characters for the description.` },
  tag: {
    required: 'Enter a tag.',
    tooLong: `Use at most ${TAG_MAX} characters for a tag.`,
    tooMany: `A company can have at most ${MAX_TAGS_PER_OBJECT} tags in a list.`,
  },
  companies: {
    required: 'Give at least one company: its id, company number or profile address.',
    tooMany: `Add at most ${MAX_REFS} companies at once.`,
    listFull: `A list holds at most ${MAX_OBJECTS_PER_LIST.toLocaleString('en')} companies.`,
  },
  lists: { tooMany: `You can keep at most ${MAX_LISTS_PER_USER} lists: delete one first.` },
  searches: { tooMany: `You can keep at most ${MAX_SAVED_SEARCHES} saved searches: delete one first.` },
  query: { invalid: 'The query must be the path of a search page of this section, like /companies/search/?q=acme.' },
  section: { invalid: 'Unknown search section.' },
  results: { invalid: 'results must be a whole number, 0 or more.' },
  created_at: { future: 'created_at must not be in the future.' },
};

/** A 400 naming every bad field; its message is the first field's. */
export function invalidUserData(fields: UserDataFields): AppError {
  const message = (field: string, code: string) => MESSAGES[field]?.[code] ?? `${field} is invalid.`;
  const [field, code] = Object.entries(fields)[0] ?? ['', 'invalid'];
  return new AppError('bad_request', message(field, code), {
    parameter: field,
    fields,
    issues: Object.entries(fields).map(([parameter, c]) => ({ parameter, message: message(parameter, c) })),
  });
}

/** A record of the caller's that does not exist (or is someone else's: the same answer). */
export function notFound(what: string): AppError {
  return new AppError('not_found', `No such ${what} among yours.`);
}

/** The field codes of an AppError from invalidUserData, if it is one. */
export function userDataFieldsOf(error: unknown): UserDataFields | null {
  if (!(error instanceof AppError) || error.code !== 'bad_request') return null;
  return (error.details as { fields?: UserDataFields } | undefined)?.fields ?? null;
}

/**
 * A 400 naming one bad field with its own message, in the shape of invalidUserData (the code in
 * `details.fields` for pages to translate, the English message for the API).
 */
export function fieldProblem(field: string, code: string, message: string): AppError {
  return new AppError('bad_request', message, {
    parameter: field,
    fields: { [field]: code },
    issues: [{ parameter: field, message }],
  });
}
