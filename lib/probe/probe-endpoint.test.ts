import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probeEndpoint } from './probe-endpoint';
import type { FetchLike, ProbeRequest } from './types';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A tiny server whose handler is given per test. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const base = (over: Partial<ProbeRequest>): ProbeRequest => ({
  protocol: 'openai-chat',
  url: 'http://127.0.0.1:9/v1',
  model: 'm',
  apiKey: 'sk-secret-123',
  prompt: 'hi',
  maxOutputTokens: 16,
  deadlines: { ttftMs: 5000, idleMs: 5000, totalMs: 10_000, maxBytes: 1 << 20 },
  fetch: globalThis.fetch,
  ...over,
});

const chunk = (content: string) => `data: {"choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}}}]}\n\n`;

describe('probeEndpoint outcomes outside the replay cases', () => {
  it.each([['not a url'], ['ftp://example.com/v1'], ['file:///etc/passwd']])('%s → invalid_url without fetching', async (url) => {
    let called = false;
    const r = await probeEndpoint(base({ url, fetch: async () => ((called = true), new Response('')) }));
    expect(r.errorKind).toBe('invalid_url');
    expect(called).toBe(false);
  });

  it.each(['blocked', 'invalid_url'] as const)('records the guard kind %s', async (kind) => {
    const guard: FetchLike = async () => {
      throw Object.assign(new Error(`refused (${kind})`), { kind });
    };
    const r = await probeEndpoint(base({ url: 'http://10.0.0.1/v1', fetch: guard }));
    expect(r.outcome).toBe('error');
    expect(r.errorKind).toBe(kind);
    expect(r.errorMessage).toContain('refused');
  });

  it('a refused connection is http_error with no status', async () => {
    const r = await probeEndpoint(base({ url: 'http://127.0.0.1:1/v1' }));
    expect(r.errorKind).toBe('http_error');
    expect(r.httpStatus).toBeNull();
  });

  it('never echoes the API key, even when the server does', async () => {
    const url = await serve((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `bad key ${req.headers.authorization}` }));
    });
    const r = await probeEndpoint(base({ url }));
    expect(r.errorKind).toBe('http_error');
    expect(r.httpStatus).toBe(401);
    expect(r.errorMessage).toContain('bad key Bearer [REDACTED]');
    expect(r.errorMessage).not.toContain('sk-secret-123');
  });

  it('caller abort mid-stream → cancelled, partial timeline kept', async () => {
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('Hello'));
    });
    const controller = new AbortController();
    const pending = probeEndpoint(base({ url, signal: controller.signal }));
    setTimeout(() => controller.abort(), 150);
    const r = await pending;
    expect(r.errorKind).toBe('cancelled');
    expect(r.answerText).toBe('Hello');
    expect(r.contentChunks).toBe(1);
    expect(r.e2eMs).toBeNull();
  });

  it('an already-aborted signal → cancelled at once', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await probeEndpoint(base({ signal: controller.signal }));
    expect(r.errorKind).toBe('cancelled');
  });

  it('the total deadline ends a steady but endless stream as timeout', async () => {
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const t = setInterval(() => res.write(chunk(' tok')), 20);
      res.on('close', () => clearInterval(t));
    });
    const started = performance.now();
    const r = await probeEndpoint(base({ url, deadlines: { ttftMs: 1000, idleMs: 1000, totalMs: 300, maxBytes: 1 << 20 } }));
    expect(r.errorKind).toBe('timeout');
    expect(r.errorMessage).toContain('total deadline');
    // ended by it, not left running (the stream never ends by itself), however late a busy machine runs timers
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(r.contentChunks).toBeGreaterThan(5);
  });

  it('a complete answer whose server never closes is still a success (idle deadline after finish)', async () => {
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('All'));
      res.write(chunk(' done'));
      res.write('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n');
    });
    const r = await probeEndpoint(base({ url, deadlines: { ttftMs: 1000, idleMs: 200, totalMs: 5000, maxBytes: 1 << 20 } }));
    expect(r.outcome).toBe('success');
    expect(r.finishReason).toBe('stop');
    expect(r.answerText).toBe('All done');
    expect(r.e2eMs).not.toBeNull();
  });

  it('reports progress while streaming and measures TTFB, connect time and speed', async () => {
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const t = setInterval(() => {
        if (++i <= 30) return void res.write(chunk(' tok'));
        clearInterval(t);
        res.end('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
      }, 20);
    });
    const progress: number[] = [];
    const r = await probeEndpoint(base({ url, onProgress: (p) => progress.push(p.generatedEvents) }));
    expect(r.outcome).toBe('success');
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeLessThanOrEqual(5); // at most every 250 ms
    expect(r.ttfbMs).not.toBeNull();
    expect(r.connectMs).not.toBeNull();
    expect(r.connectMs!).toBeGreaterThanOrEqual(0);
    expect(r.outputTokensO200k).toBe(30);
    expect(r.outputTokensPerSecond).toBeGreaterThan(30);
    expect(r.outputTokensPerSecond).toBeLessThan(60);
    expect(r.outputTokensPerSecond).toBe(r.outputTokensPerSecondO200k);
    expect(r.tpotMs).toBeCloseTo((r.e2eMs! - r.ttftMs!) / 29, 6);
  });

  it('sends it through the given fetch with the SDK’s headers and no mark of its own', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const fake: FetchLike = async (input, init) => {
      seen.push({ url: String(input), init: init! });
      return new Response(chunk('x') + 'data: [DONE]\n\n', { status: 200, headers: { 'content-type': 'text/event-stream' } });
    };
    const r = await probeEndpoint(base({ url: 'https://api.example.com/v1', fetch: fake }));
    expect(r.outcome).toBe('success');
    expect(r.connectMs).toBeNull(); // not undici: no transmission timing
    expect(seen[0]!.url).toBe('https://api.example.com/v1/chat/completions');
    const headers = seen[0]!.init.headers as Record<string, string>;
    expect(Object.keys(headers).filter((h) => /tokenpace|probe/i.test(h))).toEqual([]);
    expect(headers['accept-encoding']).toBeUndefined(); // fetch's own default, as the SDK leaves it
    expect(headers.accept).toBe('application/json');
    expect(headers['x-stainless-lang']).toBe('js');
    expect(headers.authorization).toBe('Bearer sk-secret-123');
    // an ordinary client's user agent (the official OpenAI SDK's form), not undici's default
    expect(headers['user-agent']).toMatch(/^OpenAI\/JS \d+\.\d+\.\d+$/);
  });
});

describe('probes look like ordinary clients (issue 20)', () => {
  it('a real server sees the official SDK’s user agent for each protocol, never undici’s default', async () => {
    const seen: Array<string | undefined> = [];
    const url = await serve((req, res) => {
      seen.push(req.headers['user-agent']);
      req.resume();
      req.on('end', () => res.writeHead(500).end('{}'));
    });
    for (const protocol of ['openai-chat', 'anthropic-messages', 'gemini-stream'] as const) {
      await probeEndpoint(base({ protocol, url }));
    }
    expect(seen).toEqual([expect.stringMatching(/^OpenAI\/JS /), expect.stringMatching(/^Anthropic\/JS /), expect.stringMatching(/^google-genai-sdk\//)]);
    expect(seen.join(' ')).not.toMatch(/undici/i);
  });
});
