/**
 * Concurrency sweeps (issue 15): consent settings, requests, the worker's claim and writes, and the
 * reads behind the API and the Pareto pages. One function per question; SQL only — the figures
 * themselves come from lib/sweep.
 */
import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { checkSweepConsent, type SweepConsentVerdict, type SweepRefusal } from '@/lib/sweep/sweep-consent';
import type { SweepPlan } from '@/lib/sweep/sweep-view';
import { endpointSubmissions, endpoints, models, providers, sweepLevels, sweepSettings, sweepStreams, sweeps, workloads } from '../schema';

export type SweepRow = typeof sweeps.$inferSelect;
export type SweepLevelRow = typeof sweepLevels.$inferSelect;
export type SweepSettingsRow = typeof sweepSettings.$inferSelect;
export type NewSweepLevel = Omit<typeof sweepLevels.$inferInsert, 'id' | 'sweepId'>;
export type NewSweepStream = Omit<typeof sweepStreams.$inferInsert, 'id' | 'sweepId' | 'sweepLevelId'>;

/** An endpoint's sweep consent and limits; null when never set (= no consent). */
export async function getSweepSettings(db: Db, endpointId: number): Promise<SweepSettingsRow | null> {
  const [row] = await db.select().from(sweepSettings).where(eq(sweepSettings.endpointId, endpointId)).limit(1);
  return row ?? null;
}

/**
 * Sets an endpoint's consent and limits (its owner or an admin; the caller checks who). Enabling
 * records who consented and when; disabling keeps the last consent for the record. With
 * `adminConsent` (the caller is an admin) the limits are also the admin's consent, recorded with
 * who, when and the endpoint's URL now; an owner's change keeps the last admin consent, which then
 * covers the new limits only if they are within it (lib/sweep/sweep-consent).
 */
export async function upsertSweepSettings(
  db: Db,
  p: {
    endpointId: number;
    enabled: boolean;
    maxConcurrency: number;
    durationMs: number;
    maxLevels?: number;
    userId: string;
    now: Date;
    adminConsent?: boolean;
  },
): Promise<SweepSettingsRow> {
  const maxLevels = p.maxLevels ?? 9;
  const consent = p.enabled ? { consentedByUserId: p.userId, consentedAt: p.now } : {};
  let approval = {};
  if (p.adminConsent && p.enabled) {
    const [ep] = await db.select({ baseUrl: endpoints.baseUrl }).from(endpoints).where(eq(endpoints.id, p.endpointId)).limit(1);
    approval = {
      approvedByUserId: p.userId,
      approvedAt: p.now,
      approvedMaxConcurrency: p.maxConcurrency,
      approvedDurationMs: p.durationMs,
      approvedMaxLevels: maxLevels,
      approvedBaseUrl: ep?.baseUrl ?? null,
    };
  }
  const [row] = await db
    .insert(sweepSettings)
    .values({
      endpointId: p.endpointId,
      enabled: p.enabled,
      maxConcurrency: p.maxConcurrency,
      durationMs: p.durationMs,
      maxLevels,
      updatedAt: p.now,
      ...consent,
      ...approval,
    })
    .onConflictDoUpdate({
      target: sweepSettings.endpointId,
      set: { enabled: p.enabled, maxConcurrency: p.maxConcurrency, durationMs: p.durationMs, maxLevels, updatedAt: p.now, ...consent, ...approval },
    })
    .returning();
  return row!;
}

/**
 * The consent verdict for endpoint `endpointId` now (lib/sweep/sweep-consent: approved endpoint,
 * owner's consent, admin's consent for the current URL, and `plan` within the limits when given).
 * `tx` may be a transaction that locked the settings row.
 */
export async function getSweepConsentVerdict(
  db: Pick<Db, 'select'>,
  endpointId: number,
  plan?: { concurrencyLevels: readonly number[]; durationMs: number },
  lock = false,
): Promise<SweepConsentVerdict> {
  const [endpoint] = await db.select({ status: endpoints.status, baseUrl: endpoints.baseUrl }).from(endpoints).where(eq(endpoints.id, endpointId)).limit(1);
  if (!endpoint) return { ok: false, reason: 'endpoint_not_approved', message: 'the endpoint is gone' };
  const q = db.select().from(sweepSettings).where(eq(sweepSettings.endpointId, endpointId)).limit(1);
  const [settings] = lock ? await q.for('update') : await q;
  return checkSweepConsent(endpoint, settings ?? null, plan);
}

