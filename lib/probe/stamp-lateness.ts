/**
 * How late may a timestamp taken now have been? The process's own evidence, per thread
 * (decision 180).
 *
 * A read stamp (./request-timing.ts) is taken in the socket's data callback. The bytes arrived in
 * the kernel at some earlier moment A; the stamp S is late by S − A. Two things make it late: the
 * thread was runnable but not running (waiting in the CPU run queue: the busy machine), or it was
 * running something else (our own parse slices, GC, other callbacks of the same poll: the busy
 * process). The evidence for both:
 *
 * - **Loop idle time** (`performance.eventLoopUtilization().idle`, libuv's time blocked in
 *   epoll_wait, cumulative). While the loop is blocked no data is pending for it (libuv's epoll is
 *   level-triggered): data that arrives wakes it. So the data of a read arrived after the start of
 *   the last real sleep before the read.
 * - **Run-queue wait** (`/proc/thread-self/schedstat`, 2nd field, cumulative ns; Linux): the wake-
 *   up from that sleep is counted as idle by libuv, yet the thread may have waited in the run queue
 *   for a CPU before epoll_wait returned. That wait is lateness too, and only schedstat shows it.
 *
 * Checkpoints are taken at every read stamp, at request start and by a 2 ms ticker while a probe
 * runs. Between consecutive checkpoints c and c' (wall dt, idle dIdle, run-queue dRq), the interval
 * held a real sleep when dIdle − dRq ≥ {@link MIN_SLEEP_MS} (idle that was not merely a wait for
 * the CPU inside the syscall: an epoll_wait that returns at once because data was pending accrues
 * a few µs of idle, or its run-queue wait). The bound of a stamp at checkpoint S is then
 *
 *   (wall − idle over the checkpoints since the start of the last interval with a real sleep)
 *     + (run-queue wait in that interval)
 *   + (wall time of every later interval without a real sleep)
 *
 * i.e. everything since the last moment the thread was provably waiting for data, except the time
 * it provably slept. It is an upper bound, not an estimate: it counts time before the bytes arrived
 * as possible lateness. Without schedstat (not Linux) a wake-up's run-queue wait is invisible, so
 * the bound is unknown (Infinity): unknown is never a number (the measurement is not rankable).
 *
 * - **The kernel's deferred network processing** (decision 308): on loopback and for a NIC alike, a
 *   received packet reaches the socket in the kernel's NET_RX softirq. On a busy machine the
 *   kernel defers that work to its per-CPU `ksoftirqd/N` threads (threaded NAPI: `napi/…`), which
 *   wait in the run queue like any thread: the bytes then reach our socket late, and neither our
 *   idle time nor our run-queue wait shows it (the one-hour calibration run: first tokens 6-19 ms
 *   after the server's write had returned, with our own bound ≤ 0.5 ms, while ksoftirqd waited
 *   tens of ms per 5 s). Such a wait is accounted (schedstat field 2 of that thread) when the
 *   thread gets its CPU, i.e. just before it delivers what it held, so each interval adds the
 *   increase of their summed wait in it ({@link ThreadClockReading.netWaitMs}: an upper bound of
 *   the wait of the one that carried our packet). Where the kernel
 *   threads are not visible (a PID namespace) this evidence is absent and the bound is as before.
 *
 * - **Oversleeping its own timer** (decision 308): while a probe runs, the 2 ms ticker bounds every
 *   sleep, so a sleep longer than {@link MAX_SLEEP_MS} means the thread could not wake when its
 *   timer (or data) said: on a virtual machine, the hypervisor took the vCPU (steal time, ~7 % of
 *   this machine's CPU time), and a remote wake-up is then queued on the stolen vCPU, so the wait
 *   shows in neither the idle time nor the run-queue wait. Such an interval is counted whole: the
 *   bytes read at its end may have waited since it began.
 *
 * GC pauses (PerformanceObserver 'gc') run on the thread, so they are already inside wall − idle;
 * they are collected as evidence ({@link gcPauseMsBetween}), not added again.
 *
 * Cost per checkpoint: one performance.now(), one eventLoopUtilization() (~0.3 µs) and one pread of
 * a 40-byte proc file (~3 µs) on this machine, plus one per network-processing kernel thread (one
 * per CPU).
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { performance as perfHooks, PerformanceObserver } from 'node:perf_hooks';
import type { CheckpointRun } from './drain-bound';

/** Idle time (ms) in an interval beyond its run-queue wait that counts as a real sleep. */
export const MIN_SLEEP_MS = 0.02;
/** Checkpoint period of the ticker while a probe is running, ms. */
export const TICK_MS = 2;
/**
 * Longest a sleep can last while the ticker runs, ms: its period, plus libuv's whole-millisecond
 * timeouts (a 2 ms timer fires after up to 3 ms) and timer slack. A longer sleep overslept its own
 * timer (decision 308).
 */
export const MAX_SLEEP_MS = TICK_MS + 1.5;

