import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs } from './retry-after';

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
