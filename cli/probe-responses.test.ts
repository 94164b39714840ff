/**
 * Issue 22 / decision 192: `tokenpace probe --protocol openai-responses` against the reference
 * server's Responses variant (real loopback HTTP, the real CLI command and probe) measures its
 * delivered TTFT and speed as accurately as the chat protocol does against the same server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { expectNeverAhead, expectProbeReadDelivery, monotonicNow } from '@/lib/reference-server/test-support/delivery-truth';
import type { ProbeResult } from '@/lib/probe/types';
import { commandHarness } from './test-support/command-harness';
import { runProbeCommand } from './probe-command';

const TPS = 200;
const TTFT_MS = 60;
const TOKENS = 60;

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ port: 0, tps: TPS, ttftMs: TTFT_MS, outputTokens: TOKENS, recordWrites: true });
});
afterAll(async () => {
  await server.close();
});

async function probeJson(protocol: string, extra: string[] = []): Promise<Record<string, unknown>> {
  const h = commandHarness(() => globalThis.fetch, {});
  const code = await runProbeCommand([server.url, '--protocol', protocol, '--model', 'tokenpace-reference', '--allow-private', '--json', ...extra], h.deps);
  expect(code, h.err.join('')).toBe(0);
  return JSON.parse(h.out.join('')) as Record<string, unknown>;
}

describe('tokenpace probe --protocol openai-responses against the reference server', () => {
  it('reports the same tokens, finish and counts as the chat protocol', async () => {
    for (const protocol of ['openai-chat', 'openai-responses']) {
      const json = await probeJson(protocol);
      expect({ protocol, outcome: json.outcome, errorKind: json.errorKind, finish: json.finishReason }).toEqual({
        protocol,
        outcome: 'success',
        errorKind: null,
        finish: 'stop',
      });
      expect(json.outputTokensReported).toBe(TOKENS);
      expect(json.outputTokensO200k).toBe(TOKENS);
      expect(json.contentChunks).toBe(TOKENS);
      // Nothing but the clock's own verdict may keep it out of the ranking.
      expect((json.notRankableReasons as string[]).filter((r) => r !== 'timing_uncertain')).toEqual([]);
      expect(json.evidence).not.toHaveProperty('unrecognizedPaths');
      expect(json.evidence).not.toHaveProperty('sequenceIssues');
    }
    const cut = await probeJson('openai-responses', ['--max-tokens', '12']);
    expect(cut.finishReason).toBe('length');
    expect(cut.outputTokensReported).toBe(12);
  });

  // Judged per probe against the server's own write log (decision 286): the same accuracy for both
  // protocols is the same rule holding for both, on any machine (never early; within 15 ms and 5 %
  // of what was delivered unless the probe itself said it cannot vouch for its clock).
  it('measures TTFT and speed within the accuracy of the chat protocol', async () => {
    for (const protocol of ['openai-chat', 'openai-responses']) await probeJson(protocol); // warm both paths
    for (let i = 0; i < 3; i++) {
      for (const protocol of ['openai-chat', 'openai-responses'] as const) {
        server.clearWriteLog();
        const startedAt = monotonicNow();
        const json = await probeJson(protocol);
        const [record, ...more] = server.writeLog();
        expect(more, 'one stream per probe').toHaveLength(0);
        expectNeverAhead(record!, { tps: TPS, ttftMs: TTFT_MS });
        expectProbeReadDelivery(json as unknown as ProbeResult, record!, { startedAt, ttftSlackMs: 15, speedShare: 0.05 });
      }
    }
  });
});
