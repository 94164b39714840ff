/**
 * Classifies errors that mean "the database is not reachable right now" (server down, restarting,
 * connection refused or dropped), as opposed to a bug or bad data. Such errors are answered with
 * 503 + Retry-After, never 500: the request was fine and will work once Postgres is back.
 */

/** PostgreSQL SQLSTATEs of a server shutting down, starting up or out of connections. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006']);
/** Node socket and postgres.js client error codes of a lost or refused connection. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

/**
 * True when `err` (or any error in its `cause` chain, e.g. drizzle's wrapping of the driver's
 * error) says the database is unavailable. Reads `code` (SQLSTATE or errno string) only.
 */
export function isDatabaseUnavailableError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_CODES.has(code))) return true;
    const errors = (e as { errors?: unknown }).errors; // AggregateError of a multi-address connect
    if (Array.isArray(errors) && errors.some((x) => isDatabaseUnavailableError(x))) return true;
  }
  return false;
}
