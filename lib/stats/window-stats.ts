/**
 * The window-statistics engine: every published window figure (leaderboard, history, endpoint
 * page, compare, embeds, OG images, CSV, snapshots) is computed here, from mergeable parts, so the
 * same endpoint, window and workload show the same number everywhere (decision 070).
 *
 * - Inputs are parts: rollup buckets (hour, 6-hour block, day) and the raw rows of the window's
 *   newest, partial hour. Each part carries exact counts (probes, successes, error kinds,
 *   measurements left out of the ranking by reason) and one log-bucket sketch per metric
 *   (lib/stats/sketch, α = 0.05 %) of its rankable measurements.
 * - Merging sketches is adding counts, so the merged sketch of a window depends only on the set of
 *   rankable values in it, never on how the window was cut into parts: every surface that asks for
 *   the same window gets bit-identical figures.
 * - Percentiles: type 7 (numpy linear) read from the merged sketch, each within α = 0.05 % of the
 *   exact order statistic of the raw values. Median interval: distribution-free order-statistic
 *   95 % interval read from the same sketch ({@link sketchMedianCi}). Tie bands: lib/ranking.
 *
 * Framework-free and pure: no database, no clock (windows are planned from `asOf`).
 */
import { summariseFidelity, type FidelitySummary } from '../fidelity/fidelity-summary';
import { percentiles as exactPercentiles } from './percentiles';
import { medianCiLowerRank, SketchAccumulator, SKETCH_RELATIVE_ACCURACY, sketchMedianCi, type PackedSketch, type SortedSketch } from './sketch';

/** The metrics summarised in every window, rollup and history point (units in their names). */
export const WINDOW_METRICS = ['outputTokensPerSecond', 'outputTokensPerSecondO200k', 'ttftMs', 'ttfatMs', 'e2eMs', 'itlP50Ms', 'itlP95Ms'] as const;
/** One of {@link WINDOW_METRICS}. */
export type WindowMetric = (typeof WINDOW_METRICS)[number];

/** The percentile levels published for every metric (0..100), ascending. */
export const PERCENTILE_LEVELS = [5, 25, 50, 75, 95] as const;

/** P5/P25/P50/P75/P95 of one metric (unit as the metric's name says), or null without rankable samples. */
export type Percentiles = { p5: number; p25: number; p50: number; p75: number; p95: number } | null;

/** Token basis of output speed: provider-reported counts, or o200k-normalised. */
export type SpeedBasis = 'reported' | 'o200k';

/** The output-speed metric ranked under each basis. */
export const SPEED_METRIC_OF_BASIS: Readonly<Record<SpeedBasis, 'outputTokensPerSecond' | 'outputTokensPerSecondO200k'>> = {
  reported: 'outputTokensPerSecond',
  o200k: 'outputTokensPerSecondO200k',
};

/**
 * How long after an instant its data is final (ms): every probe measured before it has been
 * written (probe deadlines are ≤ 5 min) and folded in by the per-minute rollup and partials
 * rebuild (which rebuilds the last two hours every run). A window ending this long ago — a
 * rollup bucket, a partial, a past `at=` answer — is sealed: its answer never changes, so it is
 * cached for good (strong ETag, immutable). The one definition (decision 211).
 */
export const SEALED_AFTER_MS = 15 * 60_000;

/** True when data up to `endMs` is final at wall time `nowMs` ({@link SEALED_AFTER_MS}). */
export function isSealed(endMs: number, nowMs: number): boolean {
  return endMs + SEALED_AFTER_MS <= nowMs;
}

/** Confidence level of the median intervals behind the tie bands. */
export const MEDIAN_CI_CONFIDENCE = 0.95;

/** Measurements kept but left out of every figure, by not-rankable reason (a measurement may have several). */
export interface ExcludedCounts {
  /** measurements not rankable */
  total: number;
  /** reason → measurements carrying it (lib/probe NOT_RANKABLE_REASONS, e.g. token_count_mismatch, failed) */
  byReason: Record<string, number>;
}

