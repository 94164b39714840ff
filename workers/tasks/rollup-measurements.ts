/**
 * Task: rollup-measurements (every minute, its descriptor, workers/tasks/index.ts).
 * In steady state (decision 218) it rebuilds only what received measurements since its last runs:
 * the (workload, endpoint, 10-minute bucket) triples of rows with an id above the one it saw 3 runs back
 * (db/queries/rollup-progress), within the last two hours: those 10-minute partials and the
 * complete larger ones holding them, those hours from raw, and their days moved by the hours'
 * difference (db/queries/rollups rebuildRollupsOf); a run with nothing new rebuilds nothing and
 * moves the partials' coverage to MEASUREMENT_WRITE_LAG_MS before now (the measured time whose
 * measurements are all written, decision 319). Otherwise (fresh database, no progress yet, worker behind)
 * it recomputes from raw the hourly buckets from the newest existing hourly rollup (or the oldest
 * measurement) up to now, never fewer than the last two hours, and the daily buckets of the days
 * those hours touch; a backlog is processed at most `maxHoursPerRun` hours per run, oldest first.
 * Either way a late or duplicated run gives the same rows as a full rebuild (`rebuildRollups`).
 *
 * Then it upgrades at most `maxStaleDaysPerRun` UTC days of rollups whose sketches predate the
 * current sketch version (decision 070), newest first: rebuilt from raw, or re-keyed where the raw
 * rows are gone. The window partials (decision 210) are rebuilt with the hourly buckets, and up to
 * `maxBackfillDaysPerRun` older days without partials are built. Every run ends, after all its
 * writes, by recording one data change over the measured-time range it rebuilt (data_changes,
 * decision 215; its NOTIFY reaches every instance, server/cache-invalidation) and applying it to
 * this process's answer cache; changes older than a day are pruned.
 */
import type { Db } from '@/db/client';
import {
  floorBucket,
  getLatestRollupHour,
  getNewestStaleSketchBucket,
  getOldestMeasurementTime,
  rebuildRollups,
  rebuildRollupsOf,
  rekeyStaleSketches,
} from '@/db/queries/rollups';
import { pruneDataChanges, recordDataChange } from '@/db/queries/data-changes';
import {
  getMaxMeasurementId,
  getRollupProgress,
  listDirtyEndpointBuckets,
  PROGRESS_LAG_RUNS,
  saveRollupProgress,
  type DirtyEndpointBucket,
} from '@/db/queries/rollup-progress';
import { MEASUREMENT_WRITE_LAG_MS } from '@/lib/probe/probe-deadlines';
import {
  extendCoverageToOrigin,
  getOldestUncoveredMeasurement,
  getPartialCoverage,
  rebuildWindowPartials,
  rebuildWindowPartialsOf,
} from '@/db/queries/window-partials';
import { syncDataVersion } from '@/server/answer-cache';
import { QUEUES } from '@/lib/queues';
import { defineHousekeepingTask } from '../task';

const HOUR = 3600_000;
/** An upper bound past any measured_at (PostgreSQL timestamptz takes 4-digit years in ISO form). */
const FAR_FUTURE = new Date('9999-12-31T00:00:00Z');

/**
 * One run. `now` is an argument so bucket maths is testable.
 * @returns the hour range processed and the number of hourly and daily buckets written
 */
export async function runRollupJob(
  db: Db,
  now: Date,
  options: { maxHoursPerRun?: number; maxStaleDaysPerRun?: number; maxBackfillDaysPerRun?: number } = {},
): Promise<{ from: Date; to: Date; hourBuckets: number; dayBuckets: number; upgradedDays: number }> {
  const maxHours = options.maxHoursPerRun ?? 48;
  const recent = floorBucket(new Date(now.getTime() - 2 * HOUR), 'hour');
  const latest = (await getLatestRollupHour(db)) ?? (await getOldestMeasurementTime(db));
  const from = latest && latest < recent ? floorBucket(latest, 'hour') : recent;
  const end = new Date(now.getTime() + 60_000);
  const to = end.getTime() - from.getTime() > maxHours * HOUR ? new Date(from.getTime() + maxHours * HOUR) : end;
  // Read before the rebuild: rows inserted while it runs are found by the next run.
  const progress = await getRollupProgress(db);
  const seenMaxId = await getMaxMeasurementId(db);
  const caughtUp = latest !== null && latest >= recent && to.getTime() === end.getTime();
  // Measured time this run may claim as complete (decision 319): a probe started before it has
  // committed its measurement. Later time stays on the raw edge, which every window reads whole.
  const settled = new Date(now.getTime() - MEASUREMENT_WRITE_LAG_MS);
  let hourBuckets: number;
  let dayBuckets: number;
  let changedFrom = from.getTime();
  if (progress && caughtUp) {
    // Steady state (decision 217): only the buckets that received measurements since the last runs.
    // Per endpoint (decision 311): a rollup row is one endpoint's, so only the new rows' endpoints are rebuilt.
    // Before PROGRESS_LAG_RUNS runs are on record, the missing ones saw id 0 (a fresh database's
    // run 2 would otherwise scan from run 1's id and lose a row whose id was taken before it).
    const afterId = progress.length < PROGRESS_LAG_RUNS ? 0 : progress[0]!;
    // No upper bound on measured_at: a row from a worker whose clock runs ahead is dirty while its
    // id is in the lag, not only once its time has come (it would be lost by then).
    const dirty = await listDirtyEndpointBuckets(db, { afterId, upToId: seenMaxId, from, to: FAR_FUTURE });
    await rebuildWindowPartialsOf(db, { buckets: dirty, coverFrom: from, to, wallNow: settled });
    ({ hourBuckets, dayBuckets } = await rebuildRollupsOf(db, groupBuckets(dirty, HOUR)));
    changedFrom = dirty.length > 0 ? Math.min(...dirty.map((d) => d.startMs)) : now.getTime();
  } else {
    hourBuckets = await rebuildRollups(db, { granularity: 'hour', from, to, wallNow: settled });
    dayBuckets = await rebuildRollups(db, { granularity: 'day', from, to });
  }
  // A capped catch-up run has not seen the rest of its range: the progress moves only once a run reached `end`.
  if (to.getTime() === end.getTime()) await saveRollupProgress(db, progress, seenMaxId);
  const upgraded = await upgradeStaleSketches(db, options.maxStaleDaysPerRun ?? 2);
  const backfilled = await backfillWindowPartials(db, now, options.maxBackfillDaysPerRun ?? 3);
  const upgradedDays = upgraded.days;
  // The inputs are written: the version moves now, over everything this run may have changed.
  changedFrom = Math.min(changedFrom, upgraded.from?.getTime() ?? Infinity, backfilled?.from.getTime() ?? Infinity);
  await recordDataChange(db, { source: 'rollup', from: new Date(changedFrom), to });
  await syncDataVersion(db);
  await pruneDataChanges(db, new Date(now.getTime() - 24 * HOUR));
  return { from, to, hourBuckets, dayBuckets, upgradedDays };
}

