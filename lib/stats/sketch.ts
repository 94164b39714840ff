/**
 * Mergeable quantile sketch with a relative-error guarantee: logarithmic buckets as in DDSketch
 * (Masson, Rim & Lee 2019, "DDSketch: a fast and fully-mergeable quantile sketch with
 * relative-error guarantees", PVLDB 12(12)), without bucket collapsing (our metrics span a few
 * decades, so the number of buckets stays small).
 *
 * - Relative accuracy α = 0.0005 (0.05 %, so published percentiles stay within the 0.1 % the
 *   project promises; decision 070). With γ = (1 + α)/(1 − α), a positive value x falls in bucket
 *   i = ⌈ln x / ln γ⌉, which covers (γ^(i−1), γ^i]; the bucket's representative value
 *   2γ^i/(γ + 1) is within α·x of every x in the bucket. Values ≤ 0 are counted in a zero bucket
 *   (represented as 0); our metrics (ms, tokens/s) are positive, so it stays empty in practice.
 * - Merging is adding counts bucket by bucket: exact, associative and commutative, so an hourly
 *   rollup's sketch merged over 72 hours equals the sketch of the 72 hours' raw values.
 * - Quantiles follow the type-7 definition of lib/stats/percentiles (numpy default): with
 *   h = (n − 1)·p, the order statistics x₍⌊h⌋₎ and x₍⌊h⌋+1₎ are each estimated by their bucket's
 *   representative (relative error ≤ α) and interpolated, so the result is within α (0.05 %) of the
 *   exact type-7 percentile of the raw values. Counts (n) are exact.
 * - The same bucket function runs in SQL (db/queries/rollups.ts, `ln(x) / ln γ` with ln γ passed
 *   as the same double), so rollups built in Postgres and sketches built here agree; a value
 *   within one floating-point ulp of a bucket boundary may land in the neighbouring bucket,
 *   which is still within α.
 *
 * JSON form (stored in measurement_rollups.sketches[metric]): `{ "<bucket index>": count, ... }`
 * plus `"z": count` for the zero bucket; keys are decimal integers (negative for values < 1).
 */

/** Relative accuracy α of every quantile estimate (0.0005 = 0.05 %). */
export const SKETCH_RELATIVE_ACCURACY = 0.0005;
/**
 * Version of the bucket function stored with every rollup row (`sketch_version`): 1 = α 1 %
 * (before decision 070), 2 = α 0.05 %. Readers convert older keys with {@link packSketchJson}.
 */
export const SKETCH_VERSION = 2;
/** ln γ of each stored sketch version. */
const LN_GAMMA_OF_VERSION: Readonly<Record<number, number>> = { 1: Math.log(1.01 / 0.99) };
/** γ = (1 + α)/(1 − α): ratio between consecutive bucket bounds. */
export const SKETCH_GAMMA = (1 + SKETCH_RELATIVE_ACCURACY) / (1 - SKETCH_RELATIVE_ACCURACY);
/** ln γ, the divisor of the bucket function (passed verbatim to SQL so both sides agree). */
export const SKETCH_LN_GAMMA = Math.log(SKETCH_GAMMA);

/** JSON form of one metric's sketch: bucket index (decimal string) or "z" → count. */
export type SketchJson = Record<string, number>;

/** In-memory sketch: bucket index → count, plus the zero bucket. `total` counts every value. */
export interface Sketch {
  bins: Map<number, number>;
  zeros: number;
  total: number;
}

/** An empty sketch. */
export function createSketch(): Sketch {
  return { bins: new Map(), zeros: 0, total: 0 };
}

/**
 * Bucket index of a positive finite value: ⌈ln x / ln γ⌉.
 * @throws RangeError if x is not a positive finite number
 */
export function sketchIndex(x: number): number {
  if (!(Number.isFinite(x) && x > 0)) throw new RangeError(`sketch index needs a positive finite value, got ${String(x)}`);
  return Math.ceil(Math.log(x) / SKETCH_LN_GAMMA);
}