/** Cumulative readings of one thread, ms; runQueueMs null when the platform has no schedstat. */
export interface ThreadClockReading {
  /** performance.now() */
  nowMs: number;
  /** cumulative event-loop idle (blocked in the event provider), ms */
  idleMs: number;
  /** cumulative run-queue wait of this thread, ms; null when unknown */
  runQueueMs: number | null;
  /**
   * cumulative run-queue wait of the kernel's network-processing threads (ksoftirqd/N, napi/…),
   * summed, ms; undefined or null when they are not visible (then not counted)
   */
  netWaitMs?: number | null;
  /**
   * The longest the thread can sleep between two checkpoints, ms (default {@link MAX_SLEEP_MS}:
   * the ticker wakes it); a sleep beyond it overslept. Injected test clocks that model a thread
   * sleeping up to each stamp (lib/probe/test-support/injected-lateness.ts) give Infinity.
   */
  maxSleepMs?: number;
}

/** A lateness tracker over one thread's readings (pure; the module's default reads the real ones). */
export interface LatenessTracker {
  /**
   * Takes a checkpoint with `reading` (non-decreasing times) and returns the bound, ms, on how late
   * a stamp taken at `reading.nowMs` may be; Infinity when unknown (no sleep seen yet, no run-queue
   * evidence).
   */
  checkpoint(reading: ThreadClockReading): number;
}

/** Builds a tracker (tests feed it recorded readings; production uses {@link checkpointNow}). */
export function createLatenessTracker(): LatenessTracker {
  let last: ThreadClockReading | null = null;
  // Wall − idle since the start of the last interval with a real sleep, plus that interval's run-queue wait.
  let bound = Number.POSITIVE_INFINITY;
  return {
    checkpoint(reading) {
      const prev = last;
      last = reading;
      if (!prev || reading.runQueueMs === null || prev.runQueueMs === null) {
        if (reading.runQueueMs === null) bound = Number.POSITIVE_INFINITY;
        return bound;
      }
      const dt = Math.max(0, reading.nowMs - prev.nowMs);
      const dIdle = Math.max(0, reading.idleMs - prev.idleMs);
      const dRq = Math.max(0, reading.runQueueMs - prev.runQueueMs);
      // Bytes the kernel held back in this interval reach us at most that much late (decision 308).
      const dNet = reading.netWaitMs != null && prev.netWaitMs != null ? Math.max(0, reading.netWaitMs - prev.netWaitMs) : 0;
      const sleep = dIdle - dRq;
      // A sleep longer than the ticker allows overslept its own timer: the thread was held where
      // neither idle nor run-queue time can tell (a vCPU the hypervisor took: steal time), so the
      // bytes it then read may have waited since the interval began (decision 308).
      if (sleep > (reading.maxSleepMs ?? MAX_SLEEP_MS)) bound = dt + dNet;
      else if (sleep >= MIN_SLEEP_MS) bound = Math.max(0, dt - dIdle) + dRq + dNet;
      else bound += dt + dNet;
      return bound;
    },
  };
}

// ---------------- this thread's real readings ----------------
let schedstatFd: number | null | undefined;
const schedBuf = Buffer.alloc(96);

/** This thread's cumulative run-queue wait, ms (schedstat field 2), or null when unavailable. */
export function readRunQueueMs(): number | null {
  if (schedstatFd === undefined) {
    try {
      // "thread-self" is resolved at open: the descriptor keeps reading this thread's file.
      schedstatFd = openSync('/proc/thread-self/schedstat', 'r');
    } catch {
      schedstatFd = null;
    }
  }
  if (schedstatFd === null) return null;
  try {
    return readSchedstatRunDelayMs(schedstatFd);
  } catch {
    closeSync(schedstatFd);
    schedstatFd = null;
    return null;
  }
}

/** Descriptors of the kernel's network-processing threads' schedstat files (null: none visible). */
let netThreadFds: number[] | null | undefined;

/** Kernel threads that run deferred network receive work: ksoftirqd/N, threaded NAPI napi/…. */
export const NET_THREAD_COMM = /^(ksoftirqd\/\d+|napi\/.*)$/;

/**
 * Summed cumulative run-queue wait of the kernel's network-processing threads, ms; null when none
 * is visible (not Linux, or a PID namespace that hides kernel threads). Found once per thread by a
 * scan of /proc (kernel threads live as long as the CPU); one pread per thread after that.
 */
export function readNetWaitMs(): number | null {
  if (netThreadFds === undefined) {
    const fds: number[] = [];
    try {
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          if (NET_THREAD_COMM.test(readFileSync(`/proc/${entry}/comm`, 'latin1').trim())) fds.push(openSync(`/proc/${entry}/schedstat`, 'r'));
        } catch {
          // the process ended, or its files are not ours to read
        }
      }
    } catch {
      // no /proc
    }
    netThreadFds = fds.length > 0 ? fds : null;
  }
  if (netThreadFds === null) return null;
  let total = 0;
  try {
    for (const fd of netThreadFds) {
      const ms = readSchedstatRunDelayMs(fd);
      if (ms === null) return null;
      total += ms;
    }
  } catch {
    // a kernel thread gone (a CPU taken offline): no evidence this time, the rest stays open
    return null;
  }
  return total;
}

