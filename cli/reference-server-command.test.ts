import { describe, expect, it } from 'vitest';
import { UsageError } from './usage-error';
import { parseReferenceServerArgs, runReferenceServerCommand } from './reference-server-command';

describe('tokenpace reference-server', () => {
  it('parses every flag', () => {
    expect(parseReferenceServerArgs(['--port', '0', '--tps', '1000', '--ttft-ms', '200', '--tokens-per-chunk', '4', '--output-tokens', '512', '--host', '127.0.0.1'])).toEqual({
      port: 0,
      tps: 1000,
      ttftMs: 200,
      tokensPerChunk: 4,
      outputTokens: 512,
      host: '127.0.0.1',
    });
    expect(parseReferenceServerArgs(['--port', '0', '--tps', '300', '--ttft-ms', '20', '--capacity-tps', '2400'])).toMatchObject({ tps: 300, capacityTps: 2400 });
  });

  it.each([
    [['--tps', '10', '--ttft-ms', '1'], '--port is required'],
    [['--port', 'x', '--tps', '10', '--ttft-ms', '1'], '--port must be an integer 0-65535'],
    [['--port', '0', '--tps', '0', '--ttft-ms', '1'], '--tps must be a number'],
    [['--port', '0', '--tps', '10', '--ttft-ms=-5'], '--ttft-ms must be a number'],
    [['--port', '0', '--tps', '10', '--ttft-ms', '1', '--tokens-per-chunk', '1.5'], '--tokens-per-chunk must be an integer'],
    [['--port', '0', '--tps', '10', '--ttft-ms', '1', '--speed', '3'], "Unknown option '--speed'"],
    [['--port', '0', '--tps', '10', '--ttft-ms', '1', '--capacity-tps', '0'], '--capacity-tps must be a number'],
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
});