/**
 * One mergeable part of a window (a rollup bucket, or a group of raw rows): exact counts and one
 * packed sketch per metric of its rankable measurements.
 */
export interface WindowPart {
  /** probes (success + failure) */
  count: number;
  successes: number;
  /** failures by error kind */
  errorKinds: Array<[string, number]>;
  /** newest measured_at in the part, epoch ms */
  lastMeasuredAtMs: number | null;
  sketches: Partial<Record<WindowMetric, PackedSketch>>;
  /** not-rankable measurements: total and [reason, count] pairs */
  excludedTotal: number;
  excludedByReason: Array<[string, number]>;
  /** judged fidelity checks (lib/fidelity) and how many passed; absent = 0 */
  fidelityChecks?: number;
  fidelityPassed?: number;
}

/**
 * Raw rows of a window's partial hour, column-wise (one index j per measurement), as read by
 * db/queries: bins are sketch bucket indexes computed by Postgres with the same function as the
 * rollups, {@link RAW_SKIP} when the value is absent or the measurement not rankable, {@link RAW_ZERO} for ≤ 0.
 */
export interface RawRows {
  endpointId: Int32Array;
  region: string[];
  atMs: Float64Array;
  success: Uint8Array;
  errorKind: Array<string | null>;
  /** not-rankable reasons per row (empty when rankable) */
  reasons: string[][];
  /** one column per metric; the ITL columns may be absent (rows read before issue 14's columns) */
  bins: Record<Exclude<WindowMetric, 'itlP50Ms' | 'itlP95Ms'>, Int32Array> & Partial<Record<'itlP50Ms' | 'itlP95Ms', Int32Array>>;
  /** fidelity verdict per row: -1 none (ordinary or failed probe), 0 failed, 1 passed; absent = none */
  fidelity?: Int8Array;
}
/** Bin marker: value absent or measurement not rankable. */
export const RAW_SKIP = -2147483648;
/** Bin marker: value ≤ 0 (the sketch's zero bucket). */
export const RAW_ZERO = 2147483647;

/** One endpoint's figures over a window. */
export interface WindowStats {
  /** probes in the window (success + failure), exact */
  n: number;
  successes: number;
  /** rankable samples behind the output-speed percentiles (the basis asked for) */
  samples: number;
  outputTokensPerSecond: Percentiles;
  ttftMs: Percentiles;
  ttfatMs: Percentiles;
  e2eMs: Percentiles;
  /** distribution-free 95 % interval of the median output speed (tokens/s), containing the median; null below 1 sample */
  outputTokensPerSecondMedianCi: { low: number; high: number } | null;
  /** failures by error kind, keys sorted */
  errorKinds: Record<string, number>;
  lastMeasuredAt: string | null;
  /** measurements left out of the figures, by reason */
  excluded: ExcludedCounts;
  /**
   * Inter-token latency, ms/token: p50 = median over the window's rankable measurements of their
   * token-weighted ITL p50, p95 = median of their ITL p95 (lib/probe/inter-token-latency; decision 110); null without samples.
   */
  itlMs: { p50: number; p95: number } | null;
  /** Fidelity checks of the window (all judged ones, rankable or not): pass rate, n, 95 % Wilson interval; null when none ran. */
  fidelity: FidelitySummary | null;
}

// ---------------------------------------------------------------------------------------------
// Window plan.

const HOUR = 3600_000;
const DAY = 86400_000;
const BLOCK = 6 * HOUR;

/** The part of a window read from rollups and from raw measurements. */
export interface WindowPlan {
  /** first instant covered: floorHour(asOf) − W h */
  start: Date;
  /** asOf */
  end: Date;
  /** whole hours not covered by a day or a 6-hour block */
  hourBuckets: Date[];
  /** whole UTC 6-hour blocks (00, 06, 12, 18 h) not covered by a day, each merged from its 6 hourly rollups */
  blockBuckets: Date[];
  dayBuckets: Date[];
  /** raw tail: measured_at in [rawFrom, end] */
  rawFrom: Date;
}

