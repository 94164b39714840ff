/**
 * Change-point detection on a series of daily medians (e.g. an endpoint's daily median TPS/user),
 * so history charts can label shifts such as "+38% on 2025-06-02" (a new engine, a hardware move).
 *
 * Method:
 * 1. Location: binary segmentation (Scott & Knott 1974; Vostrikova 1981; see Truong, Oudre &
 *    Vayatis 2020, "Selective review of offline change point detection methods", §5.2) with the
 *    robust L1 cost: a segment costs Σ|xᵢ − median(segment)|, and each segment is split where the
 *    summed cost of the two parts is smallest (earliest on ties), each part ≥ minSegmentLength days.
 * 2. Acceptance: a split is kept only if BOTH
 *    - the relative effect |after − before| / before of the two parts' medians ≥ minRelativeEffect
 *      (a practical-significance floor, in the spirit of Artificial Analysis reporting medians
 *      rather than reacting to noise), and
 *    - a two-sided Mann–Whitney U test (Mann & Whitney 1947; normal approximation with tie
 *      correction, no continuity correction) of the two parts gives p < alpha.
 *    Rejected splits end recursion on that segment (standard binary segmentation stopping rule).
 * 3. Pruning: with all accepted splits in place, each is re-tested against its final neighbouring
 *    segments; while any fails either criterion, the one with the smallest effect is removed.
 *
 * Caveats: the p-value is computed after choosing the best split, so it is optimistic; the effect
 * floor does most of the work against noise. Binary segmentation can miss a short excursion that
 * returns to its old level in the middle of a long segment; such excursions shorter than
 * minSegmentLength are not change points by definition. Near the series end, a new level that has
 * lasted fewer than minSegmentLength days can still be found once it holds the majority of the last
 * minSegmentLength days; it is then dated up to ⌊minSegmentLength/2⌋ days early, and the date
 * settles as more days arrive.
 */

/** One day's median of some positive metric (e.g. TPS/user, ms). */
export interface DailyMedian {
  /** Calendar day, YYYY-MM-DD (UTC). */
  day: string;
  /** The day's median; finite and > 0 (days without data should be omitted, not zero). */
  median: number;
}

/** Options of {@link detectChangePoints}. */
export interface ChangePointOptions {
  /** Minimum |after − before| / before of segment medians; ≥ 0. Default 0.15 (15 %). */
  minRelativeEffect?: number;
  /** Minimum number of days (series points) in every segment; integer ≥ 1. Default 3. */
  minSegmentLength?: number;
  /** Significance level of the Mann–Whitney check, in (0, 1]. Default 0.05; 1 disables it. */
  alpha?: number;
}

/**
 * A detected change.
 * - day: first day of the new level (the after-segment's first day)
 * - before / after: medians of the daily medians in the neighbouring segments (series unit)
 * - relativeChange: (after − before) / before, e.g. 0.38 for +38 %
 * - pValue: two-sided Mann–Whitney p-value of before vs after segment (optimistic, see module doc)
 */
export interface ChangePoint {
  day: string;
  before: number;
  after: number;
  relativeChange: number;
  pValue: number;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

function medianOf(xs: readonly number[], s: number, e: number): number {
  const a = Float64Array.from(xs.slice(s, e)).sort();
  const n = a.length;
  const mid = n >> 1;
  return n % 2 === 1 ? a[mid]! : (a[mid - 1]! + a[mid]!) / 2;
}

function l1Cost(xs: readonly number[], s: number, e: number): number {
  const m = medianOf(xs, s, e);
  let c = 0;
  for (let i = s; i < e; i++) c += Math.abs(xs[i]! - m);
  return c;
}

/** Complementary error function: Numerical Recipes `erfcc` Chebyshev fit (Press et al. 1992, §6.2), fractional error < 1.2e-7. */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/**
 * Two-sided Mann–Whitney U test p-value (normal approximation, tie-corrected variance, no
 * continuity correction). Returns 1 when all values are tied.
 * @param a first sample, b second sample (each non-empty, finite)
 */
export function mannWhitneyPValue(a: readonly number[], b: readonly number[]): number {
  const n1 = a.length;
  const n2 = b.length;
  const n = n1 + n2;
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  let r1 = 0;
  let tieTerm = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && all[j + 1]!.v === all[i]!.v) j++;
    const rank = (i + j + 2) / 2; // average of 1-based ranks i+1 … j+1
    const t = j - i + 1;
    tieTerm += t * t * t - t;
    for (let k = i; k <= j; k++) if (all[k]!.g === 0) r1 += rank;
    i = j + 1;
  }
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  const mu = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (!(variance > 0)) return 1;
  const z = Math.abs(u1 - mu) / Math.sqrt(variance);
  return Math.min(1, erfc(z / Math.SQRT2));
}

