import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { rebuildRollups } from '../queries/rollups';

const HOUR = 3_600_000;

/**
 * Rolls up every stored measurement as the rollup job does (workers/tasks/rollup-measurements):
 * hourly buckets with their window partials up to `wallNow`, then daily buckets, over the whole
 * span of measured times (from the first measurement's hour to an hour past the last). Tests use
 * it instead of rebuilding one granularity around `Date.now()`: a window read later may be planned
 * on day buckets (past midnight UTC) or on an earlier hour (a run that crossed the hour), so a test
 * that rebuilt only "this hour's" buckets passed or failed by the time of day it ran.
 * Returns the hourly and daily buckets written; none when nothing is stored.
 */
export async function rollUpStoredMeasurements(db: Db, wallNow: Date): Promise<{ hourBuckets: number; dayBuckets: number }> {
  const rows = (await db.execute(sql`select min(measured_at) as first, max(measured_at) as last from measurements`)) as unknown as Array<{
    first: string | Date | null;
    last: string | Date | null;
  }>;
  const first = rows[0]?.first;
  const last = rows[0]?.last;
  if (!first || !last) return { hourBuckets: 0, dayBuckets: 0 };
  const from = new Date(first);
  const to = new Date(new Date(last).getTime() + HOUR);
  const hourBuckets = await rebuildRollups(db, { granularity: 'hour', from, to, wallNow });
  const dayBuckets = await rebuildRollups(db, { granularity: 'day', from, to });
  return { hourBuckets, dayBuckets };
}