/** What a sweep request asks for (already checked against the endpoint's limits by lib/sweep). */
export interface NewSweepRequest extends SweepPlan {
  endpointId: number;
  requestedByUserId: string | null;
  now: Date;
}

/**
 * Queues a sweep, in one transaction: only when the consent verdict holds for this plan (the
 * settings row locked while inserting, so a concurrent withdrawal wins or waits), and only when no
 * sweep of the endpoint is queued or running (partial unique index). Returns the new row, or why not.
 */
export async function insertSweepRequest(
  db: Db,
  p: NewSweepRequest,
): Promise<{ ok: true; sweep: SweepRow } | { ok: false; reason: SweepRefusal | 'already_active'; message?: string; activeSweepId?: number }> {
  return db.transaction(async (tx) => {
    const verdict = await getSweepConsentVerdict(tx, p.endpointId, p, true);
    if (!verdict.ok) return { ok: false as const, reason: verdict.reason, message: verdict.message };
    const [endpoint] = await tx.select({ gpuCount: endpoints.gpuCount }).from(endpoints).where(eq(endpoints.id, p.endpointId)).limit(1);
    const inserted = await tx
      .insert(sweeps)
      .values({
        endpointId: p.endpointId,
        requestedByUserId: p.requestedByUserId,
        requestedAt: p.now,
        concurrencyLevels: p.concurrencyLevels,
        durationMs: p.durationMs,
        warmUpMs: p.warmUpMs,
        maxOutputTokens: p.maxOutputTokens,
        objectiveTtftMs: p.objectiveTtftMs,
        objectiveTpotMs: p.objectiveTpotMs,
        minSuccessRate: p.minSuccessRate,
        gpuCount: endpoint?.gpuCount ?? null,
      })
      .onConflictDoNothing({ target: sweeps.endpointId, where: sql`status IN ('queued', 'running')` })
      .returning();
    if (inserted[0]) return { ok: true as const, sweep: inserted[0] };
    const [active] = await tx
      .select({ id: sweeps.id })
      .from(sweeps)
      .where(and(eq(sweeps.endpointId, p.endpointId), inArray(sweeps.status, ['queued', 'running'])))
      .limit(1);
    return { ok: false as const, reason: 'already_active' as const, activeSweepId: active?.id };
  });
}

/**
 * The worker's claim: queued → running, only if the consent verdict still holds for the sweep's
 * plan at this moment. Returns the sweep, or null when it is not queued any more (another worker
 * has it, it was cancelled) or the verdict no longer holds (the sweep is then marked cancelled,
 * with the reason).
 */
export async function claimSweep(db: Db, p: { sweepId: number; workerRegion: string; workerVersion: string; now: Date }): Promise<SweepRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(sweeps).where(eq(sweeps.id, p.sweepId)).for('update').limit(1);
    if (!row || row.status !== 'queued') return null;
    const verdict = await getSweepConsentVerdict(tx, row.endpointId, row);
    if (!verdict.ok) {
      const why = verdict.reason === 'no_owner_consent' ? 'consent withdrawn before the sweep started' : `refused before the sweep started: ${verdict.message}`;
      await tx.update(sweeps).set({ status: 'cancelled', finishedAt: p.now, errorMessage: why }).where(eq(sweeps.id, p.sweepId));
      return null;
    }
    const [claimed] = await tx
      .update(sweeps)
      .set({ status: 'running', startedAt: p.now, workerRegion: p.workerRegion, workerVersion: p.workerVersion })
      .where(eq(sweeps.id, p.sweepId))
      .returning();
    return claimed ?? null;
  });
}

/** Live progress of a running sweep. */
export async function updateSweepProgress(db: Db, p: { sweepId: number; currentConcurrency: number; streamsDone: number }): Promise<void> {
  await db.update(sweeps).set({ currentConcurrency: p.currentConcurrency, streamsDone: p.streamsDone }).where(eq(sweeps.id, p.sweepId));
}

