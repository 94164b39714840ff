/**
 * The reference server reports the prompt's size (decision 292) so the probe's input-token parsing
 * (decision 290) and the cached share (decision 291) are exercised end to end over real HTTP: the
 * probe, speaking Chat and Responses to it, reads as inputTokensReported exactly the o200k count of
 * the prompt it sent, with or without a prefix cache, and with a cache the cached tokens beside it
 * (a repeated prompt: its whole blocks), so the share is known; without a cache no cached count.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { probeEndpoint } from '../probe/probe-endpoint';
import type { Protocol } from '../probe/types';
import { cachedInputShare } from '../stats/cached-input-share';
import { countO200kTokens } from '../tokens/o200k';
import { startReferenceServer, type ReferenceServer } from './reference-server';
import { referenceRequest } from './test-support/reference-request';

let server: ReferenceServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const PROMPT = Array.from({ length: 700 }, (_, i) => `note${i} of the story`).join(' ');

const probe = (url: string, protocol: Protocol, prompt: string) => probeEndpoint({ ...referenceRequest(url, 8), protocol, prompt });

describe('reference server prompt tokens', () => {
  for (const protocol of ['openai-chat', 'openai-responses'] as const) {
    it(`${protocol}: without a cache the prompt's o200k count is reported, the cached count only where the wire has one`, async () => {
      server = await startReferenceServer({ port: 0, tps: 5000, ttftMs: 0, outputTokens: 8 });
      const r = await probe(server.url, protocol, PROMPT);
      expect(r.outcome).toBe('success');
      expect(r.flags.unrecognizedShape).toBe(false);
      const truth = countO200kTokens(PROMPT);
      expect(truth).toBeGreaterThan(2000);
      expect(r.inputTokensReported).toBe(truth);
      // Chat without a cache carries no details (unknown); Responses always says 0 were cached (true: no cache)
      expect(r.cachedInputTokens).toBe(protocol === 'openai-chat' ? null : 0);
      expect(cachedInputShare(r.cachedInputTokens, r.inputTokensReported)).toBe(protocol === 'openai-chat' ? null : 0);
    });

    it(`${protocol}: with a prefix cache a repeated prompt reports its whole blocks cached of the same prompt size`, async () => {
      server = await startReferenceServer({ port: 0, tps: 5000, ttftMs: 0, outputTokens: 8, prefixCache: { hitTtftMs: 0, blockTokens: 128 } });
      const truth = countO200kTokens(PROMPT);
      const cold = await probe(server.url, protocol, PROMPT);
      const warm = await probe(server.url, protocol, PROMPT);
      expect(cold.inputTokensReported).toBe(truth);
      expect(warm.inputTokensReported).toBe(truth);
      expect(cold.cachedInputTokens).toBe(0);
      const blocks = Math.floor(truth / 128) * 128;
      expect(warm.cachedInputTokens).toBe(blocks);
      expect(cachedInputShare(warm.cachedInputTokens, warm.inputTokensReported)).toBe(blocks / truth);
    });
  }
});
