/**
 * Questions the endpoint, compare and provider pages ask of raw measurements and the catalog.
 * Window figures (percentiles, counts) are NOT computed here: they come from the window engine
 * through the leaderboard answers (app/_components/endpoint-window, decision 070).
 */
import { rankableSql } from './disputes';
import { and, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, measurementRollups, measurements, models, providers, workloads } from '../schema';
import { measurementWindow } from './window-filters';
import { providerColumns } from './endpoint-columns';

/** Measurements that enter the figures: rankable (successful, valid, nothing contradicting; decision 060). */
const ok = sql`${measurements.outcome} = 'success' and ${measurements.valid} and ${rankableSql('measurements')}`;

/**
 * Output speeds (tokens/s, on the boards' default o200k basis, decision 175) and TTFTs (ms) of an
 * endpoint's rankable probes for one workload in [from, to] (the leaderboard's window bounds),
 * newest first, at most `limit` each: the samples behind the histograms.
 */
export async function listEndpointSamples(
  db: Db,
  p: { endpointId: number; workloadSlug: string; from: Date; to: Date; limit: number },
): Promise<{ outputTokensPerSecond: number[]; ttftMs: number[] }> {
  const rows = await db
    .select({ speed: measurements.outputTokensPerSecondO200k, ttft: measurements.ttftMs })
    .from(measurements)
    .innerJoin(workloads, eq(workloads.id, measurements.workloadId))
    .where(and(...measurementWindow(p), ok))
    .orderBy(desc(measurements.measuredAt))
    .limit(p.limit);
  return {
    outputTokensPerSecond: rows.map((r) => r.speed).filter((v): v is number => v !== null),
    ttftMs: rows.map((r) => r.ttft).filter((v): v is number => v !== null),
  };
}

/** A measurement as the evidence viewer lists it (no timeline bytes). */
export interface EvidenceListItem {
  id: number;
  measuredAt: Date;
  workloadSlug: string;
  outcome: 'success' | 'error';
  errorKind: string | null;
  valid: boolean;
  ttftMs: number | null;
  e2eMs: number | null;
  outputTokensPerSecond: number | null;
  outputTokensReported: number | null;
  outputTokensO200k: number | null;
  contentChunks: number;
  workerRegion: string;
  /** error bound (decision 180): TTFT may be this much too high, ms; speed off by this much, %; null unknown */
  ttftBoundMs: number | null;
  speedBoundPct: number | null;
  rankable: boolean;
  notRankableReasons: string[];
  hasTimeline: boolean;
}

/** The columns of a measurement in a list (workloads joined): when, what, outcome and figures. */
const measurementListColumns = {
  id: measurements.id,
  measuredAt: measurements.measuredAt,
  workloadSlug: workloads.slug,
  outcome: measurements.outcome,
  errorKind: measurements.errorKind,
  valid: measurements.valid,
  ttftMs: measurements.ttftMs,
  e2eMs: measurements.e2eMs,
  outputTokensPerSecond: measurements.outputTokensPerSecond,
  outputTokensReported: measurements.outputTokensReported,
  outputTokensO200k: measurements.outputTokensO200k,
  contentChunks: measurements.contentChunks,
  workerRegion: measurements.workerRegion,
  ttftBoundMs: measurements.ttftBoundMs,
  speedBoundPct: measurements.speedBoundPct,
  rankable: measurements.rankable,
  notRankableReasons: measurements.notRankableReasons,
};

/**
 * An endpoint's newest measurements (all workloads unless one is given), newest first, without
 * timeline bytes, with whether a timeline is stored.
 */
export async function listEndpointRecentMeasurements(
  db: Db,
  p: { endpointId: number; workloadSlug?: string | null; limit: number },
): Promise<EvidenceListItem[]> {
  const rows = await db
    .select({
      ...measurementListColumns,
      hasTimeline: sql<boolean>`${measurements.timeline} is not null`,
    })
    .from(measurements)
    .innerJoin(workloads, eq(workloads.id, measurements.workloadId))
    .where(and(eq(measurements.endpointId, p.endpointId), ...(p.workloadSlug ? [eq(workloads.slug, p.workloadSlug)] : [])))
    .orderBy(desc(measurements.id))
    .limit(p.limit);
  return rows.map((r) => ({ ...r, hasTimeline: Boolean(r.hasTimeline) }));
}

