import { describe, expect, it } from 'vitest';
import { buildFailedProbeResult } from '../probe/build-probe-result';
import type { ProbeResult, TimelineEntry } from '../probe/types';
import { paretoFrontier, perGpu } from './pareto';
import { meetsObjective, summarizeLevel, type SweepPhase, type SweepStream } from './summarize-level';

/** A successful result from a recorded timeline: first token at ttftMs, then one token every msPerToken. */
function recorded(ttftMs: number, msPerToken: number, tokens: number): ProbeResult {
  const timeline: TimelineEntry[] = Array.from({ length: tokens }, (_, i) => ({ atMs: ttftMs + i * msPerToken, tokens: 1, channel: 'answer' }));
  const e2eMs = ttftMs + (tokens - 1) * msPerToken;
  const base = buildFailedProbeResult('empty', 'placeholder');
  return {
    ...base,
    outcome: 'success',
    errorKind: null,
    errorMessage: null,
    ttftMs,
    e2eMs,
    lastTokenMs: e2eMs,
    outputTokensReported: tokens,
    outputTokensO200k: tokens,
    outputTokensPerSecond: 1000 / msPerToken,
    outputTokensPerSecondO200k: 1000 / msPerToken,
    tpotMs: msPerToken,
    contentChunks: tokens,
    timeline,
  };
}

const stream = (phase: SweepPhase, startedAtMs: number, result: ProbeResult, slot = 0): SweepStream => ({
  concurrency: 2,
  levelIndex: 0,
  slot,
  phase,
  startedAtMs,
  result,
});

describe('summarizeLevel (recorded timelines, no clock)', () => {
  it('counts measured requests, aggregate tokens inside the window and goodput of completions inside it', () => {
    // window [10_000, 12_000] ms; two slots, each request: TTFT 100 ms, 100 tokens at 10 ms (1 s)
    const streams: SweepStream[] = [
      stream('warmup', 9_500, recorded(100, 10, 100), 0), // tokens 9_600..10_590: 59 inside (10_000..10_590 → i ≥ 40)
      stream('measured', 10_600, recorded(100, 10, 100), 0), // 10_700..11_690, ends inside
      stream('measured', 11_700, recorded(100, 10, 100), 0), // 11_800..12_790: 21 inside (≤ 12_000)
      stream('measured', 10_000, recorded(600, 20, 50), 1), // TTFT 600 > 450: completes inside but misses the objective
      stream('tail', 12_100, { ...buildFailedProbeResult('cancelled', 'level ended') }, 1),
    ];
    const level = summarizeLevel(2, streams, { startedAtMs: 10_000, durationMs: 2_000 });
    expect(level.requests).toBe(3);
    expect(level.successes).toBe(3);
    expect(level.outputTokensPerSecond!.p50).toBeCloseTo(100, 9);
    const inWindow = 60 + 100 + 21 + 50; // warm-up stream i=40..99 → 60 tokens; slot 1 ends at 10_000+600+49·20 = 11_580
    expect(level.aggregateOutputTokensPerSecond).toBeCloseTo(inWindow / 2, 9);
    // completions inside the window: the warm-up one (10_590), the first measured (11_690), slot 1's (11_580)
    expect(level.completedRequestsPerSecond).toBeCloseTo(3 / 2, 9);
    expect(level.goodputRequestsPerSecond).toBeCloseTo(2 / 2, 9);
    expect(level.errorKinds).toEqual({});
  });

  it('counts failures of measured requests by kind, and nothing for an empty level', () => {
    const failed = stream('measured', 10_100, buildFailedProbeResult('rate_limited', 'HTTP 429'));
    const level = summarizeLevel(1, [failed], { startedAtMs: 10_000, durationMs: 1_000 });
    expect(level).toMatchObject({
      requests: 1,
      successes: 0,
      successRate: 0,
      errorKinds: { rate_limited: 1 },
      outputTokensPerSecond: null,
      aggregateOutputTokensPerSecond: 0,
    });
    expect(() => summarizeLevel(1, [], { startedAtMs: 0, durationMs: 0 })).toThrow(RangeError);
  });

  it('applies the objective on TTFT and TPOT (a one-token answer passes on TTFT alone)', () => {
    const objective = { ttftMs: 450, tpotMs: 40 };
    expect(meetsObjective(recorded(450, 40, 10), objective)).toBe(true);
    expect(meetsObjective(recorded(451, 10, 10), objective)).toBe(false);
    expect(meetsObjective(recorded(100, 41, 10), objective)).toBe(false);
    expect(meetsObjective({ ...recorded(100, 10, 1), tpotMs: null }, objective)).toBe(true);
    expect(meetsObjective(buildFailedProbeResult('timeout', 'x'), objective)).toBe(false);
  });
});

describe('paretoFrontier', () => {
  it('keeps the points no other point beats on both axes, by aggregate ascending', () => {
    const points = [
      { aggregate: 100, perUser: 100 }, // N=1
      { aggregate: 190, perUser: 95 }, // N=2
      { aggregate: 150, perUser: 80 }, // dominated by N=2
      { aggregate: 400, perUser: 50 },
      { aggregate: 400, perUser: 40 }, // dominated (same x, lower y)
      { aggregate: Number.NaN, perUser: 1000 },
    ];
    expect(paretoFrontier(points)).toEqual([0, 1, 3]);
    expect(paretoFrontier([])).toEqual([]);
  });

  it('divides by a declared GPU count only', () => {
    expect(perGpu(72_000, 8)).toBe(9_000);
    expect(perGpu(72_000, null)).toBeNull();
    expect(perGpu(72_000, 0)).toBeNull();
  });
});

describe('configuredCurve', () => {
  it('is min(peak, C ÷ N) per user, and N closed-loop streams with TTFT gaps in aggregate', async () => {
    const { configuredCurve } = await import('./configured-curve');
    const curve = configuredCurve([1, 8, 16], { tps: 1000, ttftMs: 150, outputTokens: 256, capacityTps: 8000 });
    expect(curve.map((p) => p.outputTokensPerSecond)).toEqual([1000, 1000, 500]);
    expect(curve[0]!.aggregateOutputTokensPerSecond).toBeCloseTo(256 / (0.15 + 0.255), 9);
    expect(curve[2]!.aggregateOutputTokensPerSecond).toBeCloseTo((16 * 256) / (0.15 + 0.51), 9);
    expect(configuredCurve([4], { tps: 100, ttftMs: 0, outputTokens: 2, capacityTps: null })[0]).toEqual({
      concurrency: 4,
      outputTokensPerSecond: 100,
      aggregateOutputTokensPerSecond: 800,
    });
  });
});
