// The limits a user meets, in one place with no imports (safe in any bundle): the rules that
// enforce them import them from here, and the translator interpolates them into every message
// that states one (MESSAGE_LIMITS below, `{{listNameMax, number}}` in core/i18n).

/** Accounts. */
export const PASSWORD_MIN_LENGTH = 10;
/** Long enough for any passphrase, short enough that hashing a request body stays cheap. */
export const PASSWORD_MAX_LENGTH = 200;
export const NAME_MAX_LENGTH = 100;

/** Lists, tags and saved searches. */
export const LIST_NAME_MAX = 100;
export const LIST_DESCRIPTION_MAX = 1000;
export const MAX_LISTS_PER_USER = 200;
export const MAX_OBJECTS_PER_LIST = 10_000;
export const TAG_MAX = 40;
export const MAX_TAGS_PER_OBJECT = 20;
export const SAVED_NAME_MAX = 100;
export const MAX_SAVED_SEARCHES = 500;
/** Companies named at once (pasted ids, numbers or profile addresses). */
export const MAX_REFS = 500;

/** A user's own contacts. */
export const CONTACT_MAX_LENGTH = 300;
export const MAX_CONTACTS_PER_USER = 100;
/** Digits a phone or fax number may have (E.164 allows at most 15). */
export const PHONE_DIGITS_MIN = 6;
export const PHONE_DIGITS_MAX = 15;

/** Monitoring: companies a user tracks for updates, and searches tracked for new companies. */
export const MAX_TRACKED_COMPANIES = 10_000;
export const MAX_NEW_COMPANY_TRACKINGS = 100;
export const TRACKING_NAME_MAX = 100;
/** Companies one new-companies report lists (a broad search on a large import is cut here). */
export const MAX_NEW_COMPANIES_PER_REPORT = 1_000;

/** The change feed: changes on one page, unless asked (`count`), and at most. */
export const CHANGE_FEED_PAGE_DEFAULT = 100;
export const CHANGE_FEED_PAGE_MAX = 1_000;
/** Webhooks: endpoints a user may have, the longest URL, and changes pushed in one delivery. */
export const MAX_WEBHOOKS_PER_USER = 10;
export const WEBHOOK_URL_MAX = 2_000;
export const WEBHOOK_CHANGES_PER_DELIVERY = 500;
/** Attempts of one delivery before it is marked failed (each waits longer: core/webhooks/deliveries.ts). */
export const WEBHOOK_MAX_ATTEMPTS = 6;

/** Support tickets (ADR 0021): the longest subject and message. */
export const SUPPORT_SUBJECT_MAX = 200;
export const SUPPORT_MESSAGE_MAX = 10_000;

/** Rows one export may hold. */
export const EXPORT_ROW_LIMIT = 10_000;

/** Items in one related list that make a profile advanced (spec §3, §9). */
export const ADVANCED_PROFILE_THRESHOLD = 10;

/** API keys (docs/decisions/0020-api-keys-matching-reconciliation.md): keys a user may have, the longest name. */
export const MAX_API_KEYS_PER_USER = 20;
export const API_KEY_NAME_MAX = 100;
/** Days of use per key the dashboard shows. */
export const API_USAGE_DAYS = 14;
/**
 * The published limits of /api per plan: requests per hour (a sliding hour). Anonymous calls count
 * per client address; a key's or a signed-in user's per user. `paid` applies once subscriptions
 * (the credits ledger) say so.
 */
export const API_PLAN_LIMITS = { anonymous: 100, free: 1_000, paid: 10_000 } as const;
export type ApiPlan = keyof typeof API_PLAN_LIMITS;
export const API_LIMIT_WINDOW_SECONDS = 3600;
/**
 * Provider webhooks (payments, the help desk) per hour per sending address: authenticated by their
 * signature, not by a plan, they have a bucket of their own — a provider's burst of events must
 * never wait behind the anonymous limit, and a flood is still refused. One whose signature is
 * refused also counts against the anonymous limit of its address.
 */
