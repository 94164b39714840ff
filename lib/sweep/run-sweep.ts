/**
 * runSweep: holds N concurrent streams against one endpoint for a fixed time at each level of a
 * list, and returns each level's figures (./summarize-level.ts). Framework-free; the probe is a
 * black box (`probeEndpoint` by default) and the fetch it is given must be the SSRF-guarded one
 * for any submitted URL, exactly as for single probes.
 *
 * One level, N slots, each running requests back to back:
 * 1. warm-up: every slot's requests until every slot has completed one request AND `warmUpMs`
 *    has passed (capped at `maxWarmUpMs`). Slots start spread evenly over the first
 *    min(warmUpMs, MAX_RAMP_MS) (slot i after i/N of it): N streams of equal length started in the
 *    same instant would stay in lockstep, every round a burst of N starts and N ends that neither
 *    real traffic nor a fair measurement wants (decision 150). Ramp-up, cold caches and an engine's first admission
 *    decisions land here, not in the figures; afterwards every open stream started while N were
 *    open.
 * 2. steady window of `durationMs`: requests started here are the level's "measured" requests.
 * 3. tail: slots keep sending ("tail" requests) until every measured request has ended, so each
 *    measured request ran at concurrency N from start to end; then the tail requests are
 *    cancelled.
 * Every stream of every phase is handed to `onStream` as evidence (the result and its timeline).
 *
 * Stopping: an HTTP 429 / rate-limit error stops the level at once (no new requests; in-flight
 * ones finish) and ends the sweep with reason `rate_limited`; so does a refusal by the SSRF guard
 * (`blocked`: the address will not change between requests). Failures of any kind are judged while
 * the level runs (issue 19, decision 160): `maxConsecutiveFailures` failures in a row end it with
 * `consecutive_failures`, and more than `maxErrorShare` failures among the last `errorWindow`
 * results with `error_rate`. After each failure its slot waits (exponential backoff with jitter:
 * see {@link backoffDelayMs}) before its next request. `maxRequests` bounds the requests of the
 * whole sweep (`request_budget`). A level whose measured success rate is below `minSuccessRate`
 * ends the sweep with `low_success_rate`; `signal` cancels everything (`cancelled`). With
 * `stopOnInvalid`, a level whose event-loop delay made its timing unreliable (p99 above the
 * probe's threshold) ends the sweep with `invalid_measurements`.
 *
 * Clock: epoch ms from the monotonic clock (performance.timeOrigin + performance.now()), so a
 * window can be compared with another local process's records (the reference server's write log).
 */
import { setMaxListeners } from 'node:events';
import { createLoopDelayMonitor, MAX_LOOP_DELAY_P99_MS, type LoopDelayMonitor } from '../probe/loop-delay-monitor';
import { probeEndpoint } from '../probe/probe-endpoint';
import type { ProbeRequest, ProbeResult } from '../probe/types';
import {
  DEFAULT_LATENCY_OBJECTIVE,
  summarizeLevel,
  type LatencyObjective,
  type SweepLevelSummary,
  type SweepPhase,
  type SweepStopReason,
  type SweepStream,
} from './summarize-level';

/** Default concurrency levels (issue 15). */
export const DEFAULT_CONCURRENCY_LEVELS = [1, 2, 4, 8, 16, 32, 64, 128, 256] as const;
/** Largest concurrency a sweep may ask for. */
export const MAX_SWEEP_CONCURRENCY = 1024;
/** Default steady window per level, ms. */
export const DEFAULT_SWEEP_DURATION_MS = 30_000;
/** Default minimum warm-up per level, ms (each slot also completes one request first). */
export const DEFAULT_SWEEP_WARM_UP_MS = 5_000;
/** Default success-rate floor of a level's measured requests; below it the sweep stops. */
export const DEFAULT_MIN_SUCCESS_RATE = 0.9;
/** Longest ramp over which a level's slots start, ms (within the warm-up; see runSweep). */
export const MAX_RAMP_MS = 1_000;
/**
 * Failures in a row (any kind, any phase, in completion order within a level) that end the sweep
 * (`consecutive_failures`). Five: a healthy endpoint at its consented concurrency rarely fails
 * five times running; a dead one is left after five requests plus those already in flight.
 */
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 5;
/** Results (the latest, in completion order within a level) over which the error share is judged. */
export const DEFAULT_ERROR_WINDOW = 20;
/**
 * The error share above which (strictly) the sweep ends (`error_rate`): more than 5 failures among
 * the last 20 results. Judged once a level has `errorWindow` results; at or below it the level runs on.
 */
