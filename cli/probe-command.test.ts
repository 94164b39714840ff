import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { commandHarness } from './test-support/command-harness';
import { runProbeCommand } from './probe-command';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ port: 0, tps: 500, ttftMs: 40, outputTokens: 30 });
});
afterAll(async () => {
  await server.close();
});

function harness(env: Record<string, string> = {}) {
  return commandHarness(() => globalThis.fetch, env);
}

describe('tokenpace probe', () => {
  it('prints exactly one JSON object with the measurement and exits 0', async () => {
    // Every field but the clock ones must hold on every run; the times are re-measured (at most 5
    // runs) only because a loaded machine delays this process's timers.
    let timeMisses: string[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const h = harness({ REF_KEY: 'sk-ref' });
      const code = await runProbeCommand([server.url, '--model', 'tokenpace-reference', '--allow-private', '--json', '--api-key-env', 'REF_KEY'], h.deps);
      expect(code).toBe(0);
      expect(h.fetchCalls).toEqual([{ allowPrivate: true }]);
      const text = h.out.join('');
      expect(text.trim().split('\n')).toHaveLength(1);
      const json = JSON.parse(text);
      for (const key of [
        'outcome',
        'errorKind',
        'errorMessage',
        'httpStatus',
        'ttfbMs',
        'ttftMs',
        'ttfatMs',
        'e2eMs',
        'outputTokensReported',
        'outputTokensO200k',
        'outputTokensPerSecond',
        'tpotMs',
        'contentChunks',
        'finishReason',
        'answerText',
        'reasoningText',
        'toolCalls',
        'rankable',
        'notRankableReasons',
        'evidence',
      ]) {
        expect(json).toHaveProperty(key);
      }
      expect(json.timeline).toBeUndefined();
      expect(json.outcome).toBe('success');
      expect(json.errorKind).toBeNull();
      expect(json.outputTokensReported).toBe(30);
      expect(json.outputTokensO200k).toBe(30);
      expect(json.finishReason).toBe('stop');
      expect(JSON.stringify(json)).not.toContain('sk-ref');
      timeMisses = [];
      if (Math.abs(json.ttftMs - 40) >= 15) timeMisses.push(`ttftMs ${json.ttftMs}`);
      if (Math.abs(json.outputTokensPerSecond - 500) >= 50) timeMisses.push(`outputTokensPerSecond ${json.outputTokensPerSecond}`);
      if (timeMisses.length === 0) break;
    }
    expect(timeMisses).toEqual([]);
  });

  it('includes the timeline with --timeline and honours --max-tokens', async () => {
    const h = harness();
    const code = await runProbeCommand([server.url, '--model', 'm', '--allow-private', '--json', '--timeline', '--max-tokens', '12'], h.deps);
    expect(code).toBe(0);
    const json = JSON.parse(h.out.join(''));
    expect(json.timeline).toHaveLength(12);
    expect(json.timeline[0]).toMatchObject({ tokens: 1, channel: 'answer' });
    expect(json.finishReason).toBe('length');
  });

  it('prints a readable summary without --json', async () => {
    const h = harness();
    const code = await runProbeCommand([server.url, '--model', 'm', '--allow-private', '--max-tokens', '5'], h.deps);
    expect(code).toBe(0);
    const text = h.out.join('');
    expect(text).toContain('outcome       success (finish: length)');
    expect(text).toMatch(/TTFT\s+\d+\.\d ms/);
    expect(text).toMatch(/output speed\s+\d+\.\d tok\/s/);
  });

  it('exits 1 with the error kind for a failed probe', async () => {
    const h = harness();
    const code = await runProbeCommand(['http://127.0.0.1:1/v1', '--model', 'm', '--json'], h.deps);
    expect(code).toBe(1);
    const json = JSON.parse(h.out.join(''));
    expect(json.outcome).toBe('error');
    expect(json.errorKind).toBe('http_error');
    expect(json.httpStatus).toBeNull();
  });

  it('records what the SSRF guard says (blocked)', async () => {
    const h = harness();
    h.deps.createFetch = () => async () => {
      throw Object.assign(new Error('address 127.0.0.1 is loopback'), { kind: 'blocked' });
    };
    const code = await runProbeCommand([server.url, '--model', 'm', '--json'], h.deps);
    expect(code).toBe(1);
    expect(JSON.parse(h.out.join('')).errorKind).toBe('blocked');
  });

  it.each([
    [[], 'missing <url>'],
    [['http://x'], '--model is required'],
    [['http://x', '--model', 'm', '--protocol', 'grpc'], '--protocol must be one of'],
    [['http://x', '--model', 'm', '--max-tokens', '0'], '--max-tokens must be a positive integer'],
    [['http://x', '--model', 'm', '--ttft-timeout-ms', 'soon'], '--ttft-timeout-ms must be a positive integer'],
    [['http://x', '--model', 'm', '--bogus'], "Unknown option '--bogus'"],
    [['http://x', '--model', 'm', '--api-key-env', 'MISSING_KEY'], 'MISSING_KEY'],
  ])('exits 2 with a clear message for bad usage %j', async (argv, message) => {
    const h = harness();
    const code = await runProbeCommand(argv as string[], h.deps);
    expect(code).toBe(2);
    expect(h.err.join('')).toContain(message);
    expect(h.out.join('')).toBe('');
  });

  it('reports invalid_url for a non-http URL', async () => {
    const h = harness();
    expect(await runProbeCommand(['ftp://example.com/v1', '--model', 'm', '--json'], h.deps)).toBe(1);
    expect(JSON.parse(h.out.join('')).errorKind).toBe('invalid_url');
  });
});
