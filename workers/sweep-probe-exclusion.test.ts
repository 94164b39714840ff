/**
 * Decision 142: a concurrency sweep and the scheduled probes of its endpoint never overlap.
 * Real Postgres (cloned test database), real local reference servers (one per endpoint, each with
 * its own write log of every stream it served), the real sweep task and the real probe-queue
 * handler. Two endpoint-lock instances stand for two worker processes (two lock sessions): the
 * "sweep worker" runs the sweep and also takes probe jobs (the in-process path), the "probe
 * worker" takes probe jobs only (the cross-process path).
 */
import { Writable } from 'node:stream';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSweep, listSweepLevels } from '@/db/queries/sweeps';
import { getEndpointUptime } from '@/db/queries/uptime';
import { endpoints, measurements, probeSlots, sweepStreams, workloads } from '@/db/schema';
import { seedCatalog } from '@/db/seed';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { createLogger } from '@/lib/observability/logger';
import { createWorkerMetrics, type WorkerMetrics } from '@/lib/observability/metrics';
import { HEADLINE_WORKLOAD_SLUG } from '@/lib/probe/workloads';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { createGuardedFetch, type GuardedFetch } from '@/lib/security/ssrf-guard';
import { createEndpointLock, ENDPOINT_LOCK_NAMESPACE, SWEEP_LOCK_NAMESPACE, type EndpointLock } from './endpoint-lock';
import { runScheduledProbe, type ScheduledProbeDeps } from './scheduled-probe';
import { runSweepJob, type SweepTaskContext } from './tasks/run-sweep';
import { closeFetches, probeTaskContext } from './tasks/test-support/probe-task-context';
import { addTestEndpoint } from './tasks/test-support/add-test-endpoint';
import { queueConsentedSweep } from './tasks/test-support/queue-consented-sweep';
import { scheduledProbeJob } from './tasks/test-support/scheduled-probe-job';
import { closeGuardedFetches, sweepTaskContext } from './tasks/test-support/sweep-task-context';
import type { FetchLike } from '@/lib/probe/types';
import { injectLateness, restoreLateness } from '@/lib/probe/test-support/injected-lateness';
import { createProbePool } from '@/lib/probe/probe-pool';

let t: TestDatabase;
/** Swept endpoint A's server, the other endpoint B's, and slow endpoint C's (1.5 s streams). */
let serverA: ReferenceServer;
let serverB: ReferenceServer;
let serverC: ReferenceServer;
let endpointA: number;
let endpointB: number;
let endpointC: number;
let headlineId: number;
/** Worker 1 (runs sweeps and probes) and worker 2 (probes only): two lock sessions. */
let sweepWorkerLock: EndpointLock;
let probeWorkerLock: EndpointLock;
const sweepFetches: GuardedFetch[] = [];
const probeFetches: FetchLike[] = [];
/** Requests the probe workers sent: URL and instant (epoch ms). */
const probeRequests: Array<{ url: string; at: number }> = [];
let metrics: WorkerMetrics;
const logLines: Array<{ msg: string; endpointId?: number; jobKey?: string }> = [];
let sweepCtx: SweepTaskContext;
let slotCounter = 0;
/** Sweeps started by a test: awaited before teardown even when an assertion failed first. */
const inFlight: Promise<unknown>[] = [];

const addEndpoint = (slug: string, port: number) => addTestEndpoint(t.db, slug, `http://127.0.0.1:${port}/v1`);

/** The probe-queue handler of one worker, as workers/main.ts wires it. */
function probeWorker(endpointLock: EndpointLock): ScheduledProbeDeps {
  const log = createLogger('worker', {
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as (typeof logLines)[number]);
        done();
      },
    }),
  });
  // The real guarded fetch, with every request the probe task sends noted (URL and instant).
  const createFetch = ({ allowPrivate }: { allowPrivate: boolean }): FetchLike => {
    const guarded = createGuardedFetch({ allowPrivate }) as unknown as FetchLike;
    probeFetches.push(guarded);
    return (input, init) => {
      probeRequests.push({ url: String(input), at: Date.now() });
      return guarded(input, init);
    };
  };
  return { ctx: probeTaskContext(t.db, { createFetch }), endpointLock, metrics, log };
}

/** A scheduled probe job of the headline workload for `endpointId`, in a slot of its own. */
const probeJob = (endpointId: number) => scheduledProbeJob(endpointId, headlineId, slotCounter++);

async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * The sweep context with its probe pool started before the sweep is run, at normal priority: these
 * tests are about exclusion, and a sweep pool's nice-10 threads (decision 166) beside busy loops
 * get a few % of a core, so their start-up and shut-down took many seconds (the sweep's marker came
 * after the probe it was meant to wait for; a 600 ms lock bound looked like 14 s). The sweep
 * closes the pool at its end.
 */
