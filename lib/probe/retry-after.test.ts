import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs, parseRetryHintMs } from './retry-after';

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2026-11-29T18:00:00Z');
  it.each([
    [{ 'retry-after': '7' }, 7000],
    [{ 'retry-after': '1.5' }, 1500],
    [{ 'retry-after': 'Sun, 29 Nov 2026 18:00:30 GMT' }, 30_000],
    [{ 'retry-after': 'Sun, 29 Nov 2026 17:59:00 GMT' }, 0],
    [{ 'retry-after': 'soon' }, null],
    [{ 'retry-after': '7', 'retry-after-ms': '6500' }, 6500],
    [{}, null],
  ])('%j → %s', (headers, expected) => {
    expect(parseRetryAfterMs(new Headers(headers), now)).toBe(expected);
  });
});

describe('parseRetryHintMs (back-off named in an error body)', () => {
  it.each<[string, number | null]>([
    ['{"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"27s"}]}}', 27_000],
    ['Rate limit reached for requests. Please try again in 6.5s.', 6_500],
    ['Please try again in 120ms.', 120],
    ['slot busy, retry after 3 seconds', 3_000],
    ['Rate limit reached. Try again later.', null],
    ['', null],
  ])('%j → %s', (body, expected) => {
    expect(parseRetryHintMs(body)).toBe(expected);
  });
});
