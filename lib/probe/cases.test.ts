/**
 * Every replay case (shared C cases, Tokenpace T variants, and any case dropped into the folder)
 * replayed over real loopback HTTP with its timing, probed by the real probeEndpoint, and every
 * `expect` field asserted; times within the case's tolerance_ms.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { probeEndpoint } from './probe-endpoint';
import { CASES_DIR, loadCases, type ReplayCase } from './test-support/replay-case';
import { startReplayServer } from './test-support/replay-server';
import type { ProbeResult } from './types';
import { warmUpProbeCore } from './warm-up';
import { createLoopDelayMonitor } from './loop-delay-monitor';

const cases = loadCases(CASES_DIR);

async function runCase(c: ReplayCase): Promise<{ result: ProbeResult; serverLagMs: number }> {
  const server = await startReplayServer(c);
  try {
    const result = await probeEndpoint({
      protocol: c.protocol,
      url: server.url,
      model: String(c.request.model ?? 'test-model'),
      apiKey: 'sk-test-secret',
      prompt: 'Say hello.',
      maxOutputTokens: typeof c.request.max_tokens === 'number' ? c.request.max_tokens : 256,
      deadlines: { ttftMs: 15_000, idleMs: 10_000, totalMs: 30_000, maxBytes: 4 * 1024 * 1024, ...c.probe?.deadlines },
      fetch: globalThis.fetch,
    });
    return { result, serverLagMs: server.maxWriteLagMs() };
  } finally {
    await server.close();
  }
}

/** Largest event-loop stall or replay lateness (ms) under which a replay's times are trusted. */
const MAX_STALL_MS = 15;

/**
 * Runs a case the way the worker treats measurements: one taken while this process stalled (a
 * loaded machine descheduling it, a GC pause) is invalid, so it is retried, at most 5 times,
 * keeping the least-stalled attempt. A stall shows as event-loop delay or as a replay write that
 * left late. Without a stall, the times must hold on the first try.
 */
async function runCaseValid(c: ReplayCase): Promise<ProbeResult> {
  let best: { result: ProbeResult; stallMs: number } | null = null;
  for (let attempt = 0; attempt < 5; attempt++) {
    const monitor = createLoopDelayMonitor({ resolutionMs: 2 });
    const { result, serverLagMs } = await runCase(c);
    const stallMs = Math.max(monitor.stop().maxMs, serverLagMs);
    if (!best || stallMs < best.stallMs) best = { result, stallMs };
    if (stallMs <= MAX_STALL_MS) break;
  }
  return best!.result;
}

function expectTime(actual: number | null, expected: number | null, tolerance: number, label: string) {
  if (expected === null) {
    expect(actual, label).toBeNull();
    return;
  }
  expect(actual, label).not.toBeNull();
  expect(Math.abs(actual! - expected), `${label}: measured ${actual?.toFixed(1)} vs ${expected}`).toBeLessThanOrEqual(tolerance);
}

// Cold code (first fetch, first parse, first tokenize) would make the first cases' times late by
// 10-20 ms: warm the probe up the way a worker does, plus one real HTTP round with no delays.
beforeAll(async () => {
  await warmUpProbeCore();
  for (const c of cases.filter((x) => ['C02', 'C13', 'C19'].includes(x.id))) {
    await runCase({ ...c, writes: c.writes.map((w) => ({ ...w, at_ms: 0 })) });
  }
});

describe('replay cases over HTTP', () => {
  it('has the shared cases and the Tokenpace variants', () => {
    expect(cases.filter((c) => c.id.startsWith('C')).length).toBeGreaterThanOrEqual(15);
    expect(cases.filter((c) => c.id.startsWith('T')).length).toBeGreaterThanOrEqual(10);
  });

  // Cases run concurrently: each mostly waits on its schedule, and one at a time would take ~40 s.
  describe.concurrent.each(cases.map((c) => [c.file!, c] as const))('%s', (_file, c) => {
    // retry: the stall check above cannot see delays outside this process (loopback softirq on an
    // overloaded machine); a wrong clock rule fails every attempt, a loaded machine not all.
    it('reports what the case expects', { retry: 2 }, async () => {
      const r = await runCaseValid(c);
      const e = c.expect;
      const tol = c.tolerance_ms;
      expect({ outcome: r.outcome, errorKind: r.errorKind }, r.errorMessage ?? '').toEqual({ outcome: e.outcome, errorKind: e.error_kind });
      expect(r.answerText).toBe(e.answer_text);
      expect(r.reasoningText).toBe(e.reasoning_text ?? '');
      expect(r.toolCalls).toEqual(e.tool_calls ?? []);
      expect(r.finishReason).toBe(e.finish_reason);
      expect(r.contentChunks).toBe(e.content_chunks);
      expect(r.timeline).toHaveLength(e.content_chunks);
      expect(r.outputTokensReported).toBe(e.output_tokens_reported);
      expectTime(r.ttftMs, e.ttft_ms, tol, 'ttftMs');
      expectTime(r.ttfatMs, e.ttfat_ms, tol, 'ttfatMs');
      expectTime(r.lastTokenMs, e.last_token_ms, tol, 'lastTokenMs');
      expectTime(r.e2eMs, e.e2e_ms, tol, 'e2eMs');
      if (e.http_status !== undefined) expect(r.httpStatus).toBe(e.http_status);
      if (e.retry_after_ms !== undefined) expect(r.retryAfterMs).toBe(e.retry_after_ms);
      if (e.token_count_mismatch !== undefined) expect(r.flags.tokenCountMismatch).toBe(e.token_count_mismatch);
      if (e.buffered !== undefined) expect(r.flags.buffered).toBe(e.buffered);
      // Invariants every result keeps.
      expect(r.errorMessage ?? '').not.toContain('sk-test-secret');
      if (r.outcome === 'success') {
        expect(r.outputTokensO200k).toBeGreaterThan(0);
        expect(r.timeline.reduce((n, t) => n + t.tokens, 0)).toBeGreaterThanOrEqual(r.contentChunks);
      } else {
        expect(r.outputTokensPerSecond).toBeNull();
      }
    });
  });
});

