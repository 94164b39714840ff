import { afterEach, describe, expect, it, vi } from 'vitest';
import { probeEndpoint } from '../probe/probe-endpoint';
import { countO200kTokens } from '../tokens/o200k';
import { REFERENCE_MODEL_ID, startReferenceServer, STREAM_ID_HEADER, type ReferenceServer } from './reference-server';
import { REFERENCE_WORDS, referenceWord } from './reference-words';
import { referenceRequest } from './test-support/reference-request';
import { expectNeverAhead, expectProbeReadDelivery, monotonicNow } from './test-support/delivery-truth';

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
  // Checked against its own write log, not the clock of a quiet machine (./test-support/delivery-truth.ts);
  // how close it comes to the configured TTFT and speed is `npm run bench:probe`'s figure.
  it('streams one token per chunk, never ahead of the configured TTFT and speed; the probe reads what it delivered', async () => {
    server = await startReferenceServer({ port: 0, tps: 200, ttftMs: 120, outputTokens: 41, recordWrites: true });
    const startedAt = monotonicNow();
    const r = await probe(server.url, 256);
    expect(r).toMatchObject({ outcome: 'success', finishReason: 'stop', outputTokensReported: 41, outputTokensO200k: 41, contentChunks: 41 });
    const [record] = server.writeLog();
    expect(record!.writeTokens.reduce((a, b) => a + b, 0)).toBe(41);
    expectNeverAhead(record!, { tps: 200, ttftMs: 120 });
    // 15 ms and 5 %: the figures this test held against the configuration on a quiet machine,
    // now against what the server delivered (its lateness under load is not the probe's error)
    expectProbeReadDelivery(r, record!, { startedAt, ttftSlackMs: 15, speedShare: 0.05 });
    expect(r.outputTokensPerSecondO200k).toBeCloseTo(r.outputTokensPerSecond!, 6);
  });

  it('honours a smaller max_tokens with finish_reason length, and tokensPerChunk', async () => {
    server = await startReferenceServer({ port: 0, tps: 400, ttftMs: 50, tokensPerChunk: 4, outputTokens: 256, recordWrites: true });
    const startedAt = monotonicNow();
    const r = await probe(server.url, 22);
    expect(r).toMatchObject({ outcome: 'success', finishReason: 'length', outputTokensReported: 22, outputTokensO200k: 22, contentChunks: 6 }); // 5 × 4 + 2 chunks
    expect(r.timeline.map((t) => t.tokens)).toEqual([4, 4, 4, 4, 4, 2]);
    // (22 − 4) tokens after the first chunk, at most 400/s (45 ms); 8 %: the quiet-machine figure
    const [record] = server.writeLog();
    expectNeverAhead(record!, { tps: 400, ttftMs: 50 });
    expectProbeReadDelivery(r, record!, { startedAt, ttftSlackMs: 15, speedShare: 0.08 });
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
  it('gives each new stream min(peak, capacity ÷ open streams), fixed for its life', async () => {
    // The probes start one by one, each once the one before holds its stream, so stream k opens
    // beside k − 1 others whatever the load (started all at once, a loaded machine may serve the
    // first before the last arrives). 300 tokens: the first stream lasts ≥ 1 s, against a few ms
    // between starts.
    server = await startReferenceServer({ port: 0, tps: 300, ttftMs: 5, outputTokens: 300, capacityTps: 400, recordWrites: true });
    const startedAt = monotonicNow();
    // each probe notes the id of the stream it got (STREAM_ID_HEADER), to pair it with its record
    const probeNotingId = async () => {
      let streamId: string | null = null;
      const fetchNotingId = async (input: string | URL, init?: RequestInit) => {
        const response = await globalThis.fetch(input, init);
        streamId = response.headers.get(STREAM_ID_HEADER);
        return response;
      };
      const result = await probeEndpoint(referenceRequest(server!.url, 300, fetchNotingId, { ttftMs: 5000, idleMs: 5000, totalMs: 20000 }));
      return { result, streamId: streamId as string | null };
    };
    const probing: Array<ReturnType<typeof probeNotingId>> = [];
    for (let k = 1; k <= 4; k++) {
      probing.push(probeNotingId());
      await vi.waitUntil(() => server!.writeLog().length === k, { interval: 1, timeout: 10_000 });
    }
    const probed = await Promise.all(probing);
    for (const { result } of probed) expect(result.outcome).toBe('success');
    const log = server.writeLog();
    // Each stream counted the streams open when it arrived, itself included: by the write log, the
    // earlier ones whose last write came after it opened (1, 2, 3, 4 unless the machine was so slow
    // that the first ended before the last arrived; the count is then smaller, and still exact).
    expect(log).toHaveLength(4);
    log.forEach((record, k) => {
      const stillOpen = log.slice(0, k).filter((earlier) => earlier.writeAt[earlier.writeAt.length - 1]! > record.openedAt).length;
      expect(record.openStreams, `stream ${k + 1}`).toBe(stillOpen + 1);
    });
    expect(Math.max(...log.map((r) => r.openStreams)), 'streams shared the capacity').toBeGreaterThanOrEqual(2);
    for (const record of log) {
      expect(record.assignedTps).toBeCloseTo(Math.min(300, 400 / record.openStreams), 9);
      expect(record.completed).toBe(true);
      expect(record.writeTokens.reduce((a, b) => a + b, 0)).toBe(300);
      // the server's own write times never run ahead of the assigned rate
      expectNeverAhead(record, { tps: record.assignedTps, ttftMs: 5 });
    }
    // measured by the probe, each stream's speed is the one the server delivered (10 %: the
    // quiet-machine figure); results and records pair up by the stream id in every chunk
    for (const { result, streamId } of probed) {
      const record = log.find((x) => x.id === streamId);
      expect(record, String(streamId)).toBeDefined();
      expectProbeReadDelivery(result, record!, { startedAt, ttftSlackMs: 15, speedShare: 0.1 });
    }
    server.clearWriteLog();
    expect(server.writeLog()).toHaveLength(0);
  });

  it('follows the rate from the actual first token when the loop was late (no catch-up burst)', async () => {
    server = await startReferenceServer({ port: 0, tps: 200, ttftMs: 40, outputTokens: 60, recordWrites: true });
    const startedAt = monotonicNow();
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
    // the first chunk alone, then the rate from its actual write: never ahead of 200/s after a
    // late first write (a schedule anchored at the due time would write ~12 chunks at once)
    expect(record!.writeTokens[0]).toBe(1);
    expectNeverAhead(record!, { tps: 200, ttftMs: 40 + 60 });
    expectProbeReadDelivery(r, record!, { startedAt, ttftSlackMs: 15, speedShare: 0.1 });
  });
});
