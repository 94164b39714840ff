/**
 * Issue 19 finding 1, last part (decision 166): a sweep running on one endpoint leaves other
 * endpoints' scheduled probe measurements rankable. Real Postgres, real reference servers on
 * 127.0.0.1, the real sweep task (real probe threads) and the real probe-queue handler in this
 * process, as in a probe worker (workers/main.ts --role probe).
 */
import fs from 'node:fs';
import { inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { measurements } from '@/db/schema';
import { SWEEP_THREAD_NICENESS } from '@/lib/probe/probe-pool';
import { injectLateness, restoreLateness } from '@/lib/probe/test-support/injected-lateness';
import { runScheduledProbe } from '../scheduled-probe';
import { runSweepJob } from './run-sweep';
import { inProcessProbeDeps, startSweepBesideProbesStage, untilOpenStreams } from './test-support/sweep-beside-probes-stage';
import { scheduledProbeJob } from './test-support/scheduled-probe-job';
import { useSweepSuite } from './test-support/sweep-suite';

const suite = useSweepSuite();
let slot = 0;

afterAll(() => restoreLateness());

/** Niceness of every thread of this process, by thread id (Linux /proc; field 19 of stat). */
function threadNiceness(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return out;
}

describe('a sweep beside scheduled probes of other endpoints', () => {
  it('their measurements are rankable; the sweep streams on threads at nice 10 while the probe loop stays at nice 0', { timeout: 180_000 }, async () => {
    // The clock's evidence is injected as quiet for this (main) thread's probes: what is under test is
    // that nothing else a sweep does (locks, exclusion, its level loop, its rows) costs other
    // endpoints their ranking. The clock itself is kept first by the niceness of the sweep's
    // threads (decision 166), checked below from /proc; figures measured on a loaded machine are
    // in the decision record.
    injectLateness('quiet');
    const { swept, sweptId, otherIds } = await startSweepBesideProbesStage(suite.t.db, { sweptSlug: 'swept', otherPrefix: 'other', closers: suite.closers });
    const deps = inProcessProbeDeps(suite.t.db, suite.lock, suite.probeFetches);
    const job = (endpointId: number) => scheduledProbeJob(endpointId, suite.headlineId, slot++);
    const before = threadNiceness();
    const sweepId = await suite.queueSweep(sweptId, [16], 6000);
    const sweepRun = runSweepJob(suite.ctx, { sweepId });
    let sweepDone = false;
    void sweepRun.finally(() => (sweepDone = true));
    // Streaming (how many of its 16 slots are open at one instant depends on how much CPU its nice-10
    // threads get beside nice-0 work: a wait for all 16 ran out at 100 s in a loaded suite).
    await untilOpenStreams(swept, 1);
    expect(swept.openStreams()).toBeGreaterThan(0);
    // The sweep's threads: new threads of this process, every one at nice 10; this thread at 0.
    const during = threadNiceness();
    const added = [...during].filter(([tid]) => !before.has(tid));
    expect(during.get(process.pid)).toBe(0);
    expect(added.filter(([, nice]) => nice === SWEEP_THREAD_NICENESS).length).toBeGreaterThanOrEqual(1);
    expect([...during].filter(([, nice]) => nice !== 0 && nice !== SWEEP_THREAD_NICENESS)).toEqual([]);
    const jobs = otherIds.map(job);
    expect(sweepDone).toBe(false); // the sweep's level is running as they start
    const results = await Promise.all(jobs.map((j) => runScheduledProbe(deps, j)));
    for (const r of results) expect(r).toEqual({ status: 'recorded', outcome: 'success', errorKind: null });
    // The sweep ran its level beside them. Its 16 streams run on nice-10 threads (decision 166), which
    // a loaded machine starves by design: there they may time out and the sweep stop early for it.
    // Either way it ran one level; what is under test is the other endpoints' measurements.
    const swept1 = await sweepRun;
    if (swept1.status === 'stopped') expect(swept1).toEqual({ status: 'stopped', levels: 1, stopReason: 'consecutive_failures' });
    else expect(swept1).toEqual({ status: 'completed', levels: 1, stopReason: null });
    const rows = await suite.t.db
      .select({ jobKey: measurements.jobKey, rankable: measurements.rankable, reasons: measurements.notRankableReasons })
      .from(measurements)
      .where(
        inArray(
          measurements.jobKey,
          jobs.map((j) => j.data.jobKey),
        ),
      );
    expect(rows).toHaveLength(4);
    for (const r of rows) expect({ rankable: r.rankable, reasons: r.reasons }).toEqual({ rankable: true, reasons: [] });
  });
});
