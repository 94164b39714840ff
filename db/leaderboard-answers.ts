/**
 * The leaderboard answer of one question (model × workload × window × basis × region, as of an
 * instant): window stats from rollups through the one engine (./window-stats) → ranking
 * (lib/ranking) → the canonical JSON text whose hash is its snapshotId. Shared by the web
 * (app/_server/leaderboard.ts, on demand) and the precompute job (workers/tasks/precompute-answers.ts),
 * so both produce byte-identical answers for the same data (decision 120).
 */
import { createHash } from 'node:crypto';
import type { Db } from './client';
import { loadWindowFigures } from './window-stats';
import { buildLeaderboard, MEDIAN_CI_CONFIDENCE, MIN_RANKED_SAMPLES } from '@/lib/ranking/build-leaderboard';
import { SKETCH_RELATIVE_ACCURACY } from '@/lib/stats/sketch';
import { planWindow, type SpeedBasis } from '@/lib/stats/window-stats';

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
  const { rows, regions } = await loadWindowFigures(db, {
    modelSlug: q.model,
    workloadSlug: q.workload,
    asOf,
    windowHours: q.window,
    basis: q.basis,
    region: q.region ?? null,
  });
  const entries = buildLeaderboard(rows).map((e) => ({
    ...e,
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
    units: { outputTokensPerSecond: 'tokens/s', ttftMs: 'ms', ttfatMs: 'ms', e2eMs: 'ms', successRate: 'fraction', itlMs: 'ms/token', 'fidelity.passRate': 'fraction', 'endpoint.blendedUsdPerMTokens': 'USD per million tokens (declared, 3:1 input:output)' },
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

/** A computed answer: the object and its exact JSON text. */
export type ComputedLeaderboardAnswer = Awaited<ReturnType<typeof computeLeaderboardAnswer>>;

/** The key of a live (no `at`) question, as stored in precomputed_answers.key. */
export function liveLeaderboardKey(q: LeaderboardQueryInput): string {
  return `leaderboard|${q.model}|${q.workload}|${q.window}h|${q.basis}|${q.region ?? '*'}`;
}
