/**
 * write-dump: the week it picks (ISO weeks, UTC, Monday boundaries). The dump's content, chunking
 * and serving are tested through the API in app/api/v1/journalist.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { lastCompleteWeek } from './write-dump';

describe('lastCompleteWeek', () => {
  const cases: Array<[now: string, from: string, until: string]> = [
    ['2026-11-30T00:00:00.000Z', '2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'], // Monday 00:00: the week just ended
    ['2026-11-29T23:59:59.999Z', '2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z'], // Sunday night: the week before
    ['2026-12-02T12:00:00.000Z', '2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'], // Wednesday
    ['2027-01-03T10:00:00.000Z', '2026-12-21T00:00:00.000Z', '2026-12-28T00:00:00.000Z'], // across a year end
  ];
  for (const [now, from, until] of cases) {
    it(`${now} → [${from}, ${until})`, () => {
      const w = lastCompleteWeek(new Date(now));
      expect(w.fromAt.toISOString()).toBe(from);
      expect(w.untilAt.toISOString()).toBe(until);
    });
  }
});
