/**
 * Event-loop delay watch for probe workers. A probe's clock readings are only as good as the
 * event loop's promptness: when the loop is blocked, chunk arrival is noticed late and TTFT grows
 * while speed wobbles. Workers wrap each probe in a monitor and mark the measurement invalid when
 * the delay was excessive (DESIGN.md §3).
 *
 * One monitor for worker probes, CLI sweeps, benches and tests (decision 132): the stored
 * `event_loop_delay_p99_ms` is this summary's `p99Ms`, the 99th percentile of the delay samples
 * (one per `resolutionMs` tick) over the probe's span, and a measurement is valid when it is at most
 * {@link MAX_LOOP_DELAY_P99_MS}. Built on perf_hooks.monitorEventLoopDelay; reported values have
 * the sampling resolution removed, so an idle loop reads ~0 ms.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Validity threshold: p99 event-loop delay during the probe, ms (decision 132). Above it at least 1 %
 * of ticks ran five or more 10 ms intervals late: the process was starved, not merely jittery.
 */
export const MAX_LOOP_DELAY_P99_MS = 50;

/** Summary of the event-loop delay over a monitored interval. All in ms. */
export interface LoopDelaySummary {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  /** number of delay samples taken */
  samples: number;
  /** the threshold applied */
  thresholdP99Ms: number;
  /** false when p99Ms exceeded the threshold: mark the measurement invalid */
  valid: boolean;
}

/** A running monitor; `stop()` ends it and returns the summary (call once). */
export interface LoopDelayMonitor {
  stop(): LoopDelaySummary;
}

/**
 * Starts measuring event-loop delay now. `resolutionMs` is the sampling interval (≥ 1, default
 * 10); `thresholdP99Ms` decides `valid` (default {@link MAX_LOOP_DELAY_P99_MS}). Several monitors
 * may run at once (one per concurrent probe); each has its own histogram.
 */
export function createLoopDelayMonitor(options: { resolutionMs?: number; thresholdP99Ms?: number } = {}): LoopDelayMonitor {
  const resolutionMs = Math.max(1, Math.round(options.resolutionMs ?? 10));
  const thresholdP99Ms = options.thresholdP99Ms ?? MAX_LOOP_DELAY_P99_MS;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  let stopped: LoopDelaySummary | null = null;
  return {
    stop() {
      if (stopped) return stopped;
      histogram.disable();
      const samples = histogram.count;
      // Recorded values are whole timer intervals: subtract the resolution to get the delay.
      const delay = (ns: number) => (samples === 0 ? 0 : Math.max(0, ns / 1e6 - resolutionMs));
      const p99Ms = delay(histogram.percentile(99));
      stopped = {
        p50Ms: delay(histogram.percentile(50)),
        p99Ms,
        maxMs: delay(histogram.max),
        meanMs: samples === 0 ? 0 : delay(histogram.mean),
        samples,
        thresholdP99Ms,
        valid: p99Ms <= thresholdP99Ms,
      };
      return stopped;
    },
  };
}