export const DEFAULT_MAX_ERROR_SHARE = 0.25;
/** Backoff after a failure: the first wait is drawn from [base/2, base] ms, doubling per failure in a row. */
export const DEFAULT_BACKOFF_BASE_MS = 100;
/** Longest backoff wait, ms (before jitter). */
export const DEFAULT_BACKOFF_MAX_MS = 10_000;
/** Requests a sweep may send in all (every phase of every level) unless told fewer. */
export const DEFAULT_MAX_SWEEP_REQUESTS = 20_000;

/**
 * The wait before a slot's next request after a failure, ms: "equal jitter" exponential backoff
 * (AWS Architecture Blog, "Exponential Backoff and Jitter", 2015): d = min(maxMs, baseMs ·
 * 2^(consecutiveFailures − 1)), wait = d/2 + random·d/2, so it is at least d/2 (visible in request
 * times) and slots that failed together do not retry together. 0 when `consecutiveFailures` ≤ 0.
 */
export function backoffDelayMs(consecutiveFailures: number, o: { baseMs: number; maxMs: number; random: () => number }): number {
  if (consecutiveFailures <= 0) return 0;
  const d = Math.min(o.maxMs, o.baseMs * 2 ** Math.min(consecutiveFailures - 1, 30));
  return d / 2 + o.random() * (d / 2);
}

/** One level's figures plus what the sweep saw while running it. */
/**
 * At most this share of a level's measured successes may be `timing_uncertain` for the level to be
 * valid (decision 288): with 10 % of streams of unknown error, a level's median can move at most
 * from the p44 to the p56 of the streams the probe vouched for; more, and the level is marked.
 */
export const MAX_TIMING_UNCERTAIN_SHARE = 0.1;

/**
 * Whether a level's timing can be trusted: its loops' delay p99 within MAX_LOOP_DELAY_P99_MS
 * (inclusive), and timing_uncertain streams at most MAX_TIMING_UNCERTAIN_SHARE of the measured
 * successes (inclusive). A level with no measured success has no timing to distrust. Pure.
 */
export function isLevelTimingValid(loopDelayP99Ms: number, timingUncertainStreams: number, measuredSuccesses: number): boolean {
  if (loopDelayP99Ms > MAX_LOOP_DELAY_P99_MS) return false;
  return timingUncertainStreams <= MAX_TIMING_UNCERTAIN_SHARE * measuredSuccesses + 1e-9;
}

export interface SweepLevelResult extends SweepLevelSummary {
  /** streams by phase, all kept as evidence */
  streams: Record<SweepPhase, number>;
  /**
   * Event-loop delay p99 (ms, lib/probe/loop-delay-monitor) of the loops that timed the level's
   * measured streams: the worst of this process's loop over the steady window and, for streams run
   * on probe threads, each measured stream's own thread monitor. Warm-up (start ramp, connection
   * set-up) is left out: no measured stream sees it.
   */
  loopDelayP99Ms: number;
  /**
   * Measured successful streams whose own timing bound was unknown or beyond the published
   * accuracy (reason `timing_uncertain`, lib/probe/timing-bound.ts, decision 181).
   */
  timingUncertainStreams: number;
  /**
   * false when the timing is not trustworthy: loopDelayP99Ms exceeded the probe's threshold, or more
   * than {@link MAX_TIMING_UNCERTAIN_SHARE} of the measured successes were timing_uncertain
   * (decision 288: the loop's p99 cannot see a thread kept off the CPU; each stream's bound can).
   */
  valid: boolean;
  /** set on the level that ended the sweep */
  stopReason: SweepStopReason | null;
}

