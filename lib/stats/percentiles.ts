/**
 * Descriptive statistics: percentiles, mean, sample standard deviation.
 *
 * Conventions (chosen so our figures are directly comparable with numpy/pandas-based tools such
 * as LLMPerf and vLLM/SGLang `bench_serving`):
 * - Percentiles use linear interpolation between closest ranks, Hyndman & Fan (1996) "type 7",
 *   which is the default of numpy `percentile`/`quantile` (`method="linear"`), pandas
 *   `Series.quantile` and R `quantile`. The interpolation step reproduces numpy's `_lerp`
 *   (including its `t >= 0.5` branch) so results agree with numpy to the last bit.
 * - Sums use numpy's pairwise summation (blocks of 8 accumulators, 128-element leaves), so means
 *   agree with `np.mean`/`pandas.Series.mean` to the last bit on the same data.
 * - Standard deviation is the sample standard deviation (ddof = 1, Bessel's correction), the
 *   pandas `Series.std()` default, computed with pandas' two-pass formula.
 *
 * Input validation: every function rejects NaN and ±Infinity (TypeError naming the index), so a
 * NaN can never silently propagate into a ranking.
 */

/** The percentile levels reported by {@link summarize} (0..100). */
export const SUMMARY_PERCENTILES = [5, 25, 50, 75, 90, 95, 99] as const;

/**
 * Summary statistics of a sample. All values are in the unit of the input.
 * - count: number of values (≥ 1)
 * - mean: arithmetic mean (numpy pairwise summation ÷ count)
 * - min, max: extremes
 * - stddev: sample standard deviation, ddof = 1 (pandas `Series.std()` default); `null` when
 *   count < 2 (pandas returns NaN there; we refuse to emit NaN)
 * - p5 … p99: type-7 (numpy default, linear) percentiles
 */
export interface Summary {
  count: number;
  mean: number;
  min: number;
  max: number;
  stddev: number | null;
  p5: number;
  p25: number;
  p50: number;
  p75: number;
  p90: number;
  p95: number;
  p99: number;
}

/**
 * Throws a TypeError if any value is not a finite number (NaN, ±Infinity, non-number).
 * @param values the sample
 * @param what name used in the error message
 * @throws TypeError naming the first offending index
 */
export function assertFinite(values: readonly number[], what = 'values'): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new TypeError(`${what}[${i}] must be a finite number, got ${String(v)}`);
    }
  }
}

function sortedCopy(values: readonly number[]): Float64Array {
  return Float64Array.from(values).sort();
}

function isSortedAscending(values: ArrayLike<number>): boolean {
  for (let i = 1; i < values.length; i++) if (values[i - 1]! > values[i]!) return false;
  return true;
}

/**
 * numpy `_lerp(a, b, t)`: a + (b − a)·t, computed as b − (b − a)·(1 − t) when t ≥ 0.5 (numpy
 * does this for monotonicity and exactness at t = 1).
 */
function lerp(a: number, b: number, t: number): number {
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/** Type-7 percentile on an already sorted, validated, non-empty array; q in [0, 1]. */
function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  const h = (n - 1) * q; // numpy 'linear': virtual index = (n − 1)·q
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const t = h - lo;
  return lerp(sorted[lo]!, sorted[hi]!, t);
}

function checkP(p: number): void {
  if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 100) {
    throw new RangeError(`percentile p must be a number in [0, 100], got ${String(p)}`);
  }
}

/**
 * The p-th percentile of a sample by linear interpolation (Hyndman & Fan type 7; numpy
 * `np.percentile(values, p)` default, pandas `Series.quantile(p / 100)`).
 *
 * With the sample sorted ascending as x[0..n−1], h = (n − 1)·p/100 and the result is
 * x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). Example: percentile([1, 2, 3, 4], 25) = 1.75.
 *
 * @param sortedOrUnsorted sample in any order (not modified; sorted internally if needed), any unit
 * @param p percentile level in [0, 100]
 * @returns the percentile, in the unit of the input
 * @throws RangeError if the sample is empty or p is outside [0, 100] / not finite
 * @throws TypeError if a value is NaN or infinite
 */
