/**
 * Where the per-minute rollup job left off (table `rollup_progress`, decision 217), and which
 * buckets received measurements since: the job rebuilds those buckets only.
 *
 * Measurement ids come from one sequence, in insert order, but a row becomes visible at its
 * commit, so a row with a smaller id can appear after a run read a larger one. A run therefore
 * looks at ids above the newest id seen {@link PROGRESS_LAG_RUNS} runs ago, not at its own last
 * run: a measurement insert (one statement, workers/probe) would have to stay uncommitted for that
 * many minutes to be missed.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../client';

/** How many runs back the id a run scans from was seen. */
export const PROGRESS_LAG_RUNS = 3;

/** The newest measurement ids seen by the last runs (oldest first), or null before the first. */
export async function getRollupProgress(db: Db): Promise<number[] | null> {
  const rows = (await db.execute(sql`select seen_max_ids::float8[] as ids from rollup_progress where id = 1`)) as unknown as Array<{ ids: number[] }>;
  return rows[0] ? rows[0].ids.map(Number) : null;
}

/** Appends this run's newest seen id, keeping the last {@link PROGRESS_LAG_RUNS}. */
export async function saveRollupProgress(db: Db, previous: readonly number[] | null, seenMaxId: number): Promise<void> {
  const ids = [...(previous ?? []), seenMaxId].slice(-PROGRESS_LAG_RUNS);
  await db.execute(sql`
    insert into rollup_progress (id, seen_max_ids, updated_at) values (1, ${`{${ids.join(',')}}`}::bigint[], now())
    on conflict (id) do update set seen_max_ids = excluded.seen_max_ids, updated_at = now()`);
}

/** The newest measurement id (0 without measurements); one index probe. */
export async function getMaxMeasurementId(db: Db): Promise<number> {
  const rows = (await db.execute(sql`select coalesce(max(id), 0)::float8 as n from measurements`)) as unknown as Array<{ n: number }>;
  return Number(rows[0]?.n ?? 0);
}

/** One 10-minute bucket of one workload that received measurements. */
export interface DirtyBucket {
  workloadId: number;
  /** bucket start, epoch ms (10-minute aligned) */
  startMs: number;
}

/**
 * The (workload, 10-minute bucket) pairs of measurements with id in (afterId, upToId] and
 * measured_at in [from, to): an index range scan over the new rows only.
 */
export async function listDirtyBuckets(db: Db, p: { afterId: number; upToId: number; from: Date; to: Date }): Promise<DirtyBucket[]> {
  if (p.upToId <= p.afterId) return [];
  const rows = (await db.execute(sql`
    select distinct m.workload_id, (floor(extract(epoch from m.measured_at) / 600) * 600000)::float8 as start_ms
    from measurements m
    where m.id > ${p.afterId} and m.id <= ${p.upToId}
      and m.measured_at >= ${p.from.toISOString()}::timestamptz and m.measured_at < ${p.to.toISOString()}::timestamptz
    order by 2, 1`)) as unknown as Array<{ workload_id: number; start_ms: number }>;
  return rows.map((r) => ({ workloadId: Number(r.workload_id), startMs: Number(r.start_ms) }));
}

/** One endpoint's 10-minute bucket of one workload that received measurements. */
export interface DirtyEndpointBucket extends DirtyBucket {
  endpointId: number;
}

/**
 * Like {@link listDirtyBuckets}, per endpoint: the (workload, endpoint, 10-minute bucket) triples of
 * measurements with id in (afterId, upToId] and measured_at in [from, to). A rollup row and a
 * partial series are per endpoint, so the per-minute job rebuilds the rows of these endpoints only
 * (decision 311; at 200 endpoints a workload's hour holds ~400 rows of which a minute's probes
 * touch a few). One index range scan over the new rows only.
 */
export async function listDirtyEndpointBuckets(db: Db, p: { afterId: number; upToId: number; from: Date; to: Date }): Promise<DirtyEndpointBucket[]> {
  if (p.upToId <= p.afterId) return [];
  const rows = (await db.execute(sql`
    select distinct m.workload_id, m.endpoint_id, (floor(extract(epoch from m.measured_at) / 600) * 600000)::float8 as start_ms
    from measurements m
    where m.id > ${p.afterId} and m.id <= ${p.upToId}
      and m.measured_at >= ${p.from.toISOString()}::timestamptz and m.measured_at < ${p.to.toISOString()}::timestamptz
    order by 3, 1, 2`)) as unknown as Array<{ workload_id: number; endpoint_id: number; start_ms: number }>;
  return rows.map((r) => ({ workloadId: Number(r.workload_id), endpointId: Number(r.endpoint_id), startMs: Number(r.start_ms) }));
}

/**
 * The (workload, endpoint) pairs of measurements with id in (afterId, upToId] measured at or after
 * `from`: which boards took new rows since a run that saw `afterId` (server/live-figures,
 * decision 300). An index range scan over the new rows only.
 */
export async function listMeasuredPairsSince(
  db: Db,
  p: { afterId: number; upToId: number; from: Date },
): Promise<Array<{ workloadId: number; endpointId: number }>> {
  if (p.upToId <= p.afterId) return [];
  const rows = (await db.execute(sql`
    select distinct m.workload_id, m.endpoint_id from measurements m
    where m.id > ${p.afterId} and m.id <= ${p.upToId} and m.measured_at >= ${p.from.toISOString()}::timestamptz`)) as unknown as Array<{
    workload_id: number;
    endpoint_id: number;
  }>;
  return rows.map((r) => ({ workloadId: Number(r.workload_id), endpointId: Number(r.endpoint_id) }));
}