/** What {@link runSweep} returns. */
export interface SweepResult {
  levels: SweepLevelResult[];
  /** null when every requested level ran */
  stopReason: SweepStopReason | null;
  stoppedAtConcurrency: number | null;
  objective: LatencyObjective;
  durationMs: number;
  warmUpMs: number;
  minSuccessRate: number;
  /** Requests started over every level (bounded by `maxRequests`). */
  requestsStarted: number;
}

/** Progress events for CLIs and live pages. */
export type SweepProgress =
  | { kind: 'level-started'; levelIndex: number; levelCount: number; concurrency: number }
  | { kind: 'stream-finished'; levelIndex: number; concurrency: number; phase: SweepPhase; measuredDone: number; elapsedMs: number; plannedMs: number }
  | { kind: 'level-finished'; levelIndex: number; levelCount: number; level: SweepLevelResult };

/** Options of {@link runSweep}. */
export interface RunSweepOptions {
  /** The request every stream sends (its `signal` and `onProgress` are set by the sweep). */
  request: Omit<ProbeRequest, 'signal' | 'onProgress'>;
  /** Concurrency levels in the order run; integers 1..MAX_SWEEP_CONCURRENCY. */
  concurrencyLevels?: readonly number[];
  /** Steady window per level, ms (> 0). */
  durationMs?: number;
  /** Minimum warm-up per level, ms (≥ 0). */
  warmUpMs?: number;
  /** Longest warm-up per level, ms (default: the request's total deadline). */
  maxWarmUpMs?: number;
  objective?: LatencyObjective;
  /** In [0, 1]. */
  minSuccessRate?: number;
  /** End the sweep at a level whose event-loop delay made it invalid (default false: mark it). */
  stopOnInvalid?: boolean;
  /** Failures in a row that end the sweep (integer ≥ 1, default DEFAULT_MAX_CONSECUTIVE_FAILURES). */
  maxConsecutiveFailures?: number;
  /** Results over which the error share is judged (integer ≥ 1, default DEFAULT_ERROR_WINDOW). */
  errorWindow?: number;
  /** Error share in [0, 1] above which the sweep ends (default DEFAULT_MAX_ERROR_SHARE). */
  maxErrorShare?: number;
  /**
   * Backoff after failures (defaults DEFAULT_BACKOFF_BASE_MS / DEFAULT_BACKOFF_MAX_MS, Math.random).
   * `onWait` hears each wait as it starts: the failures in a row behind it and its length, ms.
   */
  backoff?: { baseMs?: number; maxMs?: number; random?: () => number; onWait?: (wait: { consecutiveFailures: number; waitMs: number }) => void };
  /** Requests the sweep may start in all (integer ≥ 1, default DEFAULT_MAX_SWEEP_REQUESTS). */
  maxRequests?: number;
  /** Starts an event-loop delay monitor (default createLoopDelayMonitor; tests inject a fixed one). */
  monitorLoopDelay?: () => LoopDelayMonitor;
  /** The probe (default probeEndpoint). */
  probe?: (req: ProbeRequest) => Promise<ProbeResult>;
  signal?: AbortSignal;
  /** Evidence sink: every stream of every phase, as it ends. */
  onStream?: (stream: SweepStream) => void;
  onProgress?: (progress: SweepProgress) => void;
}

/** Epoch ms on the monotonic clock. */
export const sweepClock = (): number => performance.timeOrigin + performance.now();

/** Checks sweep options; throws RangeError naming the option. */
export function validateSweepOptions(
  o: Pick<
    RunSweepOptions,
    'concurrencyLevels' | 'durationMs' | 'warmUpMs' | 'minSuccessRate' | 'maxConsecutiveFailures' | 'errorWindow' | 'maxErrorShare' | 'maxRequests'
  >,
): void {
  const levels = o.concurrencyLevels ?? DEFAULT_CONCURRENCY_LEVELS;
  if (levels.length === 0) throw new RangeError('concurrencyLevels must not be empty');
  for (const n of levels) {
    if (!Number.isInteger(n) || n < 1 || n > MAX_SWEEP_CONCURRENCY)
      throw new RangeError(`concurrencyLevels: each level must be an integer 1-${MAX_SWEEP_CONCURRENCY}, got ${n}`);
  }
  if (o.durationMs !== undefined && !(o.durationMs > 0 && Number.isFinite(o.durationMs))) throw new RangeError('durationMs must be a positive number');
  if (o.warmUpMs !== undefined && !(o.warmUpMs >= 0 && Number.isFinite(o.warmUpMs))) throw new RangeError('warmUpMs must be a non-negative number');
  if (o.minSuccessRate !== undefined && !(o.minSuccessRate >= 0 && o.minSuccessRate <= 1)) throw new RangeError('minSuccessRate must be in [0, 1]');
  if (o.maxErrorShare !== undefined && !(o.maxErrorShare >= 0 && o.maxErrorShare <= 1)) throw new RangeError('maxErrorShare must be in [0, 1]');
  for (const k of ['maxConsecutiveFailures', 'errorWindow', 'maxRequests'] as const) {
    const v = o[k];
    if (v !== undefined && !(Number.isInteger(v) && v >= 1)) throw new RangeError(`${k} must be an integer ≥ 1`);
  }
}

