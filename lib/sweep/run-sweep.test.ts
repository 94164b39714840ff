import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { measureRecordTps, startReferenceServer, type ReferenceServer } from '../reference-server/reference-server';
import { createGuardedFetch, type GuardedFetch } from '../security/ssrf-guard';
import { percentile } from '../stats/percentiles';
import { referenceRequest } from '../reference-server/test-support/reference-request';
import { runSweep, validateSweepOptions, type RunSweepOptions } from './run-sweep';
import type { SweepStream } from './summarize-level';

let server: ReferenceServer | null = null;
let plain: Server | null = null;
let guarded: GuardedFetch | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  if (plain) await new Promise<void>((resolve) => plain!.close(() => resolve()));
  plain = null;
  await guarded?.dispatcher.close();
  guarded = null;
});

/** The request every stream sends, through the same SSRF-guarded fetch as probes (loopback allowed for tests). */
function request(url: string, maxOutputTokens: number): RunSweepOptions['request'] {
  guarded ??= createGuardedFetch({ allowPrivate: true });
  return referenceRequest(url, maxOutputTokens, guarded);
}

describe('runSweep against the reference server with a capacity model (real HTTP)', () => {
  // retry: a loaded shared machine can delay one level; a wrong sweep fails every attempt.
  it('recovers the true curve: median TPS/user within 3 %, aggregate within 8 % of the server’s write times', { retry: 1, timeout: 90_000 }, async () => {
    const peakTps = 200;
    const capacityTps = 400;
    server = await startReferenceServer({ port: 0, tps: peakTps, ttftMs: 15, outputTokens: 48, capacityTps, recordWrites: true });
    const streams: SweepStream[] = [];
    const sweep = await runSweep({
      request: request(server.url, 48),
      concurrencyLevels: [1, 2, 4, 8],
      durationMs: 2000,
      warmUpMs: 0,
      onStream: (s) => streams.push(s),
    });
    expect(sweep.stopReason).toBeNull();
    expect(sweep.levels.map((l) => l.concurrency)).toEqual([1, 2, 4, 8]);
    const log = server.writeLog();
    for (const level of sweep.levels) {
      const ws = level.windowStartedAtMs;
      const we = ws + level.windowDurationMs;
      expect(level.requests).toBeGreaterThanOrEqual(level.concurrency);
      expect(level.successes).toBe(level.requests);
      // Truth 1: per-stream speeds from the server's own write times, streams opened in the window.
      const truthSpeeds = log.filter((r) => r.openedAt >= ws && r.openedAt < we && r.completed).map((r) => measureRecordTps(r)!);
      expect(truthSpeeds.length).toBeGreaterThan(0);
      const truthMedian = percentile(truthSpeeds, 50);
      // and that truth is the capacity model's curve: min(peak, C ÷ N)
      expect(Math.abs(truthMedian / Math.min(peakTps, capacityTps / level.concurrency) - 1)).toBeLessThan(0.03);
      // Truth 2: tokens the server wrote inside the window ÷ its length.
      let written = 0;
      for (const r of log) r.writeAt.forEach((at, i) => (at >= ws && at <= we ? (written += r.writeTokens[i]!) : 0));
      const truthAggregate = written / (level.windowDurationMs / 1000);
      const measuredMedian = level.outputTokensPerSecondPerUser!.p50;
      expect(Math.abs(measuredMedian / truthMedian - 1), `level ${level.concurrency}: TPS/user ${measuredMedian} vs ${truthMedian}`).toBeLessThan(0.03);
      expect(Math.abs(level.aggregateOutputTokensPerSecond / truthAggregate - 1), `level ${level.concurrency}: aggregate ${level.aggregateOutputTokensPerSecond} vs ${truthAggregate}`).toBeLessThan(0.08);
      expect(level.streams.measured).toBe(level.requests);
    }
    // aggregate rises with N until the capacity binds
    expect(sweep.levels[1]!.aggregateOutputTokensPerSecond).toBeGreaterThan(sweep.levels[0]!.aggregateOutputTokensPerSecond * 1.5);
    // every stream of every phase was handed over as evidence, with its timeline
    expect(streams.length).toBe(sweep.levels.reduce((n, l) => n + l.streams.warmup + l.streams.measured + l.streams.tail, 0));
    expect(streams.filter((s) => s.phase === 'measured').every((s) => s.result.timeline.length > 0)).toBe(true);
  });

  it('ends the sweep at the level that met HTTP 429, and says so', { timeout: 30_000 }, async () => {
    server = await startReferenceServer({ port: 0, tps: 500, ttftMs: 5, outputTokens: 20, maxOpenStreams: 2 });
    const sweep = await runSweep({ request: request(server.url, 20), concurrencyLevels: [1, 2, 4, 8], durationMs: 300, warmUpMs: 0 });
    expect(sweep.stopReason).toBe('rate_limited');
    expect(sweep.stoppedAtConcurrency).toBe(4);
    expect(sweep.levels.map((l) => l.stopReason)).toEqual([null, null, 'rate_limited']);
  });

  it('ends the sweep when the success rate falls below the floor (failures too sparse for the in-level stops)', { timeout: 30_000 }, async () => {
    // every 8th request fails: 12.5 % (2-3 of any 20, never 5 in a row) runs on within the level,
    // and the level's 87.5 % success is below the 90 % floor.
    server = await startReferenceServer({ port: 0, tps: 2000, ttftMs: 1, outputTokens: 8 });
    let n = 0;
    plain = createServer((req, res) => {
      if (++n % 8 === 0) {
        req.resume();
        req.on('end', () => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"error":{"message":"engine down"}}');
        });
        return;
      }
      const up = httpRequest(new URL(req.url ?? '/', server!.url.replace(/\/v1$/, '')), { method: req.method, headers: req.headers }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      });
      req.pipe(up);
    });
    await new Promise<void>((resolve) => plain!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/v1`;
    const sweep = await runSweep({ request: request(url, 8), concurrencyLevels: [1, 2], durationMs: 800, warmUpMs: 0, backoff: { baseMs: 1, maxMs: 2 } });
    expect(sweep.stopReason).toBe('low_success_rate');
    expect(sweep.levels).toHaveLength(1);
    expect(sweep.levels[0]!.successRate).toBeLessThan(0.9);
    expect(sweep.levels[0]!.successRate).toBeGreaterThan(0.8);
    expect(sweep.levels[0]!.errorKinds.http_error).toBeGreaterThan(0);
  });

  it('refuses a private address unless allowed: the SSRF guard applies to every stream', { timeout: 30_000 }, async () => {
    server = await startReferenceServer({ port: 0, tps: 500, ttftMs: 5, outputTokens: 10 });
    const strict = createGuardedFetch({});
    try {
      const sweep = await runSweep({ request: { ...request(server.url, 10), fetch: strict }, concurrencyLevels: [1, 2], durationMs: 100, warmUpMs: 0 });
      // the first refusal ends the sweep: the address will not change between requests
      expect(sweep.stopReason).toBe('blocked');
      expect(sweep.requestsStarted).toBe(1);
      expect(sweep.levels).toHaveLength(1);
      expect(server.openStreams()).toBe(0);
    } finally {
      await strict.dispatcher.close();
    }
  });

  it('validates its options, naming the bad one', () => {
    expect(() => validateSweepOptions({ concurrencyLevels: [] })).toThrow('concurrencyLevels');
    expect(() => validateSweepOptions({ concurrencyLevels: [1, 0] })).toThrow('concurrencyLevels');
    expect(() => validateSweepOptions({ concurrencyLevels: [2000] })).toThrow('1-1024');
    expect(() => validateSweepOptions({ durationMs: 0 })).toThrow('durationMs');
    expect(() => validateSweepOptions({ minSuccessRate: 2 })).toThrow('minSuccessRate');
  });
});
