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
import { wilsonInterval } from './wilson';
import { percentiles as exactPercentiles } from './percentiles';
import { medianCiLowerRank, SketchAccumulator, SKETCH_RELATIVE_ACCURACY, sketchMedianCi, type PackedSketch, type SortedSketch } from './sketch';

/** The metrics summarised in every window, rollup and history point (units in their names). */
export const WINDOW_METRICS = [
  'outputTokensPerSecond',
  'outputTokensPerSecondO200k',
  'ttftMs',
  'ttfatMs',
  'e2eMs',
  'itlP50Ms',
  'itlP95Ms',
  'cachedInputTokens',
  'tierObjectiveMet',
  'cachedInputShare',
] as const;
/** One of {@link WINDOW_METRICS}. */
export type WindowMetric = (typeof WINDOW_METRICS)[number];

/** The percentile levels published for every metric (0..100), ascending. */
export const PERCENTILE_LEVELS = [5, 25, 50, 75, 95] as const;

/** P5/P25/P50/P75/P95 of one metric (unit as the metric's name says), or null without rankable samples. */
export type Percentiles = { p5: number; p25: number; p50: number; p75: number; p95: number } | null;

/** Token basis of output speed: provider-reported counts, or o200k-normalised. */
export type SpeedBasis = 'reported' | 'o200k';

/**
 * The basis every surface ranks on unless asked otherwise (issue 20 item 4, decision 175): the
 * o200k_base count of the text actually received, as Artificial Analysis normalises, so a provider
 * cannot rank higher by reporting more tokens than it sent, and providers with different tokenizers
 * are compared on one count. The provider's own count stays beside it (`basis=reported`).
 */
export const DEFAULT_SPEED_BASIS: SpeedBasis = 'o200k';

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

/**
 * Windows (hours) read most: the default 72 h and the two the pages offer beside it. The precompute
 * job stores the live answers of these for the catalog (workers/tasks/precompute-answers.ts); a live
 * answer of one of them for a listed model costs no snapshot budget (server/snapshot-budget.ts).
 */
export const PRECOMPUTED_WINDOWS_HOURS = [24, 72, 168] as const;

/** True when data up to `endMs` is final at wall time `nowMs` ({@link SEALED_AFTER_MS}). */
export function isSealed(endMs: number, nowMs: number): boolean {
  return endMs + SEALED_AFTER_MS <= nowMs;
}

/** Confidence level of the median intervals behind the tie bands. */
export const MEDIAN_CI_CONFIDENCE = 0.95;

/** Measurements kept but left out of every figure, by not-rankable reason (a measurement may have several). */
export interface NotRankableCounts {
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
  notRankableTotal: number;
  notRankableByReason: Array<[string, number]>;
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
  bins: Record<Exclude<WindowMetric, OptionalRawMetric>, Int32Array> & Partial<Record<OptionalRawMetric, Int32Array>>;
  /** fidelity verdict per row: -1 none (ordinary or failed probe), 0 failed, 1 passed; absent = none */
  fidelity?: Int8Array;
}
/** Metrics whose raw column may be absent (rows read before their columns existed). */
type OptionalRawMetric = 'itlP50Ms' | 'itlP95Ms' | 'cachedInputTokens' | 'tierObjectiveMet' | 'cachedInputShare';
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
  notRankable: NotRankableCounts;
  /**
   * Inter-token latency, ms/token, named for what it is (decision 280): the median over the
   * window's rankable measurements of their token-weighted ITL P50, and the median of their ITL
   * P95 (a typical request's tail, not the window's P95; lib/probe/inter-token-latency, decision
   * 110); both null without samples of both.
   */
  medianItlP50Ms: number | null;
  medianItlP95Ms: number | null;
  /** Fidelity checks of the window (all judged ones, rankable or not): pass rate, n, 95 % Wilson interval; null when none ran. */
  fidelity: FidelitySummary | null;
  /**
   * Input tokens served from the provider's prompt cache (measurements.cached_input_tokens),
   * percentiles over the rankable measurements that reported a cache count, tokens; null when none
   * did. On a `cache-warm-*` workload: what the provider reused of the shared prefix (issue 25).
   */
  cachedInputTokens: Percentiles;
  /**
   * Prompt-cache hit share: of the rankable measurements that reported a cache count (n), the
   * share with more than 0 cached tokens, with its 95 % Wilson interval; null when none reported.
   * Read from the same sketch as cachedInputTokens (its zero bucket holds the misses), so it merges
   * like every figure. Decision 260.
   */
  cacheHit: CacheHitShare | null;
  /**
   * Tier objective attainment (decision 263): of the rankable measurements judged against their
   * endpoint's published tier objective (n; measurements.tier_objective_met not null), the share
   * that met it, with its 95 % Wilson interval; null when none was judged, so an endpoint without an
   * objective shows no attainment (never 0 %). Read from the `tierObjectiveMet` sketch (1 met, its
   * zero bucket the misses), so it merges like every figure.
   */
  tierObjectiveAttainment: CacheHitShare | null;
  /**
   * Cached share of the prompt (decision 291): per rankable measurement that reported both its
   * cached and its input tokens (lib/stats/cached-input-share: cached ÷ input, null for 0 input
   * tokens), the percentiles of that fraction over the window, with n the measurements behind
   * them; null when none had both. Read from the `cachedInputShare` sketch (a miss, share 0, in its
   * zero bucket), so it merges like every figure.
   */
  cachedInputShare: SharePercentiles | null;
}

