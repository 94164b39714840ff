/**
 * A local OpenAI-compatible streaming server with an exactly known speed: the calibration target
 * for the probe (tests, `npm run bench:probe`, the calibration endpoint of a running instance).
 *
 * `POST /v1/chat/completions` (also `/chat/completions`) streams SSE: a role chunk at once, the
 * first content chunk `ttftMs` after the request was read, then chunks of `tokensPerChunk` tokens
 * such that the tokens AFTER the first chunk arrive at exactly `tps` tokens/s — the definition of
 * output speed (Artificial Analysis; 1/TPOT of vLLM bench_serving) — so a correct probe measures
 * `tps` and `ttftMs`. Chunk j is due at ttft + (tokens after the first chunk up to j) / tps,
 * scheduled by absolute time from the request, so timer lateness never accumulates. Every token is
 * one o200k token (./reference-words.ts). Then a finish chunk (`length` when the request's
 * max_tokens cut the answer, else `stop`), a usage chunk (choices: []) with completion_tokens,
 * and `data: [DONE]`. `GET /v1/models` lists the one model.
 *
 * One scheduler loop serves every open stream: it sleeps with setTimeout until ~1 ms before the
 * next due chunk, then spins with setImmediate, writing all chunks that are due (several due
 * chunks of one stream go out in one write; the SSE events stay separate).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { referenceWord } from './reference-words';

/** Options of {@link startReferenceServer}. */
export interface ReferenceServerOptions {
  /** TCP port; 0 for an ephemeral one. */
  port: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Output speed after the first chunk, tokens/s (> 0). */
  tps: number;
  /** Request read → first content chunk, ms (≥ 0). */
  ttftMs: number;
  /** Tokens per content chunk (integer ≥ 1, default 1). */
  tokensPerChunk?: number;
  /** Tokens per answer unless the request's max_tokens is smaller (integer ≥ 1, default 256). */
  outputTokens?: number;
}

/** A running reference server. */
export interface ReferenceServer {
  /** OpenAI base URL, e.g. http://127.0.0.1:8787/v1 (append /chat/completions) */
  url: string;
  port: number;
  /** Stops accepting, ends open streams, resolves when closed. */
  close(): Promise<void>;
}

/** Model id the server reports. */
export const REFERENCE_MODEL_ID = 'tokenpace-reference';

interface ActiveStream {
  res: ServerResponse;
  /** absolute performance.now() of the first content chunk */
  firstAt: number;
  msPerToken: number;
  perChunk: number;
  total: number;
  /** tokens already written */
  sent: number;
  /** content chunks written */
  chunksSent: number;
  finish: 'stop' | 'length';
  id: string;
  model: string;
  created: number;
}

/**
 * Starts the server. Throws RangeError for invalid options; rejects if the port cannot be bound.
 */
