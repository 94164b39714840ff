import { notRankableReasonsSql, rankableSql } from './disputes';
import { and, asc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { revisionInForceSql } from './disclosure-revisions';
import { endpoints, measurementJobKeys, measurements, probeSlots, workloads } from '../schema';
import type { PublishedMeasurement } from '@/lib/api/publish-measurement';

export type NewMeasurement = typeof measurements.$inferInsert;

/** The constraint name a duplicate job key is refused with (migration 0024's trigger, decision 217). */
export const JOB_KEY_CONSTRAINT = 'measurements_job_key_unique';

/**
 * Appends one measurement. Returns true when written, false when a measurement with the same
 * jobKey already exists (a retried or duplicated job never writes twice). The key is unique across
 * every monthly partition through measurement_job_keys (decision 217): a key seen there is not
 * written; two writers of one key racing each other get one row, the second's unique violation
 * being read as "already written".
 */
export async function insertMeasurement(db: Db, row: NewMeasurement): Promise<boolean> {
  const seen = await db
    .select({ one: sql<number>`1` })
    .from(measurementJobKeys)
    .where(eq(measurementJobKeys.jobKey, row.jobKey))
    .limit(1);
  if (seen.length > 0) return false;
  try {
    const inserted = await db
      .insert(measurements)
      // The disclosure in force when the result is stored (decision 178), unless the caller names one.
      .values({ disclosureRevisionId: revisionInForceSql(row.endpointId), ...row })
      .returning({ id: measurements.id });
    return inserted.length > 0;
  } catch (err) {
    if (isJobKeyViolation(err)) return false;
    throw err;
  }
}

/** Whether `err` (or its cause, as drizzle wraps driver errors) is the duplicate-job-key refusal. */
export function isJobKeyViolation(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++, e = (e as { cause?: unknown }).cause) {
    const pg = e as { code?: unknown; constraint_name?: unknown };
    if (pg.code === '23505' && pg.constraint_name === JOB_KEY_CONSTRAINT) return true;
  }
  return false;
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

/**
 * Public columns of a measurement, with its workload's slug (timeline bytes decoded by the caller):
 * exactly the fields of the published record (lib/api/response-schemas measurementSchema, the one
 * definition the API schema, the CSV and the dump columns come from), in its order, which the
 * compiler checks both ways (`satisfies`: none missing, none extra) and
 * app/api/v1/measurement-columns.test.ts checks for order. `measuredAtMicros` is added after: measured_at
 * in µs since the epoch as text, the exact keyset position (JavaScript Dates hold only
 * milliseconds), dropped by publishMeasurement.
 */
const publishedColumns = {
  id: measurements.id,
  endpointId: measurements.endpointId,
  workloadId: measurements.workloadId,
  workload: workloads.slug,
  measuredAt: measurements.measuredAt,
  workerRegion: measurements.workerRegion,
  workerVersion: measurements.workerVersion,
  outcome: measurements.outcome,
  errorKind: measurements.errorKind,
  errorMessage: measurements.errorMessage,
  httpStatus: measurements.httpStatus,
  retryAfterMs: measurements.retryAfterMs,
  connectMs: measurements.connectMs,
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
  evidence: measurements.evidence,
  valid: measurements.valid,
  invalidReason: measurements.invalidReason,
  eventLoopDelayP99Ms: measurements.eventLoopDelayP99Ms,
  ttftBoundMs: measurements.ttftBoundMs,
  e2eBoundMs: measurements.e2eBoundMs,
  speedBoundPct: measurements.speedBoundPct,
  // accepted, excluding disputes applied (decision 232): the API says what the figures used
  rankable: sql<boolean>`${rankableSql('measurements')}`,
  notRankableReasons: sql<string[]>`${notRankableReasonsSql('measurements')}`,
  itlP50Ms: measurements.itlP50Ms,
  itlP95Ms: measurements.itlP95Ms,
  fidelityCheck: sql<'arithmetic' | 'code_output' | 'json_schema' | 'nonce_recall' | null>`${measurements.fidelityCheck}`,
  fidelityPassed: measurements.fidelityPassed,
  fidelityDetail: measurements.fidelityDetail,
  answerText: measurements.answerText,
  reasoningTokensHidden: measurements.reasoningTokensHidden,
  cachedInputTokens: measurements.cachedInputTokens,
  cacheWriteInputTokens: measurements.cacheWriteInputTokens,
  inputTokensReported: measurements.inputTokensReported,
  tierObjectiveMet: measurements.tierObjectiveMet,
  disclosureRevisionId: measurements.disclosureRevisionId,
} satisfies Record<Exclude<keyof PublishedMeasurement, 'timeline'>, unknown>;
const measurementColumns = {
  ...publishedColumns,
  measuredAtMicros: sql<string>`(extract(epoch from ${measurements.measuredAt}) * 1000000)::bigint::text`,
};

/** measurementColumns plus the encoded timeline bytes. */
const measurementWithTimelineColumns = { ...measurementColumns, timeline: measurements.timeline };
const noTimeline = { ...measurementColumns, timeline: sql<Buffer | null>`null::bytea` };

/** Keyset position of a measurement in (measured_at, id) order. */
export interface MeasurementCursor {
  measuredAtMicros: string;
  id: number;
}

/** Filters of a measurement list; `since` inclusive, `until` inclusive (as a leaderboard window). */
interface MeasurementFilter {
  endpointId?: number;
  workloadId?: number;
  since?: Date | null;
  until?: Date | null;
  /** exclusive upper bound (dumps: [from, until)) */
  before?: Date | null;
  outcome?: 'success' | 'error';
}

const atMicros = (micros: string) => sql`(timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond')`;

function filterWhere(f: MeasurementFilter) {
  const parts = [];
  if (f.endpointId !== undefined) parts.push(eq(measurements.endpointId, f.endpointId));
  if (f.workloadId !== undefined) parts.push(eq(measurements.workloadId, f.workloadId));
  if (f.since) parts.push(gte(measurements.measuredAt, f.since));
  if (f.until) parts.push(lte(measurements.measuredAt, f.until));
  if (f.before) parts.push(lt(measurements.measuredAt, f.before));
  if (f.outcome) parts.push(eq(measurements.outcome, f.outcome));
  return parts;
}

/**
 * One page of measurements matching `filter`, in a stable keyset order: (measured_at, id)
 * descending (newest first) or ascending, continuing after `cursor`. Reads limit + 1 rows to know
 * whether another page follows; `nextCursor` is the last row's position, null at the end. With
 * `withTimeline` the encoded timeline bytes are included. Uses measurements_endpoint_time_idx.
 */
export async function listMeasurements(
  db: Db,
  params: { filter: MeasurementFilter; limit: number; cursor?: MeasurementCursor | null; order?: 'desc' | 'asc'; withTimeline?: boolean },
) {
  const desc = (params.order ?? 'desc') === 'desc';
  const where = filterWhere(params.filter);
  if (params.cursor) {
    const pos = sql`(${measurements.measuredAt}, ${measurements.id})`;
    const at = sql`(${atMicros(params.cursor.measuredAtMicros)}, ${params.cursor.id}::bigint)`;
    where.push(desc ? sql`${pos} < ${at}` : sql`${pos} > ${at}`);
  }
  const rows = await db
    .select(params.withTimeline ? measurementWithTimelineColumns : noTimeline)
    .from(measurements)
    .innerJoin(workloads, eq(workloads.id, measurements.workloadId))
    .where(and(...where))
    .orderBy(...(desc ? [sql`${measurements.measuredAt} desc`, sql`${measurements.id} desc`] : [asc(measurements.measuredAt), asc(measurements.id)]))
    .limit(params.limit + 1);
  const hasMore = rows.length > params.limit;
  const page = hasMore ? rows.slice(0, params.limit) : rows;
  const last = page[page.length - 1];
  return { rows: page, nextCursor: hasMore && last ? { measuredAtMicros: last.measuredAtMicros, id: last.id } : null };
}

/** One measurement by id with its timeline bytes, or null. */
export async function getMeasurement(db: Db, id: number) {
  const rows = await db
    .select(measurementWithTimelineColumns)
    .from(measurements)
    .innerJoin(workloads, eq(workloads.id, measurements.workloadId))
    .where(eq(measurements.id, id))
    .limit(1);
  return rows[0] ?? null;
}

/** How many of an endpoint's latest measurements the repeated-answer rule looks at. */
export const REPEATED_ANSWER_LOOKBACK = 200;

/**
 * Whether one of the endpoint's latest REPEATED_ANSWER_LOOKBACK measurements (within 7 days before
 * `before`) carries the same answer key (`evidence.answerSha256`, lib/probe/plausible-output
 * hashAnswerText) for a different prompt (prompt_hash): the `repeated_answer` rule (decision 171).
 * Bounded: reads at most the lookback rows through measurements_endpoint_time_idx.
 */
export async function hasRepeatedAnswer(db: Db, p: { endpointId: number; answerSha256: string; promptHash: string; before: Date }): Promise<boolean> {
  const since = new Date(p.before.getTime() - 7 * 86_400_000);
  const recent = db
    .select({ answer: sql<string | null>`${measurements.evidence}->>'answerSha256'`.as('answer'), promptHash: measurements.promptHash })
    .from(measurements)
    .where(and(eq(measurements.endpointId, p.endpointId), gte(measurements.measuredAt, since), lte(measurements.measuredAt, p.before)))
    .orderBy(sql`${measurements.measuredAt} desc`)
    .limit(REPEATED_ANSWER_LOOKBACK)
    .as('recent');
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(recent)
    .where(and(eq(recent.answer, p.answerSha256), sql`${recent.promptHash} is distinct from ${p.promptHash}`))
    .limit(1);
  return rows.length > 0;
}

/**
 * The latest measurement of one endpoint × workload × region measured at or after `since`, for the
 * cache-lifetime series (decision 268: a check reads its predecessor's outcome, time and the
 * series' evidence); null when there is none.
 */
export async function getLatestSeriesMeasurement(
  db: Db,
  p: { endpointId: number; workloadId: number; region: string; since: Date },
): Promise<{ outcome: string; measuredAt: Date; evidence: unknown } | null> {
  const [row] = await db
    .select({ outcome: measurements.outcome, measuredAt: measurements.measuredAt, evidence: measurements.evidence })
    .from(measurements)
    .where(
      and(
        eq(measurements.endpointId, p.endpointId),
        eq(measurements.workloadId, p.workloadId),
        eq(measurements.workerRegion, p.region),
        gte(measurements.measuredAt, p.since),
      ),
    )
    .orderBy(sql`${measurements.measuredAt} desc`)
    .limit(1);
  return row ?? null;
}