export const API_WEBHOOK_LIMIT = 10_000;
/** Queries in one POST /api/match (and one reconciliation batch). */
export const MAX_MATCH_QUERIES = 100;
/** An enrichment's upload: smaller than this many bytes, and at most this many rows (ADR 0020 "Enrichment"). */
export const ENRICHMENT_MAX_BYTES = 50 * 1024 * 1024;
export const ENRICHMENT_ROW_LIMIT = 100_000;
/**
 * What reading an upload may cost, each checked while the file streams in a worker thread, which
 * stops at the first one passed (ADR 0020 "Enrichment"): columns (a wider file is no list of
 * companies, and the mapping page shows each), Excel's own 32,767 characters a cell, and for an
 * XLSX workbook (a ZIP archive) its entries, the bytes its parts inflate to (each and together)
 * and its shared strings. A page form's body is cut off past ENRICHMENT_MAX_BYTES plus the form's
 * own bytes (server/plugins/ssr.ts), whether or not it says its length.
 */
export const ENRICHMENT_COLUMN_LIMIT = 200;
export const ENRICHMENT_CELL_MAX_CHARS = 32_767;
export const ENRICHMENT_ZIP_ENTRIES_MAX = 1_000;
export const ENRICHMENT_ENTRY_INFLATED_MAX = 100 * 1024 * 1024;
export const ENRICHMENT_INFLATED_MAX = 200 * 1024 * 1024;
export const ENRICHMENT_SHARED_STRINGS_MAX = 1_000_000;
/** The longest a file may take to read, and the heap its reader may use, before it is refused. */
export const ENRICHMENT_READ_SECONDS = 30;
export const ENRICHMENT_READ_HEAP_MB = 256;
/** Room for a page form's other fields and multipart framing beside its file. */
export const PAGE_FORM_OVERHEAD_BYTES = 64 * 1024;

/** The limits as the messages name them. */
/** Changes on one page of a company's History tab (ADR 0014's company_changes, newest first). */
export const HISTORY_PAGE_SIZE = 50;
/** The last page of a company's history a request may ask for (pages × size rows are skipped). */
export const HISTORY_MAX_PAGE = 1000;

export const MESSAGE_LIMITS = {
  passwordMin: PASSWORD_MIN_LENGTH,
  passwordMax: PASSWORD_MAX_LENGTH,
  nameMax: NAME_MAX_LENGTH,
  listNameMax: LIST_NAME_MAX,
  listDescriptionMax: LIST_DESCRIPTION_MAX,
  listsMax: MAX_LISTS_PER_USER,
  listCompaniesMax: MAX_OBJECTS_PER_LIST,
  tagMax: TAG_MAX,
  tagsMax: MAX_TAGS_PER_OBJECT,
  savedNameMax: SAVED_NAME_MAX,
  savedSearchesMax: MAX_SAVED_SEARCHES,
  refsMax: MAX_REFS,
  contactMax: CONTACT_MAX_LENGTH,
  contactsMax: MAX_CONTACTS_PER_USER,
  phoneDigitsMin: PHONE_DIGITS_MIN,
  phoneDigitsMax: PHONE_DIGITS_MAX,
  advancedThreshold: ADVANCED_PROFILE_THRESHOLD,
  exportRowsMax: EXPORT_ROW_LIMIT,
  supportSubjectMax: SUPPORT_SUBJECT_MAX,
  supportMessageMax: SUPPORT_MESSAGE_MAX,
  trackedMax: MAX_TRACKED_COMPANIES,
  trackingsMax: MAX_NEW_COMPANY_TRACKINGS,
  trackingNameMax: TRACKING_NAME_MAX,
  apiKeysMax: MAX_API_KEYS_PER_USER,
  apiKeyNameMax: API_KEY_NAME_MAX,
  apiAnonymousLimit: API_PLAN_LIMITS.anonymous,
  apiFreeLimit: API_PLAN_LIMITS.free,
  apiPaidLimit: API_PLAN_LIMITS.paid,
  enrichmentRowsMax: ENRICHMENT_ROW_LIMIT,
  enrichmentColumnsMax: ENRICHMENT_COLUMN_LIMIT,
  enrichmentCellMax: ENRICHMENT_CELL_MAX_CHARS,
  enrichmentZipEntriesMax: ENRICHMENT_ZIP_ENTRIES_MAX,
  enrichmentEntryInflatedMb: ENRICHMENT_ENTRY_INFLATED_MAX / 1024 / 1024,
  enrichmentInflatedMb: ENRICHMENT_INFLATED_MAX / 1024 / 1024,
  enrichmentSharedStringsMax: ENRICHMENT_SHARED_STRINGS_MAX,
  enrichmentReadSeconds: ENRICHMENT_READ_SECONDS,
  enrichmentReadHeapMb: ENRICHMENT_READ_HEAP_MB,
} as const;
