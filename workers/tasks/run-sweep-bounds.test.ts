/**
 * Issue 19 finding 1 (decision 160): an approved, consented sweep is still no flood tool. Real
 * Postgres (cloned test database), the real sweep task on real probe threads, real local servers:
 * - a server that fails every request (HTTP 500, dropped connections): the sweep stops within
 *   16 + 5 requests at concurrency 16 and writes one level row and at most
 *   MAX_FAILED_STREAM_ROWS_PER_LEVEL stream rows; at concurrency 1 its retries back off (the
 *   server's arrival times);
 * - an address the SSRF guard refuses: one request attempted, one stream row, stopped `blocked`;
 * - while a concurrency-16 sweep streams, scheduled probes of other endpoints run in this same
 *   process (as workers/main.ts does) and none of the sweep's streams is parsed on their loop.
 */
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getSweep, listSweepLevels } from '@/db/queries/sweeps';
import { measurements, sweepLevels, sweepStreams } from '@/db/schema';
import { createProbePool } from '@/lib/probe/probe-pool';
import { startReferenceServer } from '@/lib/reference-server/reference-server';
import { DEFAULT_BACKOFF_BASE_MS, DEFAULT_MAX_CONSECUTIVE_FAILURES } from '@/lib/sweep/run-sweep';
import { startFaultyFront, type FaultyFront } from '@/lib/sweep/test-support/faulty-front';
import { runScheduledProbe } from '../scheduled-probe';
import { MAX_FAILED_STREAM_ROWS_PER_LEVEL, runSweepJob } from './run-sweep';
import { addTestEndpoint } from './test-support/add-test-endpoint';
import { useSweepSuite } from './test-support/sweep-suite';
import { inProcessProbeDeps, startSweepBesideProbesStage, untilOpenStreams } from './test-support/sweep-beside-probes-stage';
import { scheduledProbeJob } from './test-support/scheduled-probe-job';

const suite = useSweepSuite();
let slot = 0;

const addEndpoint = (slug: string, baseUrl: string, allowPrivate = true) => addTestEndpoint(suite.t.db, slug, baseUrl, { allowPrivate });

async function rowsOf(sweepId: number) {
  const streams = await suite.t.db
    .select({ outcome: sweepStreams.outcome, errorKind: sweepStreams.errorKind })
    .from(sweepStreams)
    .where(eq(sweepStreams.sweepId, sweepId));
  const levels = await suite.t.db
    .select({ notStored: sweepLevels.failedStreamsNotStored, streams: sweepLevels.streams })
    .from(sweepLevels)
    .where(eq(sweepLevels.sweepId, sweepId));
  return { streams, levels };
}

describe('a consented sweep against failing servers is bounded in requests and rows', () => {
  it(
    'every request fails (HTTP 500, then dropped connections) at concurrency 16: stops within 16 + 5 requests, one level, at most 10 stream rows',
    { timeout: 60_000 },
    async () => {
      for (const kind of ['http_500', 'reset'] as const) {
        const front: FaultyFront = await startFaultyFront({ upstream: null, fail: () => true, kind });
        suite.closers.push(() => front.close());
        const endpointId = await addEndpoint(`dead-${kind}`.replace('_', '-'), front.url);
        const sweepId = await suite.queueSweep(endpointId, [16, 32], 5000);
        const r = await runSweepJob(suite.ctx, { sweepId });
        expect(r, kind).toEqual({ status: 'stopped', levels: 1, stopReason: 'consecutive_failures' });
        const sent = front.arrivals().length;
        expect(sent, kind).toBeGreaterThanOrEqual(DEFAULT_MAX_CONSECUTIVE_FAILURES);
        expect(sent, kind).toBeLessThanOrEqual(16 + DEFAULT_MAX_CONSECUTIVE_FAILURES);
        const { streams, levels } = await rowsOf(sweepId);
        expect(levels).toHaveLength(1);
        expect(streams.length).toBeLessThanOrEqual(MAX_FAILED_STREAM_ROWS_PER_LEVEL);
        // every request is accounted for: stored rows + counted-only failures = streams of the level
        const counted = levels[0]!.streams.warmup + levels[0]!.streams.measured + levels[0]!.streams.tail;
        expect(streams.length + levels[0]!.notStored).toBe(counted);
        expect(counted).toBe(sent);
        expect(await getSweep(suite.t.db, sweepId)).toMatchObject({ status: 'stopped', stopReason: 'consecutive_failures', stoppedAtConcurrency: 16 });
      }
    },
  );

  it('at concurrency 1 each retry waits longer (exponential backoff, in the server’s arrival times)', { timeout: 60_000 }, async () => {
    const front = await startFaultyFront({ upstream: null, fail: () => true });
    suite.closers.push(() => front.close());
    const endpointId = await addEndpoint('dead-one', front.url);
    const sweepId = await suite.queueSweep(endpointId, [1, 2], 5000);
    expect(await runSweepJob(suite.ctx, { sweepId })).toMatchObject({ status: 'stopped', stopReason: 'consecutive_failures' });
    const at = front.arrivals().map((a) => a.at);
    expect(at).toHaveLength(DEFAULT_MAX_CONSECUTIVE_FAILURES);
    const gaps = at.slice(1).map((x, i) => x - at[i]!);
    gaps.forEach((g, i) => expect(g, `gap after failure ${i + 1}`).toBeGreaterThanOrEqual((DEFAULT_BACKOFF_BASE_MS * 2 ** i) / 2 - 1));
    expect((await rowsOf(sweepId)).streams).toHaveLength(DEFAULT_MAX_CONSECUTIVE_FAILURES);
  });

  it('an address the SSRF guard refuses: stopped at the first refusal, one stream row', { timeout: 60_000 }, async () => {
    const ref = await startReferenceServer({ port: 0, tps: 400, ttftMs: 5, outputTokens: 24 });
    suite.closers.push(() => ref.close());
    const endpointId = await addEndpoint('loopback-not-allowed', ref.url, false);
    const sweepId = await suite.queueSweep(endpointId, [16, 32], 5000);
    expect(await runSweepJob(suite.ctx, { sweepId })).toEqual({ status: 'stopped', levels: 1, stopReason: 'blocked' });
    const { streams } = await rowsOf(sweepId);
    expect(streams.length).toBeGreaterThanOrEqual(1);
    expect(streams.length).toBeLessThanOrEqual(16); // the slots started before the first refusal came back
    expect(streams.every((s) => s.errorKind === 'blocked')).toBe(true);
    expect(ref.openStreams()).toBe(0);
  });
});