/**
 * One measurement of one endpoint with its encoded timeline, or null when it does not exist or
 * belongs to another endpoint. When `measurementId` is null: the endpoint's newest measurement
 * that has a timeline.
 */
export async function getEndpointEvidence(db: Db, p: { endpointId: number; measurementId: number | null }) {
  const rows = await db
    .select({
      ...measurementListColumns,
      errorMessage: measurements.errorMessage,
      ttfbMs: measurements.ttfbMs,
      ttfatMs: measurements.ttfatMs,
      e2eBoundMs: measurements.e2eBoundMs,
      evidenceJson: measurements.evidence,
      timeline: measurements.timeline,
    })
    .from(measurements)
    .innerJoin(workloads, eq(workloads.id, measurements.workloadId))
    .where(
      p.measurementId === null
        ? and(eq(measurements.endpointId, p.endpointId), sql`${measurements.timeline} is not null`)
        : and(eq(measurements.endpointId, p.endpointId), eq(measurements.id, p.measurementId)),
    )
    .orderBy(desc(measurements.id))
    .limit(1);
  return rows[0] ?? null;
}

/** One provider by slug with its public endpoint count, or null. */
export async function getProviderBySlug(db: Db, slug: string) {
  const rows = await db
    .select({
      ...providerColumns,
      createdAt: providers.createdAt,
    })
    .from(providers)
    .where(eq(providers.slug, slug))
    .limit(1);
  return rows[0] ?? null;
}

/** Public endpoints created in [from, to], newest first (feed: "new endpoint"). */
export async function listEndpointsCreatedBetween(db: Db, p: { from: Date; to: Date }) {
  return db
    .select({
      id: endpoints.id,
      slug: endpoints.slug,
      provider: providers.name,
      model: models.name,
      modelSlug: models.slug,
      hardware: endpoints.hardware,
      engine: endpoints.engine,
      createdAt: endpoints.createdAt,
    })
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(and(gte(endpoints.createdAt, p.from), lte(endpoints.createdAt, p.to), inArray(endpoints.status, ['active', 'inactive', 'paused', 'retired'])))
    .orderBy(desc(endpoints.createdAt));
}

/**
 * Public endpoints whose first measured hour (hourly rollups: small, unlike raw measurements) lies
 * in [from, to]: the hour they joined the measured board (feed: "joins"). Status and creation
 * time come along so the feed can tell a new listing from a catalog endpoint whose key was just set.
 */
export async function listEndpointsFirstMeasuredBetween(db: Db, p: { from: Date; to: Date }) {
  const first = db
    .select({
      endpointId: measurementRollups.endpointId,
      firstHour: sql<string>`to_char(min(${measurementRollups.bucketStart}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`.as('first_hour'),
    })
    .from(measurementRollups)
    .where(eq(measurementRollups.granularity, 'hour'))
    .groupBy(measurementRollups.endpointId)
    .having(sql`min(${measurementRollups.bucketStart}) between ${p.from.toISOString()}::timestamptz and ${p.to.toISOString()}::timestamptz`)
    .as('first');
  const rows = await db
    .select({
      id: endpoints.id,
      slug: endpoints.slug,
      provider: providers.name,
      model: models.name,
      createdAt: endpoints.createdAt,
      firstHour: first.firstHour,
    })
    .from(first)
    .innerJoin(endpoints, eq(endpoints.id, first.endpointId))
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(inArray(endpoints.status, ['active', 'inactive', 'paused', 'retired']));
  return rows.map((r) => ({ ...r, firstHour: new Date(r.firstHour) }));
}

/** Endpoints retired in [from, to] (feed: "leaves"), newest first. They stay listed with their history. */
export async function listEndpointsRetiredBetween(db: Db, p: { from: Date; to: Date }) {
  return db
    .select({ id: endpoints.id, slug: endpoints.slug, provider: providers.name, model: models.name, retiredAt: endpoints.retiredAt })
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(and(eq(endpoints.status, 'retired'), gte(endpoints.retiredAt, p.from), lte(endpoints.retiredAt, p.to)))
    .orderBy(desc(endpoints.retiredAt));
}