/** Representative value of bucket i, 2γ^i/(γ + 1): within α of any value in the bucket. */
export function sketchValue(index: number): number {
  return (2 * Math.pow(SKETCH_GAMMA, index)) / (SKETCH_GAMMA + 1);
}

/**
 * Adds `count` occurrences of value x (any unit; ≤ 0 goes to the zero bucket) to the sketch, in place.
 * @throws RangeError if x is not finite or count is not a positive integer
 */
export function addToSketch(s: Sketch, x: number, count = 1): Sketch {
  if (!Number.isFinite(x)) throw new RangeError(`sketch value must be finite, got ${String(x)}`);
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`count must be a positive integer, got ${String(count)}`);
  if (x <= 0) s.zeros += count;
  else {
    const i = sketchIndex(x);
    s.bins.set(i, (s.bins.get(i) ?? 0) + count);
  }
  s.total += count;
  return s;
}

/** A sketch of the given values (convenience for tests and small samples). */
export function sketchOf(values: readonly number[]): Sketch {
  const s = createSketch();
  for (const v of values) addToSketch(s, v);
  return s;
}

/**
 * Adds the counts of a JSON sketch into `into` (in place) and returns it. Unknown or malformed
 * keys and non-positive counts are ignored, so a corrupt row cannot poison a merge with NaN.
 */
export function mergeSketchJson(into: Sketch, json: SketchJson | null | undefined): Sketch {
  if (!json) return into;
  for (const key in json) {
    const c = json[key];
    if (typeof c !== 'number' || !(c > 0) || !Number.isSafeInteger(c)) continue;
    if (key === 'z') into.zeros += c;
    else {
      const i = Number(key);
      if (!Number.isSafeInteger(i)) continue;
      into.bins.set(i, (into.bins.get(i) ?? 0) + c);
    }
    into.total += c;
  }
  return into;
}

/** Adds every count of `from` into `into` (in place) and returns `into`. */
export function mergeSketch(into: Sketch, from: Sketch): Sketch {
  for (const [i, c] of from.bins) into.bins.set(i, (into.bins.get(i) ?? 0) + c);
  into.zeros += from.zeros;
  into.total += from.total;
  return into;
}

/** JSON form of a sketch (keys in ascending bucket order, "z" first when present). */
export function sketchToJson(s: Sketch): SketchJson {
  const out: SketchJson = {};
  if (s.zeros > 0) out.z = s.zeros;
  for (const i of [...s.bins.keys()].sort((a, b) => a - b)) out[String(i)] = s.bins.get(i)!;
  return out;
}

/**
 * A sketch in rank order: representative values ascending (zero bucket first) with cumulative
 * counts. Percentiles and intervals are read from this form; build it once and read many figures.
 */
export interface SortedSketch {
  values: Float64Array;
  upto: Float64Array;
  total: number;
}

const EMPTY_SORTED: SortedSketch = { values: new Float64Array(0), upto: new Float64Array(0), total: 0 };

/** The rank-ordered form of a sketch. */
export function toSortedSketch(s: Sketch): SortedSketch {
  if (s.total === 0) return EMPTY_SORTED;
  const keys = Float64Array.from(s.bins.keys()).sort();
  const z = s.zeros > 0 ? 1 : 0;
  const values = new Float64Array(keys.length + z);
  const upto = new Float64Array(keys.length + z);
  let acc = 0;
  if (z) {
    acc = s.zeros;
    values[0] = 0;
    upto[0] = acc;
  }
  for (let j = 0; j < keys.length; j++) {
    acc += s.bins.get(keys[j]!)!;
    values[j + z] = sketchValue(keys[j]!);
    upto[j + z] = acc;
  }
  return { values, upto, total: s.total };
}

function valueAtRank(c: SortedSketch, rank: number): number {
  // rank is 0-based; binary search for the first bucket whose cumulative count exceeds it
  let lo = 0;
  let hi = c.upto.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c.upto[mid]! > rank) hi = mid;
    else lo = mid + 1;
  }
  return c.values[lo]!;
}

