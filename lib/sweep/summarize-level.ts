/**
 * The figures of one sweep level, computed from its streams (recorded timelines), with no clock
 * and no network: the one computation every surface (CLI, worker, API, pages) uses.
 *
 * Definitions (also on /methodology):
 * - steady window: [startedAtMs, startedAtMs + durationMs] of the level, after warm-up; N streams
 *   are open for the whole window (warm-up before it, concurrency-holding "tail" requests after it).
 * - per-request figures (TPS/user, TTFT, success rate): the requests that STARTED inside the
 *   steady window ("measured" phase). TPS/user is the probe's output speed (tokens after the first
 *   content chunk ÷ first-to-last content chunk time, DESIGN.md §1); TTFT request start → first token.
 * - aggregate output tokens/s: every output token (any phase) whose arrival falls inside the
 *   steady window, ÷ the window's length: what the endpoint delivered in total while N streams
 *   were held (InferenceX "tokens/s", vLLM bench_serving "output token throughput").
 * - goodput: requests that COMPLETED inside the steady window, succeeded and met the latency
 *   objective (TTFT ≤ ttftMs and TPOT ≤ tpotMs), ÷ the window's length, requests/s. Source: the
 *   DistServe paper (Zhong et al., OSDI 2024, "goodput": requests/s meeting the TTFT and TPOT
 *   SLOs) as implemented by vLLM's `benchmark_serving.py --goodput ttft:… tpot:…`.
 *   Default objective: MLPerf Inference v5.0 "Llama 2 70B Interactive" limits, TTFT 450 ms and
 *   TPOT 40 ms (MLPerf applies them at p99; we apply them per request, as vLLM's --goodput does).
 */
import { percentiles } from '../stats/percentiles';
import type { ErrorKind, ProbeResult } from '../probe/types';

/** Latency objective of goodput, ms. */
export interface LatencyObjective {
  /** request start → first token, ms */
  ttftMs: number;
  /** time per output token after the first, ms/token */
  tpotMs: number;
}

/** MLPerf Inference v5.0 Llama 2 70B Interactive limits (TTFT 450 ms, TPOT 40 ms). */
export const DEFAULT_LATENCY_OBJECTIVE: LatencyObjective = { ttftMs: 450, tpotMs: 40 };

/** Which part of a level a stream belonged to (see module doc). */
export type SweepPhase = 'warmup' | 'measured' | 'tail';

/**
 * One stream of a sweep, kept as evidence. `startedAtMs` is the request start on the epoch-ms
 * monotonic clock (performance.timeOrigin + performance.now()); the result's times are ms since it.
 */
export interface SweepStream {
  concurrency: number;
  levelIndex: number;
  /** which of the N concurrent slots sent it (0-based) */
  slot: number;
  phase: SweepPhase;
  startedAtMs: number;
  result: ProbeResult;
}

/** p5/p25/p50/p75/p95 of a sample (type-7 percentiles, lib/stats). */
export interface PercentileSet {
  p5: number;
  p25: number;
  p50: number;
  p75: number;
  p95: number;
}

/**
 * Why a sweep stopped before its last level (lib/sweep/run-sweep: rate_limited, blocked,
 * consecutive_failures, error_rate and request_budget stop a level while it runs; decision 160).
 */
export type SweepStopReason =
  'rate_limited' | 'low_success_rate' | 'invalid_measurements' | 'cancelled' | 'blocked' | 'consecutive_failures' | 'error_rate' | 'request_budget';

/** The distribution and rate figures of one level, as computed and as stored (lib/sweep/sweep-view). */
export interface SweepLevelFigures {
  outputTokensPerSecond: PercentileSet | null;
  ttftMs: PercentileSet | null;
  tpotMs: PercentileSet | null;
  /** output tokens arriving in the steady window ÷ its length, tokens/s */
  aggregateOutputTokensPerSecond: number;
  /** requests completed in the steady window ÷ its length, requests/s */
  completedRequestsPerSecond: number;
  /** of those, succeeded and met the objective ÷ window length, requests/s */
  goodputRequestsPerSecond: number;
}