function splitHours(from: number, to: number, hours: Date[], blocks: Date[]): void {
  const firstBlock = Math.ceil(from / BLOCK) * BLOCK;
  const lastBlock = Math.floor(to / BLOCK) * BLOCK;
  if (firstBlock >= lastBlock) {
    for (let t = from; t < to; t += HOUR) hours.push(new Date(t));
    return;
  }
  for (let t = from; t < firstBlock; t += HOUR) hours.push(new Date(t));
  for (let t = firstBlock; t < lastBlock; t += BLOCK) blocks.push(new Date(t));
  for (let t = lastBlock; t < to; t += HOUR) hours.push(new Date(t));
}

/**
 * A window of W hours ending at `asOf` covers the W whole UTC hours before asOf's hour plus asOf's
 * own hour up to asOf: [floorHour(asOf) − W h, asOf]. Splits it into daily buckets (whole UTC
 * days), 6-hour blocks and hourly buckets (the rest of the whole hours), and the raw tail (asOf's
 * own hour up to asOf). Pure. A 72 h window needs at most 2 × (3 blocks + 5 hours) + 3 days = 19
 * parts per endpoint and region.
 */
export function planWindow(asOf: Date, windowHours: number): WindowPlan {
  const tail = Math.floor(asOf.getTime() / HOUR) * HOUR;
  const start = tail - windowHours * HOUR;
  const firstDay = Math.ceil(start / DAY) * DAY;
  const lastDay = Math.floor(tail / DAY) * DAY;
  const hourBuckets: Date[] = [];
  const blockBuckets: Date[] = [];
  const dayBuckets: Date[] = [];
  if (firstDay < lastDay) {
    splitHours(start, firstDay, hourBuckets, blockBuckets);
    for (let t = firstDay; t < lastDay; t += DAY) dayBuckets.push(new Date(t));
    splitHours(lastDay, tail, hourBuckets, blockBuckets);
  } else {
    splitHours(start, tail, hourBuckets, blockBuckets);
  }
  return { start: new Date(start), end: asOf, hourBuckets, blockBuckets, dayBuckets, rawFrom: new Date(tail) };
}

// ---------------------------------------------------------------------------------------------
// Parts.

/** One accumulator reused by every merge (single-threaded; each use drains it). */
const accumulator = new SketchAccumulator();

function addPairs(into: Map<string, number>, pairs: Array<[string, number]>): void {
  for (const [k, v] of pairs) into.set(k, (into.get(k) ?? 0) + v);
}

/** Merges parts into one (counts added, sketches added bucket by bucket). Pure; one part is returned as is. */
export function mergeWindowParts(parts: readonly WindowPart[]): WindowPart {
  if (parts.length === 1) return parts[0]!;
  const kinds = new Map<string, number>();
  const reasons = new Map<string, number>();
  let count = 0;
  let successes = 0;
  let excludedTotal = 0;
  let fidelityChecks = 0;
  let fidelityPassed = 0;
  let last: number | null = null;
  for (const p of parts) {
    fidelityChecks += p.fidelityChecks ?? 0;
    fidelityPassed += p.fidelityPassed ?? 0;
    count += p.count;
    successes += p.successes;
    excludedTotal += p.excludedTotal;
    addPairs(kinds, p.errorKinds);
    addPairs(reasons, p.excludedByReason);
    if (p.lastMeasuredAtMs !== null && (last === null || p.lastMeasuredAtMs > last)) last = p.lastMeasuredAtMs;
  }
  const sketches: Partial<Record<WindowMetric, PackedSketch>> = {};
  for (const m of WINDOW_METRICS) {
    let any = false;
    for (const p of parts) {
      const ps = p.sketches[m];
      if (!ps) continue;
      any = true;
      accumulator.addBins(ps.keys, ps.counts, ps.zeros);
    }
    if (any) sketches[m] = accumulator.drainPacked();
  }
  return { count, successes, errorKinds: [...kinds.entries()], lastMeasuredAtMs: last, sketches, excludedTotal, excludedByReason: [...reasons.entries()], fidelityChecks, fidelityPassed };
}