/**
 * Estimated order statistic x₍k₎ (0-based rank k of n values, ascending): the representative of
 * the bucket holding rank k, within α of the true value.
 * @throws RangeError if the sketch is empty or k is outside [0, n − 1]
 */
export function sketchOrderStatistic(s: Sketch | SortedSketch, k: number): number {
  const c = 'bins' in s ? toSortedSketch(s) : s;
  if (c.total === 0) throw new RangeError('order statistic of an empty sketch is undefined');
  if (!Number.isSafeInteger(k) || k < 0 || k >= c.total) throw new RangeError(`rank must be an integer in [0, ${c.total - 1}], got ${String(k)}`);
  return valueAtRank(c, k);
}

/**
 * Type-7 percentiles estimated from the sketch (see module doc: each within α = 0.05 % of the exact
 * type-7 percentile of the values added). Interpolation uses numpy's `_lerp` like
 * lib/stats/percentiles.
 * @param ps percentile levels in [0, 100]
 * @returns one estimate per level, or null when the sketch is empty
 * @throws RangeError if a level is outside [0, 100]
 */
export function sketchPercentiles(s: Sketch | SortedSketch, ps: readonly number[]): number[] | null {
  for (const p of ps) if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile level must be in [0, 100], got ${String(p)}`);
  const c = 'bins' in s ? toSortedSketch(s) : s;
  if (c.total === 0) return null;
  const n = c.total;
  return ps.map((p) => {
    const h = (n - 1) * (p / 100);
    const lo = Math.floor(h);
    const hi = Math.min(lo + 1, n - 1);
    const t = h - lo;
    const a = valueAtRank(c, lo);
    const b = valueAtRank(c, hi);
    const d = b - a;
    return t >= 0.5 ? b - d * (1 - t) : a + d * t;
  });
}

/** The P5/P25/P50/P75/P95 figures reported everywhere, or null for an empty sketch. */
export function sketchSummary(s: Sketch | SortedSketch): { p5: number; p25: number; p50: number; p75: number; p95: number } | null {
  const q = sketchPercentiles(s, [5, 25, 50, 75, 95]);
  if (!q) return null;
  return { p5: q[0]!, p25: q[1]!, p50: q[2]!, p75: q[3]!, p95: q[4]! };
}

/** Standard normal quantile for two-sided confidence c (Acklam's rational approximation, |ε| < 1.2e-9). */
function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const pl = 0.02425;
  if (p < pl) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  if (p > 1 - pl) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/**
 * 1-based rank l of the lower end of the distribution-free confidence interval of the median
 * [x₍l₎, x₍n−l+1₎] (Conover 1999, "Practical Nonparametric Statistics", §3.2; Hahn & Meeker
 * 1991): the largest l with P(B ≤ l − 1) ≤ (1 − c)/2 for B ~ Binomial(n, ½), so the interval
 * covers the population median with probability ≥ c for continuous data. Exact binomial sums for
 * n ≤ 1000, the normal approximation l = ⌊(n − z√n)/2⌋ above. Returns 1 (min–max) when even that
 * has coverage below c (n ≤ 5 at c = 0.95).
 * @throws RangeError if n is not a positive integer or c is outside (0, 1)
 */
export function medianCiLowerRank(n: number, confidence = 0.95): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${String(n)}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${String(confidence)}`);
  const tail = (1 - confidence) / 2;
  if (n > 1000) {
    const z = normalQuantile(1 - tail);
    return Math.max(1, Math.floor((n - z * Math.sqrt(n)) / 2));
  }
  // P(B ≤ k) accumulated in linear space from log-space terms: log C(n,k) − n·ln 2.
  const ln2n = n * Math.LN2;
  let logC = 0;
  let cdf = 0;
  let l = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logC += Math.log(n - k + 1) - Math.log(k);
    cdf += Math.exp(logC - ln2n);
    if (cdf > tail) break;
    l = k + 1; // P(B ≤ l − 1) = P(B ≤ k) ≤ tail
  }
  return Math.max(1, Math.min(l, Math.ceil(n / 2)));
}

