/**
 * Server-side composition of a leaderboard answer, shared by the API route and the pages:
 * window stats (db) → ranking (lib) → immutable snapshot. `asOf` defaults to the current minute,
 * so answers within a minute are identical and share one snapshot id.
 */
import { createHash } from 'node:crypto';
import type { Db } from '@/db/client';
import { listLeaderboardRows } from '@/db/queries/leaderboard';
import { saveSnapshot } from '@/db/queries/snapshots';
import type { LeaderboardQuery } from '@/lib/api/schemas';
import { buildLeaderboard } from '@/lib/ranking/build-leaderboard';

export type LeaderboardAnswer = Awaited<ReturnType<typeof getLeaderboardAnswer>>;

const savedSnapshots = new Set<string>();

/** Board for one model/workload/window (as of `q.at` or the current minute), with snapshotId. */
export async function getLeaderboardAnswer(db: Db, q: LeaderboardQuery, now = new Date()) {
  const asOf = q.at ? new Date(q.at) : new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const rows = await listLeaderboardRows(db, {
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
    },
  }));
  const body = {
    asOf: asOf.toISOString(),
    window: `${q.window}h`,
    windowHours: q.window,
    model: q.model,
    workload: q.workload,
    region: q.region ?? null,
    basis: q.basis,
    metric: 'outputTokensPerSecond',
    units: { outputTokensPerSecond: 'tokens/s', ttftMs: 'ms', ttfatMs: 'ms', e2eMs: 'ms', successRate: 'fraction' },
    entries,
  };
  const snapshotId = createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 22);
  const answer = { snapshotId, ...body };
  if (!savedSnapshots.has(snapshotId)) {
    await saveSnapshot(db, { id: snapshotId, kind: 'leaderboard', query: { ...q, asOf: body.asOf }, body: JSON.stringify(answer) });
    savedSnapshots.add(snapshotId);
    if (savedSnapshots.size > 10_000) savedSnapshots.clear();
  }
  return answer;
}