/**
 * Detect level shifts in a daily-median series (method in the module doc).
 * @param series daily medians in any order; days unique, YYYY-MM-DD; medians finite and > 0
 * @param options minRelativeEffect (default 0.15), minSegmentLength (default 3 days), alpha (default 0.05)
 * @returns change points in day order; empty when the series is shorter than 2·minSegmentLength
 * @throws RangeError on a malformed or duplicate day, a non-positive/non-finite median, or bad options
 */
export function detectChangePoints(series: readonly DailyMedian[], options: ChangePointOptions = {}): ChangePoint[] {
  const { minRelativeEffect = 0.15, minSegmentLength = 3, alpha = 0.05 } = options;
  if (!(Number.isFinite(minRelativeEffect) && minRelativeEffect >= 0)) {
    throw new RangeError(`minRelativeEffect must be a finite number ≥ 0, got ${String(minRelativeEffect)}`);
  }
  if (!Number.isInteger(minSegmentLength) || minSegmentLength < 1) {
    throw new RangeError(`minSegmentLength must be an integer ≥ 1, got ${String(minSegmentLength)}`);
  }
  if (!(alpha > 0 && alpha <= 1)) throw new RangeError(`alpha must be in (0, 1], got ${String(alpha)}`);
  const seen = new Set<string>();
  series.forEach((p, i) => {
    if (typeof p.day !== 'string' || !isCalendarDay(p.day)) {
      throw new RangeError(`series[${i}].day must be a calendar day YYYY-MM-DD, got ${String(p.day)}`);
    }
    if (seen.has(p.day)) throw new RangeError(`series[${i}].day ${p.day} occurs twice`);
    seen.add(p.day);
    if (!(Number.isFinite(p.median) && p.median > 0)) {
      throw new RangeError(`series[${i}].median must be a finite number > 0, got ${String(p.median)}`);
    }
  });
  const sorted = [...series].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const xs = sorted.map((p) => p.median);
  const L = minSegmentLength;

  const judge = (s: number, t: number, e: number) => {
    const before = medianOf(xs, s, t);
    const after = medianOf(xs, t, e);
    const effect = Math.abs(after - before) / before;
    const pValue = mannWhitneyPValue(xs.slice(s, t), xs.slice(t, e));
    return { before, after, effect, pValue, ok: effect >= minRelativeEffect && pValue < alpha };
  };

  // 1–2. Binary segmentation with acceptance test.
  const splits: number[] = [];
  const stack: [number, number][] = [[0, xs.length]];
  while (stack.length) {
    const [s, e] = stack.pop()!;
    if (e - s < 2 * L) continue;
    let best = -1;
    let bestCost = Number.POSITIVE_INFINITY;
    for (let t = s + L; t <= e - L; t++) {
      const c = l1Cost(xs, s, t) + l1Cost(xs, t, e);
      if (c < bestCost) {
        bestCost = c;
        best = t;
      }
    }
    if (best < 0 || !judge(s, best, e).ok) continue;
    splits.push(best);
    stack.push([s, best], [best, e]);
  }
  splits.sort((a, b) => a - b);

  // 3. Prune against final neighbours until every split passes.
  for (;;) {
    const bounds = [0, ...splits, xs.length];
    const verdicts = splits.map((t, k) => judge(bounds[k]!, t, bounds[k + 2]!));
    let worst = -1;
    verdicts.forEach((v, k) => {
      if (!v.ok && (worst < 0 || v.effect < verdicts[worst]!.effect)) worst = k;
    });
    if (worst < 0) {
      return splits.map((t, k) => {
        const v = verdicts[k]!;
        return { day: sorted[t]!.day, before: v.before, after: v.after, relativeChange: (v.after - v.before) / v.before, pValue: v.pValue };
      });
    }
    splits.splice(worst, 1);
  }
}

/**
 * Human label of a change point: signed whole percent and the day, e.g. "+38% on 2025-06-02",
 * "-12% on 2025-07-01" (ASCII hyphen-minus; percent rounded half away from zero).
 * @param cp a change point (only relativeChange and day are read)
 */
export function formatChange(cp: Pick<ChangePoint, 'day' | 'relativeChange'>): string {
  const pct = Math.round(Math.abs(cp.relativeChange) * 100);
  const sign = cp.relativeChange < 0 ? '-' : '+';
  return `${sign}${pct}% on ${cp.day}`;
}