/**
 * Distribution-free (order-statistic) confidence interval of the median read from a sketch:
 * [x₍l₎, x₍n−l+1₎] with l from {@link medianCiLowerRank}, widened to the bounds of the sketch
 * buckets holding those two order statistics (low = representative ÷ (1 + α), high =
 * representative ÷ (1 − α)), so it always contains the exact order-statistic interval of the raw
 * values: coverage stays ≥ c, and a large sample never yields a zero-width interval narrower than
 * the sketch can resolve. Deterministic (no resampling), O(buckets). Used by the ranking instead of
 * the bootstrap, which would need the raw values (docs/decisions/040-rollups-and-sketches.md).
 * @returns { low, high } in the metric's unit, or null for an empty sketch
 */
export function sketchMedianCi(s: Sketch | SortedSketch, confidence = 0.95): { low: number; high: number } | null {
  const c = 'bins' in s ? toSortedSketch(s) : s;
  if (c.total === 0) return null;
  const n = c.total;
  const l = medianCiLowerRank(n, confidence);
  return { low: valueAtRank(c, l - 1) / (1 + SKETCH_RELATIVE_ACCURACY), high: valueAtRank(c, n - l) / (1 - SKETCH_RELATIVE_ACCURACY) };
}

// Dense slots cover bucket indexes [−16384, 16383]: values 2.8e-8 … 1.3e7 at α = 0.05 % (any
// ms or tokens/s figure); anything outside goes to the accumulator's Map.
const DENSE_OFFSET = 16384;
const DENSE_SIZE = 32768;
/** sketchValue of every dense bucket, computed once. */
const DENSE_VALUES = Float64Array.from({ length: DENSE_SIZE }, (_, d) => sketchValue(d - DENSE_OFFSET));

/**
 * Fast merger for many small sketches (the leaderboard merges up to ~50 rollup buckets per
 * endpoint and metric): counts go into a dense array over bucket indexes [−16384, 16383] (values
 * 2.8e-8 … 1.3e7; anything outside goes to a Map), and `drain()` returns the merged
 * {@link Sketch} and resets the accumulator for reuse. Not thread-shared; one per caller.
 */
export class SketchAccumulator {
  private readonly dense = new Float64Array(DENSE_SIZE);
  /** lowest and highest dense slot written since the last drain (min > max when none) */
  private min = DENSE_SIZE;
  private max = -1;
  private readonly overflow = new Map<number, number>();
  private zeros = 0;
  private total = 0;