/** The (workload, endpoint) pairs per bucket of `sizeMs` (an hour) holding one of the dirty 10-minute buckets, sorted. */
function groupBuckets(dirty: readonly DirtyEndpointBucket[], sizeMs: number): Map<number, Array<{ workloadId: number; endpointId: number }>> {
  const out = new Map<number, Map<string, { workloadId: number; endpointId: number }>>();
  for (const d of dirty) {
    const start = Math.floor(d.startMs / sizeMs) * sizeMs;
    const pairs = out.get(start) ?? new Map<string, { workloadId: number; endpointId: number }>();
    pairs.set(`${d.workloadId}|${d.endpointId}`, { workloadId: d.workloadId, endpointId: d.endpointId });
    out.set(start, pairs);
  }
  return new Map([...out].map(([k, v]) => [k, [...v.values()].sort((a, b) => a.workloadId - b.workloadId || a.endpointId - b.endpointId)]));
}

/**
 * Extends the window partials' coverage backwards over measurements older than it (an install that
 * had data before partials existed, decision 210): at most `maxDays` UTC days per run, newest first,
 * so a year of history is covered within a few hours of minutes without a long run.
 */
async function backfillWindowPartials(db: Db, now: Date, maxDays: number): Promise<{ from: Date } | null> {
  const coverage = await getPartialCoverage(db);
  if (!coverage) return null;
  const oldest = await getOldestUncoveredMeasurement(db);
  if (!oldest) {
    // Nothing older to build: the partials are complete back to the beginning of time, unless
    // rollups of older buckets exist whose raw rows are gone (retention) — those stay on rollups.
    if (coverage.fromMs > 0 && (await extendCoverageToOrigin(db))) return { from: new Date(0) };
    return null;
  }
  const to = new Date(coverage.fromMs);
  const from = new Date(Math.max(floorBucket(oldest, 'day').getTime(), floorBucket(new Date(coverage.fromMs - maxDays * 24 * HOUR), 'day').getTime()));
  if (from >= to) return null;
  await rebuildWindowPartials(db, { from, to, wallNow: new Date(now.getTime() - MEASUREMENT_WRITE_LAG_MS) });
  return { from };
}

/** Rebuilds (or re-keys) up to `maxDays` UTC days of rollups with an older sketch version, newest first; returns how many and the oldest day's start. */
async function upgradeStaleSketches(db: Db, maxDays: number): Promise<{ days: number; from: Date | null }> {
  let before: Date | null = null;
  let days = 0;
  for (; days < maxDays; days++) {
    const stale = await getNewestStaleSketchBucket(db, before);
    if (!stale) break;
    const from = floorBucket(stale, 'day');
    const to = new Date(from.getTime() + 24 * HOUR);
    await rebuildRollups(db, { granularity: 'hour', from, to });
    await rebuildRollups(db, { granularity: 'day', from, to });
    await rekeyStaleSketches(db, { from, to });
    before = from;
  }
  return { days, from: before };
}

/**
 * The descriptor (workers/task.ts): jobs role, every minute, policy singleton. After each run the
 * most-read answers are recomputed once (precompute-answers, decision 120; a queued one collapses).
 */
export const rollupMeasurementsTask = defineHousekeepingTask({
  task: 'rollup',
  description: 'Refresh hourly and daily rollups for buckets that received measurements since the last run.',
  queue: { name: QUEUES.rollupMeasurements, policy: 'singleton' },
  schedule: { cron: '* * * * *' },
  run: async (deps) => {
    const r = await runRollupJob(deps.db, deps.now());
    await deps.boss.send(QUEUES.precomputeAnswers, {});
    return { from: r.from.toISOString(), to: r.to.toISOString(), hourBuckets: r.hourBuckets, dayBuckets: r.dayBuckets, upgradedDays: r.upgradedDays };
  },
});
