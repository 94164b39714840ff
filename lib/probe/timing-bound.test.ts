/**
 * The error bound from injected evidence (recorded thread readings and timelines), never from the
 * machine this runs on (decisions 180, 181).
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { createLatenessTracker, MAX_SLEEP_MS, MIN_SLEEP_MS, NET_THREAD_COMM, readNetWaitMs, type ThreadClockReading } from './stamp-lateness';
import { computeTimingBound, isTimingCertain, TIMING_BOUND_LIMITS, type TimingBoundInput } from './timing-bound';
import type { TimelineEntry } from './types';

const r = (nowMs: number, idleMs: number, runQueueMs: number | null): ThreadClockReading => ({ nowMs, idleMs, runQueueMs });

/** A lateness tracker that has taken its first reading at 0 (no idle, no run-queue wait). */
function startedTracker() {
  const t = createLatenessTracker();
  t.checkpoint(r(0, 0, 0));
  return t;
}

describe('createLatenessTracker', () => {
  it('is unknown until it has seen an interval with a real sleep', () => {
    const t = createLatenessTracker();
    expect(t.checkpoint(r(0, 0, 0))).toBe(Infinity);
    // 5 ms of wall time, all busy: still no proof the thread ever waited for data
    expect(t.checkpoint(r(5, 0, 0))).toBe(Infinity);
    // then a 3 ms sleep and 0.3 ms of work: the bound is the work (0.3 + 1.7 before the sleep)
    expect(t.checkpoint(r(10, 3, 0))).toBeCloseTo(2, 9);
  });

  it('adds the run-queue wait of the interval with the sleep (a wake-up that waited for a CPU)', () => {
    const t = startedTracker();
    // 5.3 ms: idle 5.2 (of which 3.1 was the wake-up waiting in the run queue), 0.1 ms busy
    expect(t.checkpoint(r(5.3, 5.2, 3.1))).toBeCloseTo(0.1 + 3.1, 9);
  });

  it('a sleep longer than the ticker allows overslept its timer: the whole interval counts (decision 308)', () => {
    // exactly MAX_SLEEP_MS of sleep: an ordinary sleep, the bound is the busy rest
    const at = startedTracker();
    expect(at.checkpoint(r(MAX_SLEEP_MS + 0.2, MAX_SLEEP_MS, 0))).toBeCloseTo(0.2, 9);
    // a little more: the thread could not wake when its timer said (a vCPU taken by the
    // hypervisor shows as idle time): the bytes may have waited since the interval began
    const over = startedTracker();
    expect(over.checkpoint(r(MAX_SLEEP_MS + 0.21, MAX_SLEEP_MS + 0.01, 0))).toBeCloseTo(MAX_SLEEP_MS + 0.21, 9);
    // the first token of the one-hour run: 19 ms "asleep" while the ticker should have woken it every 2 ms
    const run = startedTracker();
    run.checkpoint(r(2, 1.9, 0));
    expect(run.checkpoint(r(21.2, 21.0, 0.1))).toBeCloseTo(19.2, 9);
    // a clock that says its thread has no timer to oversleep (the injected quiet clock of tests)
    const untimed = createLatenessTracker();
    untimed.checkpoint({ nowMs: 0, idleMs: 0, runQueueMs: 0, maxSleepMs: Infinity });
    expect(untimed.checkpoint({ nowMs: 21.2, idleMs: 21, runQueueMs: 0, maxSleepMs: Infinity })).toBeCloseTo(0.2, 9);
    // run-queue wait is not sleep: 6 ms idle of which 3 in the run queue is a 3 ms sleep
    const rq = startedTracker();
    expect(rq.checkpoint(r(6.1, 6, 3))).toBeCloseTo(0.1 + 3, 9);
  });

  it('an interval whose idle was only run-queue wait is no sleep: the bound keeps growing by its wall time', () => {
    const t = startedTracker();
    expect(t.checkpoint(r(2, 1.9, 0))).toBeCloseTo(0.1, 9); // slept
    // 6 ms later: 4 ms "idle" but 4 ms run-queue wait (epoll returned at once, then waited for a CPU)
    expect(t.checkpoint(r(8, 5.9, 4))).toBeCloseTo(0.1 + 6, 9);
    // idle − run queue just under MIN_SLEEP_MS: still no sleep
    const under = startedTracker();
    expect(under.checkpoint(r(1, MIN_SLEEP_MS * 0.99, 0))).toBe(Infinity);
    // exactly MIN_SLEEP_MS: a sleep; bound = that interval's busy time + its run-queue wait
    const at = startedTracker();
    expect(at.checkpoint(r(1, MIN_SLEEP_MS + 0.5, 0.5))).toBeCloseTo(1 - MIN_SLEEP_MS - 0.5 + 0.5, 9);
  });

  it('reads of one poll batch (no idle between them) share the stretch since the last sleep', () => {
    const t = startedTracker();
    const a = t.checkpoint(r(3, 2.5, 0.2)); // woke after 2.5 ms idle, 0.5 busy, 0.2 run queue
    const b = t.checkpoint(r(3.05, 2.5, 0.2)); // next callback of the same batch
    expect(a).toBeCloseTo(0.5 + 0.2, 9);
    expect(b).toBeCloseTo(a + 0.05, 9);
  });

  it('without schedstat (not Linux) the bound is unknown, even after sleeps', () => {
    const t = createLatenessTracker();
    t.checkpoint(r(0, 0, null));
    expect(t.checkpoint(r(3, 2.9, null))).toBe(Infinity);
  });
});