  /** Adds parallel arrays of bucket indexes and counts, plus a zero-bucket count. */
  addBins(keys: ArrayLike<number>, counts: ArrayLike<number>, zeros = 0): void {
    const dense = this.dense;
    let min = this.min;
    let max = this.max;
    let total = this.total;
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j]!;
      const c = counts[j]!;
      const d = k + DENSE_OFFSET;
      if (d >= 0 && d < DENSE_SIZE) {
        dense[d]! += c;
        if (d < min) min = d;
        if (d > max) max = d;
      } else this.overflow.set(k, (this.overflow.get(k) ?? 0) + c);
      total += c;
    }
    this.min = min;
    this.max = max;
    this.total = total + zeros;
    this.zeros += zeros;
  }

  /** Adds one occurrence of bucket index `k` (see {@link sketchIndex}). */
  addIndex(k: number): void {
    const d = k + DENSE_OFFSET;
    if (d >= 0 && d < DENSE_SIZE) {
      this.dense[d]! += 1;
      if (d < this.min) this.min = d;
      if (d > this.max) this.max = d;
    } else this.overflow.set(k, (this.overflow.get(k) ?? 0) + 1);
    this.total += 1;
  }

  /** Values in the zero bucket (≤ 0) added since the last drain. */
  get zeroCount(): number {
    return this.zeros;
  }

  /** Adds one occurrence to the zero bucket. */
  addZero(): void {
    this.zeros += 1;
    this.total += 1;
  }

  /** Adds one raw value (≤ 0 counts in the zero bucket). @throws RangeError if not finite */
  addValue(x: number): void {
    if (!Number.isFinite(x)) throw new RangeError(`sketch value must be finite, got ${String(x)}`);
    if (x <= 0) this.addZero();
    else this.addIndex(sketchIndex(x));
  }

  private reset(): void {
    if (this.max >= this.min) this.dense.fill(0, this.min, this.max + 1);
    this.min = DENSE_SIZE;
    this.max = -1;
    this.overflow.clear();
    this.zeros = 0;
    this.total = 0;
  }

  /**
   * Type-7 percentiles (levels in [0, 100]) of the merged counts, read straight from the dense
   * array without building a sketch (the cheapest path when only figures are needed); resets the
   * accumulator. Same results as sketchPercentiles(drain(), ps). Null when empty.
   * @throws RangeError unless the levels are ascending within [0, 100]
   */
  drainPercentiles(ps: readonly number[]): number[] | null {
    ps.forEach((p, k) => {
      if (!(p >= 0 && p <= 100) || (k > 0 && p < ps[k - 1]!)) throw new RangeError('percentile levels must be ascending within [0, 100]');
    });
    if (this.overflow.size > 0) return sketchPercentiles(this.drain(), ps);
    const n = this.total;
    if (n === 0) return null;
    const dense = this.dense;
    const zeros = this.zeros;
    // value at 0-based rank r: walk slots upward. Ranks come nearly in order, but the upper rank
    // of one level (lo + 1) may lie past the lower rank of the next level: restart the walk then.
    let d = this.min - 1;
    let upto = zeros;
    const at = (r: number): number => {
      if (r < zeros) return 0;
      if (d >= this.min && r < upto - dense[d]!) {
        d = this.min - 1;
        upto = zeros;
      }
      while (upto <= r) {
        d++;
        upto += dense[d]!;
      }
      return DENSE_VALUES[d]!;
    };
    const out = ps.map((p) => {
      const h = (n - 1) * (p / 100);
      const lo = Math.floor(h);
      const t = h - lo;
      const a = at(lo);
      const b = at(Math.min(lo + 1, n - 1));
      const diff = b - a;
      return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
    });
    this.reset();
    return out;
  }

  /** The merged sketch in rank order (no Map, no pow: the fast path); resets the accumulator. */
  drainSorted(): SortedSketch {
    if (this.overflow.size > 0) return toSortedSketch(this.drain());
    if (this.total === 0) return EMPTY_SORTED;
    const dense = this.dense;
    let k = 0;
    for (let d = this.min; d <= this.max; d++) if (dense[d]! > 0) k++;
    const z = this.zeros > 0 ? 1 : 0;
    const values = new Float64Array(k + z);
    const upto = new Float64Array(k + z);
    let acc = 0;
    let j = 0;
    if (z) {
      acc = this.zeros;
      upto[0] = acc;
      j = 1;
    }
    for (let d = this.min; d <= this.max; d++) {
      const c = dense[d]!;
      if (c === 0) continue;
      acc += c;
      values[j] = DENSE_VALUES[d]!;
      upto[j] = acc;
      j++;
    }
    const out: SortedSketch = { values, upto, total: this.total };
    this.reset();
    return out;
  }

  /** Number of values added since the last drain. */
  get count(): number {
    return this.total;
  }

  /**
   * The representative values at the given 0-based ranks (ascending, each in [0, count − 1]) of
   * the merged counts, in one upward walk over the dense slots; resets the accumulator. The same
   * values {@link sketchOrderStatistic} reads from the drained sketch.
   * @throws RangeError unless the ranks are ascending integers within [0, count − 1]
   */
  drainValuesAtRanks(ranks: readonly number[]): number[] {
    const n = this.total;
    ranks.forEach((r, k) => {
      if (!Number.isSafeInteger(r) || r < 0 || r >= n || (k > 0 && r < ranks[k - 1]!))
        throw new RangeError('ranks must be ascending integers within [0, count − 1]');
    });
    if (this.overflow.size > 0) {
      const sorted = toSortedSketch(this.drain());
      return ranks.map((r) => valueAtRank(sorted, r));
    }
    const dense = this.dense;
    const zeros = this.zeros;
    let d = this.min - 1;
    let upto = zeros;
    const out = new Array<number>(ranks.length);
    for (let k = 0; k < ranks.length; k++) {
      const r = ranks[k]!;
      if (r < zeros) {
        out[k] = 0;
        continue;
      }
      while (upto <= r) {
        d++;
        upto += dense[d]!;
      }
      out[k] = DENSE_VALUES[d]!;
    }
    this.reset();
    return out;
  }

  /** The merged counts as sorted parallel arrays (the form rollup parts are kept in); resets the accumulator. */
  drainPacked(): PackedSketch {
    if (this.overflow.size > 0) {
      const s = this.drain();
      const keys = Int32Array.from([...s.bins.keys()].sort((a, b) => a - b));
      return { keys, counts: Float64Array.from(keys, (k) => s.bins.get(k)!), zeros: s.zeros };
    }
    const dense = this.dense;
    let k = 0;
    for (let d = this.min; d <= this.max; d++) if (dense[d]! > 0) k++;
    const keys = new Int32Array(k);
    const counts = new Float64Array(k);
    let j = 0;
    for (let d = this.min; d <= this.max; d++) {
      const c = dense[d]!;
      if (c === 0) continue;
      keys[j] = d - DENSE_OFFSET;
      counts[j] = c;
      j++;
    }
    const out: PackedSketch = { keys, counts, zeros: this.zeros };
    this.reset();
    return out;
  }

  /** The merged sketch; resets the accumulator. */
  drain(): Sketch {
    const bins = new Map<number, number>(this.overflow);
    for (let d = this.min; d <= this.max; d++) {
      const c = this.dense[d]!;
      if (c > 0) bins.set(d - DENSE_OFFSET, (bins.get(d - DENSE_OFFSET) ?? 0) + c);
    }
    const s: Sketch = { bins, zeros: this.zeros, total: this.total };
    this.reset();
    return s;
  }
}

