import { describe, expect, it } from 'vitest';
import { bootstrapMedianCi } from './bootstrap';
import { mulberry32, normalFrom } from './random';

describe('bootstrapMedianCi', () => {
  const g = normalFrom(mulberry32(123));
  const sample = Array.from({ length: 101 }, () => 100 + 10 * g());

  it('is deterministic given the seed, and the seed matters', () => {
    const a = bootstrapMedianCi(sample, { seed: 9 });
    expect(bootstrapMedianCi(sample, { seed: 9 })).toEqual(a);
    // with few resamples the interval depends visibly on the seed
    const distinct = new Set([1, 2, 3, 4, 5].map((seed) => JSON.stringify(bootstrapMedianCi(sample, { seed, iterations: 20 }))));
    expect(distinct.size).toBeGreaterThan(1);
  });
  it('returns the sample median and an interval around it', () => {
    const { median, low, high } = bootstrapMedianCi(sample, { seed: 1 });
    const sorted = [...sample].sort((x, y) => x - y);
    expect(median).toBe(sorted[50]);
    expect(low).toBeLessThanOrEqual(median);
    expect(high).toBeGreaterThanOrEqual(median);
    // SE of the median ≈ 1.2533·σ/√n ≈ 1.25 → 95 % CI half-width ≈ 2.4
    expect(high - low).toBeGreaterThan(2);
    expect(high - low).toBeLessThan(8);
  });
  it('hand cases: constant sample and single value give a zero-width interval; even n median is mean of middle two', () => {
    expect(bootstrapMedianCi([5, 5, 5, 5], { seed: 3 })).toEqual({ median: 5, low: 5, high: 5 });
    expect(bootstrapMedianCi([7], { seed: 3 })).toEqual({ median: 7, low: 7, high: 7 });
    expect(bootstrapMedianCi([1, 2, 3, 10], { seed: 3 }).median).toBe(2.5);
  });
  it('higher confidence gives a wider interval', () => {
    const n90 = bootstrapMedianCi(sample, { seed: 4, confidence: 0.9 });
    const n99 = bootstrapMedianCi(sample, { seed: 4, confidence: 0.99 });
    expect(n99.high - n99.low).toBeGreaterThan(n90.high - n90.low);
  });
  it('covers the true median about 95 % of the time (seeded simulation)', () => {
    const gen = normalFrom(mulberry32(2024));
    let covered = 0;
    const trials = 200;
    for (let k = 0; k < trials; k++) {
      const xs = Array.from({ length: 60 }, () => 50 + 5 * gen());
      const ci = bootstrapMedianCi(xs, { seed: k, iterations: 400 });
      if (ci.low <= 50 && 50 <= ci.high) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.88);
    expect(covered / trials).toBeLessThanOrEqual(1);
  });
  it('validates input', () => {
    expect(() => bootstrapMedianCi([])).toThrow(RangeError);
    expect(() => bootstrapMedianCi([1, Number.NaN])).toThrow(TypeError);
    expect(() => bootstrapMedianCi([1], { iterations: 0 })).toThrow(RangeError);
    expect(() => bootstrapMedianCi([1], { confidence: 1 })).toThrow(RangeError);
    expect(() => bootstrapMedianCi([1], { seed: 0.5 })).toThrow(TypeError);
  });
});
