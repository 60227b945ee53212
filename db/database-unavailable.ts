// Whether a failure means "the database is away for now" (a restart, a failover, a full server)
// rather than "this request is wrong": the first is a 503 with Retry-After, page and API alike.
// No imports: the page bundle uses it too (app/entry.server.tsx).

/** Seconds a client is asked to wait (Retry-After) while the database is away. */
export const RETRY_AFTER_SECONDS = 5;

/** Network failures reaching the server (Node's error codes). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that cannot serve now: class 08 (connection exceptions), 57P01
 * admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down),
 * 53300 too_many_connections, 57014 query_canceled (the app cancels nothing itself: its statement
 * timeout ended a statement that waited for a lock or a busy server) and 55P03 lock_not_available.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '55P03']);

/** What node-postgres and its pool say when a connection breaks or cannot be had. */
const DRIVER_MESSAGES = [
  /^Connection terminated/, // unexpectedly, or due to connection timeout
  /^timeout exceeded when trying to connect/, // the pool's queue bound
  /^timeout expired/, // a client's own connect bound (db/client.ts)
  /is not queryable/, // a client whose connection broke
  /^Cannot use a pool after calling end on the pool/,
  /^Client was closed/,
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  if (DRIVER_MESSAGES.some((message) => message.test(error.message))) return true;
  // A connection tried over several addresses (localhost: ::1, then 127.0.0.1) fails with them all.
  if (error instanceof AggregateError && error.errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(error.cause, depth + 1);
}
