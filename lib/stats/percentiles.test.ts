import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mean, pairwiseSum, percentile, percentiles, sampleStddev, summarize } from './percentiles';

describe('percentile (type 7, numpy linear)', () => {
  it('matches hand-computed values', () => {
    expect(percentile([1, 2, 3, 4], 25)).toBe(1.75); // h = 3·0.25 = 0.75 → 1 + 0.75·(2−1)
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([1, 2, 3, 4], 75)).toBe(3.25);
    expect(percentile([1, 2, 3, 4], 0)).toBe(1);
    expect(percentile([1, 2, 3, 4], 100)).toBe(4);
    expect(percentile([10, 20, 30, 40, 50], 90)).toBe(46); // h = 4·0.9 = 3.6 → 40 + 0.6·10
    expect(percentile([7], 33)).toBe(7);
    // np.percentile([15, 20, 35, 40, 50], 40) == 29.0: h = 1.6 → 20 + 0.6·15
    expect(percentile([15, 20, 35, 40, 50], 40)).toBeCloseTo(29, 12);
  });
  it('does not care about input order and does not mutate it', () => {
    const v = [4, 1, 3, 2];
    expect(percentile(v, 25)).toBe(1.75);
    expect(v).toEqual([4, 1, 3, 2]);
  });
  it('throws RangeError on empty input or p out of range', () => {
    expect(() => percentile([], 50)).toThrow(RangeError);
    expect(() => percentile([1], -0.1)).toThrow(RangeError);
    expect(() => percentile([1], 100.1)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });
  it('throws TypeError on NaN or infinite values', () => {
    expect(() => percentile([1, Number.NaN], 50)).toThrow(TypeError);
    expect(() => percentile([1, Number.POSITIVE_INFINITY], 50)).toThrow(/values\[1\]/);
  });
  it('percentiles sorts once and returns in requested order', () => {
    expect(percentiles([4, 3, 2, 1], [75, 25, 50])).toEqual([3.25, 1.75, 2.5]);
    expect(() => percentiles([], [50])).toThrow(RangeError);
    expect(() => percentiles([1], [101])).toThrow(RangeError);
  });
  it('property: lies within [min, max] and is monotone in p', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 50 }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (v, a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const x = percentile(v, lo);
          const y = percentile(v, hi);
          expect(x).toBeGreaterThanOrEqual(Math.min(...v));
          expect(y).toBeLessThanOrEqual(Math.max(...v));
          expect(x).toBeLessThanOrEqual(y);
        },
      ),
    );
  });
});

describe('mean, stddev, summarize', () => {
  it('hand-computed summary of 1..4', () => {
    const s = summarize([4, 2, 3, 1]);
    expect(s.count).toBe(4);
    expect(s.mean).toBe(2.5);
    expect(s.min).toBe(1);
    expect(s.max).toBe(4);
    // sample variance = (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3
    expect(s.stddev).toBeCloseTo(Math.sqrt(5 / 3), 15);
    expect(s.p5).toBeCloseTo(1.15, 15); // h = 0.15
    expect(s.p25).toBe(1.75);
    expect(s.p50).toBe(2.5);
    expect(s.p75).toBe(3.25);
    expect(s.p90).toBeCloseTo(3.7, 15);
    expect(s.p95).toBeCloseTo(3.85, 15);
    expect(s.p99).toBeCloseTo(3.97, 15);
  });
  it('stddev is null for a single value (pandas gives NaN; we refuse NaN)', () => {
    expect(sampleStddev([5])).toBeNull();
    expect(summarize([5])).toMatchObject({ count: 1, mean: 5, min: 5, max: 5, stddev: null, p50: 5, p99: 5 });
  });
  it('sample stddev of a known set', () => {
    // pandas: pd.Series([2, 4, 4, 4, 5, 5, 7, 9]).std() == 2.138089935299395
    expect(sampleStddev([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(2.138089935299395, 14);
  });
  it('rejects empty and non-finite input', () => {
    expect(() => summarize([])).toThrow(RangeError);
    expect(() => mean([])).toThrow(RangeError);
    expect(() => summarize([1, Number.NaN])).toThrow(TypeError);
  });
  it('pairwiseSum equals the exact sum on integers and differs from naive summation as numpy does', () => {
    const ints = Array.from({ length: 1000 }, (_, i) => i);
    expect(pairwiseSum(ints)).toBe(499500);
    // 0.1 × 10: naive left-to-right gives 0.9999999999999999, numpy's np.sum([0.1]*10) gives 1.0
    const tenths = Array.from({ length: 10 }, () => 0.1);
    expect(tenths.reduce((a, b) => a + b, 0)).toBe(0.9999999999999999);
    expect(pairwiseSum(tenths)).toBe(1);
  });
});
