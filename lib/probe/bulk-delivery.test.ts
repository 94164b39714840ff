import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { BULK_READ_TOKENS, isBulkDelivery } from './build-probe-result';
import { probeEndpoint } from './probe-endpoint';
import type { ProbeRequest, TimelineEntry } from './types';
import { createGuardedFetch } from '../security/ssrf-guard';
import { REFERENCE_MODEL_ID, startReferenceServer } from '../reference-server/reference-server';

const entry = (atMs: number, tokens = 1): TimelineEntry => ({ atMs, tokens, channel: 'answer' });
const sum = (t: TimelineEntry[]) => t.reduce((n, e) => n + e.tokens, 0);

describe('isBulkDelivery', () => {
  it('keeps a stream whose tokens arrived over time, one or a few per read', () => {
    const oneEach = Array.from({ length: 500 }, (_, i) => entry(100 + i));
    expect(isBulkDelivery(oneEach, sum(oneEach))).toBe(false);
    // 20-token chunks, one per read (servers that batch a little) are still a stream.
    const batched = Array.from({ length: 50 }, (_, i) => entry(100 + i * 20, 20));
    expect(isBulkDelivery(batched, sum(batched))).toBe(false);
    // A few late reads carrying several events each do not make it bulk while most tokens streamed.
    const someMerged = [...Array.from({ length: 400 }, (_, i) => entry(100 + i)), ...Array.from({ length: BULK_READ_TOKENS }, () => entry(600))];
    expect(isBulkDelivery(someMerged, sum(someMerged))).toBe(false);
  });

  it('flags an answer delivered in a few large reads, one final body, or all at one instant', () => {
    // 3,000 one-token events that reached the client in 10 reads of 300 events.
    const bulk = Array.from({ length: 3000 }, (_, i) => entry(5_000 + Math.floor(i / 300) * 13));
    expect(isBulkDelivery(bulk, sum(bulk))).toBe(true);
    expect(isBulkDelivery([entry(100, 2), entry(101, 40)], 42)).toBe(true);
    expect(isBulkDelivery([entry(100, 3), entry(100, 4)], 7)).toBe(true);
    expect(isBulkDelivery([entry(100, 1)], 1)).toBe(false);
  });
});

describe('bulk delivery over real HTTP (guarded fetch, socket read stamps)', () => {
  const servers: Server[] = [];
  const closers: Array<() => Promise<void>> = [];
  const fetch = createGuardedFetch({ allowPrivate: true });
  afterAll(async () => {
    for (const s of servers) s.close();
    for (const c of closers) await c();
    await fetch.dispatcher.close();
  });
  const request = (url: string, maxOutputTokens: number): ProbeRequest => ({
    protocol: 'openai-chat',
    url,
    model: REFERENCE_MODEL_ID,
    apiKey: null,
    prompt: 'bulk',
    maxOutputTokens,
    deadlines: { ttftMs: 10_000, idleMs: 10_000, totalMs: 30_000, maxBytes: 16 * 1024 * 1024 },
    fetch,
  });

  it('a whole answer written as 3,000 SSE events in one write is not rankable (buffered_stream), whatever speed its reads suggest', async () => {
    const events = Array.from({ length: 3000 }, () => `data: {"choices":[{"index":0,"delta":{"content":" word"},"finish_reason":null}]}\n\n`).join('');
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // The generation happened before the first byte: the answer leaves in one write.
        setTimeout(() => res.end(`${events}data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`), 200);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const r = await probeEndpoint(request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, 3000));
    expect(r.outcome).toBe('success');
    expect(r.outputTokensO200k).toBe(3000);
    expect(r.flags.buffered).toBe(true);
    expect(r.rankable).toBe(false);
    expect(r.notRankableReasons).toContain('buffered_stream');
  });

  it('a fast real stream (reference server, 5,000 TPS/user, 1 token per event) stays rankable', async () => {
    const server = await startReferenceServer({ port: 0, tps: 5_000, ttftMs: 20, outputTokens: 1024 });
    closers.push(() => server.close());
    const r = await probeEndpoint(request(server.url, 1024));
    expect(r.outcome).toBe('success');
    expect(r.flags.buffered).toBe(false);
    // ranked unless the probe declines to vouch for its clock on a busy machine (decision 181)
    expect(r.notRankableReasons.filter((n) => n !== 'timing_uncertain')).toEqual([]);
    expect(r.tpotMs).not.toBeNull();
  });
});
