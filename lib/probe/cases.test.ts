/**
 * Every replay case (shared C cases, Tokenpace T variants, and any case dropped into the folder)
 * replayed over real loopback HTTP with its timing, probed by the real probeEndpoint, and every
 * `expect` field asserted; times within the case's tolerance_ms.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { probeEndpoint } from './probe-endpoint';
import { CASES_DIR, loadCases, type ReplayCase } from './test-support/replay-case';
import { startReplayServer } from './test-support/replay-server';
import type { ProbeResult } from './types';

const cases = loadCases(CASES_DIR);

async function runCase(c: ReplayCase): Promise<ProbeResult> {
  const server = await startReplayServer(c);
  try {
    return await probeEndpoint({
      protocol: c.protocol,
      url: server.url,
      model: String(c.request.model ?? 'test-model'),
      apiKey: 'sk-test-secret',
      prompt: 'Say hello.',
      maxOutputTokens: typeof c.request.max_tokens === 'number' ? c.request.max_tokens : 256,
      deadlines: { ttftMs: 15_000, idleMs: 10_000, totalMs: 30_000, maxBytes: 4 * 1024 * 1024, ...c.probe?.deadlines },
      fetch: globalThis.fetch,
    });
  } finally {
    await server.close();
  }
}

function expectTime(actual: number | null, expected: number | null, tolerance: number, label: string) {
  if (expected === null) {
    expect(actual, label).toBeNull();
    return;
  }
  expect(actual, label).not.toBeNull();
  expect(Math.abs(actual! - expected), `${label}: measured ${actual?.toFixed(1)} vs ${expected}`).toBeLessThanOrEqual(tolerance);
}

describe('replay cases over HTTP', () => {
  it('has the shared cases and the Tokenpace variants', () => {
    expect(cases.filter((c) => c.id.startsWith('C')).length).toBeGreaterThanOrEqual(15);
    expect(cases.filter((c) => c.id.startsWith('T')).length).toBeGreaterThanOrEqual(10);
  });

  // Cases run concurrently: each mostly waits on its schedule, and one at a time would take ~40 s.
  describe.concurrent.each(cases.map((c) => [c.file!, c] as const))('%s', (_file, c) => {
    it('reports what the case expects', async () => {
      const r = await runCase(c);
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

afterAll(() => {});
