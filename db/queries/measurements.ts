import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, measurements, probeSlots } from '../schema';

export type NewMeasurement = typeof measurements.$inferInsert;

/**
 * Appends one measurement. Returns true when written, false when a measurement with the same
 * jobKey already exists (a retried or duplicated job never writes twice).
 */
export async function insertMeasurement(db: Db, row: NewMeasurement): Promise<boolean> {
  const inserted = await db
    .insert(measurements)
    .values(row)
    .onConflictDoNothing({ target: measurements.jobKey })
    .returning({ id: measurements.id });
  return inserted.length > 0;
}

/**
 * Claims a probe slot for a pg-boss job. Returns true when this job may run the probe: the slot
 * was free, or it is already held by the same pg-boss job (a retry). Another job for the same
 * slot gets false and must not probe.
 */
export async function claimProbeSlot(db: Db, params: { jobKey: string; bossJobId: string; workerId: string }): Promise<boolean> {
  const rows = await db
    .insert(probeSlots)
    .values(params)
    .onConflictDoUpdate({
      target: probeSlots.jobKey,
      set: { workerId: params.workerId, claimedAt: sql`now()` },
      setWhere: eq(probeSlots.bossJobId, params.bossJobId),
    })
    .returning({ jobKey: probeSlots.jobKey });
  return rows.length > 0;
}

/** Sets an endpoint's back-off instant (after a 429 with Retry-After). */
export async function setEndpointNotBefore(db: Db, endpointId: number, notBefore: Date): Promise<void> {
  await db.update(endpoints).set({ notBefore }).where(eq(endpoints.id, endpointId));
}

/** Public columns of a measurement (timeline decoded by the caller). */
export const measurementColumns = {
  id: measurements.id,
  endpointId: measurements.endpointId,
  workloadId: measurements.workloadId,
  measuredAt: measurements.measuredAt,
  workerRegion: measurements.workerRegion,
  workerVersion: measurements.workerVersion,
  outcome: measurements.outcome,
  errorKind: measurements.errorKind,
  errorMessage: measurements.errorMessage,
  httpStatus: measurements.httpStatus,
  ttfbMs: measurements.ttfbMs,
  ttftMs: measurements.ttftMs,
  ttfatMs: measurements.ttfatMs,
  e2eMs: measurements.e2eMs,
  outputTokensReported: measurements.outputTokensReported,
  outputTokensO200k: measurements.outputTokensO200k,
  outputTokensPerSecond: measurements.outputTokensPerSecond,
  outputTokensPerSecondO200k: measurements.outputTokensPerSecondO200k,
  tpotMs: measurements.tpotMs,
  contentChunks: measurements.contentChunks,
  finishReason: measurements.finishReason,
  promptHash: measurements.promptHash,
  flags: measurements.flags,
  valid: measurements.valid,
  invalidReason: measurements.invalidReason,
  timeline: measurements.timeline,
};

/**
 * Lists an endpoint's measurements newest first, `limit` per page, continuing below the cursor id
 * (`before`). Returns rows and the next cursor (null at the end).
 */
export async function listEndpointMeasurements(
  db: Db,
  params: { endpointId: number; limit: number; before?: number | null },
) {
  const where = params.before
    ? and(eq(measurements.endpointId, params.endpointId), lt(measurements.id, params.before))
    : eq(measurements.endpointId, params.endpointId);
  const rows = await db
    .select(measurementColumns)
    .from(measurements)
    .where(where)
    .orderBy(desc(measurements.id))
    .limit(params.limit + 1);
  const hasMore = rows.length > params.limit;
  const page = hasMore ? rows.slice(0, params.limit) : rows;
  return { rows: page, nextCursor: hasMore ? page[page.length - 1]!.id : null };
}

/** One measurement by id, or null. */
export async function getMeasurement(db: Db, id: number) {
  const rows = await db.select(measurementColumns).from(measurements).where(eq(measurements.id, id)).limit(1);
  return rows[0] ?? null;
}