/** Figures of one level. Rates per second of the steady window; null where no sample exists. */
export interface SweepLevelSummary extends SweepLevelFigures {
  concurrency: number;
  /** requests started in the steady window */
  requests: number;
  /** of those, succeeded */
  successes: number;
  /** failures of measured requests by kind */
  errorKinds: Partial<Record<ErrorKind, number>>;
  /** successes ÷ requests; null with no requests */
  successRate: number | null;
  /** epoch ms of the steady window's start */
  windowStartedAtMs: number;
  windowDurationMs: number;
}

const LEVELS = [5, 25, 50, 75, 95] as const;

/** Percentiles of a sample, or null when empty. */
export function summarizePercentiles(values: readonly number[]): PercentileSet | null {
  if (values.length === 0) return null;
  const [p5, p25, p50, p75, p95] = percentiles(values, LEVELS);
  return { p5: p5!, p25: p25!, p50: p50!, p75: p75!, p95: p95! };
}

/**
 * Figures of one level from its streams (all phases). `window` is the steady window (epoch ms).
 * Throws RangeError if the window is empty or negative.
 */
export function summarizeLevel(
  concurrency: number,
  streams: readonly SweepStream[],
  window: { startedAtMs: number; durationMs: number },
  objective: LatencyObjective = DEFAULT_LATENCY_OBJECTIVE,
): SweepLevelSummary {
  if (!(window.durationMs > 0)) throw new RangeError('the steady window must be longer than 0 ms');
  const ws = window.startedAtMs;
  const we = ws + window.durationMs;
  const seconds = window.durationMs / 1000;
  const measured = streams.filter((s) => s.phase === 'measured');
  const ok = measured.filter((s) => s.result.outcome === 'success');
  const errorKinds: Partial<Record<ErrorKind, number>> = {};
  for (const s of measured) {
    const kind = s.result.errorKind;
    if (s.result.outcome === 'error' && kind) errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
  }
  const speeds = ok.map((s) => s.result.outputTokensPerSecond).filter((v): v is number => v !== null && Number.isFinite(v));
  const ttfts = ok.map((s) => s.result.ttftMs).filter((v): v is number => v !== null);
  const tpots = ok.map((s) => s.result.tpotMs).filter((v): v is number => v !== null && Number.isFinite(v));

  let tokensInWindow = 0;
  let completed = 0;
  let good = 0;
  for (const s of streams) {
    for (const t of s.result.timeline) {
      const at = s.startedAtMs + t.atMs;
      if (at >= ws && at <= we) tokensInWindow += t.tokens;
    }
    const e2e = s.result.e2eMs;
    if (e2e === null || s.result.errorKind === 'cancelled') continue;
    const endAt = s.startedAtMs + e2e;
    if (endAt < ws || endAt > we) continue;
    completed++;
    if (meetsObjective(s.result, objective)) good++;
  }
  return {
    concurrency,
    requests: measured.length,
    successes: ok.length,
    errorKinds,
    successRate: measured.length ? ok.length / measured.length : null,
    outputTokensPerSecond: summarizePercentiles(speeds),
    ttftMs: summarizePercentiles(ttfts),
    tpotMs: summarizePercentiles(tpots),
    aggregateOutputTokensPerSecond: tokensInWindow / seconds,
    completedRequestsPerSecond: completed / seconds,
    goodputRequestsPerSecond: good / seconds,
    windowStartedAtMs: ws,
    windowDurationMs: window.durationMs,
  };
}

/**
 * Whether a request met the objective: succeeded, TTFT ≤ ttftMs, and TPOT ≤ tpotMs (a one-token
 * answer has no TPOT and passes on TTFT alone, as in vLLM's --goodput).
 */
export function meetsObjective(result: ProbeResult, objective: LatencyObjective): boolean {
  if (result.outcome !== 'success' || result.ttftMs === null) return false;
  if (result.ttftMs > objective.ttftMs) return false;
  return result.tpotMs === null || result.tpotMs <= objective.tpotMs;
}