export function percentile(sortedOrUnsorted: readonly number[], p: number): number {
  checkP(p);
  if (sortedOrUnsorted.length === 0) throw new RangeError('percentile of an empty sample is undefined');
  assertFinite(sortedOrUnsorted);
  const sorted: ArrayLike<number> = isSortedAscending(sortedOrUnsorted) ? sortedOrUnsorted : sortedCopy(sortedOrUnsorted);
  return quantileSorted(sorted, p / 100);
}

/**
 * Several percentiles of one sample, sorting once. Same definition as {@link percentile}.
 * @param values sample in any order, any unit
 * @param ps percentile levels, each in [0, 100]
 * @returns one value per requested level, in the same order as `ps`
 * @throws RangeError on an empty sample or a level outside [0, 100]
 * @throws TypeError if a value is NaN or infinite
 */
export function percentiles(values: readonly number[], ps: readonly number[]): number[] {
  ps.forEach(checkP);
  if (values.length === 0) throw new RangeError('percentiles of an empty sample are undefined');
  assertFinite(values);
  const sorted: ArrayLike<number> = isSortedAscending(values) ? values : sortedCopy(values);
  return ps.map((p) => quantileSorted(sorted, p / 100));
}

/**
 * Sum with numpy's pairwise summation algorithm (`pairwise_sum` in numpy's loops: fewer than 8
 * values are added left to right; up to 128 values use 8 interleaved accumulators; longer arrays
 * are split in two at a multiple of 8 and summed recursively). Error grows O(log n) rather than
 * O(n), and results are bit-identical to `np.sum` on a contiguous float64 array.
 * @param values finite numbers (not validated here)
 */
export function pairwiseSum(values: ArrayLike<number>, start = 0, n = values.length - start): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += values[start + i]!;
    return res;
  }
  if (n <= 128) {
    const r = new Float64Array(8);
    for (let j = 0; j < 8; j++) r[j] = values[start + j]!;
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j++) r[j]! += values[start + i + j]!;
    }
    let res = r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!));
    for (; i < n; i++) res += values[start + i]!;
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(values, start, n2) + pairwiseSum(values, start + n2, n - n2);
}

/**
 * Arithmetic mean (numpy pairwise sum ÷ count, as `np.mean` / pandas `Series.mean`).
 * @throws RangeError on an empty sample; TypeError on NaN/Infinity
 */
export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('mean of an empty sample is undefined');
  assertFinite(values);
  return pairwiseSum(values) / values.length;
}

/**
 * Sample standard deviation with ddof = 1 (pandas `Series.std()` default), computed as pandas'
 * `nanvar` does: avg = Σx / n, then sqrt(Σ(avg − x)² / (n − 1)), both sums pairwise.
 * @returns the standard deviation in the unit of the input, or null when n < 2
 * @throws RangeError on an empty sample; TypeError on NaN/Infinity
 */
export function sampleStddev(values: readonly number[]): number | null {
  if (values.length === 0) throw new RangeError('stddev of an empty sample is undefined');
  assertFinite(values);
  const n = values.length;
  if (n < 2) return null;
  const avg = pairwiseSum(values) / n;
  const sq = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = avg - values[i]!;
    sq[i] = d * d;
  }
  return Math.sqrt(pairwiseSum(sq) / (n - 1));
}

/**
 * count, mean, min, max, sample stddev (ddof = 1) and the type-7 percentiles p5, p25, p50, p75,
 * p90, p95, p99 of a sample (see {@link Summary}). Definitions follow numpy/pandas defaults.
 * @param values sample in any order, any unit; not modified
 * @throws RangeError on an empty sample; TypeError on NaN/Infinity
 */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new RangeError('summary of an empty sample is undefined');
  assertFinite(values);
  const sorted = sortedCopy(values);
  const [p5, p25, p50, p75, p90, p95, p99] = SUMMARY_PERCENTILES.map((p) => quantileSorted(sorted, p / 100)) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return {
    count: values.length,
    mean: mean(values),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    stddev: sampleStddev(values),
    p5,
    p25,
    p50,
    p75,
    p90,
    p95,
    p99,
  };
}