async function withReadyPool(over: Partial<SweepTaskContext> = {}): Promise<SweepTaskContext> {
  const pool = createProbePool({ threads: 1, allowPrivate: true });
  await pool.ready();
  return { ...sweepCtx, ...over, createPool: () => pool };
}

async function advisoryHolders(namespace: number, endpointId: number): Promise<number> {
  const rows = await t.db.execute<{ n: number }>(
    sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database()) and classid = ${namespace}::int4::oid and objid = ${endpointId}::int4::oid and objsubid = 2`,
  );
  return Number(rows[0]!.n);
}

const requestSweep = (endpointId: number, levels: number[], durationMs: number) =>
  queueConsentedSweep(t.db, { endpointId, levels, durationMs, userId: 'owner-1', maxConcurrency: 8 });

async function skippedBySweep(endpointId: number): Promise<number> {
  const { values } = await metrics.probes.get();
  return values
    .filter((v) => v.labels.endpoint_id === String(endpointId) && v.labels.outcome === 'skipped' && v.labels.error_kind === 'endpoint-sweeping')
    .reduce((n, v) => n + v.value, 0);
}

beforeAll(async () => {
  // These tests are about exclusion, not timing: provably on-time stamps, so no probe is re-probed
  // for timing_uncertain on a loaded machine (decision 181) and every stream count is exact.
  injectLateness('quiet');
  [serverA, serverB, serverC] = await Promise.all([
    startReferenceServer({ port: 0, tps: 400, ttftMs: 10, outputTokens: 24, recordWrites: true }),
    startReferenceServer({ port: 0, tps: 400, ttftMs: 10, outputTokens: 24, recordWrites: true }),
    // C's probe streams 3 s: long enough for the sweep to take its marker while it runs, on a busy machine too
    startReferenceServer({ port: 0, tps: 30, ttftMs: 10, outputTokens: 90, recordWrites: true }),
  ]);
  t = await createTestDatabase();
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: serverA.port });
  const [calibration] = await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.isCalibration, true)).limit(1);
  endpointA = calibration!.id;
  endpointB = await addEndpoint('other-endpoint', serverB.port);
  endpointC = await addEndpoint('slow-endpoint', serverC.port);
  const [headline] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, HEADLINE_WORKLOAD_SLUG));
  headlineId = headline!.id;
  // A regression (probes queueing behind the sweep) shows as a 10 s wait and a timeout error, not a skip.
  sweepWorkerLock = createEndpointLock({ url: t.url, waitMs: 10_000 });
  probeWorkerLock = createEndpointLock({ url: t.url, waitMs: 10_000 });
  metrics = createWorkerMetrics({ workerId: 'test', region: 'test' });
  sweepCtx = sweepTaskContext(t.db, sweepWorkerLock, sweepFetches);
}, 120_000);

afterAll(async () => {
  restoreLateness();
  await Promise.allSettled(inFlight);
  await sweepWorkerLock?.close();
  await probeWorkerLock?.close();
  await closeGuardedFetches(sweepFetches);
  await closeFetches(probeFetches);
  await Promise.all([serverA?.close(), serverB?.close(), serverC?.close()]);
  await t?.drop();
});

describe('sweeps and scheduled probes of one endpoint are exclusive', () => {
  it(
    'a probe arriving during a sweep is skipped at once in both workers, recorded nowhere as a failure; other endpoints are probed meanwhile; afterwards probes run',
    { timeout: 60_000 },
    async () => {
      const sweepId = await requestSweep(endpointA, [1, 4], 2500);
      serverA.clearWriteLog();
      serverB.clearWriteLog();
      const sweepRun = runSweepJob(await withReadyPool(), { sweepId });
      inFlight.push(sweepRun);
      await until(() => serverA.openStreams() > 0, 'the sweep streaming');

      const crossProcess = probeJob(endpointA);
      const inProcess = probeJob(endpointA);
      const other = probeJob(endpointB);
      const t0 = performance.now();
      const [a1, a2, b] = await Promise.all([
        runScheduledProbe(probeWorker(probeWorkerLock), crossProcess).then((r) => ({ r, ms: performance.now() - t0, at: Date.now() })),
        runScheduledProbe(probeWorker(sweepWorkerLock), inProcess).then((r) => ({ r, ms: performance.now() - t0, at: Date.now() })),
        runScheduledProbe(probeWorker(probeWorkerLock), other).then((r) => ({ r, ms: performance.now() - t0, at: Date.now() })),
      ]);
      expect(a1.r).toEqual({ status: 'skipped', reason: 'endpoint-sweeping' });
      expect(a2.r).toEqual({ status: 'skipped', reason: 'endpoint-sweeping' });
      // At once, not after the 10 s lock wait (half of it: a busy machine is slow, never that slow).
      expect(a1.ms).toBeLessThan(5000);
      expect(a2.ms).toBeLessThan(5000);
      // The other endpoint is probed during the sweep, normally.
      expect(b.r).toEqual({ status: 'recorded', outcome: 'success', errorKind: null });
      const [bStream] = serverB.writeLog();
      expect(serverB.writeLog()).toHaveLength(1);

      const swept = await sweepRun;
      expect(swept).toEqual({ status: 'completed', levels: 2, stopReason: null });
      const sweep = await getSweep(t.db, sweepId);
      expect(sweep).toMatchObject({ status: 'completed', errorMessage: null });
      // The skips and B's whole stream fell inside the sweep (started .. finished).
      for (const at of [a1.at, a2.at, b.at]) expect(at).toBeLessThan(sweep!.finishedAt!.getTime());
      expect(bStream!.openedAt).toBeGreaterThan(sweep!.startedAt!.getTime());

      // No probe request went to endpoint A while the sweep ran (B's did), and the server's own log
      // agrees: it logs a stream once it read the request (a tail stream cut at the level's end may
      // not have got that far, or may have been completed by the server as the client left), so its
      // counts lie between the sweep's stored counts.
      // Probe streams only: a calibration endpoint's probe also asks the reference server what it really sent (decision 182).
      const toA = (r: { url: string }) => r.url.startsWith(serverA.url) && !r.url.includes('/tokenpace/deliveries/');
      expect(probeRequests.filter((r) => toA(r) && r.at <= sweep!.finishedAt!.getTime())).toHaveLength(0);
      expect(probeRequests.filter((r) => r.url.startsWith(serverB.url) && !r.url.includes('/tokenpace/deliveries/'))).toHaveLength(1);
      const stored = await t.db
        .select({
          all: sql<number>`count(*)::int`,
          answered: sql<number>`count(*) filter (where ttfb_ms is not null)::int`,
          successes: sql<number>`count(*) filter (where outcome = 'success')::int`,
        })
        .from(sweepStreams)
        .where(eq(sweepStreams.sweepId, sweepId));
      const served = serverA.writeLog();
      expect(served.length).toBeGreaterThanOrEqual(stored[0]!.answered);
      expect(served.length).toBeLessThanOrEqual(stored[0]!.all);
      const completed = served.filter((s) => s.completed).length;
      expect(completed).toBeGreaterThanOrEqual(stored[0]!.successes);
      expect(completed).toBeLessThanOrEqual(stored[0]!.answered);
      expect(Math.max(...served.map((s) => s.openStreams))).toBeLessThanOrEqual(4);
      const levels = await listSweepLevels(t.db, [sweepId]);
      expect(levels.map((l) => [l.concurrency, l.successes === l.requests])).toEqual([
        [1, true],
        [4, true],
      ]);

      // Recorded: no measurement, no slot claim, a skip in the metrics and the log; uptime counts nothing.
      const keys = [crossProcess.data.jobKey, inProcess.data.jobKey];
      expect(await t.db.select().from(measurements).where(inArray(measurements.jobKey, keys))).toHaveLength(0);
      expect(await t.db.select().from(probeSlots).where(inArray(probeSlots.jobKey, keys))).toHaveLength(0);
      expect(await skippedBySweep(endpointA)).toBe(2);
      expect(await skippedBySweep(endpointB)).toBe(0);
      const skipLines = logLines.filter((l) => l.msg.startsWith('probe skipped: endpoint under a concurrency sweep'));
      expect(skipLines.map((l) => [l.endpointId, l.jobKey]).sort()).toEqual(keys.map((k) => [endpointA, k]).sort());
      const uptime = await getEndpointUptime(t.db, { endpointId: endpointA, now: new Date() });
      expect(uptime.windows['1d'].n).toBe(0);

      // After the sweep: no lock or marker left, probes of A run normally in both workers.
      expect(await advisoryHolders(SWEEP_LOCK_NAMESPACE, endpointA)).toBe(0);
      expect(await advisoryHolders(ENDPOINT_LOCK_NAMESPACE, endpointA)).toBe(0);
      serverA.clearWriteLog();
      const after1 = probeJob(endpointA);
      const after2 = probeJob(endpointA);
      expect(await runScheduledProbe(probeWorker(probeWorkerLock), after1)).toEqual({ status: 'recorded', outcome: 'success', errorKind: null });
      expect(await runScheduledProbe(probeWorker(sweepWorkerLock), after2)).toEqual({ status: 'recorded', outcome: 'success', errorKind: null });
      expect(serverA.writeLog().map((s) => s.openStreams)).toEqual([1, 1]);
      expect(probeRequests.filter(toA)).toHaveLength(2);
      const written = await t.db
        .select({ outcome: measurements.outcome })
        .from(measurements)
        .where(and(eq(measurements.endpointId, endpointA), inArray(measurements.jobKey, [after1.data.jobKey, after2.data.jobKey])));
      expect(written.map((m) => m.outcome)).toEqual(['success', 'success']);
      expect((await getEndpointUptime(t.db, { endpointId: endpointA, now: new Date() })).windows['1d']).toMatchObject({ n: 2, successes: 2 });
    },
  );

  it(
    'a sweep waits for a probe already streaming; probes arriving while it waits are skipped; the sweep streams only after the probe ended',
    { timeout: 60_000 },
    async () => {
      const sweepId = await requestSweep(endpointC, [1], 400);
      serverC.clearWriteLog();
      // A probe of C (1 s stream) in the probe worker, then the sweep of C in the sweep worker.
      const first = probeJob(endpointC);
      const sweepCtxC = await withReadyPool();
      const probing = runScheduledProbe(probeWorker(probeWorkerLock), first);
      await until(() => serverC.openStreams() === 1, 'the probe streaming');
      const sweepRun = runSweepJob(sweepCtxC, { sweepId });
      inFlight.push(sweepRun);
      await until(async () => (await advisoryHolders(SWEEP_LOCK_NAMESPACE, endpointC)) === 1, 'the sweep marker');
      // The sweep holds its marker but not yet the endpoint (the probe does): a newcomer steps aside.
      expect(serverC.openStreams()).toBe(1);
      const late = probeJob(endpointC);
      expect(await runScheduledProbe(probeWorker(probeWorkerLock), late)).toEqual({ status: 'skipped', reason: 'endpoint-sweeping' });

      expect(await probing).toEqual({ status: 'recorded', outcome: 'success', errorKind: null });
      expect(await sweepRun).toEqual({ status: 'completed', levels: 1, stopReason: null });
      const [probeStream, ...sweepStreamsServed] = serverC.writeLog();
      expect(probeStream!.completed).toBe(true);
      expect(sweepStreamsServed.length).toBeGreaterThan(0);
      const probeEnded = probeStream!.writeAt[probeStream!.writeAt.length - 1]!;
      for (const s of sweepStreamsServed) expect(s.openedAt).toBeGreaterThanOrEqual(probeEnded);
      expect(Math.max(...serverC.writeLog().map((s) => s.openStreams))).toBe(1);
      expect(await t.db.select().from(measurements).where(eq(measurements.jobKey, late.data.jobKey))).toHaveLength(0);
      expect(await skippedBySweep(endpointC)).toBe(1);
    },
  );

  it(
    'a sweep that cannot get the endpoint within its bound fails with the reason stored, runs no level, and leaves the endpoint to probes',
    { timeout: 60_000 },
    async () => {
      const sweepId = await requestSweep(endpointA, [1], 400);
      serverA.clearWriteLog();
      // A holder that does not let go (a stuck probe in the other worker).
      let letGo!: () => void;
      const stuck = probeWorkerLock.run(endpointA, () => new Promise<void>((resolve) => (letGo = resolve)));
      await until(async () => (await advisoryHolders(ENDPOINT_LOCK_NAMESPACE, endpointA)) === 1, 'the stuck holder');
      const t0 = performance.now();
      const r = await runSweepJob(await withReadyPool({ endpointLockWaitMs: 600 }), { sweepId });
      const waited = performance.now() - t0;
      expect(r).toEqual({ status: 'failed', levels: 0, stopReason: null });
      // It gave up at its bound (600 ms), not waiting for the holder (which never lets go).
      expect(waited).toBeGreaterThanOrEqual(550);
      expect(waited).toBeLessThan(10_000);
      const sweep = await getSweep(t.db, sweepId);
      expect(sweep).toMatchObject({ status: 'failed', stopReason: null });
      expect(sweep!.errorMessage).toBe(
        'endpoint busy: its lock was not free within 600 ms (a probe or another worker held it), so no level ran; request the sweep again',
      );
      expect(await listSweepLevels(t.db, [sweepId])).toHaveLength(0);
      expect(serverA.writeLog()).toHaveLength(0);
      // The marker went with the failed sweep: probes are not skipped any more.
      expect(await advisoryHolders(SWEEP_LOCK_NAMESPACE, endpointA)).toBe(0);
      letGo();
      await stuck;
      expect(await runScheduledProbe(probeWorker(sweepWorkerLock), probeJob(endpointA))).toEqual({ status: 'recorded', outcome: 'success', errorKind: null });
      expect(sweepWorkerLock.sweepingKeys).toBe(0);
    },
  );
});
