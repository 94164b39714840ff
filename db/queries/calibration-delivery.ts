/**
 * Calibration measurements with the reference server's delivery report (decision 182): one
 * question, one function. The figures are composed by lib/reference-server summarizeCalibrationSplit.
 */
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { endpoints, measurements } from '@/db/schema';
import type { DeliveredEvidence } from '@/lib/reference-server/delivery-report';

/** One successful calibration measurement of `endpointId` in [from, to]: measured figures and what was delivered. */
export interface CalibrationDeliveryRow {
  tps: number | null;
  ttftMs: number | null;
  rankable: boolean;
  delivered: DeliveredEvidence | null;
}

/** Successful measurements of a calibration endpoint in [from, to], at most `limit` (newest first). */
export async function listCalibrationDeliveries(db: Db, p: { endpointId: number; from: Date; to: Date; limit: number }): Promise<CalibrationDeliveryRow[]> {
  const rows = await db
    .select({
      tps: measurements.outputTokensPerSecond,
      ttftMs: measurements.ttftMs,
      rankable: measurements.rankable,
      delivered: sql<DeliveredEvidence | null>`${measurements.evidence} -> 'delivered'`,
    })
    .from(measurements)
    .innerJoin(endpoints, eq(endpoints.id, measurements.endpointId))
    .where(
      and(
        eq(measurements.endpointId, p.endpointId),
        eq(endpoints.isCalibration, true),
        eq(measurements.outcome, 'success'),
        gte(measurements.measuredAt, p.from),
        lte(measurements.measuredAt, p.to),
      ),
    )
    .orderBy(sql`${measurements.measuredAt} desc`)
    .limit(p.limit);
  return rows;
}
