import { afterEach, describe, expect, it } from 'vitest';
import { probeEndpoint } from '../probe/probe-endpoint';
import type { ProbeRequest } from '../probe/types';
import { countO200kTokens } from '../tokens/o200k';
import { REFERENCE_MODEL_ID, startReferenceServer, type ReferenceServer } from './reference-server';
import { REFERENCE_WORDS, referenceWord } from './reference-words';

let server: ReferenceServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const probe = (url: string, maxOutputTokens: number): Promise<import('../probe/types').ProbeResult> =>
  probeEndpoint({
    protocol: 'openai-chat',
    url,
    model: REFERENCE_MODEL_ID,
    apiKey: null,
    prompt: 'hi',
    maxOutputTokens,
    deadlines: { ttftMs: 5000, idleMs: 5000, totalMs: 20000, maxBytes: 1 << 24 },
    fetch: globalThis.fetch,
  } satisfies ProbeRequest);

describe('reference words', () => {
  it('are one o200k token each, and N words are exactly N tokens', () => {
    for (const w of REFERENCE_WORDS) expect(countO200kTokens(w)).toBe(1);
    let text = '';
    for (let i = 0; i < 5000; i++) text += referenceWord(i);
    expect(countO200kTokens(text)).toBe(5000);
  });
});

describe('reference server', () => {
  // retry: timing on a shared, loaded machine; a wrong schedule fails every attempt.
  it('streams at the configured TTFT and speed, one token per chunk', { retry: 2 }, async () => {
    server = await startReferenceServer({ port: 0, tps: 200, ttftMs: 120, outputTokens: 41 });
    const r = await probe(server.url, 256);
    expect(r.outcome).toBe('success');
    expect(r.finishReason).toBe('stop');
    expect(r.outputTokensReported).toBe(41);
    expect(r.outputTokensO200k).toBe(41);
    expect(r.contentChunks).toBe(41);
    expect(Math.abs(r.ttftMs! - 120)).toBeLessThan(15);
    // 40 tokens after the first at 200/s take 200 ms; allow a few ms of timer jitter.
    expect(Math.abs(r.outputTokensPerSecond! - 200)).toBeLessThan(200 * 0.05);
    expect(r.outputTokensPerSecondO200k).toBeCloseTo(r.outputTokensPerSecond!, 6);
  });

  it('honours a smaller max_tokens with finish_reason length, and tokensPerChunk', { retry: 2 }, async () => {
    server = await startReferenceServer({ port: 0, tps: 400, ttftMs: 50, tokensPerChunk: 4, outputTokens: 256 });
    const r = await probe(server.url, 22);
    expect(r.outcome).toBe('success');
    expect(r.finishReason).toBe('length');
    expect(r.outputTokensReported).toBe(22);
    expect(r.outputTokensO200k).toBe(22);
    expect(r.contentChunks).toBe(6); // 5 × 4 + 2
    expect(r.timeline.map((t) => t.tokens)).toEqual([4, 4, 4, 4, 4, 2]);
    // (22 − 4) tokens in (18 / 400) s
    expect(Math.abs(r.outputTokensPerSecond! - 400)).toBeLessThan(400 * 0.08);
  });

  it('lists its model, refuses non-streaming requests and unknown routes', async () => {
    server = await startReferenceServer({ port: 0, tps: 100, ttftMs: 0 });
    const models = await (await fetch(`${server.url}/models`)).json();
    expect(models.data[0].id).toBe(REFERENCE_MODEL_ID);
    const nonStream = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'x' }) });
    expect(nonStream.status).toBe(400);
    await nonStream.text();
    const missing = await fetch(`${server.url}/nope`);
    expect(missing.status).toBe(404);
    await missing.text();
  });

  it('rejects invalid options', async () => {
    await expect(startReferenceServer({ port: 0, tps: 0, ttftMs: 10 })).rejects.toThrow(RangeError);
    await expect(startReferenceServer({ port: 0, tps: 10, ttftMs: -1 })).rejects.toThrow(RangeError);
    await expect(startReferenceServer({ port: 0, tps: 10, ttftMs: 1, tokensPerChunk: 0 })).rejects.toThrow(RangeError);
  });
});
