/**
 * The leaderboard answer of one question (model × workload × window × basis × region, as of an
 * instant): window stats from rollups through the one engine (./window-stats) → ranking
 * (lib/ranking) → the canonical JSON text whose hash is its snapshotId. Shared by the web
 * (server/leaderboard.ts, on demand) and the precompute job (workers/tasks/precompute-answers.ts),
 * so both produce byte-identical answers for the same data (decision 120).
 */
import { createHash } from 'node:crypto';
import type { Db } from '@/db/client';
import { loadWindowFigures, type WindowFigures } from './window-stats';
import { buildLeaderboard, MEDIAN_CI_CONFIDENCE, MIN_RANKED_SAMPLES } from '@/lib/ranking/build-leaderboard';
import { SKETCH_RELATIVE_ACCURACY } from '@/lib/stats/sketch';
import { planWindow, type SpeedBasis } from '@/lib/stats/window-stats';
import { HEADLINE_WORKLOAD_SLUG } from '@/lib/probe/workloads';

/** The parameters an answer depends on (the parsed leaderboard query; `at` is resolved to `asOf`). */
export interface LeaderboardQueryInput {
  model: string;
  workload: string;
  /** window length, hours */
  window: number;
  basis: SpeedBasis;
  region?: string | null;
}

/** How the figures were computed; part of every answer so a citation carries its method. */
const STATISTICS = {
  percentiles: 'type 7 (numpy linear) of the rankable measurements in the window, read from merged log-bucket sketches',
  percentileRelativeAccuracy: SKETCH_RELATIVE_ACCURACY,
  medianCi: 'distribution-free order-statistic interval of the median',
  medianCiConfidence: MEDIAN_CI_CONFIDENCE,
  successRateInterval: 'Wilson score, 95 %',
  minRankedSamples: MIN_RANKED_SAMPLES,
  ties: 'endpoints whose median intervals overlap the band leader’s share a band and a rank',
} as const;

/**
 * Computes one leaderboard answer as of `asOf` (no caching, no snapshot write): the answer object
 * and its exact JSON text (`body`, snapshotId first). `snapshotId` is the first 22 base64url
 * characters of the SHA-256 of the answer without its id, so identical answers share one id; the
 * strong ETag of the body is `"<snapshotId>"`.
 */
export async function computeLeaderboardAnswer(db: Db, q: LeaderboardQueryInput, asOf: Date) {
  const params = { modelSlug: q.model, asOf, windowHours: q.window, basis: q.basis, region: q.region ?? null };
  const [figures, promptCache] = await Promise.all([
    loadWindowFigures(db, { ...params, workloadSlug: q.workload }),
    loadPromptCacheColumns(db, q.workload, params),
  ]);
  return leaderboardAnswerOf(q, asOf, figures, promptCache);
}

/**
 * The answer of {@link computeLeaderboardAnswer} from the window's figures (per endpoint, and the
 * regions they cover) and the prompt-cache columns of the boards that carry them
 * ({@link promptCacheColumnsOf}; null elsewhere): ranking, the body and its id. Pure; every path
 * that has the figures (the web on demand, the precompute job's live figures, server/live-figures)
 * builds its bytes here.
 */
export function leaderboardAnswerOf(
  q: LeaderboardQueryInput,
  asOf: Date,
  figures: Pick<WindowFigures, 'rows' | 'regions'>,
  promptCache: Map<number, PromptCacheColumns> | null,
) {
  const { rows, regions } = figures;
  const entries = buildLeaderboard(rows).map((e) => ({
    ...e,
    promptCache: promptCache?.get(e.endpoint.id) ?? null,
    endpoint: {
      id: e.endpoint.id,
      slug: e.endpoint.slug,
      provider: e.endpoint.provider,
      providerSlug: e.endpoint.providerSlug,
      model: e.endpoint.model,
      kind: e.endpoint.kind,
      status: e.endpoint.status,
      hardware: e.endpoint.hardware,
      engine: e.endpoint.engine,
      precision: e.endpoint.precision,
      speculativeDecoding: e.endpoint.speculativeDecoding,
      deploymentKind: e.endpoint.deploymentKind,
      region: e.endpoint.region,
      calibrationTps: e.endpoint.calibrationTps,
      calibrationTtftMs: e.endpoint.calibrationTtftMs,
      blendedUsdPerMTokens: e.endpoint.blendedUsdPerMTokens,
      serviceTier: e.endpoint.serviceTier ?? null,
      tierObjective: e.endpoint.tierObjective ?? null,
    },
  }));
  const plan = planWindow(asOf, q.window);
  // `regions`: which worker regions the figures cover, one (region filter) or all that measured (merged).
  const body = {
    asOf: asOf.toISOString(),
    window: `${q.window}h`,
    windowHours: q.window,
    windowStart: plan.start.toISOString(),
    model: q.model,
    workload: q.workload,
    region: q.region ?? null,
    regions,
    merged: !q.region,
    basis: q.basis,
    metric: 'outputTokensPerSecond',
    units: {
      outputTokensPerSecond: 'tokens/s',
      ttftMs: 'ms',
      ttfatMs: 'ms',
      e2eMs: 'ms',
      successRate: 'fraction',
      medianItlP50Ms: 'ms/token',
      medianItlP95Ms: 'ms/token',
      'fidelity.passRate': 'fraction',
      'endpoint.blendedUsdPerMTokens': 'USD per million tokens (declared, 3:1 input:output)',
      'tierObjectiveAttainment.share': 'fraction',
      cachedInputShare: 'fraction',
    },
    statistics: STATISTICS,
    entries,
  };
  const bodyJson = JSON.stringify(body);
  const snapshotId = createHash('sha256').update(bodyJson).digest('base64url').slice(0, 22);
  const answer = { snapshotId, ...body };
  // Same text as JSON.stringify(answer) (snapshotId first, then the body's keys), built without a
  // second serialisation; the tests compare the two.
  return { answer, body: `{"snapshotId":${JSON.stringify(snapshotId)},${bodyJson.slice(1)}` };
}

