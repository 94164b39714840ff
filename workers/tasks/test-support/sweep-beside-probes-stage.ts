/**
 * The stage of the sweep-beside-probes tests (decisions 160, 166): one reference server to sweep
 * (400 TPS/user, 5 ms TTFT, 200 one-token chunks a stream) and four others (200 TPS/user, 20 ms
 * TTFT, 60 tokens) whose endpoints are probed while the sweep runs, each an endpoint of its own
 * (slugs `{sweptSlug}` and `{otherPrefix}-0` … `-3`); every server's close is pushed to `closers`.
 * inProcessProbeDeps is the probe-queue handler's wiring as workers/main.ts builds it in the same
 * process (real loop-delay monitor, a silent logger, fresh metrics).
 */
import { Writable } from 'node:stream';
import type { Db } from '@/db/client';
import { createLogger } from '@/lib/observability/logger';
import { createWorkerMetrics } from '@/lib/observability/metrics';
import { createLoopDelayMonitor } from '@/lib/probe/loop-delay-monitor';
import type { FetchLike } from '@/lib/probe/types';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import type { EndpointLock } from '../../endpoint-lock';
import type { ScheduledProbeDeps } from '../../scheduled-probe';
import { addTestEndpoint } from './add-test-endpoint';
import { probeTaskContext } from './probe-task-context';

export async function startSweepBesideProbesStage(
  db: Db,
  p: { sweptSlug: string; otherPrefix: string; closers: Array<() => Promise<void>> },
): Promise<{ swept: ReferenceServer; sweptId: number; otherIds: number[] }> {
  const swept = await startReferenceServer({ port: 0, tps: 400, ttftMs: 5, outputTokens: 200, tokensPerChunk: 1 });
  p.closers.push(() => swept.close());
  const others = await Promise.all([0, 1, 2, 3].map(() => startReferenceServer({ port: 0, tps: 200, ttftMs: 20, outputTokens: 60 })));
  for (const o of others) p.closers.push(() => o.close());
  const sweptId = await addTestEndpoint(db, p.sweptSlug, swept.url);
  const otherIds = await Promise.all(others.map((o, i) => addTestEndpoint(db, `${p.otherPrefix}-${i}`, o.url)));
  return { swept, sweptId, otherIds };
}

export function inProcessProbeDeps(db: Db, endpointLock: EndpointLock, probeFetches: FetchLike[]): ScheduledProbeDeps {
  return {
    ctx: probeTaskContext(db, { monitorLoopDelay: () => createLoopDelayMonitor() }, probeFetches),
    endpointLock,
    metrics: createWorkerMetrics({ workerId: 'test', region: 'test' }),
    log: createLogger('worker', { level: 'warn', destination: new Writable({ write: (_c, _e, done) => done() }) }),
  };
}

/**
 * Waits until `server` has `n` streams open, at most `guardMs` (default 100 s, inside the callers'
 * 120 s and 180 s test limits): a guard, not a timing claim. Nice-10 sweep threads beside nice-0
 * work get a few % of a core: one took 13 s to start (4.5 s at nice 0) beside three busy loops, so
 * callers wait for the sweep to stream at all, never for a count of streams open at one instant.
 * The caller asserts the count.
 */
export async function untilOpenStreams(server: ReferenceServer, n: number, guardMs = 100_000): Promise<void> {
  const deadline = Date.now() + guardMs;
  while (server.openStreams() < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}