/**
 * Runs the sweep. Never throws for endpoint failures (they are counted and may stop the sweep);
 * throws RangeError for invalid options. Resolves when the last level (or the stopping one) ended.
 */
export async function runSweep(options: RunSweepOptions): Promise<SweepResult> {
  validateSweepOptions(options);
  const levels = [...(options.concurrencyLevels ?? DEFAULT_CONCURRENCY_LEVELS)];
  const durationMs = options.durationMs ?? DEFAULT_SWEEP_DURATION_MS;
  const warmUpMs = options.warmUpMs ?? DEFAULT_SWEEP_WARM_UP_MS;
  const maxWarmUpMs = Math.max(warmUpMs, options.maxWarmUpMs ?? options.request.deadlines.totalMs);
  const objective = options.objective ?? DEFAULT_LATENCY_OBJECTIVE;
  const minSuccessRate = options.minSuccessRate ?? DEFAULT_MIN_SUCCESS_RATE;
  const probe = options.probe ?? probeEndpoint;
  const results: SweepLevelResult[] = [];
  let stopReason: SweepStopReason | null = null;
  const guard: ErrorGuard = {
    maxConsecutiveFailures: options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES,
    errorWindow: options.errorWindow ?? DEFAULT_ERROR_WINDOW,
    maxErrorShare: options.maxErrorShare ?? DEFAULT_MAX_ERROR_SHARE,
    backoff: {
      baseMs: options.backoff?.baseMs ?? DEFAULT_BACKOFF_BASE_MS,
      maxMs: options.backoff?.maxMs ?? DEFAULT_BACKOFF_MAX_MS,
      random: options.backoff?.random ?? Math.random,
      onWait: options.backoff?.onWait,
    },
    maxRequests: options.maxRequests ?? DEFAULT_MAX_SWEEP_REQUESTS,
    started: 0,
  };

  for (let levelIndex = 0; levelIndex < levels.length; levelIndex++) {
    const concurrency = levels[levelIndex]!;
    options.onProgress?.({ kind: 'level-started', levelIndex, levelCount: levels.length, concurrency });
    const level = await runLevel({ ...options, concurrency, levelIndex, durationMs, warmUpMs, maxWarmUpMs, objective, probe, guard });
    let reason: SweepStopReason | null = level.stopReason;
    if (!reason && level.successRate !== null && level.successRate < minSuccessRate) reason = 'low_success_rate';
    if (!reason && options.stopOnInvalid && !level.valid) reason = 'invalid_measurements';
    level.stopReason = reason;
    results.push(level);
    options.onProgress?.({ kind: 'level-finished', levelIndex, levelCount: levels.length, level });
    if (reason) {
      stopReason = reason;
      break;
    }
  }
  return {
    levels: results,
    stopReason,
    stoppedAtConcurrency: stopReason ? results[results.length - 1]!.concurrency : null,
    objective,
    durationMs,
    warmUpMs,
    minSuccessRate,
    requestsStarted: guard.started,
  };
}

/** The sweep's error rules and request budget, shared by its levels. */
interface ErrorGuard {
  maxConsecutiveFailures: number;
  errorWindow: number;
  maxErrorShare: number;
  backoff: { baseMs: number; maxMs: number; random: () => number; onWait?: (wait: { consecutiveFailures: number; waitMs: number }) => void };
  maxRequests: number;
  /** requests started so far, every level */
  started: number;
}

