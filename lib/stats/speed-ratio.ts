/**
 * The ratio of two windows' median output speeds with an interval (issue 25 item 2: the
 * structured-output penalty = median speed of a structured workload ÷ median speed of the free-text
 * workload of the same lengths, on the same endpoint and window). Both medians and their
 * distribution-free 95 % intervals come from the one engine (window-stats); this only divides.
 * Interval: [low_a ÷ high_b, high_a ÷ low_b], the ratio of two independent 95 % intervals taken at
 * their extremes, so it covers the true ratio with at least 0.95² ≈ 90 % (Bonferroni-style,
 * conservative, no resampling). Pure.
 */

/** One window's median speed and its 95 % interval, tokens/s. */
export interface MedianWithInterval {
  p50: number;
  interval: { low: number; high: number };
}

/** A ratio of medians with its interval, dimensionless (< 1: the numerator is slower). */
export interface SpeedRatio {
  ratio: number;
  interval: { low: number; high: number };
}

/** a.p50 ÷ b.p50 with the interval above; null when either is missing or b's figures are not positive. */
export function speedRatio(a: MedianWithInterval | null, b: MedianWithInterval | null): SpeedRatio | null {
  if (!a || !b || !(b.p50 > 0) || !(b.interval.low > 0)) return null;
  return { ratio: a.p50 / b.p50, interval: { low: a.interval.low / b.interval.high, high: a.interval.high / b.interval.low } };
}
