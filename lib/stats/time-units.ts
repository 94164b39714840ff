/** Lengths of time in milliseconds, for window and bucket arithmetic on epoch-ms instants. */
export const MINUTE_MS = 60_000;
/** One hour, ms. */
export const HOUR_MS = 60 * MINUTE_MS;
/** One day (24 hours; UTC days have no DST), ms. */
export const DAY_MS = 24 * HOUR_MS;
