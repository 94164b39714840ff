/**
 * Inter-token latency (ITL) of one measurement, chunk-aware.
 *
 * Definition (docs/methodology; vLLM `benchmark_serving` ITL and NVIDIA AIPerf "inter token
 * latency"): the time between consecutive generated tokens of one stream. Providers send several
 * tokens per event (speculative decoding, batching of the SSE writer), so a raw gap between events
 * is NOT a per-token latency: each gap is divided by the tokens the later event carried, and that
 * per-token value is counted once per token it carried. The token-weighted mean of this
 * distribution equals (last − first token-bearing event) ÷ (N − tokens of the first event), i.e.
 * 1000 ÷ output speed (TPS/user), so ITL and the ranking's speed agree; the percentiles show what
 * the mean hides (stalls, bursty delivery).
 *
 * Input is the probe's timeline (lib/probe/types TimelineEntry: ms since request start, o200k
 * tokens per token-bearing event, any channel: answer, reasoning and tool-call tokens all count,
 * like TTFT). Events carrying 0 tokens are skipped (keep-alives, role-only chunks).
 */
import type { TimelineEntry } from './types';

/** ITL summary of one measurement, ms per token; null fields when there are fewer than 2 token-bearing events. */
export interface InterTokenLatency {
  /** token-weighted percentiles of gap ÷ tokens-in-later-event, ms/token */
  p50Ms: number | null;
  p95Ms: number | null;
  /** token-weighted mean, ms/token (= 1000 / output speed on the o200k basis) */
  meanMs: number | null;
  /** largest per-token value, ms/token */
  maxMs: number | null;
  /** tokens the distribution covers (all tokens after the first token-bearing event) */
  tokens: number;
}

/**
 * Token-weighted percentile `q` (0..1) of (value, weight) pairs sorted by value, nearest-rank
 * (the smallest value whose cumulative weight reaches q × total weight). Pairs must be non-empty.
 */
function weightedPercentile(sorted: ReadonlyArray<{ value: number; weight: number }>, total: number, q: number): number {
  const target = Math.max(q * total, Number.MIN_VALUE);
  let cumulative = 0;
  for (const s of sorted) {
    cumulative += s.weight;
    if (cumulative >= target - 1e-9) return s.value;
  }
  return sorted[sorted.length - 1]!.value;
}

/**
 * Chunk-aware ITL of `timeline` (entries in arrival order). Never throws; returns nulls when
 * fewer than two events carried tokens.
 * Example: events at 100 ms (3 tokens), 120 ms (1), 180 ms (3) → per-token values 20 (×1) and
 * 20 (×3): p50 = p95 = mean = 20 ms/token.
 */
export function computeInterTokenLatency(timeline: readonly TimelineEntry[]): InterTokenLatency {
  const events = timeline.filter((e) => e.tokens > 0);
  if (events.length < 2) return { p50Ms: null, p95Ms: null, meanMs: null, maxMs: null, tokens: 0 };
  const samples: Array<{ value: number; weight: number }> = [];
  let tokens = 0;
  let span = 0;
  for (let i = 1; i < events.length; i++) {
    const gap = Math.max(0, events[i]!.atMs - events[i - 1]!.atMs);
    samples.push({ value: gap / events[i]!.tokens, weight: events[i]!.tokens });
    tokens += events[i]!.tokens;
    span += gap;
  }
  samples.sort((a, b) => a.value - b.value);
  return {
    p50Ms: weightedPercentile(samples, tokens, 0.5),
    p95Ms: weightedPercentile(samples, tokens, 0.95),
    meanMs: span / tokens,
    maxMs: samples[samples.length - 1]!.value,
    tokens,
  };
}