/** Percentiles of a fraction (0..1) with the number of measurements behind them. */
export type SharePercentiles = NonNullable<Percentiles> & { n: number };

/** Share of measurements served (partly) from the prompt cache, with n and its 95 % Wilson interval. */
export interface CacheHitShare {
  /** hits ÷ n, a fraction */
  share: number;
  /** measurements that reported a cache count */
  n: number;
  interval: { low: number; high: number };
}

/** Hit share from the reported count n and the misses (zero cached tokens); null when n = 0. */
export function summariseCacheHits(n: number, misses: number): CacheHitShare | null {
  if (n === 0) return null;
  const w = wilsonInterval(n - misses, n);
  return { share: w.rate, n, interval: { low: w.low, high: w.high } };
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
  /** raw tail: measured_at in [rawFrom, end]; floorHour(asOf), or earlier when the rollups are behind */
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
 *
 * `rollupsToMs` (epoch ms, default +∞): how far the rollups are known to be current (the rollup
 * job's frontier). The buckets stop at the hour at or before it and the raw tail starts there, so
 * a window read while the rollup job is behind (or before its first run: pass −∞) still counts
 * every measurement once, from raw, instead of silently missing the hours not yet rolled up.
 */
export function planWindow(asOf: Date, windowHours: number, rollupsToMs: number = Infinity): WindowPlan {
  const asOfHour = Math.floor(asOf.getTime() / HOUR) * HOUR;
  const start = asOfHour - windowHours * HOUR;
  // Buckets only where the rollups are known current; the raw tail reads the rest (decision 301).
  const tail = Math.max(start, Math.min(asOfHour, Math.floor(rollupsToMs / HOUR) * HOUR));
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
  let notRankableTotal = 0;
  let fidelityChecks = 0;
  let fidelityPassed = 0;
  let last: number | null = null;
  for (const p of parts) {
    fidelityChecks += p.fidelityChecks ?? 0;
    fidelityPassed += p.fidelityPassed ?? 0;
    count += p.count;
    successes += p.successes;
    notRankableTotal += p.notRankableTotal;
    addPairs(kinds, p.errorKinds);
    addPairs(reasons, p.notRankableByReason);
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
  return {
    count,
    successes,
    errorKinds: [...kinds.entries()],
    lastMeasuredAtMs: last,
    sketches,
    notRankableTotal,
    notRankableByReason: [...reasons.entries()],
    fidelityChecks,
    fidelityPassed,
  };
}

function subtractPairs(a: Array<[string, number]>, b: Array<[string, number]>): Array<[string, number]> {
  const m = new Map(a);
  for (const [k, v] of b) m.set(k, (m.get(k) ?? 0) - v);
  return [...m.entries()].filter(([, v]) => v !== 0);
}

function subtractSketch(a: PackedSketch, b: PackedSketch): PackedSketch {
  const keys: number[] = [];
  const counts: number[] = [];
  let j = 0;
  for (let i = 0; i < a.keys.length; i++) {
    const k = a.keys[i]!;
    while (j < b.keys.length && b.keys[j]! < k) j++;
    const c = a.counts[i]! - (j < b.keys.length && b.keys[j] === k ? b.counts[j]! : 0);
    if (c !== 0) {
      keys.push(k);
      counts.push(c);
    }
  }
  return { keys: Int32Array.from(keys), counts: Float64Array.from(counts), zeros: a.zeros - b.zeros };
}

/**
 * `whole` without `part`, where `part` is a merge of some of the parts `whole` was merged from and
 * every measurement of `part` is older than every other one of `whole` (the leading hour of a
 * window that moved on): counts and sketch buckets subtracted, empty entries dropped, the newest
 * measured time kept (null when nothing is left). Equals the merge of the remaining parts for
 * every figure summarizeWindow reads. Pure.
 */
export function subtractLeadingPart(whole: WindowPart, part: WindowPart): WindowPart {
  const count = whole.count - part.count;
  const sketches: Partial<Record<WindowMetric, PackedSketch>> = {};
  for (const m of WINDOW_METRICS) {
    const w = whole.sketches[m];
    if (!w) continue;
    const p = part.sketches[m];
    const d = p ? subtractSketch(w, p) : w;
    if (d.keys.length > 0 || d.zeros > 0) sketches[m] = d;
  }
  return {
    count,
    successes: whole.successes - part.successes,
    errorKinds: subtractPairs(whole.errorKinds, part.errorKinds),
    lastMeasuredAtMs: count > 0 ? whole.lastMeasuredAtMs : null,
    sketches,
    notRankableTotal: whole.notRankableTotal - part.notRankableTotal,
    notRankableByReason: subtractPairs(whole.notRankableByReason, part.notRankableByReason),
    fidelityChecks: (whole.fidelityChecks ?? 0) - (part.fidelityChecks ?? 0),
    fidelityPassed: (whole.fidelityPassed ?? 0) - (part.fidelityPassed ?? 0),
  };
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
  return summarizeWindowBases(parts, [basis], raw, rows)[0]!;
}

/**
 * {@link summarizeWindow} for several bases of the same parts and rows at once, in the order of
 * `bases`: only the output speed depends on the basis, so every other figure is merged and read
 * once (the precompute job asks both bases of every window; decision 314). Each result equals
 * summarizeWindow of its basis (the same code; objects are not shared between results).
 */
export function summarizeWindowBases(
  parts: readonly WindowPart[],
  bases: readonly SpeedBasis[],
  raw?: RawRows | null,
  rows?: readonly number[],
): WindowStats[] {
  let n = 0;
  let successes = 0;
  let lastMs: number | null = null;
  let notRankableTotal = 0;
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
    notRankableTotal += part.notRankableTotal;
    for (const [k, v] of part.errorKinds) kinds[k] = (kinds[k] ?? 0) + v;
    for (const [k, v] of part.notRankableByReason) reasons[k] = (reasons[k] ?? 0) + v;
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
      notRankableTotal += 1;
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
  const speeds = bases.map((basis) => {
    fill(SPEED_METRIC_OF_BASIS[basis]);
    const samples = merger.count;
    return { samples, speed: drainFigures(samples, true) };
  });
  const figure = (metric: WindowMetric): Percentiles => {
    fill(metric);
    return drainFigures(merger.count, false).percentiles;
  };
  const itlP50 = figure('itlP50Ms');
  const itlP95 = figure('itlP95Ms');
  fill('cachedInputTokens');
  const cacheReported = merger.count;
  const cacheMisses = merger.zeroCount;
  const cached = drainFigures(cacheReported, false).percentiles;
  fill('tierObjectiveMet');
  const tierJudged = merger.count;
  const tierMissed = merger.zeroCount;
  merger.drainPacked();
  fill('cachedInputShare');
  const shareN = merger.count;
  const share = drainFigures(shareN, false).percentiles;
  const ttftMs = figure('ttftMs');
  const ttfatMs = figure('ttfatMs');
  const e2eMs = figure('e2eMs');
  const copy = <T>(x: T): T => (x === null ? x : { ...x });
  return speeds.map(({ samples, speed }) => ({
    n,
    successes,
    samples,
    outputTokensPerSecond: speed.percentiles,
    ttftMs: copy(ttftMs),
    ttfatMs: copy(ttfatMs),
    e2eMs: copy(e2eMs),
    outputTokensPerSecondMedianCi: speed.medianCi,
    errorKinds: sortKeys(kinds),
    lastMeasuredAt: lastMs === null ? null : new Date(lastMs).toISOString(),
    notRankable: { total: notRankableTotal, byReason: sortKeys(reasons) },
    medianItlP50Ms: itlP50 && itlP95 ? itlP50.p50 : null,
    medianItlP95Ms: itlP50 && itlP95 ? itlP95.p50 : null,
    fidelity: summariseFidelity(fidelityPassed, fidelityChecks),
    cachedInputTokens: copy(cached),
    cacheHit: summariseCacheHits(cacheReported, cacheMisses),
    tierObjectiveAttainment: summariseCacheHits(tierJudged, tierMissed),
    cachedInputShare: share ? { ...share, n: shareN } : null,
  }));
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