describe('a sweep never disturbs other endpoints’ scheduled probes', () => {
  // The probes' loop parses none of the sweep's streams: every stream of a concurrency-16 sweep
  // runs on a probe thread (a sweep of ≤ 16 streams used to run on the loop that also timed this
  // worker's scheduled probes: issue 19 saw 7 of 8 other endpoints' probes marked invalid). The
  // probes of other endpoints run meanwhile in this process, through the real probe-queue handler,
  // and succeed. (Whether a loop is quiet enough to rank depends on the machine as well; that
  // bound belongs to bench:probe, not to a test on a shared machine.)
  it('every stream of a concurrency-16 sweep runs on a probe thread, while other endpoints are probed in this process', { timeout: 120_000 }, async () => {
    const { swept, sweptId, otherIds } = await startSweepBesideProbesStage(suite.t.db, {
      sweptSlug: 'swept-16',
      otherPrefix: 'beside',
      closers: suite.closers,
    });
    const deps = inProcessProbeDeps(suite.t.db, suite.lock, suite.probeFetches);
    const job = (endpointId: number) => scheduledProbeJob(endpointId, suite.headlineId, slot++);
    let onThreads = 0;
    const createPool: typeof createProbePool = (o) => {
      const pool = createProbePool(o);
      return {
        ...pool,
        threads: pool.threads,
        ready: () => pool.ready(),
        close: () => pool.close(),
        probe: async (r) => {
          const res = await pool.probe(r);
          if (Number.isInteger(res.threadIndex)) onThreads++;
          return res;
        },
      };
    };
    const sweepId = await suite.queueSweep(sweptId, [16], 5000);
    const sweepRun = runSweepJob({ ...suite.ctx, createPool }, { sweepId });
    // Streaming (how many of its 16 slots are open at one instant depends on how much CPU its nice-10
    // threads get beside nice-0 work: a wait for all 16 ran out at 100 s in a loaded suite).
    await untilOpenStreams(swept, 1);
    expect(swept.openStreams()).toBeGreaterThan(0);
    const jobs = otherIds.map(job);
    const results = await Promise.all(jobs.map((j) => runScheduledProbe(deps, j)));
    for (const r of results) expect(r).toEqual({ status: 'recorded', outcome: 'success', errorKind: null });
    expect(await sweepRun).toEqual({ status: 'completed', levels: 1, stopReason: null });
    const [level] = await listSweepLevels(suite.t.db, [sweepId]);
    const streams = level!.streams.warmup + level!.streams.measured + level!.streams.tail;
    expect(streams).toBeGreaterThan(16);
    expect(onThreads).toBe(streams);
    const rows = await suite.t.db
      .select({ outcome: measurements.outcome })
      .from(measurements)
      .where(
        inArray(
          measurements.jobKey,
          jobs.map((j) => j.data.jobKey),
        ),
      );
    expect(rows.map((r) => r.outcome)).toEqual(['success', 'success', 'success', 'success']);
  });
});