const timeline = (times: number[], tokens = 1): TimelineEntry[] => times.map((atMs) => ({ atMs, tokens, channel: 'answer' as const }));

function input(over: Partial<TimingBoundInput> & { lateness: Record<number, number> }): TimingBoundInput {
  const tl = over.timeline ?? timeline([100, 101, 102, 355]);
  return {
    ttftMs: tl[0]!.atMs,
    ttfatMs: tl[0]!.atMs,
    lastTokenMs: tl[tl.length - 1]!.atMs,
    e2eMs: 356,
    timeline: tl,
    startSlackMs: 0.1,
    latenessAt: (atMs) => over.lateness[atMs],
    ...over,
  };
}

describe('createLatenessTracker: the kernel held the bytes back (decision 308)', () => {
  const n = (nowMs: number, idleMs: number, runQueueMs: number, netWaitMs: number | null): ThreadClockReading => ({ nowMs, idleMs, runQueueMs, netWaitMs });

  it('a ksoftirqd wait accounted in the interval of the wake-up is added: the first token of the hour run, 19 ms late', () => {
    const t = createLatenessTracker();
    t.checkpoint(n(0, 0, 0, 100));
    // slept 1.9 of 2 ms waiting for the first token; meanwhile ksoftirqd got its CPU after 19 ms in the run queue
    expect(t.checkpoint(n(2, 1.9, 0, 119))).toBeCloseTo(0.1 + 19, 9);
    // the next interval has a sleep and no new kernel wait: the bound is back to its own work
    expect(t.checkpoint(n(4, 3.85, 0, 119))).toBeCloseTo(0.05, 9);
  });

  it('is added in an interval without a sleep too (bytes held while the thread was busy)', () => {
    const t = createLatenessTracker();
    t.checkpoint(n(0, 0, 0, 0));
    expect(t.checkpoint(n(2, 1.9, 0, 0))).toBeCloseTo(0.1, 9);
    expect(t.checkpoint(n(3, 1.9, 0, 4))).toBeCloseTo(0.1 + 1 + 4, 9);
  });

  it('not visible (null) on either side: not counted, the bound is the thread’s own', () => {
    const t = createLatenessTracker();
    t.checkpoint(n(0, 0, 0, null));
    expect(t.checkpoint(n(2, 1.9, 0.2, 50))).toBeCloseTo(0.1 + 0.2, 9);
    expect(t.checkpoint(n(4, 3.8, 0.2, null))).toBeCloseTo(0.1, 9);
  });
});

describe('readNetWaitMs on this machine', () => {
  it('finds the kernel network threads where /proc shows them, and their wait never goes back', () => {
    const visible = readdirSync('/proc').some((e) => {
      try {
        return /^\d+$/.test(e) && NET_THREAD_COMM.test(readFileSync(`/proc/${e}/comm`, 'latin1').trim());
      } catch {
        return false;
      }
    });
    const a = readNetWaitMs();
    const b = readNetWaitMs();
    if (!visible) {
      expect(a).toBeNull();
      return;
    }
    expect(a).not.toBeNull();
    expect(b!).toBeGreaterThanOrEqual(a!);
  });
});

