import { describe, expect, it } from 'vitest';
import { detectChangePoints, formatChange, mannWhitneyPValue, type DailyMedian } from './change-points';
import { mulberry32, normalFrom } from './random';

function days(n: number, start = '2025-05-01'): string[] {
  const t0 = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => new Date(t0 + i * 86_400_000).toISOString().slice(0, 10));
}
function series(levels: number[], cv: number, seed: number, start?: string): DailyMedian[] {
  const g = normalFrom(mulberry32(seed));
  return days(levels.length, start).map((day, i) => ({ day, median: levels[i]! * (1 + cv * g()) }));
}
const steps = (...parts: [number, number][]): number[] => parts.flatMap(([level, n]) => Array(n).fill(level) as number[]);

describe('detectChangePoints', () => {
  it('finds a +38 % step on the right day', () => {
    const s = series(steps([100, 20], [138, 20]), 0.03, 1, '2025-05-13');
    const cps = detectChangePoints(s);
    expect(cps).toHaveLength(1);
    expect(cps[0]!.day).toBe('2025-06-02'); // 21st day
    expect(cps[0]!.relativeChange).toBeGreaterThan(0.3);
    expect(cps[0]!.relativeChange).toBeLessThan(0.46);
    expect(cps[0]!.pValue).toBeLessThan(0.001);
  });
  it('exact step without noise: before/after are the levels', () => {
    const s = days(12).map((day, i) => ({ day, median: i < 6 ? 200 : 150 }));
    const cps = detectChangePoints(s);
    expect(cps.map((c) => [c.day, c.before, c.after, c.relativeChange])).toEqual([['2025-05-07', 200, 150, -0.25]]);
  });
  it('finds two steps (up then down) and ignores input order', () => {
    const s = series(steps([100, 15], [160, 15], [100, 15]), 0.03, 5);
    const cps = detectChangePoints([...s].reverse());
    expect(cps.map((c) => c.day)).toEqual([s[15]!.day, s[30]!.day]);
    expect(cps[0]!.relativeChange).toBeGreaterThan(0.45);
    expect(cps[1]!.relativeChange).toBeLessThan(-0.3);
  });
  it('pure noise (seeded, CV 5 %) yields no change points for 30 seeds', () => {
    for (let seed = 1; seed <= 30; seed++) {
      expect(detectChangePoints(series(Array(90).fill(100) as number[], 0.05, seed)), `seed ${seed}`).toEqual([]);
    }
  });
  it('a step smaller than minRelativeEffect is ignored; a lower threshold finds it', () => {
    const s = series(steps([100, 20], [110, 20]), 0.01, 3);
    expect(detectChangePoints(s)).toEqual([]);
    expect(detectChangePoints(s, { minRelativeEffect: 0.05 }).map((c) => c.day)).toEqual([s[20]!.day]);
  });
  it('respects minSegmentLength', () => {
    const s = days(12).map((day, i) => ({ day, median: i < 6 ? 100 : 200 }));
    expect(detectChangePoints(s, { minSegmentLength: 7 })).toEqual([]);
    expect(detectChangePoints(s, { minSegmentLength: 6 }).map((c) => c.day)).toEqual([s[6]!.day]);
    expect(detectChangePoints(s.slice(0, 5))).toEqual([]);
  });
  it('validates input', () => {
    expect(() => detectChangePoints([{ day: '2025-02-30', median: 1 }])).toThrow(/series\[0\]\.day/);
    expect(() => detectChangePoints([{ day: '2025-6-1', median: 1 }])).toThrow(RangeError);
    expect(() =>
      detectChangePoints([
        { day: '2025-06-01', median: 1 },
        { day: '2025-06-01', median: 2 },
      ]),
    ).toThrow(/twice/);
    expect(() => detectChangePoints([{ day: '2025-06-01', median: 0 }])).toThrow(/median/);
    expect(() => detectChangePoints([], { minSegmentLength: 0 })).toThrow(RangeError);
    expect(() => detectChangePoints([], { minRelativeEffect: -1 })).toThrow(RangeError);
  });
});

describe('mannWhitneyPValue', () => {
  it('matches the normal approximation by hand', () => {
    // [1,2,3] vs [4,5,6]: U1 = 0, μ = 4.5, σ² = 9·7/12 = 5.25 → z = 1.96396, p = 0.04953
    expect(mannWhitneyPValue([1, 2, 3], [4, 5, 6])).toBeCloseTo(0.049535, 5);
    expect(mannWhitneyPValue([1, 1], [1, 1])).toBe(1);
    expect(mannWhitneyPValue([1, 2, 3], [1, 2, 3])).toBeCloseTo(1, 6);
  });
});

describe('formatChange', () => {
  it('formats sign, whole percent and day', () => {
    expect(formatChange({ day: '2025-06-02', relativeChange: 0.38 })).toBe('+38% on 2025-06-02');
    expect(formatChange({ day: '2025-07-01', relativeChange: -0.125 })).toBe('-13% on 2025-07-01');
    expect(formatChange({ day: '2025-07-01', relativeChange: 2 })).toBe('+200% on 2025-07-01');
  });
});
