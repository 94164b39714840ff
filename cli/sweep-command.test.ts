import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureRecordTps, startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { commandHarness } from './test-support/command-harness';
import { createGuardedFetch } from '@/lib/security/ssrf-guard';
import { parseSweepArgs, runSweepCommand } from './sweep-command';
import { percentile } from '@/lib/stats/percentiles';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ port: 0, tps: 400, ttftMs: 10, outputTokens: 24, capacityTps: 800, recordWrites: true });
});
afterAll(async () => {
  await server.close();
});

function harness() {
  return commandHarness((opts) => createGuardedFetch({ allowPrivate: opts.allowPrivate }));
}

/** The real CLI (bin/tokenpace.mjs) as a process: `tokenpace sweep <server> …args`, killed after `timeoutMs`; rejects on a non-zero exit (with its stderr). */
function cliSweep(args: string[], timeoutMs: number): Promise<{ stdout: string; stderr: string }> {
  const root = path.resolve(__dirname, '..');
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [path.join(root, 'bin', 'tokenpace.mjs'), 'sweep', server.url, ...args], { cwd: root, timeout: timeoutMs }, (error, out, err) =>
      error ? reject(Object.assign(error, { stderr: err })) : resolve({ stdout: out, stderr: err }),
    ),
  );
}