export async function startReferenceServer(options: ReferenceServerOptions): Promise<ReferenceServer> {
  const host = options.host ?? '127.0.0.1';
  const tps = options.tps;
  const perChunk = options.tokensPerChunk ?? 1;
  const outputTokens = options.outputTokens ?? 256;
  if (!(tps > 0) || !Number.isFinite(tps)) throw new RangeError('tps must be a positive number');
  if (!(options.ttftMs >= 0) || !Number.isFinite(options.ttftMs)) throw new RangeError('ttftMs must be a non-negative number');
  if (!Number.isInteger(perChunk) || perChunk < 1) throw new RangeError('tokensPerChunk must be an integer ≥ 1');
  if (!Number.isInteger(outputTokens) || outputTokens < 1) throw new RangeError('outputTokens must be an integer ≥ 1');
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) throw new RangeError('port must be an integer 0-65535');

  const streams = new Set<ActiveStream>();
  const sockets = new Set<Socket>();
  let sequence = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let spinning = false;

  const chunk = (s: ActiveStream, delta: string, finish: string | null) =>
    `data: {"id":"${s.id}","object":"chat.completion.chunk","created":${s.created},"model":${JSON.stringify(s.model)},"choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish === null ? 'null' : `"${finish}"`}}]}\n\n`;

  /** Due time (absolute) of content chunk j: tokens after the first chunk, at exactly tps. */
  const dueAt = (s: ActiveStream, j: number) => s.firstAt + Math.max(0, Math.min(j * s.perChunk, s.total) - Math.min(s.perChunk, s.total)) * s.msPerToken;

  const tick = () => {
    timer = null;
    spinning = false;
    const now = performance.now();
    let nextDue = Number.POSITIVE_INFINITY;
    for (const s of streams) {
      let out = '';
      while (s.sent < s.total && dueAt(s, s.chunksSent + 1) <= now) {
        const n = Math.min(s.perChunk, s.total - s.sent);
        let text = '';
        for (let k = 0; k < n; k++) text += referenceWord(s.sent + k);
        s.sent += n;
        s.chunksSent++;
        out += chunk(s, `{"content":${JSON.stringify(text)}}`, null);
      }
      if (s.sent >= s.total) {
        out += chunk(s, '{}', s.finish);
        out += `data: {"id":"${s.id}","object":"chat.completion.chunk","created":${s.created},"model":${JSON.stringify(s.model)},"choices":[],"usage":{"prompt_tokens":0,"completion_tokens":${s.total},"total_tokens":${s.total}}}\n\n`;
        out += 'data: [DONE]\n\n';
        s.res.end(out);
        streams.delete(s);
        continue;
      }
      if (out) s.res.write(out);
      nextDue = Math.min(nextDue, dueAt(s, s.chunksSent + 1));
    }
    schedule(nextDue);
  };

  const schedule = (due: number) => {
    if (streams.size === 0 || timer || spinning) return;
    const wait = due - performance.now();
    if (wait > 2) timer = setTimeout(tick, wait - 1);
    else {
      spinning = true;
      setImmediate(tick);
    }
  };

  const handleCompletion = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const readAt = performance.now();
    let request: { model?: unknown; max_tokens?: unknown; max_completion_tokens?: unknown; stream?: unknown };
    try {
      request = JSON.parse(body || '{}');
    } catch {
      return sendJson(res, 400, { error: { message: 'request body is not JSON', type: 'invalid_request_error' } });
    }
    if (request.stream !== true) {
      return sendJson(res, 400, { error: { message: 'the reference server only streams: send "stream": true', type: 'invalid_request_error' } });
    }
    const limitRaw = request.max_tokens ?? request.max_completion_tokens;
    const limit = typeof limitRaw === 'number' && Number.isInteger(limitRaw) && limitRaw >= 1 ? limitRaw : Number.POSITIVE_INFINITY;
    const total = Math.min(outputTokens, limit);
    const s: ActiveStream = {
      res,
      firstAt: readAt + options.ttftMs,
      msPerToken: 1000 / tps,
      perChunk,
      total,
      sent: 0,
      chunksSent: 0,
      finish: limit <= outputTokens ? 'length' : 'stop',
      id: `chatcmpl-ref-${++sequence}`,
      model: typeof request.model === 'string' && request.model !== '' ? request.model : REFERENCE_MODEL_ID,
      created: Math.floor(Date.now() / 1000),
    };
    req.socket.setNoDelay(true);
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.write(chunk(s, '{"role":"assistant","content":""}', null));
    res.on('close', () => streams.delete(s));
    streams.add(s);
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    schedule(s.firstAt);
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      req.resume();
      return sendJson(res, 200, { object: 'list', data: [{ id: REFERENCE_MODEL_ID, object: 'model', created: 0, owned_by: 'tokenpace' }] });
    }
    if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions')) {
      const parts: Buffer[] = [];
      req.on('data', (b: Buffer) => parts.push(b));
      req.on('end', () => handleCompletion(req, res, Buffer.concat(parts).toString('utf8')));
      return;
    }
    req.resume();
    sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'not_found' } });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/v1`,
    port,
    close: async () => {
      if (timer) clearTimeout(timer);
      for (const s of streams) s.res.destroy();
      streams.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
