/**
 * Task: rollup-measurements (every minute, its descriptor, workers/tasks/index.ts).
 * Recomputes from raw measurements the hourly buckets from the newest existing hourly rollup (or
 * the oldest measurement, on a fresh database) up to now, but never fewer than the last two hours,
 * and the daily buckets of the days those hours touch. Recomputing whole buckets (instead of adding
 * deltas) keeps the job idempotent: a late or duplicated run gives the same rows as a full rebuild
 * (`rebuildRollups` over any range). Starting from the newest rollup catches up after the worker
 * was down; a backlog is processed at most `maxHoursPerRun` hours per run, oldest first, so one run
 * stays short and the next continues where it stopped.
 *
 * Then it upgrades at most `maxStaleDaysPerRun` UTC days of rollups whose sketches predate the
 * current sketch version (decision 070), newest first: rebuilt from raw, or re-keyed where the raw
 * rows are gone. The window partials (decision 210) are rebuilt with the hourly buckets, and up to
 * `maxBackfillDaysPerRun` older days without partials are built. Every run ends by invalidating this process's window caches and sending
 * NOTIFY tokenpace_data_changed, so every other process drops its caches too (db/cache-invalidation).
 */
import type { Db } from '@/db/client';
import { floorBucket, getLatestRollupHour, getNewestStaleSketchBucket, getOldestMeasurementTime, rebuildRollups, rekeyStaleSketches } from '@/db/queries/rollups';
import { notifyDataChanged } from '@/db/cache-invalidation';
import { extendCoverageToOrigin, getOldestUncoveredMeasurement, getPartialCoverage, rebuildWindowPartials } from '@/db/queries/window-partials';
import { invalidateWindowCaches } from '@/db/window-stats';
import { QUEUES } from '@/lib/queues';
import type { JobsRoleTask } from '../task';

const HOUR = 3600_000;

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
  const hourBuckets = await rebuildRollups(db, { granularity: 'hour', from, to, wallNow: now });
  const dayBuckets = await rebuildRollups(db, { granularity: 'day', from, to });
  const upgradedDays = await upgradeStaleSketches(db, options.maxStaleDaysPerRun ?? 2);
  await backfillWindowPartials(db, now, options.maxBackfillDaysPerRun ?? 3);
  invalidateWindowCaches(db);
  // Every other process (web instances, other workers) drops its caches too (db/cache-invalidation).
  await notifyDataChanged(db, 'rollup');
  return { from, to, hourBuckets, dayBuckets, upgradedDays };
}

/**
 * Extends the window partials' coverage backwards over measurements older than it (an install that
 * had data before partials existed, decision 210): at most `maxDays` UTC days per run, newest first,
 * so a year of history is covered within a few hours of minutes without a long run.
 */
async function backfillWindowPartials(db: Db, now: Date, maxDays: number): Promise<void> {
  const coverage = await getPartialCoverage(db);
  if (!coverage) return;
  const oldest = await getOldestUncoveredMeasurement(db);
  if (!oldest) {
    // Nothing older to build: the partials are complete back to the beginning of time, unless
    // rollups of older buckets exist whose raw rows are gone (retention) — those stay on rollups.
    if (coverage.fromMs > 0) await extendCoverageToOrigin(db);
    return;
  }
  const to = new Date(coverage.fromMs);
  const from = new Date(Math.max(floorBucket(oldest, 'day').getTime(), floorBucket(new Date(coverage.fromMs - maxDays * 24 * HOUR), 'day').getTime()));
  if (from < to) await rebuildWindowPartials(db, { from, to, wallNow: now });
}

/** Rebuilds (or re-keys) up to `maxDays` UTC days of rollups with an older sketch version, newest first. */
async function upgradeStaleSketches(db: Db, maxDays: number): Promise<number> {
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
  return days;
}

/**
 * The descriptor (workers/task.ts): jobs role, every minute, policy singleton. After each run the
 * most-read answers are recomputed once (precompute-answers, decision 120; a queued one collapses).
 */
export const rollupMeasurementsTask: JobsRoleTask = {
  task: 'rollup',
  role: 'jobs',
  description: 'Refresh hourly and daily rollups for buckets that received measurements since the last run.',
  queue: () => QUEUES.rollupMeasurements,
  queueOptions: { policy: 'singleton' },
  schedule: { cron: () => '* * * * *', data: () => ({}) },
  timed: true,
  run: async (deps) => {
    const r = await runRollupJob(deps.db, deps.now());
    await deps.boss.send(QUEUES.precomputeAnswers, {});
    return { from: r.from.toISOString(), to: r.to.toISOString(), hourBuckets: r.hourBuckets, dayBuckets: r.dayBuckets, upgradedDays: r.upgradedDays };
  },
};