describe('computeTimingBound', () => {
  it('TTFT, TTFAT and E2E: the stamp’s lateness plus how early request start may be; speed: the larger end lateness over the span', () => {
    const b = computeTimingBound(input({ lateness: { 100: 0.4, 355: 1.275, 356: 2 } }));
    expect(b.ttftMs).toBeCloseTo(0.5, 9);
    expect(b.ttfatMs).toBeCloseTo(0.5, 9);
    expect(b.e2eMs).toBeCloseTo(2.1, 9);
    // span 255 ms, max(0.4, 1.275) = 1.275 ms → 0.5 %
    expect(b.speedPct).toBeCloseTo(0.5, 6);
    expect(b.evidence).toMatchObject({ firstTokenLatenessMs: 0.4, lastTokenLatenessMs: 1.275, endLatenessMs: 2, startSlackMs: 0.1 });
  });

  it('a late first token widens the speed bound as much as a late last one', () => {
    const b = computeTimingBound(input({ lateness: { 100: 2.55, 355: 0, 356: 0 } }));
    expect(b.speedPct).toBeCloseTo(1, 6);
    expect(b.ttftMs).toBeCloseTo(2.65, 9);
  });

  it('unknown lateness of a defining stamp is an unknown bound, never a number', () => {
    const b = computeTimingBound(input({ lateness: { 100: 0.2, 356: 0.1 } })); // last token unknown
    expect(b.speedPct).toBeNull();
    expect(b.ttftMs).toBeCloseTo(0.3, 9);
    const inf = computeTimingBound(input({ lateness: { 100: Infinity, 355: 0.1, 356: 0.1 } }));
    expect(inf.ttftMs).toBeNull();
    expect(inf.speedPct).toBeNull();
    const noSlack = computeTimingBound(input({ lateness: { 100: 0.2, 355: 0.1, 356: 0.1 }, startSlackMs: null }));
    expect(noSlack.ttftMs).toBeNull();
    expect(noSlack.speedPct).not.toBeNull(); // request start cancels out of the speed
  });

  it('counts the token events coalesced into the defining reads', () => {
    const b = computeTimingBound(input({ timeline: timeline([100, 100, 100, 101, 200, 200]), lateness: { 100: 3, 200: 0.1 }, e2eMs: 200 }));
    expect(b.evidence.firstReadEvents).toBe(3);
    expect(b.evidence.lastReadEvents).toBe(2);
    expect(b.speedPct).toBeCloseTo(3, 6);
  });

  it('keeps the largest bound of any token stamp (a middle one too), unknown when any is unknown', () => {
    const b = computeTimingBound(input({ timeline: timeline([100, 150, 200]), lateness: { 100: 0.2, 150: 4.5, 200: 0.3 }, e2eMs: 200, lastTokenMs: 200 }));
    expect(b.evidence.maxTokenLatenessMs).toBeCloseTo(4.5, 9);
    expect(b.speedPct).toBeCloseTo((0.3 / 100) * 100, 6); // the middle stamp does not define the speed
    const unknownMiddle = computeTimingBound(input({ timeline: timeline([100, 150, 200]), lateness: { 100: 0.2, 200: 0.3 }, e2eMs: 200, lastTokenMs: 200 }));
    expect(unknownMiddle.evidence.maxTokenLatenessMs).toBeNull();
    expect(unknownMiddle.speedPct).not.toBeNull();
  });

  it('no span (one event) has no speed bound; no TTFT figure has no TTFT bound', () => {
    const b = computeTimingBound(input({ timeline: timeline([100]), lateness: { 100: 0.1, 356: 0.1 } }));
    expect(b.speedPct).toBeNull();
    const none = computeTimingBound({ ...input({ lateness: {} }), ttftMs: null, ttfatMs: null, lastTokenMs: null, e2eMs: null, timeline: [] });
    expect(none).toMatchObject({ ttftMs: null, ttfatMs: null, e2eMs: null, speedPct: null });
  });
});

describe('isTimingCertain (TIMING_BOUND_LIMITS, inclusive)', () => {
  const ok = { outcome: 'success' as const, ttftMs: 100, outputTokensPerSecond: 1000 };
  const { speedPct: S, ttftMs: T } = TIMING_BOUND_LIMITS;
  it.each([
    ['both well inside', { ttftMs: 0.3, speedPct: 0.1 }, true],
    ['speed just under', { ttftMs: 0.3, speedPct: S - 1e-6 }, true],
    ['speed at the limit', { ttftMs: 0.3, speedPct: S }, true],
    ['speed just over', { ttftMs: 0.3, speedPct: S + 1e-6 }, false],
    ['TTFT just under', { ttftMs: T - 1e-6, speedPct: 0.1 }, true],
    ['TTFT at the limit', { ttftMs: T, speedPct: 0.1 }, true],
    ['TTFT just over', { ttftMs: T + 1e-6, speedPct: 0.1 }, false],
    ['speed bound unknown', { ttftMs: 0.3, speedPct: null }, false],
    ['TTFT bound unknown', { ttftMs: null, speedPct: 0.1 }, false],
  ])('%s', (_name, bound, expected) => {
    expect(isTimingCertain(ok, bound)).toBe(expected);
  });

  it('a success without a bound is uncertain; a failure is judged by its failure; no speed figure needs no speed bound', () => {
    expect(isTimingCertain(ok, null)).toBe(false);
    expect(isTimingCertain({ outcome: 'error', ttftMs: null, outputTokensPerSecond: null }, null)).toBe(true);
    expect(isTimingCertain({ ...ok, outputTokensPerSecond: null }, { ttftMs: 1, speedPct: null })).toBe(true);
  });
});
