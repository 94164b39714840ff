import { describe, expect, it } from 'vitest';
import { UsageError } from './usage-error';
import { parseGamingServerArgs, parseReferenceServerArgs, runReferenceServerCommand } from './reference-server-command';

describe('tokenpace reference-server', () => {
  it('parses every flag', () => {
    expect(
      parseReferenceServerArgs([
        '--port',
        '0',
        '--tps',
        '1000',
        '--ttft-ms',
        '200',
        '--tokens-per-chunk',
        '4',
        '--output-tokens',
        '512',
        '--host',
        '127.0.0.1',
      ]),
    ).toEqual({
      port: 0,
      tps: 1000,
      ttftMs: 200,
      tokensPerChunk: 4,
      outputTokens: 512,
      host: '127.0.0.1',
    });
    expect(parseReferenceServerArgs(['--port', '0', '--tps', '300', '--ttft-ms', '20', '--capacity-tps', '2400'])).toMatchObject({
      tps: 300,
      capacityTps: 2400,
    });
    expect(
      parseReferenceServerArgs(['--port', '0', '--tps', '150', '--ttft-ms', '20', '--service-tier', 'priority=400,0.25@60', '--service-tier', 'flex=50']),
    ).toMatchObject({ serviceTiers: { priority: { tps: 400, slowShare: 0.25, slowTps: 60 }, flex: { tps: 50 } } });
    // the prefix cache and its lifetime (decisions 260, 268)
    expect(
      parseReferenceServerArgs(['--port', '0', '--tps', '150', '--ttft-ms', '900', '--prefix-cache-hit-ttft-ms', '200', '--cache-ttl-s', '300']),
    ).toMatchObject({
      prefixCache: { hitTtftMs: 200, ttlMs: 300_000 },
    });
    expect(parseReferenceServerArgs(['--port', '0', '--tps', '150', '--ttft-ms', '900', '--prefix-cache-hit-ttft-ms', '0']).prefixCache).toEqual({
      hitTtftMs: 0,
    });
    expect(parseReferenceServerArgs(['--port', '0', '--tps', '150', '--ttft-ms', '900']).prefixCache).toBeUndefined();
  });

  it.each([
    [['--tps', '10', '--ttft-ms', '1'], '--port is required'],
    [['--port', 'x', '--tps', '10', '--ttft-ms', '1'], '--port must be an integer 0-65535'],
    [['--port', '0', '--tps', '0', '--ttft-ms', '1'], '--tps must be a number'],
    [['--port', '0', '--tps', '10', '--ttft-ms=-5'], '--ttft-ms must be a number'],
    [['--port', '0', '--tps', '10', '--ttft-ms', '1', '--tokens-per-chunk', '1.5'], '--tokens-per-chunk must be an integer'],
    [['--port', '0', '--tps', '10', '--ttft-ms', '1', '--speed', '3'], "Unknown option '--speed'"],
    [['--port', '0', '--tps', '10', '--ttft-ms', '1', '--capacity-tps', '0'], '--capacity-tps must be a number'],
    [['--port', '0', '--tps', '10', '--ttft-ms', '1', '--service-tier', 'priority'], '--service-tier must be NAME=TPS'],
    [['--port', '0', '--tps', '10', '--ttft-ms', '1', '--service-tier', 'priority=400,1.5@60'], '--service-tier must be NAME=TPS'],
    [['--port', '0', '--tps', '10', '--ttft-ms', '1', '--service-tier', 'priority=0'], '--service-tier must be NAME=TPS'],
    [['--port', '0', '--tps', '10', '--ttft-ms', '1', '--cache-ttl-s', '300'], '--cache-ttl-s needs --prefix-cache-hit-ttft-ms'],
    [['--port', '0', '--tps', '10', '--ttft-ms', '1', '--prefix-cache-hit-ttft-ms', '5', '--cache-ttl-s', '0'], '--cache-ttl-s must be a number'],
    [['--port', '0', '--tps', '10', '--ttft-ms', '1', '--prefix-cache-hit-ttft-ms=-1'], '--prefix-cache-hit-ttft-ms must be a number'],
  ])('rejects %j with a UsageError', (argv, message) => {
    expect(() => parseReferenceServerArgs(argv)).toThrow(UsageError);
    expect(() => parseReferenceServerArgs(argv)).toThrow(message);
  });

  it('prints its URL, serves until stopped, then closes', async () => {
    const lines: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = runReferenceServerCommand(['--port', '0', '--tps', '100', '--ttft-ms', '0'], { print: (l) => lines.push(l), waitForStop: () => stopped });
    await expect.poll(() => lines.length).toBe(1);
    const url = /listening on (\S+)/.exec(lines[0]!)![1]!;
    const models = await (await fetch(`${url}/models`)).json();
    expect(models.data).toHaveLength(1);
    stop();
    await running;
    await expect(fetch(`${url}/models`)).rejects.toThrow();
  });

  it('--gaming: parses its flags, names the tricks, and serves a trick chosen by the model id', async () => {
    expect(parseGamingServerArgs(['--gaming', '--port', '0', '--host', '127.0.0.1'])).toEqual({ port: 0, host: '127.0.0.1' });
    expect(() => parseGamingServerArgs(['--gaming'])).toThrow('--port must be an integer 0-65535');
    expect(() => parseGamingServerArgs(['--gaming', '--port', '0', '--tps', '5'])).toThrow("Unknown option '--tps'");
    const lines: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = runReferenceServerCommand(['--gaming', '--port', '0'], { print: (l) => lines.push(l), waitForStop: () => stopped });
    await expect.poll(() => lines.length).toBe(1);
    expect(lines[0]).toContain('hold-then-burst');
    const url = /listening on (\S+)/.exec(lines[0]!)![1]!;
    const body = await (
      await fetch(`${url}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'usage-inflated-30', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      })
    ).text();
    const usage = body
      .split('\n')
      .filter((l) => l.includes('"usage"'))
      .map((l) => JSON.parse(l.slice(6)) as { usage: { completion_tokens: number } })[0]!.usage;
    expect(usage.completion_tokens).toBe(13); // 10 tokens sent, reported 30 % more
    stop();
    await running;
  });
});
