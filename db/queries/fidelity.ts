import { and, eq, gt, gte, isNotNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { measurements } from '../schema';

/**
 * Judged fidelity checks per endpoint and UTC day in [from, to): n (checks with a verdict) and
 * passed. Feeds lib/fidelity/fidelity-summary findFidelityDrops.
 */
export async function listDailyFidelity(db: Db, p: { from: Date; to: Date }) {
  const day = sql<string>`to_char(${measurements.measuredAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  return db
    .select({
      endpointId: measurements.endpointId,
      day,
      n: sql<number>`count(*)::int`,
      passed: sql<number>`(count(*) filter (where ${measurements.fidelityPassed}))::int`,
    })
    .from(measurements)
    .where(and(isNotNull(measurements.fidelityPassed), gte(measurements.measuredAt, p.from), lt(measurements.measuredAt, p.to)))
    .groupBy(measurements.endpointId, day)
    .orderBy(measurements.endpointId, day);
}

/**
 * Judged fidelity checks per endpoint × workload in the window (from, to]: n and passed (the
 * leaderboard's `fidelity` figure, lib/fidelity/fidelity-summary summariseFidelity). With
 * `workloadId`, only that workload.
 */
export async function listWindowFidelity(db: Db, p: { from: Date; to: Date; workloadId?: number }) {
  const filters = [isNotNull(measurements.fidelityPassed), gt(measurements.measuredAt, p.from), lte(measurements.measuredAt, p.to)];
  if (p.workloadId !== undefined) filters.push(eq(measurements.workloadId, p.workloadId));
  return db
    .select({
      endpointId: measurements.endpointId,
      workloadId: measurements.workloadId,
      n: sql<number>`count(*)::int`,
      passed: sql<number>`(count(*) filter (where ${measurements.fidelityPassed}))::int`,
    })
    .from(measurements)
    .where(and(...filters))
    .groupBy(measurements.endpointId, measurements.workloadId);
}
