import { describe, expect, it } from 'vitest';
import { findFidelityDrops, summariseFidelity } from './fidelity-summary';

describe('fidelity summary', () => {
  it('pass rate with its Wilson interval; null without checks', () => {
    expect(summariseFidelity(0, 0)).toBeNull();
    expect(summariseFidelity(10, 10)).toMatchObject({ passRate: 1, n: 10, interval: { high: 1 } });
    const s = summariseFidelity(5, 10)!;
    expect(s.interval.low).toBeCloseTo(0.2366, 4);
    expect(s.interval.high).toBeCloseTo(0.7634, 4);
  });

  it('a drop starts a run of confidently-low days; a good model with a few misses never drops', () => {
    const days = [
      { day: '2026-11-01', n: 100, passed: 98 },
      { day: '2026-11-02', n: 100, passed: 97 },
      { day: '2026-11-03', n: 100, passed: 60 },
      { day: '2026-11-04', n: 100, passed: 50 },
      { day: '2026-11-05', n: 100, passed: 99 },
      { day: '2026-11-06', n: 5, passed: 4 }, // too few to be confident
      { day: '2026-11-07', n: 40, passed: 0 },
    ];
    expect(findFidelityDrops(days).map((d) => d.day)).toEqual(['2026-11-03', '2026-11-07']);
    expect(findFidelityDrops([{ day: '2026-11-01', n: 3, passed: 0 }]).map((d) => d.day)).toEqual(['2026-11-01']);
    expect(findFidelityDrops([{ day: '2026-11-01', n: 2, passed: 0 }])).toEqual([]);
  });
});