/**
 * Stores one finished level and all its streams (evidence) in one transaction. Re-running the
 * same level (a retried job) replaces nothing: the unique (sweep, level) key makes it a no-op.
 * Returns the level id, or null when it was already stored.
 */
export async function insertSweepLevel(db: Db, p: { sweepId: number; level: NewSweepLevel; streams: NewSweepStream[] }): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [level] = await tx
      .insert(sweepLevels)
      .values({ ...p.level, sweepId: p.sweepId })
      .onConflictDoNothing({ target: [sweepLevels.sweepId, sweepLevels.levelIndex] })
      .returning({ id: sweepLevels.id });
    if (!level) return null;
    for (let i = 0; i < p.streams.length; i += 500) {
      const batch = p.streams.slice(i, i + 500).map((s) => ({ ...s, sweepId: p.sweepId, sweepLevelId: level.id }));
      if (batch.length) await tx.insert(sweepStreams).values(batch);
    }
    return level.id;
  });
}

/** Ends a sweep (completed, stopped with a reason, failed or cancelled). */
export async function finishSweep(
  db: Db,
  p: {
    sweepId: number;
    status: 'completed' | 'stopped' | 'failed' | 'cancelled';
    stopReason: string | null;
    stoppedAtConcurrency: number | null;
    errorMessage: string | null;
    now: Date;
  },
): Promise<void> {
  await db
    .update(sweeps)
    .set({
      status: p.status,
      stopReason: p.stopReason,
      stoppedAtConcurrency: p.stoppedAtConcurrency,
      errorMessage: p.errorMessage,
      finishedAt: p.now,
      currentConcurrency: null,
    })
    .where(eq(sweeps.id, p.sweepId));
}

/** Public columns of a sweep, with its endpoint, provider and model names. */
const sweepColumns = {
  id: sweeps.id,
  endpointId: sweeps.endpointId,
  endpointSlug: endpoints.slug,
  provider: providers.name,
  model: models.name,
  modelSlug: models.slug,
  status: sweeps.status,
  requestedAt: sweeps.requestedAt,
  startedAt: sweeps.startedAt,
  finishedAt: sweeps.finishedAt,
  concurrencyLevels: sweeps.concurrencyLevels,
  durationMs: sweeps.durationMs,
  warmUpMs: sweeps.warmUpMs,
  maxOutputTokens: sweeps.maxOutputTokens,
  objectiveTtftMs: sweeps.objectiveTtftMs,
  objectiveTpotMs: sweeps.objectiveTpotMs,
  minSuccessRate: sweeps.minSuccessRate,
  gpuCount: sweeps.gpuCount,
  stopReason: sweeps.stopReason,
  stoppedAtConcurrency: sweeps.stoppedAtConcurrency,
  errorMessage: sweeps.errorMessage,
  currentConcurrency: sweeps.currentConcurrency,
  streamsDone: sweeps.streamsDone,
  workerRegion: sweeps.workerRegion,
  workerVersion: sweeps.workerVersion,
};

/** Public columns of a level. */
const levelColumns = {
  sweepId: sweepLevels.sweepId,
  levelIndex: sweepLevels.levelIndex,
  concurrency: sweepLevels.concurrency,
  requests: sweepLevels.requests,
  successes: sweepLevels.successes,
  errorKinds: sweepLevels.errorKinds,
  outputTokensPerSecond: sweepLevels.outputTokensPerSecond,
  ttftMs: sweepLevels.ttftMs,
  tpotMs: sweepLevels.tpotMs,
  aggregateOutputTokensPerSecond: sweepLevels.aggregateOutputTokensPerSecond,
  completedRequestsPerSecond: sweepLevels.completedRequestsPerSecond,
  goodputRequestsPerSecond: sweepLevels.goodputRequestsPerSecond,
  windowStartedAt: sweepLevels.windowStartedAt,
  windowDurationMs: sweepLevels.windowDurationMs,
  streams: sweepLevels.streams,
  eventLoopDelayP99Ms: sweepLevels.eventLoopDelayP99Ms,
  valid: sweepLevels.valid,
  stopReason: sweepLevels.stopReason,
};