function sortKeys(o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function toPercentiles(q: number[] | null): Percentiles {
  return q ? { p5: q[0]!, p25: q[1]!, p50: q[2]!, p75: q[3]!, p95: q[4]! } : null;
}

function addPartSketches(merger: SketchAccumulator, parts: readonly WindowPart[], metric: WindowMetric): void {
  for (let i = 0; i < parts.length; i++) {
    const s = parts[i]!.sketches[metric];
    if (s) merger.addBins(s.keys, s.counts, s.zeros);
  }
}

/**
 * Published percentiles of one metric over parts (the same reading as {@link summarizeWindow}),
 * with the number of rankable samples behind them; null percentiles without samples.
 */
export function partsPercentiles(parts: readonly WindowPart[], metric: WindowMetric): { percentiles: Percentiles; samples: number } {
  addPartSketches(accumulator, parts, metric);
  const samples = accumulator.count;
  return { percentiles: drainFigures(samples, false).percentiles, samples };
}

/**
 * Reads the published figures of the accumulator's n values and drains it: type-7 percentiles at
 * PERCENTILE_LEVELS (each order statistic the representative of its bucket, interpolated with
 * numpy's `_lerp`) and, with `withCi`, the distribution-free interval of the median [x₍l₎,
 * x₍n−l+1₎] (medianCiLowerRank) widened to its buckets' bounds and to contain the median, exactly as
 * sketchMedianCi + medianInterval read it from a drained sketch. One walk over the counts.
 */
function drainFigures(n: number, withCi: boolean): { percentiles: Percentiles; medianCi: { low: number; high: number } | null } {
  if (n === 0) {
    accumulator.drainPacked();
    return { percentiles: null, medianCi: null };
  }
  const ranks: number[] = [];
  const spots = PERCENTILE_LEVELS.map((p) => {
    const h = (n - 1) * (p / 100);
    const lo = Math.floor(h);
    ranks.push(lo, Math.min(lo + 1, n - 1));
    return { lo, hi: Math.min(lo + 1, n - 1), t: h - lo };
  });
  const l = withCi ? medianCiLowerRank(n, MEDIAN_CI_CONFIDENCE) : 0;
  if (withCi) ranks.push(l - 1, n - l);
  const sorted = [...new Set(ranks)].sort((a, b) => a - b);
  const values = accumulator.drainValuesAtRanks(sorted);
  const at = (r: number) => values[sorted.indexOf(r)]!;
  const q = spots.map(({ lo, hi, t }) => {
    const a = at(lo);
    const b = at(hi);
    const d = b - a;
    return t >= 0.5 ? b - d * (1 - t) : a + d * t;
  });
  const percentiles = toPercentiles(q);
  if (!withCi) return { percentiles, medianCi: null };
  const median = q[2]!;
  const low = at(l - 1) / (1 + SKETCH_RELATIVE_ACCURACY);
  const high = at(n - l) / (1 - SKETCH_RELATIVE_ACCURACY);
  return { percentiles, medianCi: { low: Math.min(low, median), high: Math.max(high, median) } };
}

/**
 * One endpoint's window figures from its parts plus, optionally, raw rows (indexes `rows` into
 * `raw`). Same figures for any cutting of the same measurements into parts and rows (see module
 * doc). `basis` picks the output-speed metric ranked (and reported as outputTokensPerSecond).
 */
export function summarizeWindow(parts: readonly WindowPart[], basis: SpeedBasis, raw?: RawRows | null, rows?: readonly number[]): WindowStats {
  let n = 0;
  let successes = 0;
  let lastMs: number | null = null;
  let excludedTotal = 0;
  let fidelityChecks = 0;
  let fidelityPassed = 0;
  const kinds: Record<string, number> = {};
  const reasons: Record<string, number> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    fidelityChecks += part.fidelityChecks ?? 0;
    fidelityPassed += part.fidelityPassed ?? 0;
    n += part.count;
    successes += part.successes;
    excludedTotal += part.excludedTotal;
    for (const [k, v] of part.errorKinds) kinds[k] = (kinds[k] ?? 0) + v;
    for (const [k, v] of part.excludedByReason) reasons[k] = (reasons[k] ?? 0) + v;
    if (part.lastMeasuredAtMs !== null && (lastMs === null || part.lastMeasuredAtMs > lastMs)) lastMs = part.lastMeasuredAtMs;
  }
  const tail = raw && rows ? rows : [];
  for (let i = 0; i < tail.length; i++) {
    const j = tail[i]!;
    n += 1;
    successes += raw!.success[j]!;
    const k = raw!.errorKind[j];
    if (k) kinds[k] = (kinds[k] ?? 0) + 1;
    const rs = raw!.reasons[j]!;
    if (rs.length > 0) {
      excludedTotal += 1;
      for (const r of rs) reasons[r] = (reasons[r] ?? 0) + 1;
    }
    if (lastMs === null || raw!.atMs[j]! > lastMs) lastMs = raw!.atMs[j]!;
    const f = raw!.fidelity?.[j] ?? -1;
    if (f >= 0) {
      fidelityChecks += 1;
      fidelityPassed += f;
    }
  }
  const merger = accumulator;
  const fill = (metric: WindowMetric): void => {
    addPartSketches(merger, parts, metric);
    if (tail.length === 0) return;
    const col = raw!.bins[metric];
    if (!col) return;
    for (let i = 0; i < tail.length; i++) {
      const b = col[tail[i]!]!;
      if (b === RAW_SKIP) continue;
      if (b === RAW_ZERO) merger.addZero();
      else merger.addIndex(b);
    }
  };
  const speedMetric = SPEED_METRIC_OF_BASIS[basis];
  fill(speedMetric);
  const samples = merger.count;
  const speed = drainFigures(samples, true);
  const figure = (metric: WindowMetric): Percentiles => {
    fill(metric);
    return drainFigures(merger.count, false).percentiles;
  };
  const itlP50 = figure('itlP50Ms');
  const itlP95 = figure('itlP95Ms');
  return {
    n,
    successes,
    samples,
    outputTokensPerSecond: speed.percentiles,
    ttftMs: figure('ttftMs'),
    ttfatMs: figure('ttfatMs'),
    e2eMs: figure('e2eMs'),
    outputTokensPerSecondMedianCi: speed.medianCi,
    errorKinds: sortKeys(kinds),
    lastMeasuredAt: lastMs === null ? null : new Date(lastMs).toISOString(),
    excluded: { total: excludedTotal, byReason: sortKeys(reasons) },
    itlMs: itlP50 && itlP95 ? { p50: itlP50.p50, p95: itlP95.p50 } : null,
    fidelity: summariseFidelity(fidelityPassed, fidelityChecks),
  };
}

/**
 * Distribution-free 95 % interval of the median read from a speed sketch ({@link sketchMedianCi}),
 * widened to contain the published median `median`; null for an empty sketch.
 */
export function medianInterval(speedSketch: SortedSketch, median: number): { low: number; high: number } | null {
  const ci = sketchMedianCi(speedSketch, MEDIAN_CI_CONFIDENCE);
  return ci ? { low: Math.min(ci.low, median), high: Math.max(ci.high, median) } : null;
}

/**
 * Exact type-7 percentiles (numpy linear) of raw values at {@link PERCENTILE_LEVELS}, or null for
 * none: the reference the engine's published figures are tested against (within 0.1 %).
 * @throws TypeError if a value is not finite
 */
export function exactWindowPercentiles(values: readonly number[]): Percentiles {
  return values.length === 0 ? null : toPercentiles(exactPercentiles(values, PERCENTILE_LEVELS));
}