describe('tokenpace sweep', () => {
  it('prints a table on stdout and progress on stderr', { timeout: 30_000 }, async () => {
    const h = harness();
    const code = await runSweepCommand(
      [server.url, '--model', 'tokenpace-reference', '--allow-private', '--concurrency', '1,4', '--duration-s', '0.5', '--warm-up-s', '0'],
      h.deps,
    );
    expect(code).toBe(0);
    expect(h.fetchCalls).toEqual([{ allowPrivate: true }]);
    const table = h.out.join('');
    expect(table).toMatch(/TPS\/user p50/);
    expect(table).toMatch(/^\s*1\s+\d+/m);
    expect(table).toMatch(/^\s*4\s+\d+/m);
    expect(table).toMatch(/all levels ran/);
    expect(h.err.join('')).toMatch(/level 2\/2 N=4/);
  });

  it('is blocked by the SSRF guard without --allow-private (every stream refused)', { timeout: 30_000 }, async () => {
    const h = harness();
    const code = await runSweepCommand([server.url, '--model', 'm', '--concurrency', '1', '--duration-s', '0.2', '--warm-up-s', '0', '--json'], h.deps);
    expect(code).toBe(1);
    const json = JSON.parse(h.out.join(''));
    // the first refusal ends the sweep (decision 160): the address does not change between requests
    expect(json.stopReason).toBe('blocked');
    expect(json.levels).toHaveLength(1);
    expect(json.levels[0].successes).toBe(0);
  });

  it.each([
    [['--model', 'm'], 'missing <baseUrl>'],
    [['http://x', '--model', 'm', '--concurrency', '1,0'], '--concurrency must be'],
    [['http://x', '--model', 'm', '--concurrency', '1,,2'], '--concurrency must be'],
    [['http://x', '--model', 'm', '--duration-s', '0'], '--duration-s must be'],
    [['http://x', '--model', 'm', '--protocol', 'grpc'], '--protocol must be one of'],
    [['http://x'], '--model is required'],
  ])('rejects %j with exit 2, naming the flag', async (argv, message) => {
    expect(() => parseSweepArgs(argv)).toThrow(message);
    const h = harness();
    expect(await runSweepCommand(argv, h.deps)).toBe(2);
    expect(h.err.join('')).toContain(message);
  });

  it('as a real process with --json prints exactly one JSON object in the issue’s shape', { timeout: 60_000 }, async () => {
    const { stdout, stderr } = await cliSweep(
      ['--model', 'tokenpace-reference', '--allow-private', '--concurrency', '1,2', '--duration-s', '0.5', '--warm-up-s', '0', '--json'],
      55_000,
    );
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const json = JSON.parse(stdout);
    expect(json.levels).toHaveLength(2);
    for (const level of json.levels) {
      for (const key of [
        'concurrency',
        'requests',
        'successes',
        'outputTokensPerSecond',
        'ttftMs',
        'aggregateOutputTokensPerSecond',
        'goodputRequestsPerSecond',
      ]) {
        expect(level).toHaveProperty(key);
      }
      expect(Object.keys(level.outputTokensPerSecond)).toEqual(['p5', 'p25', 'p50', 'p75', 'p95']);
      expect(Object.keys(level.ttftMs)).toEqual(['p5', 'p25', 'p50', 'p75', 'p95']);
    }
    expect(stderr).toMatch(/level 1\/2 N=1/);
  });

  it('with --threads 2 spreads the streams over probe threads and still recovers the server curve', { timeout: 90_000 }, async () => {
    server.clearWriteLog();
    const { stdout } = await cliSweep(
      ['--model', 'tokenpace-reference', '--allow-private', '--threads', '2', '--concurrency', '1,8', '--duration-s', '1', '--warm-up-s', '0', '--json'],
      85_000,
    );
    const json = JSON.parse(stdout);
    // The server's curve is min(400, 800 ÷ N) tokens/s per stream, but the server shares this
    // machine: loaded, it delivers less (a level-1 median 50 % below 400 was seen with three busy
    // loops), which is not the sweep's error. The truth is what it delivered, from its write log:
    // level 1's streams are those before the first that opened beside another (the one just
    // before it may be level 8's first; a median over a level's streams is not moved by one).
    const log = [...server.writeLog()].sort((a, b) => a.openedAt - b.openedAt);
    const firstShared = log.findIndex((r) => r.openStreams > 1);
    expect(firstShared, 'level 8 ran streams side by side').toBeGreaterThan(0);
    const deliveredP50 = (records: typeof log) =>
      percentile(
        records.flatMap((r) => (r.completed ? [measureRecordTps(r)!] : [])),
        50,
      );
    const truth: Record<number, number> = { 1: deliveredP50(log.slice(0, firstShared - 1)), 8: deliveredP50(log.slice(firstShared)) };
    // never above the configured curve, whatever the load (1e-4: the write log's epoch-ms stamps
    // round to ~0.5 µs, ~1e-5 of a 57 ms stream)
    expect(truth[1]!).toBeLessThanOrEqual(400 * (1 + 1e-4));
    expect(truth[8]!).toBeLessThanOrEqual(800 / 2);
    for (const level of json.levels) {
      expect(level.successes).toBeGreaterThan(0);
      expect(level.successes).toBe(level.requests);
      expect(typeof level.loopDelayP99Ms).toBe('number');
      // 5 %: the figure this test held against the configured curve on a quiet machine; a level the
      // sweep itself marked invalid (its probing process too loaded to trust the timing) is exempt
      const p50 = level.outputTokensPerSecond.p50;
      if (level.valid) expect(Math.abs(p50 - truth[level.concurrency]!) / truth[level.concurrency]!, JSON.stringify({ p50, truth })).toBeLessThan(0.05);
    }
  });

  it('with --threads keeps the SSRF guard in every thread (no --allow-private: blocked)', { timeout: 30_000 }, async () => {
    const h = harness();
    const code = await runSweepCommand(
      [server.url, '--model', 'm', '--threads', '2', '--concurrency', '2', '--duration-s', '0.2', '--warm-up-s', '0', '--json'],
      h.deps,
    );
    expect(code).toBe(1);
    const json = JSON.parse(h.out.join(''));
    expect(json.stopReason).toBe('blocked');
    expect(json.levels[0].successes).toBe(0);
  });

  it('rejects a bad --threads with exit 2', async () => {
    expect(() => parseSweepArgs(['http://x', '--model', 'm', '--threads', '1.5'])).toThrow('--threads must be');
    expect(parseSweepArgs(['http://x', '--model', 'm', '--concurrency', '1,4']).threads).toBe(0);
    expect(parseSweepArgs(['http://x', '--model', 'm', '--concurrency', '1,32']).threads).toBeGreaterThan(0);
  });
});
