/**
 * A stand-in for createLoopDelayMonitor in task tests: every monitor it starts reports the given
 * p99 event-loop delay (ms) and judges it against the given threshold, so a test can make a probe
 * "stalled" without blocking the loop.
 */
import { MAX_LOOP_DELAY_P99_MS, type LoopDelayMonitor } from '../loop-delay-monitor';

export function fixedLoopDelay(p99Ms: number, thresholdP99Ms = MAX_LOOP_DELAY_P99_MS): () => LoopDelayMonitor {
  return () => ({
    stop: () => ({ p50Ms: p99Ms, p99Ms, maxMs: p99Ms, meanMs: p99Ms, samples: 100, thresholdP99Ms, valid: p99Ms <= thresholdP99Ms }),
  });
}