/** Waits `ms` unless `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

interface LevelContext extends RunSweepOptions {
  concurrency: number;
  levelIndex: number;
  durationMs: number;
  warmUpMs: number;
  maxWarmUpMs: number;
  objective: LatencyObjective;
  probe: (req: ProbeRequest) => Promise<ProbeResult>;
  guard: ErrorGuard;
}

async function runLevel(ctx: LevelContext): Promise<SweepLevelResult> {
  const { concurrency, durationMs } = ctx;
  const startMonitor = ctx.monitorLoopDelay ?? createLoopDelayMonitor;
  const monitor = startMonitor();
  const t0 = sweepClock();
  const minWarmEnd = t0 + ctx.warmUpMs;
  const warmCap = t0 + ctx.maxWarmUpMs;
  let windowStart: number | null = null;
  let firstRoundLeft = concurrency;
  let measuredInFlight = 0;
  let measuredDone = 0;
  let stopIssuing = false;
  let levelStop: SweepStopReason | null = null;
  const tails = new Set<AbortController>();
  const streams: SweepStream[] = [];
  const counts: Record<SweepPhase, number> = { warmup: 0, measured: 0, tail: 0 };

  // Validity is judged over the steady window only: the warm-up holds the start ramp and the
  // connection set-up, which no measured stream sees.
  let windowMonitor: LoopDelayMonitor | null = null;
  let windowMonitorTimer: ReturnType<typeof setTimeout> | null = null;
  const setWindowStart = (ws: number) => {
    windowStart = ws;
    windowMonitorTimer = setTimeout(
      () => {
        windowMonitor = startMonitor();
      },
      Math.max(0, ws - sweepClock()),
    );
  };
  const getWindowStart = (now: number) => {
    if (windowStart === null && now >= warmCap) setWindowStart(warmCap);
    return windowStart;
  };
  const windowOver = (now: number) => {
    const ws = getWindowStart(now);
    return ws !== null && now >= ws + durationMs;
  };
  const abortTails = () => {
    for (const c of tails) c.abort(new Error('the level ended'));
    tails.clear();
  };
  // Wakes slots sleeping in a ramp or a backoff when the level stops.
  const stopped = new AbortController();
  setMaxListeners(0, stopped.signal); // one sleeping slot each
  const stop = (reason: SweepStopReason) => {
    if (stopIssuing) return;
    stopIssuing = true;
    levelStop = reason;
    abortTails();
    stopped.abort();
  };
  const onCancel = () => {
    stopIssuing = false;
    stop('cancelled');
  };
  // Failures in completion order: the run of failures and the latest `errorWindow` results.
  const guard = ctx.guard;
  let consecutiveFailures = 0;
  const recent: boolean[] = [];
  let recentFailures = 0;
  const judge = (failed: boolean): number => {
    recent.push(failed);
    if (failed) recentFailures++;
    if (recent.length > guard.errorWindow && recent.shift()) recentFailures--;
    consecutiveFailures = failed ? consecutiveFailures + 1 : 0;
    if (consecutiveFailures >= guard.maxConsecutiveFailures) stop('consecutive_failures');
    else if (recent.length >= guard.errorWindow && recentFailures / recent.length > guard.maxErrorShare) stop('error_rate');
    return consecutiveFailures;
  };
  if (ctx.signal?.aborted) onCancel();
  ctx.signal?.addEventListener('abort', onCancel, { once: true });

  const rampMs = Math.min(ctx.warmUpMs, MAX_RAMP_MS);
  const runSlot = async (slot: number) => {
    if (rampMs > 0 && slot > 0) await sleep((slot * rampMs) / concurrency, stopped.signal);
    let first = true;
    while (!stopIssuing) {
      const now = sweepClock();
      const ws = getWindowStart(now);
      const phase: SweepPhase = ws === null || now < ws ? 'warmup' : now < ws + durationMs ? 'measured' : 'tail';
      if (phase === 'tail' && measuredInFlight === 0) break;
      if (guard.started >= guard.maxRequests) {
        stop('request_budget');
        break;
      }
      guard.started++;
      const own = new AbortController();
      if (phase === 'tail') tails.add(own);
      if (phase === 'measured') measuredInFlight++;
      const signal = ctx.signal ? AbortSignal.any([ctx.signal, own.signal]) : own.signal;
      const callAt = sweepClock();
      const result = await ctx.probe({ ...ctx.request, signal });
      const doneAt = sweepClock();
      tails.delete(own);
      // Request start: the probe's times are ms since it; the stream ended e2eMs after it.
      const startedAtMs = result.e2eMs !== null ? Math.max(callAt, doneAt - result.e2eMs) : callAt;
      const stream: SweepStream = { concurrency, levelIndex: ctx.levelIndex, slot, phase, startedAtMs, result };
      streams.push(stream);
      counts[phase]++;
      ctx.onStream?.(stream);
      if (phase === 'measured') {
        measuredInFlight--;
        measuredDone++;
      }
      // A stream we cut (tail at the level's end, a stop, a cancel) is not the endpoint's failure.
      const cutByUs = own.signal.aborted || ctx.signal?.aborted === true;
      const failed = result.outcome === 'error' && !cutByUs;
      if (result.errorKind === 'rate_limited') stop('rate_limited');
      else if (result.errorKind === 'blocked' || result.errorKind === 'invalid_url') stop('blocked');
      const run = cutByUs ? consecutiveFailures : judge(failed);
      if (first) {
        first = false;
        firstRoundLeft--;
        if (firstRoundLeft === 0 && windowStart === null) setWindowStart(Math.max(doneAt, minWarmEnd));
      }
      if (measuredInFlight === 0 && windowOver(doneAt)) abortTails();
      ctx.onProgress?.({
        kind: 'stream-finished',
        levelIndex: ctx.levelIndex,
        concurrency,
        phase,
        measuredDone,
        elapsedMs: doneAt - t0,
        plannedMs: (windowStart ?? minWarmEnd) - t0 + durationMs,
      });
      if (failed && !stopIssuing) {
        const waitMs = backoffDelayMs(run, guard.backoff);
        guard.backoff.onWait?.({ consecutiveFailures: run, waitMs });
        await sleep(waitMs, stopped.signal);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, (_, slot) => runSlot(slot)));
  } finally {
    ctx.signal?.removeEventListener('abort', onCancel);
  }
  if (windowMonitorTimer) clearTimeout(windowMonitorTimer);
  const wholeLevel = monitor.stop();
  const loop = (windowMonitor as LoopDelayMonitor | null)?.stop() ?? wholeLevel;
  // Streams run on probe threads (lib/probe/probe-pool) were stamped by THOSE loops: the level's
  // delay is the worst of this loop's (over the window) and every measured stream's thread monitor.
  let loopDelayP99Ms = loop.p99Ms;
  for (const s of streams) {
    if (s.phase !== 'measured') continue;
    const threadLoop = (s.result as ProbeResult & { loopDelay?: { p99Ms: number } }).loopDelay;
    if (threadLoop && threadLoop.p99Ms > loopDelayP99Ms) loopDelayP99Ms = threadLoop.p99Ms;
  }
  let measuredSuccesses = 0;
  let timingUncertainStreams = 0;
  for (const s of streams) {
    if (s.phase !== 'measured' || s.result.outcome !== 'success') continue;
    measuredSuccesses++;
    if (s.result.notRankableReasons.includes('timing_uncertain')) timingUncertainStreams++;
  }
  const end = sweepClock();
  // A level stopped early (429, cancel) summarises the part of the window it had.
  const ws = windowStart ?? Math.min(end, Math.max(minWarmEnd, t0));
  const windowDurationMs = Math.max(1, Math.min(durationMs, end - ws));
  const summary = summarizeLevel(concurrency, streams, { startedAtMs: ws, durationMs: windowDurationMs }, ctx.objective);
  return {
    ...summary,
    streams: counts,
    loopDelayP99Ms,
    timingUncertainStreams,
    valid: isLevelTimingValid(loopDelayP99Ms, timingUncertainStreams, measuredSuccesses),
    stopReason: levelStop,
  };
}
