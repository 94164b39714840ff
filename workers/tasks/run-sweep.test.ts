import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '@/db/seed';
import { endpoints, sweepStreams, sweeps } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { getSweep, insertSweepRequest, listEndpointSweeps, listSweepLevels, upsertSweepSettings } from '@/db/queries/sweeps';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { decodeTimeline } from '@/lib/probe/timeline-codec';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { type GuardedFetch } from '@/lib/security/ssrf-guard';
import { createEndpointLock, type EndpointLock } from '../endpoint-lock';
import { closeGuardedFetches, normalPriorityPool, sweepTaskContext } from './test-support/sweep-task-context';
import { dispatchSweeps, runSweepJob, RUN_SWEEP_QUEUE, type SweepTaskContext } from './run-sweep';

const NOW = new Date('2026-11-30T12:00:00Z');
let t: TestDatabase;
let server: ReferenceServer;
let endpointId: number;
const fetches: GuardedFetch[] = [];
let ctx: SweepTaskContext;
let endpointLock: EndpointLock;

beforeAll(async () => {
  // 24 tokens at 100 tokens/s: 240 ms streams, so a level of 8 slots holds more than 4 open (the
  // server's limit) however slowly a busy machine starts them (60 ms streams could all end first).
  server = await startReferenceServer({ port: 0, tps: 100, ttftMs: 10, outputTokens: 24, capacityTps: 800, maxOpenStreams: 4 });
  t = await createTestDatabase();
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: server.port });
  const [calibration] = await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.isCalibration, true)).limit(1);
  endpointId = calibration!.id;
  endpointLock = createEndpointLock({ url: t.url, waitMs: 5000 });
  // Pools at normal priority: these tests are about the sweep's bookkeeping and stops; nice-10
  // threads (decision 166, tested in sweep-beside-probes) beside nice-0 work start and run slowly.
  ctx = { ...sweepTaskContext(t.db, endpointLock, fetches, () => NOW), createPool: normalPriorityPool };
}, 120_000);
afterAll(async () => {
  await closeGuardedFetches(fetches);
  await endpointLock?.close();
  await server?.close();
  await t?.drop();
});

const request = (levels: number[]) => ({
  endpointId,
  requestedByUserId: 'owner-1',
  concurrencyLevels: levels,
  durationMs: 400,
  warmUpMs: 0,
  maxOutputTokens: 24,
  objectiveTtftMs: 450,
  objectiveTpotMs: 40,
  minSuccessRate: 0.9,
  now: NOW,
});

describe('run-sweep task', () => {
  it('never queues a sweep without consent', async () => {
    expect(await insertSweepRequest(t.db, request([1]))).toMatchObject({ ok: false, reason: 'no_owner_consent' });
    await upsertSweepSettings(t.db, { endpointId, enabled: false, maxConcurrency: 8, durationMs: 400, userId: 'owner-1', now: NOW, adminConsent: true });
    expect(await insertSweepRequest(t.db, request([1]))).toMatchObject({ ok: false, reason: 'no_owner_consent' });
    // the owner's consent alone: queued by nobody
    await upsertSweepSettings(t.db, { endpointId, enabled: true, maxConcurrency: 8, durationMs: 400, userId: 'owner-1', now: NOW });
    expect(await insertSweepRequest(t.db, request([1]))).toMatchObject({ ok: false, reason: 'no_admin_consent' });
  });

  it('runs a consented sweep, stores every level and every stream, one active sweep per endpoint', { timeout: 60_000 }, async () => {
    await upsertSweepSettings(t.db, { endpointId, enabled: true, maxConcurrency: 8, durationMs: 400, userId: 'owner-1', now: NOW, adminConsent: true });
    const queued = await insertSweepRequest(t.db, request([1, 2]));
    expect(queued.ok).toBe(true);
    const sweepId = queued.ok ? queued.sweep.id : 0;
    const again = await insertSweepRequest(t.db, request([1]));
    expect(again).toEqual({ ok: false, reason: 'already_active', activeSweepId: sweepId });

    // the dispatcher re-sends a job for the queued sweep
    const sent: unknown[] = [];
    await dispatchSweeps(t.db, { send: async (name: string, data: unknown) => (sent.push({ name, data }), 'job') } as never, NOW);
    expect(sent).toEqual([{ name: RUN_SWEEP_QUEUE, data: { sweepId } }]);

    // two workers get the same job: exactly one runs it
    const [a, b] = await Promise.all([runSweepJob(ctx, { sweepId }), runSweepJob(ctx, { sweepId })]);
    const ran = [a, b].filter((r) => r.status !== 'skipped');
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatchObject({ status: 'completed', levels: 2 });

    const sweep = await getSweep(t.db, sweepId);
    expect(sweep).toMatchObject({ status: 'completed', stopReason: null, workerRegion: 'test' });
    const levels = await listSweepLevels(t.db, [sweepId]);
    expect(levels.map((l) => l.concurrency)).toEqual([1, 2]);
    for (const l of levels) {
      expect(l.successes).toBe(l.requests);
      expect(l.requests).toBeGreaterThan(0);
      // never above the server's 100 tokens/s (a busy machine only makes it slower; 5 %: stamps)
      expect(l.outputTokensPerSecond!.p50).toBeGreaterThan(0);
      expect(l.outputTokensPerSecond!.p50).toBeLessThanOrEqual(105);
    }
    const streams = await t.db.select().from(sweepStreams).where(eq(sweepStreams.sweepId, sweepId));
    expect(streams.length).toBe(levels.reduce((n, l) => n + l.streams.warmup + l.streams.measured + l.streams.tail, 0));
    const measured = streams.filter((s) => s.phase === 'measured');
    expect(measured.length).toBe(levels.reduce((n, l) => n + l.requests, 0));
    expect(decodeTimeline(measured[0]!.timeline!).reduce((n, e) => n + e.tokens, 0)).toBe(24);
    expect((await listEndpointSweeps(t.db, { endpointId, limit: 10 }))[0]!.id).toBe(sweepId);
    // a finished sweep frees the endpoint for the next one
    const next = await insertSweepRequest(t.db, request([8]));
    expect(next.ok).toBe(true);
  });

  it('stops at the level that met 429 and says so', { timeout: 60_000 }, async () => {
    const [active] = await t.db.select({ id: sweeps.id }).from(sweeps).where(eq(sweeps.status, 'queued'));
    const r = await runSweepJob(ctx, { sweepId: active!.id });
    expect(r).toMatchObject({ status: 'stopped', stopReason: 'rate_limited' });
    expect(await getSweep(t.db, active!.id)).toMatchObject({ status: 'stopped', stopReason: 'rate_limited', stoppedAtConcurrency: 8 });
  });

  it('does not run when consent was withdrawn after the request', async () => {
    const queued = await insertSweepRequest(t.db, request([1]));
    expect(queued.ok).toBe(true);
    await upsertSweepSettings(t.db, { endpointId, enabled: false, maxConcurrency: 8, durationMs: 400, userId: 'admin-1', now: NOW, adminConsent: true });
    const r = await runSweepJob(ctx, { sweepId: queued.ok ? queued.sweep.id : 0 });
    expect(r).toEqual({ status: 'skipped', reason: 'not-queued' });
    expect(await getSweep(t.db, queued.ok ? queued.sweep.id : 0)).toMatchObject({ status: 'cancelled' });
    expect(server.openStreams()).toBe(0);
  });
});
