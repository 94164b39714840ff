import { expect, it } from 'vitest';
import { ratioOfSumsInterval } from './ratio-interval';

it('is the ratio of sums with a bootstrap interval that narrows with n and is the same every time', () => {
  const den = Array.from({ length: 40 }, (_, i) => 100 + i);
  const num = den.map((d, i) => d * (i % 2 ? 1.1 : 1.3)); // per-pair ratios 1.1 and 1.3
  const r = ratioOfSumsInterval(num, den)!;
  expect(r.ratio).toBeCloseTo(num.reduce((a, b) => a + b) / den.reduce((a, b) => a + b), 12);
  expect(r.low).toBeLessThan(r.ratio);
  expect(r.high).toBeGreaterThan(r.ratio);
  expect(r.high - r.low).toBeLessThan(0.1); // ≈ 2 × 1.96 × 0.1 / √40
  expect(r.high - r.low).toBeGreaterThan(0.03);
  expect(ratioOfSumsInterval(num, den)).toEqual(r);
  const exact = ratioOfSumsInterval([124, 248], [100, 200])!;
  expect(exact).toEqual({ ratio: 1.24, low: 1.24, high: 1.24, n: 2 });
  expect(ratioOfSumsInterval([], [])).toBeNull();
  expect(() => ratioOfSumsInterval([1], [0])).toThrow(RangeError);
});