export type SweepSummaryRow = Awaited<ReturnType<typeof listEndpointSweeps>>[number];
export type SweepLevelPublicRow = Awaited<ReturnType<typeof listSweepLevels>>[number];

/** Sweeps of one endpoint, newest first (listed endpoints only). */
export async function listEndpointSweeps(db: Db, p: { endpointId: number; limit: number }) {
  return db
    .select(sweepColumns)
    .from(sweeps)
    .innerJoin(endpoints, eq(endpoints.id, sweeps.endpointId))
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(eq(sweeps.endpointId, p.endpointId))
    .orderBy(desc(sweeps.requestedAt), desc(sweeps.id))
    .limit(p.limit);
}

/** One sweep with its endpoint names; null when unknown. */
export async function getSweep(db: Db, sweepId: number) {
  const [row] = await db
    .select(sweepColumns)
    .from(sweeps)
    .innerJoin(endpoints, eq(endpoints.id, sweeps.endpointId))
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(eq(sweeps.id, sweepId))
    .limit(1);
  return row ?? null;
}

/** Levels of the given sweeps, in run order. */
export async function listSweepLevels(db: Db, sweepIds: number[]) {
  if (sweepIds.length === 0) return [];
  return db.select(levelColumns).from(sweepLevels).where(inArray(sweepLevels.sweepId, sweepIds)).orderBy(asc(sweepLevels.sweepId), asc(sweepLevels.levelIndex));
}

/**
 * The latest sweep with levels (completed or stopped) of every endpoint of a model, for the model's
 * Pareto page: one curve per endpoint.
 */
export async function listLatestModelSweeps(db: Db, modelId: number) {
  return db
    .selectDistinctOn([sweeps.endpointId], sweepColumns)
    .from(sweeps)
    .innerJoin(endpoints, eq(endpoints.id, sweeps.endpointId))
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(and(eq(endpoints.modelId, modelId), inArray(sweeps.status, ['completed', 'stopped'])))
    .orderBy(sweeps.endpointId, desc(sweeps.finishedAt), desc(sweeps.id));
}

/** Sweeps left `running` by a worker that died: back to `failed` so the endpoint can be swept again. */
export async function failStaleSweeps(db: Db, p: { startedBefore: Date; now: Date }): Promise<number> {
  const rows = await db
    .update(sweeps)
    .set({ status: 'failed', finishedAt: p.now, errorMessage: 'the worker running the sweep stopped', currentConcurrency: null })
    .where(and(eq(sweeps.status, 'running'), lt(sweeps.startedAt, p.startedBefore)))
    .returning({ id: sweeps.id });
  return rows.length;
}

/** Ids of sweeps waiting for a worker, oldest first. */
export async function listQueuedSweepIds(db: Db): Promise<number[]> {
  const rows = await db.select({ id: sweeps.id }).from(sweeps).where(eq(sweeps.status, 'queued')).orderBy(asc(sweeps.requestedAt));
  return rows.map((r) => r.id);
}

/** A workload's id by slug; null when not seeded. */
export async function getWorkloadIdBySlug(db: Db, slug: string): Promise<number | null> {
  const [row] = await db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, slug)).limit(1);
  return row?.id ?? null;
}

/**
 * What the sweep routes need to authorise and plan a sweep of endpoint `id`: its owner (the
 * endpoint's owner or its submitter), deployment kind, declared GPU count and status; null when
 * unknown or deleted. The caller decides who may act (owner or admin).
 */
export async function getSweepEndpoint(db: Db, id: number) {
  const [row] = await db
    .select({
      id: endpoints.id,
      slug: endpoints.slug,
      status: endpoints.status,
      ownerUserId: endpoints.ownerUserId,
      submitterUserId: endpointSubmissions.ownerUserId,
      deploymentKind: endpoints.deploymentKind,
      isCalibration: endpoints.isCalibration,
      gpuCount: endpoints.gpuCount,
    })
    .from(endpoints)
    .leftJoin(endpointSubmissions, eq(endpointSubmissions.endpointId, endpoints.id))
    .where(and(eq(endpoints.id, id), sql`${endpoints.status} <> 'deleted'`))
    .limit(1);
  if (!row) return null;
  return { ...row, owner: row.ownerUserId ?? row.submitterUserId ?? null };
}