/** Compact form of a JSON sketch for repeated merging: sorted parallel arrays. */
export interface PackedSketch {
  keys: Int32Array;
  counts: Float64Array;
  zeros: number;
}

/**
 * Packs a JSON sketch (malformed entries ignored, as in {@link mergeSketchJson}). A sketch stored
 * with an older `version` (coarser buckets) is re-keyed: each old bucket's representative value
 * goes to the current bucket holding it, so its figures keep the old accuracy (1 % for version 1)
 * until the rollup is rebuilt from raw.
 * @throws RangeError for an unknown version
 */
export function packSketchJson(json: SketchJson | null | undefined, version: number = SKETCH_VERSION): PackedSketch {
  let s = mergeSketchJson(createSketch(), json);
  if (version !== SKETCH_VERSION) {
    const lnGamma = LN_GAMMA_OF_VERSION[version];
    if (lnGamma === undefined) throw new RangeError(`unknown sketch version ${String(version)}`);
    const gamma = Math.exp(lnGamma);
    const old = s;
    s = createSketch();
    s.zeros = old.zeros;
    s.total = old.total;
    for (const [k, c] of old.bins) {
      const i = sketchIndex((2 * Math.pow(gamma, k)) / (gamma + 1));
      s.bins.set(i, (s.bins.get(i) ?? 0) + c);
    }
  }
  const keys = Int32Array.from([...s.bins.keys()].sort((a, b) => a - b));
  const counts = Float64Array.from(keys, (k) => s.bins.get(k)!);
  return { keys, counts, zeros: s.zeros };
}
