import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbePool, type ProbePool } from './probe-pool';
import { REFERENCE_MODEL_ID, startReferenceServer, type ReferenceServer } from '../reference-server/reference-server';
import type { ProbeRequest } from './types';
import { expectProbeReadDelivery, monotonicNow, recordForPrompt } from '../reference-server/test-support/delivery-truth';

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
    const startedAt = monotonicNow();
    const prompts = Array.from({ length: 6 }, (_, k) => `pool ${k}`);
    const results = await Promise.all(prompts.map((prompt) => pool.probe(request({ prompt }))));
    // The truth is what the server delivered (its write log), stream by stream: on a busy 2-core
    // machine the server, which shares this test process, can itself run late, and a probe thread
    // can be kept off the CPU; each result must read its own stream right, or say it cannot vouch
    // (decision 286). Results pair with records by prompt, never by order.
    expect(server.writeLog()).toHaveLength(6);
    results.forEach((r, k) => {
      expect(r.outcome).toBe('success');
      expect(r.outputTokensO200k).toBe(40);
      expect(r.loopDelay.samples).toBeGreaterThan(0);
      expectProbeReadDelivery(r, recordForPrompt(server.writeLog(), prompts[k]!), { startedAt, ttftSlackMs: 15, speedShare: 0.05 });
    });
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
