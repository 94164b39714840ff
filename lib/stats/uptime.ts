/**
 * Endpoint uptime: the share of an endpoint's probes that succeeded within a trailing window, the
 * way OpenRouter's provider uptime reads. One computation for every surface (API, endpoint page).
 * Source: the raw measurements (outcome per probe). Probes cancelled by Tokenpace itself
 * (error kind `cancelled`, e.g. a worker shutting down) are not the endpoint's doing and are not
 * counted; every other failure (timeouts, HTTP errors, rate limits, broken streams) counts against it.
 */

/** Trailing windows reported, shortest first (ms). */
export const UPTIME_WINDOWS = [
  { key: '5m', ms: 5 * 60_000 },
  { key: '30m', ms: 30 * 60_000 },
  { key: '1d', ms: 86_400_000 },
  { key: '7d', ms: 7 * 86_400_000 },
] as const;

export type UptimeWindowKey = (typeof UPTIME_WINDOWS)[number]['key'];

/** One window: probes counted (n), successes, and successes ÷ n (null when n = 0). */
export interface UptimeWindow {
  n: number;
  successes: number;
  successFraction: number | null;
}

/** successes ÷ n, rounded to 4 decimals; null for n = 0 (no probe: unknown, not 0 % or 100 %). */
export function computeUptimeWindow(successes: number, n: number): UptimeWindow {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`uptime: need 0 ≤ successes ≤ n (got ${successes}/${n})`);
  }
  return { n, successes, successFraction: n === 0 ? null : Math.round((successes / n) * 10_000) / 10_000 };
}
