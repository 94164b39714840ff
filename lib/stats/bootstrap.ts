/**
 * Bootstrap confidence interval of the median (Efron 1979, "Bootstrap methods: another look at the
 * jackknife"; percentile interval as in Efron & Tibshirani 1993, "An Introduction to the
 * Bootstrap", ch. 13). Used to decide whether two endpoints' medians are distinguishable
 * (see tie-bands.ts).
 */
import { assertFinite } from './percentiles';
import { mulberry32 } from './random';

/** Options of {@link bootstrapMedianCi}. */
export interface BootstrapOptions {
  /** Number of bootstrap resamples; integer ≥ 1. Default 1000. */
  iterations?: number;
  /** Two-sided confidence level in (0, 1). Default 0.95. */
  confidence?: number;
  /** PRNG seed (integer); the result is a pure function of (values, options). Default 1. */
  seed?: number;
}

/**
 * A median with its bootstrap confidence interval, in the unit of the input. low ≤ high always;
 * median usually lies inside [low, high] but the percentile method does not guarantee it.
 */
export interface MedianCi {
  median: number;
  low: number;
  high: number;
}

/** Type-7 median of a Float64Array, sorting it in place (numpy `median`: mean of the middle two). */
function medianInPlace(a: Float64Array): number {
  a.sort();
  const n = a.length;
  const mid = n >> 1;
  return n % 2 === 1 ? a[mid]! : (a[mid - 1]! + a[mid]!) / 2;
}

/** Type-7 percentile of an ascending array (numpy linear). */
function q7(sorted: Float64Array, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const t = h - lo;
  const d = sorted[hi]! - sorted[lo]!;
  return t >= 0.5 ? sorted[hi]! - d * (1 - t) : sorted[lo]! + d * t;
}

/**
 * Percentile-bootstrap confidence interval of the median.
 *
 * Draws `iterations` resamples of size n with replacement (indices from a seeded mulberry32
 * generator), takes each resample's median (numpy definition: middle value, or mean of the two
 * middle values), and returns the (1 − confidence)/2 and (1 + confidence)/2 type-7 percentiles of
 * those medians. `median` is the sample's own median, not the bootstrap mean. Deterministic: the
 * same values, options and seed give the same interval on every run and platform.
 *
 * Caveat: for very small n the bootstrap distribution of the median is lumpy and the interval is
 * too narrow; callers should report n beside it (DESIGN.md: sample count is always shown).
 *
 * @param values sample in any unit (e.g. TPS/user of successful probes), any order; not modified
 * @param options iterations (default 1000), confidence (default 0.95), seed (default 1)
 * @returns { median, low, high } in the unit of the input
 * @throws RangeError on an empty sample, iterations not an integer ≥ 1, confidence outside (0, 1)
 * @throws TypeError on NaN/Infinity in values or a non-integer seed
 */
export function bootstrapMedianCi(values: readonly number[], options: BootstrapOptions = {}): MedianCi {
  const { iterations = 1000, confidence = 0.95, seed = 1 } = options;
  if (values.length === 0) throw new RangeError('bootstrap of an empty sample is undefined');
  assertFinite(values);
  if (!Number.isInteger(iterations) || iterations < 1) {
    throw new RangeError(`iterations must be an integer ≥ 1, got ${String(iterations)}`);
  }
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${String(confidence)}`);
  const rand = mulberry32(seed);
  const n = values.length;
  const median = medianInPlace(Float64Array.from(values));
  const medians = new Float64Array(iterations);
  const resample = new Float64Array(n);
  for (let b = 0; b < iterations; b++) {
    for (let i = 0; i < n; i++) resample[i] = values[Math.floor(rand() * n)]!;
    medians[b] = medianInPlace(resample);
  }
  medians.sort();
  const alpha = (1 - confidence) / 2;
  return { median, low: q7(medians, alpha), high: q7(medians, 1 - alpha) };
}
