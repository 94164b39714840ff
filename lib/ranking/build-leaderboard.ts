/**
 * Turns per-endpoint window statistics into a ranked leaderboard: median output speed (TPS/user)
 * with a distribution-free 95 % confidence interval of the median (order statistics read from the
 * window's merged sketch, lib/stats/sketch), Wilson interval of the success rate, and tie bands
 * (endpoints whose median intervals overlap share a band and are shown tied, DESIGN.md §2).
 * Pure function without randomness: same input → same output, so snapshots reproduce.
 * (docs/decisions/040-rollups-and-sketches.md: why not the bootstrap here; 070: one engine.)
 */
import { rankWithTieBands } from '@/lib/stats/tie-bands';
import { wilsonInterval } from '@/lib/stats/wilson';
import type { NotRankableCounts, Percentiles, WindowStats } from '@/lib/stats/window-stats';

export { MEDIAN_CI_CONFIDENCE } from '@/lib/stats/window-stats';

/** Input row: one endpoint's window figures (lib/stats/window-stats summarizeWindow) with its endpoint. */
export type WindowStatsRow<E extends { id: number }> = Pick<
  WindowStats,
  | 'n'
  | 'successes'
  | 'samples'
  | 'outputTokensPerSecond'
  | 'outputTokensPerSecondMedianCi'
  | 'ttftMs'
  | 'ttfatMs'
  | 'e2eMs'
  | 'errorKinds'
  | 'lastMeasuredAt'
  | 'notRankable'
  | 'medianItlP50Ms'
  | 'medianItlP95Ms'
  | 'fidelity'
> &
  Partial<Pick<WindowStats, 'cachedInputTokens' | 'cacheHit' | 'tierObjectiveAttainment' | 'cachedInputShare'>> & { endpoint: E };

/** One ranked entry. rank/band are null for endpoints without samples (listed after ranked ones). */
export interface LeaderboardEntry<E extends { id: number }> {
  endpoint: E;
  rank: number | null;
  band: number | null;
  /** endpoint ids sharing this entry's tie band */
  tiedWith: number[];
  n: number;
  successes: number;
  /** successes ÷ n with Wilson 95 % interval; null when n = 0 */
  successRate: number | null;
  successRateInterval: { low: number; high: number } | null;
  samples: number;
  outputTokensPerSecond: Percentiles;
  /** distribution-free 95 % confidence interval of the median output speed (tokens/s); null when unranked */
  outputTokensPerSecondMedianCi: { low: number; high: number } | null;
  ttftMs: Percentiles;
  ttfatMs: Percentiles;
  e2eMs: Percentiles;
  errorKinds: Record<string, number>;
  lastMeasuredAt: string | null;
  /** measurements in the window left out of every figure, by not-rankable reason */
  notRankable: NotRankableCounts;
  excluded?: NotRankableCounts; // alias (decision 280)
  /** inter-token latency, ms/token: median of the measurements' ITL P50, and of their ITL P95; null without samples */
  medianItlP50Ms: number | null;
  medianItlP95Ms: number | null;
  itlMs?: { p50: number; p95: number } | null; // alias (decision 280)
  /** fidelity checks of the window: pass rate, n, 95 % Wilson interval; null when none ran */
  fidelity: WindowStats['fidelity'];
  /** input tokens served from the prompt cache, percentiles over measurements reporting a count; null when none (issue 25) */
  cachedInputTokens: Percentiles;
  /** prompt-cache hit share with n and 95 % Wilson interval; null when no measurement reported a cache count */
  cacheHit: WindowStats['cacheHit'];
  /** share of judged rankable measurements meeting the endpoint's tier objective, n, 95 % Wilson interval; null without an objective (decision 263) */
  tierObjectiveAttainment: WindowStats['tierObjectiveAttainment'];
  /** cached share of the prompt (cached ÷ input tokens per measurement): percentiles with n; null when no measurement reported both (decision 291) */
  cachedInputShare: WindowStats['cachedInputShare'];
  /**
   * Why the entry is unranked (rank null): `fidelity_below_bound` (the window's fidelity pass rate
   * is confidently below FIDELITY_RANK_MIN_PASS_RATE: its Wilson 95 % upper bound is under it),
   * `too_few_samples` (fewer than MIN_RANKED_SAMPLES rankable measurements); null when ranked.
   */
  notRankedReason: NotRankedReason | null;
}

/** Why a whole endpoint is left out of a window's ranking (the entry is still listed). */
export const NOT_RANKED_REASONS = ['fidelity_below_bound', 'too_few_samples'] as const;
export type NotRankedReason = (typeof NOT_RANKED_REASONS)[number];

