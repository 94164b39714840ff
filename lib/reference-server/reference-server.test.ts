import { afterEach, describe, expect, it, vi } from 'vitest';
import { probeEndpoint } from '../probe/probe-endpoint';
import { countO200kTokens } from '../tokens/o200k';
import { measureRecordTps, REFERENCE_MODEL_ID, startReferenceServer, type ReferenceServer } from './reference-server';
import { REFERENCE_WORDS, referenceWord } from './reference-words';
import { referenceRequest } from './test-support/reference-request';

let server: ReferenceServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const probe = (url: string, maxOutputTokens: number): Promise<import('../probe/types').ProbeResult> =>
  probeEndpoint(referenceRequest(url, maxOutputTokens, globalThis.fetch, { ttftMs: 5000, idleMs: 5000, totalMs: 20000 }));

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

  it('rejects a non-positive capacity', async () => {
    await expect(startReferenceServer({ port: 0, tps: 10, ttftMs: 1, capacityTps: 0 })).rejects.toThrow(RangeError);
  });
});

describe('reference server throughput model and write log', () => {
  it('gives each new stream min(peak, capacity ÷ open streams), fixed for its life', { retry: 2 }, async () => {
    // 60 tokens: spans of 0.2-0.6 s, so a few ms of timer lateness on a loaded machine stay small
    server = await startReferenceServer({ port: 0, tps: 300, ttftMs: 5, outputTokens: 60, capacityTps: 400, recordWrites: true });
    const results = await Promise.all([0, 1, 2, 3].map(() => probe(server!.url, 60)));
    for (const r of results) expect(r.outcome).toBe('success');
    const log = server.writeLog();
    expect(log.map((r) => r.openStreams).sort()).toEqual([1, 2, 3, 4]);
    for (const record of log) {
      expect(record.assignedTps).toBeCloseTo(Math.min(300, 400 / record.openStreams), 9);
      expect(record.completed).toBe(true);
      expect(record.writeTokens.reduce((a, b) => a + b, 0)).toBe(60);
      // the server's own write times follow the assigned rate
      expect(Math.abs(measureRecordTps(record)! / record.assignedTps - 1)).toBeLessThan(0.08);
    }
    // measured by the probe, each stream's speed is the one the server assigned it
    const measured = results.map((r) => r.outputTokensPerSecond!).sort((a, b) => a - b);
    const assigned = log.map((r) => r.assignedTps).sort((a, b) => a - b);
    measured.forEach((m, i) => expect(Math.abs(m / assigned[i]! - 1)).toBeLessThan(0.1));
    server.clearWriteLog();
    expect(server.writeLog()).toHaveLength(0);
  });

  // retry: the speed checks read real timers on a shared machine; the burst check (first write) is exact.
  it('follows the rate from the actual first token when the loop was late (no catch-up burst)', { retry: 2 }, async () => {
    server = await startReferenceServer({ port: 0, tps: 200, ttftMs: 40, outputTokens: 60, recordWrites: true });
    const probing = probe(server.url, 60);
    // As soon as the server holds the stream (its first chunk due 40 ms later), block the event loop
    // for 100 ms: the first chunk goes out ≥ 60 ms late. A schedule anchored at the due time would
    // then write ~12 chunks at once.
    await vi.waitUntil(() => server!.openStreams() === 1, { interval: 1, timeout: 10_000 });
    const until = performance.now() + 100;
    while (performance.now() < until) {
      // busy: simulated load
    }
    const r = await probing;
    expect(r.outcome).toBe('success');
    const [record] = server.writeLog();
    expect(record!.writeTokens[0]).toBe(1);
    expect(Math.abs(measureRecordTps(record!)! / 200 - 1)).toBeLessThan(0.1);
    expect(Math.abs(r.outputTokensPerSecond! / 200 - 1)).toBeLessThan(0.1);
  });
});