/**
 * Field 2 (run-queue wait, ns) of the schedstat file open as `fd`, in ms; null when it does not
 * parse. Throws when the read fails (the caller decides whether to give the file up).
 */
function readSchedstatRunDelayMs(fd: number): number | null {
  const n = readSync(fd, schedBuf, 0, schedBuf.length, 0);
  const text = schedBuf.toString('latin1', 0, n);
  const a = text.indexOf(' ');
  const b = text.indexOf(' ', a + 1);
  const ns = Number(text.slice(a + 1, b < 0 ? undefined : b));
  return Number.isFinite(ns) ? ns / 1e6 : null;
}

/** The current reading of this thread. */
export function readThreadClock(nowMs: number = performance.now()): ThreadClockReading {
  return { nowMs, idleMs: perfHooks.eventLoopUtilization().idle, runQueueMs: readRunQueueMs(), netWaitMs: readNetWaitMs() };
}

let threadTracker = createLatenessTracker();
let clockSource: (nowMs: number) => ThreadClockReading = readThreadClock;

/**
 * Takes a checkpoint of this thread at `nowMs` (the stamp just taken) and returns how late that
 * stamp may be, ms (Infinity when unknown). Called on the read path: cheap, never throws.
 */
export function checkpointNow(nowMs: number = performance.now()): number {
  noteRun(nowMs);
  return threadTracker.checkpoint(clockSource(nowMs));
}

// Synchronous runs (./drain-bound.ts): a checkpoint after a microtask boundary starts a new run,
// whose floor is the last checkpoint taken before it.
let run: CheckpointRun = { serial: 0, floorMs: Number.NEGATIVE_INFINITY };
let inRun = false;
let lastCheckpointMs = Number.NEGATIVE_INFINITY;
const endRun = () => {
  inRun = false;
};

function noteRun(nowMs: number): void {
  if (!inRun) {
    inRun = true;
    run = { serial: run.serial + 1, floorMs: lastCheckpointMs };
    queueMicrotask(endRun);
  }
  if (nowMs > lastCheckpointMs) lastCheckpointMs = nowMs;
}

/** The synchronous run the latest checkpoint belongs to (serial and floor, ms). */
export function currentCheckpointRun(): CheckpointRun {
  return run;
}

/**
 * Replaces this thread's readings (tests that need a known verdict: lib/probe/test-support/
 * injected-lateness.ts); null restores the real ones. Starts a fresh tracker either way.
 */
export function setThreadClockSource(source: ((nowMs: number) => ThreadClockReading) | null, startSlack: number | null = null): void {
  clockSource = source ?? readThreadClock;
  injectedStartSlackMs = source ? startSlack : null;
  threadTracker = createLatenessTracker();
}

let injectedStartSlackMs: number | null = null;

/**
 * How early a request-start stamp taken at `sentAtMs` may be: the time until now (called in a
 * microtask after the synchronous write). Injected evidence may fix it (tests).
 */
export function measureStartSlackMs(sentAtMs: number): number {
  return injectedStartSlackMs ?? performance.now() - sentAtMs;
}

// ---------------- ticker and GC evidence while probes run ----------------
let active = 0;
let ticker: ReturnType<typeof setInterval> | null = null;
let gcObserver: PerformanceObserver | null = null;
/** Recent GC pauses of this thread: start (performance.now()) and duration, ms. */
const gcPauses: { startMs: number; durationMs: number }[] = [];
const GC_KEEP = 512;

/**
 * Marks one probe as running on this thread (call {@link releaseLatenessEvidence} when it ends):
 * keeps a checkpoint ticker (every {@link TICK_MS}, unref'd) and a GC observer while any probe runs.
 * The ticker keeps the interval before a read short, so its run-queue wait belongs to the wake-up
 * that delivered the read and not to unrelated wake-ups long before.
 */
export function holdLatenessEvidence(): void {
  active++;
  if (active > 1) return;
  checkpointNow();
  ticker = setInterval(() => checkpointNow(), TICK_MS);
  ticker.unref();
  try {
    gcObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        gcPauses.push({ startMs: e.startTime, durationMs: e.duration });
        if (gcPauses.length > GC_KEEP) gcPauses.splice(0, gcPauses.length - GC_KEEP);
      }
    });
    gcObserver.observe({ entryTypes: ['gc'] });
  } catch {
    gcObserver = null;
  }
}

/** Ends one {@link holdLatenessEvidence}. */
export function releaseLatenessEvidence(): void {
  if (active === 0) return;
  active--;
  if (active > 0) return;
  if (ticker) clearInterval(ticker);
  ticker = null;
  gcObserver?.disconnect();
  gcObserver = null;
}

/** GC pause time of this thread overlapping [fromMs, toMs] (performance.now()), ms (evidence only). */
export function gcPauseMsBetween(fromMs: number, toMs: number): number {
  let total = 0;
  for (const p of gcPauses) {
    const a = Math.max(fromMs, p.startMs);
    const b = Math.min(toMs, p.startMs + p.durationMs);
    if (b > a) total += b - a;
  }
  return total;
}
