import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbePool, type ProbePool } from './probe-pool';
import { measureRecordTps, REFERENCE_MODEL_ID, startReferenceServer, type ReferenceServer } from '../reference-server/reference-server';
import type { ProbeRequest } from './types';

let server: ReferenceServer;
let pool: ProbePool;
beforeAll(async () => {
  server = await startReferenceServer({ port: 0, tps: 200, ttftMs: 20, outputTokens: 40, recordWrites: true });
  pool = createProbePool({ threads: 2, allowPrivate: true });
  await pool.ready();
}, 60_000);
afterAll(async () => {
  await pool?.close();
  await server?.close();
});

const request = (overrides: Partial<ProbeRequest> = {}): ProbeRequest => ({
  protocol: 'openai-chat',
  url: server.url,
  model: REFERENCE_MODEL_ID,
  apiKey: null,
  prompt: 'pool',
  maxOutputTokens: 40,
  deadlines: { ttftMs: 10_000, idleMs: 10_000, totalMs: 30_000, maxBytes: 1024 * 1024 },
  // Ignored by the pool: each thread builds its own guarded fetch.
  fetch: () => Promise.reject(new Error('the pool must not call the caller fetch')),
  ...overrides,
});

describe('probe pool', () => {
  it('runs probes on both threads, each measured with its thread loop delay', async () => {
    server.clearWriteLog();
    const results = await Promise.all(Array.from({ length: 6 }, () => pool.probe(request())));
    // The truth is what the server delivered (its write log): on a busy 2-core machine the server,
    // which shares this test process, can itself run late; the probe must read what it did.
    const delivered = server.writeLog().map(measureRecordTps).filter((x): x is number => x !== null).sort((a, b) => a - b);
    const measured = results.map((r) => r.outputTokensPerSecondO200k!).sort((a, b) => a - b);
    expect(delivered).toHaveLength(6);
    for (const r of results) {
      expect(r.outcome).toBe('success');
      expect(r.outputTokensO200k).toBe(40);
      expect(r.loopDelay.samples).toBeGreaterThan(0);
    }
    const median = (xs: number[]) => (xs[2]! + xs[3]!) / 2;
    expect(Math.abs(median(measured) - median(delivered)) / median(delivered)).toBeLessThan(0.05);
    expect(new Set(results.map((r) => r.threadIndex))).toEqual(new Set([0, 1]));
  }, 60_000);

  it('cancels a probe in its thread when the caller aborts', async () => {
    const slow = await startReferenceServer({ port: 0, tps: 5, ttftMs: 10, outputTokens: 200 });
    try {
      const controller = new AbortController();
      const pending = pool.probe(request({ url: slow.url, maxOutputTokens: 200, signal: controller.signal }));
      setTimeout(() => controller.abort(), 300);
      const r = await pending;
      expect(r.outcome).toBe('error');
      expect(r.errorKind).toBe('cancelled');
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('keeps the SSRF guard: without allowPrivate a loopback endpoint is blocked', async () => {
    const strict = createProbePool({ threads: 1, allowPrivate: false });
    try {
      const r = await strict.probe(request());
      expect(r.outcome).toBe('error');
      expect(r.errorKind).toBe('blocked');
    } finally {
      await strict.close();
    }
  }, 60_000);
});
