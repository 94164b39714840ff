/**
 * Parses rate-limit back-off hints into milliseconds.
 * `Retry-After` (RFC 9110 §10.2.3) is either delay-seconds or an HTTP-date; OpenAI and Azure also
 * send `retry-after-ms`, which is more precise and wins when present.
 */

/**
 * Milliseconds to wait according to the response headers, or null when none is usable.
 * `nowMs` (wall clock, ms since epoch) is only used for the HTTP-date form. Negative waits
 * (a date in the past) become 0. Never throws.
 */
export function parseRetryAfterMs(headers: Headers, nowMs: number = Date.now()): number | null {
  const precise = headers.get('retry-after-ms');
  if (precise !== null && /^\s*\d+(\.\d+)?\s*$/.test(precise)) return Math.round(Number(precise));
  const value = headers.get('retry-after');
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}

/**
 * A back-off hint inside an error body, in ms, or null: Google's RetryInfo `"retryDelay": "27s"`,
 * OpenAI's "Please try again in 6.5s" / "in 120ms", and "retry after N seconds". Used only when
 * the headers give none. Never throws.
 */
export function parseRetryHintMs(body: string): number | null {
  const delay = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(body);
  if (delay) return Math.round(Number(delay[1]) * 1000);
  const phrase = /(?:try again|retry)(?: after| in)\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|sec(?:ond)?s?)\b/i.exec(body);
  if (!phrase) return null;
  const value = Number(phrase[1]);
  return Math.round(/^m/i.test(phrase[2]!) ? value : value * 1000);
}
