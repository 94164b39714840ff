/**
 * Server-side composition of a leaderboard answer, shared by the API route and the pages:
 * window stats from rollups (db) → ranking (lib) → immutable snapshot. `asOf` defaults to the
 * current minute, so answers within a minute are identical and share one snapshot id.
 *
 * Cost control: answers are cached in-process by (query, asOf) — live answers for their minute,
 * `at=` answers whose window has sealed (asOf ≥ 15 min ago) until evicted; snapshot rows are
 * written by a group-commit writer (one multi-row INSERT for all answers produced in the same
 * event-loop turn), and each answer waits for its row to be committed, so a snapshotId handed out can
 * always be fetched.
 */
import { createHash } from 'node:crypto';
import type { Db } from '@/db/client';
import { listWindowStats, namedWindowCache } from '@/db/window-stats';
import { saveSnapshots } from '@/db/queries/snapshots';
import type { LeaderboardQuery } from '@/lib/api/schemas';
import { buildLeaderboard, MEDIAN_CI_CONFIDENCE, MIN_RANKED_SAMPLES } from '@/lib/ranking/build-leaderboard';
import { SKETCH_RELATIVE_ACCURACY } from '@/lib/stats/sketch';
import { planWindow } from '@/lib/stats/window-stats';

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

/** The exact JSON text of each computed answer (filled by computeAnswer). */
const answerText = new WeakMap<object, string>();

/** Computes the answer object (no caching, no snapshot write). */
async function computeAnswer(db: Db, q: LeaderboardQuery, asOf: Date) {
  const rows = await listWindowStats(db, {
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
  const body = {
    asOf: asOf.toISOString(),
    window: `${q.window}h`,
    windowHours: q.window,
    windowStart: plan.start.toISOString(),
    model: q.model,
    workload: q.workload,
    region: q.region ?? null,
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
  answerText.set(answer, `{"snapshotId":${JSON.stringify(snapshotId)},${bodyJson.slice(1)}`);
  return answer;
}


export type LeaderboardAnswer = Awaited<ReturnType<typeof computeAnswer>>;

// ---------------------------------------------------------------------------------------------
// Snapshot group commit.

interface PendingSnapshot {
  row: { id: string; kind: string; query: Record<string, unknown>; body: string };
  resolve: () => void;
  reject: (err: unknown) => void;
}
interface Writer {
  pending: PendingSnapshot[];
  scheduled: boolean;
  saved: Set<string>;
}
const writers = new WeakMap<Db, Writer>();

function writerOf(db: Db): Writer {
  let w = writers.get(db);
  if (!w) {
    w = { pending: [], scheduled: false, saved: new Set() };
    writers.set(db, w);
  }
  return w;
}

async function flush(db: Db, w: Writer): Promise<void> {
  w.scheduled = false;
  const batch = w.pending.splice(0, w.pending.length);
  if (batch.length === 0) return;
  try {
    await saveSnapshots(db, batch.map((b) => b.row));
    for (const b of batch) {
      w.saved.add(b.row.id);
      b.resolve();
    }
    if (w.saved.size > 50_000) w.saved.clear();
  } catch (err) {
    for (const b of batch) b.reject(err);
  }
}

/** Stores the snapshot (once per id per process) and resolves when it is committed. */
function persistSnapshot(db: Db, row: PendingSnapshot['row']): Promise<void> {
  const w = writerOf(db);
  if (w.saved.has(row.id)) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    w.pending.push({ row, resolve, reject });
    if (!w.scheduled) {
      w.scheduled = true;
      setImmediate(() => void flush(db, w));
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Answer cache.

interface CachedAnswer {
  answer: LeaderboardAnswer;
  body: string;
}
const ANSWER_CACHE_MAX = 5_000;
const SEALED_AFTER_MS = 15 * 60_000;

function resolveAsOf(q: LeaderboardQuery, now: Date): { asOf: Date; live: boolean } {
  if (q.at) return { asOf: new Date(q.at), live: false };
  return { asOf: new Date(Math.floor(now.getTime() / 60_000) * 60_000), live: true };
}

/**
 * Board for one model/workload/window as of `q.at` (or the current minute), with its snapshotId,
 * and the exact JSON text that was stored under that id (serve this text to be byte-identical).
 * @param now wall-clock instant (tests pass fixed instants); defaults to the current time
 */
export async function getLeaderboardAnswerWithBody(db: Db, q: LeaderboardQuery, now = new Date()): Promise<CachedAnswer> {
  const { asOf, live } = resolveAsOf(q, now);
  const key = JSON.stringify([q.model, q.workload, q.window, q.basis, q.region ?? null, asOf.getTime()]);
  // Lives with the window caches, so a rollup rebuild or late data drops answers and figures at once.
  const cache = namedWindowCache<string, Promise<CachedAnswer>>(db, 'leaderboard-answers');
  const hit = cache.get(key);
  if (hit) return hit;
  const cacheable = live || asOf.getTime() + SEALED_AFTER_MS <= now.getTime();
  const work = (async () => {
    const answer = await computeAnswer(db, q, asOf);
    const body = answerText.get(answer) ?? JSON.stringify(answer);
    await persistSnapshot(db, { id: answer.snapshotId, kind: 'leaderboard', query: { ...q, window: `${q.window}h`, asOf: answer.asOf }, body });
    return { answer, body };
  })();
  if (cacheable) {
    if (cache.size >= ANSWER_CACHE_MAX) cache.clear();
    cache.set(key, work);
    work.catch(() => cache.delete(key));
  }
  return work;
}

/** Board for one model/workload/window (as of `q.at` or the current minute), with snapshotId. */
export async function getLeaderboardAnswer(db: Db, q: LeaderboardQuery, now = new Date()): Promise<LeaderboardAnswer> {
  return (await getLeaderboardAnswerWithBody(db, q, now)).answer;
}

/** Forgets cached answers of `db` (tests that add measurements for an already-asked instant). */
export function clearLeaderboardAnswers(db: Db): void {
  namedWindowCache(db, 'leaderboard-answers').clear();
}