/**
 * An endpoint whose fidelity checks in the window pass confidently less often than this (95 %
 * Wilson upper bound below it) is not ranked for that window (decision 171): its speed is the speed
 * of answers that are not answers. Three failed checks of three (upper bound 0.56) suffice; a good
 * model's rare miss never qualifies (9 of 10: upper bound 0.98). A ratio of the endpoint's own
 * verdicts, so the only way under it is to answer correctly. MLPerf Endpoints (2026) likewise gates
 * performance results on accuracy.
 */
export const FIDELITY_RANK_MIN_PASS_RATE = 0.8;

/** True when the window's fidelity verdicts bar the endpoint from the ranking. */
export function isFidelityBelowBound(fidelity: WindowStats['fidelity']): boolean {
  return fidelity !== null && fidelity.interval.high < FIDELITY_RANK_MIN_PASS_RATE;
}

/** Minimum successful samples before an endpoint is ranked (fewer are listed, unranked). */
export const MIN_RANKED_SAMPLES = 3;

/**
 * Ranks rows by median output speed, higher is better. Median interval: the engine's
 * order-statistic 95 % interval (lib/stats/window-stats medianInterval).
 * Success rate: Wilson (1927) score interval. Tie bands: lib/stats/tie-bands (leader-anchored).
 * @param rows one per endpoint (see server/window-stats.ts); endpoints with fewer than
 *   MIN_RANKED_SAMPLES speed samples, or whose fidelity is below the bound
 *   (isFidelityBelowBound), are listed after the ranked ones with rank/band null and notRankedReason
 * @returns entries, ranked ones first (best first), then unranked by median then id
 */
export function buildLeaderboard<E extends { id: number }>(rows: WindowStatsRow<E>[]): LeaderboardEntry<E>[] {
  const cis = new Map<number, { median: number; low: number; high: number }>();
  for (const r of rows) {
    const ci = r.outputTokensPerSecondMedianCi;
    if (r.samples >= MIN_RANKED_SAMPLES && r.outputTokensPerSecond && ci && !isFidelityBelowBound(r.fidelity))
      cis.set(r.endpoint.id, { median: r.outputTokensPerSecond.p50, low: ci.low, high: ci.high });
  }
  const ranked = rankWithTieBands(
    [...cis.entries()].map(([id, ci]) => ({ id, ...ci })),
    'higher-better',
  );
  const byId = new Map(ranked.map((r) => [r.id, r]));
  const order = new Map(ranked.map((r, i) => [r.id, i]));
  const entries = rows.map((r): LeaderboardEntry<E> => {
    const rk = byId.get(r.endpoint.id);
    const ci = cis.get(r.endpoint.id);
    const w = r.n > 0 ? wilsonInterval(r.successes, r.n) : null;
    return {
      endpoint: r.endpoint,
      rank: rk?.rank ?? null,
      band: rk?.band ?? null,
      tiedWith: rk?.tiedWith ?? [],
      n: r.n,
      successes: r.successes,
      successRate: w ? w.rate : null,
      successRateInterval: w ? { low: w.low, high: w.high } : null,
      samples: r.samples,
      outputTokensPerSecond: r.outputTokensPerSecond,
      outputTokensPerSecondMedianCi: ci ? { low: ci.low, high: ci.high } : null,
      ttftMs: r.ttftMs,
      ttfatMs: r.ttfatMs,
      e2eMs: r.e2eMs,
      errorKinds: r.errorKinds,
      lastMeasuredAt: r.lastMeasuredAt,
      notRankable: r.notRankable,
      excluded: r.notRankable, // alias (decision 280)
      medianItlP50Ms: r.medianItlP50Ms,
      medianItlP95Ms: r.medianItlP95Ms,
      itlMs: r.medianItlP50Ms !== null && r.medianItlP95Ms !== null ? { p50: r.medianItlP50Ms, p95: r.medianItlP95Ms } : null, // alias (decision 280)
      fidelity: r.fidelity,
      cachedInputTokens: r.cachedInputTokens ?? null,
      cacheHit: r.cacheHit ?? null,
      tierObjectiveAttainment: r.tierObjectiveAttainment ?? null,
      cachedInputShare: r.cachedInputShare ?? null,
      notRankedReason: rk ? null : isFidelityBelowBound(r.fidelity) ? 'fidelity_below_bound' : 'too_few_samples',
    };
  });
  return entries.sort((a, b) => {
    const oa = order.get(a.endpoint.id);
    const ob = order.get(b.endpoint.id);
    if (oa !== undefined && ob !== undefined) return oa - ob;
    if (oa !== undefined) return -1;
    if (ob !== undefined) return 1;
    const ma = a.outputTokensPerSecond?.p50 ?? -1;
    const mb = b.outputTokensPerSecond?.p50 ?? -1;
    return mb - ma || a.endpoint.id - b.endpoint.id;
  });
}