const CONTENT_PREFIX = /^\{"snapshotId":"[^"]*","asOf":"[^"]*",/;

/**
 * The content hash of an answer's exact text (as {@link leaderboardAnswerOf} writes it): SHA-256
 * (base64url, 22 characters) of the text after its `snapshotId` and `asOf`, so two answers of one
 * question whose figures, window start and entries are equal share it whatever minute they are as
 * of (decision 300). A text not of that shape hashes whole.
 */
export function answerContentHash(body: string): string {
  const m = CONTENT_PREFIX.exec(body);
  return createHash('sha256')
    .update(m ? body.slice(m[0].length) : body)
    .digest('base64url')
    .slice(0, 22);
}

/** Boards that carry the prompt-cache columns: the headline board and the pair's own (decision 269). */
export const PROMPT_CACHE_COLUMN_BOARDS: readonly string[] = [HEADLINE_WORKLOAD_SLUG, 'cache-cold-2k', 'cache-warm-2k'];

/** The prompt-cache columns of one entry: TTFT medians of the pair and the warm hit share, from the pair's window figures. */
export interface PromptCacheColumns {
  /** median TTFT of cache-cold-2k in the same window, ms; null without samples */
  ttftColdMs: number | null;
  /** median TTFT of cache-warm-2k in the same window, ms; null without samples */
  ttftWarmMs: number | null;
  /** cache-warm-2k's hit share (n, 95 % Wilson interval); null when no warm request reported a cache count */
  hitShare: { share: number; n: number; interval: { low: number; high: number } } | null;
  /** cache-warm-2k's median cached share of the prompt with its n (decision 291); null when no warm request reported both counts */
  cachedInputShare: { p50: number; n: number } | null;
}

/**
 * The prompt-cache board columns (issue 25 item 1, decision 269) by endpoint id, read from the
 * window figures of cache-cold-2k and cache-warm-2k (the one engine, same model, window, basis and
 * region as the board), for the boards in {@link PROMPT_CACHE_COLUMN_BOARDS} only (two more window
 * reads per answer; the other boards' entries carry null). Endpoints without prompt-cache probes: null.
 */
async function loadPromptCacheColumns(
  db: Db,
  workload: string,
  params: { modelSlug: string; asOf: Date; windowHours: number; basis: SpeedBasis; region: string | null },
): Promise<Map<number, PromptCacheColumns> | null> {
  if (!PROMPT_CACHE_COLUMN_BOARDS.includes(workload)) return null;
  const [cold, warm] = await Promise.all(PROMPT_CACHE_WORKLOADS.map((w) => loadWindowFigures(db, { ...params, workloadSlug: w })));
  return promptCacheColumnsOf(cold!, warm!);
}

/** The cold and warm workloads whose figures make the prompt-cache columns. */
export const PROMPT_CACHE_WORKLOADS = ['cache-cold-2k', 'cache-warm-2k'] as const;

/** The prompt-cache columns per endpoint from the same window's cold and warm figures (pure). */
export function promptCacheColumnsOf(cold: Pick<WindowFigures, 'rows'>, warm: Pick<WindowFigures, 'rows'>): Map<number, PromptCacheColumns> {
  const out = new Map<number, PromptCacheColumns>();
  const coldOf = new Map(cold.rows.map((r) => [r.endpoint.id, r]));
  for (const w of warm.rows) {
    const c = coldOf.get(w.endpoint.id);
    if (w.n === 0 && (!c || c.n === 0)) continue;
    const share = w.cachedInputShare ?? null;
    out.set(w.endpoint.id, {
      ttftColdMs: c?.ttftMs?.p50 ?? null,
      ttftWarmMs: w.ttftMs?.p50 ?? null,
      hitShare: w.cacheHit ?? null,
      cachedInputShare: share ? { p50: share.p50, n: share.n } : null,
    });
  }
  for (const c of cold.rows)
    if (!out.has(c.endpoint.id) && c.n > 0)
      out.set(c.endpoint.id, { ttftColdMs: c.ttftMs?.p50 ?? null, ttftWarmMs: null, hitShare: null, cachedInputShare: null });
  return out;
}

/** A computed answer: the object and its exact JSON text. */
export type ComputedLeaderboardAnswer = Awaited<ReturnType<typeof computeLeaderboardAnswer>>;

/** The key of a live (no `at`) question, as stored in precomputed_answers.key. */
export function liveLeaderboardKey(q: LeaderboardQueryInput): string {
  return `leaderboard|${q.model}|${q.workload}|${q.window}h|${q.basis}|${q.region ?? '*'}`;
}
