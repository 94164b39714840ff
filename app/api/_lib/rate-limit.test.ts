// The public read limit is counted in process memory (decision 213): exact at its edge, per key,
// refilled after its duration, and never touches the database (no getDb() needed to run it).
import { afterEach, describe, expect, it } from 'vitest';
import { configureRateLimits, consumeLimit, RateLimitedError } from './rate-limit';

afterEach(() => configureRateLimits({}));

async function outcome(key: string): Promise<'ok' | number> {
  try {
    await consumeLimit('publicRead', key);
    return 'ok';
  } catch (err) {
    if (err instanceof RateLimitedError) return err.retryAfterSeconds;
    throw err;
  }
}

describe('public read limit (in memory)', () => {
  it('allows exactly `points` requests per key and refuses the next with Retry-After', async () => {
    configureRateLimits({ publicRead: { points: 5, durationSeconds: 60 } });
    const seen: Array<'ok' | number> = [];
    for (let i = 0; i < 7; i++) seen.push(await outcome('198.51.100.10'));
    // 4 (under), 5 (at) allowed; 6 and 7 (over) refused
    expect(seen.slice(0, 5)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(typeof seen[5]).toBe('number');
    expect(seen[5]).toBeGreaterThan(0);
    expect(seen[5]).toBeLessThanOrEqual(60);
    expect(typeof seen[6]).toBe('number');
    // another client is not affected
    expect(await outcome('198.51.100.11')).toBe('ok');
  });

  it('frees the points once the duration has passed', async () => {
    configureRateLimits({ publicRead: { points: 2, durationSeconds: 1 } });
    expect(await outcome('198.51.100.12')).toBe('ok');
    expect(await outcome('198.51.100.12')).toBe('ok');
    expect(await outcome('198.51.100.12')).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await outcome('198.51.100.12')).toBe('ok');
  });

  it('keys longer than 300 characters share the bucket of their first 300', async () => {
    configureRateLimits({ publicRead: { points: 1, durationSeconds: 60 } });
    const long = 'x'.repeat(300);
    expect(await outcome(`${long}a`)).toBe('ok');
    expect(typeof (await outcome(`${long}b`))).toBe('number');
  });
});
