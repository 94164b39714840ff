/**
 * Warms the probe's code paths before the first real measurement. The first stream a process
 * parses runs cold code (module initialisation, JIT tiers, the tokenizer's first encode), which on
 * this machine made the first probes' times 10-20 ms late. A worker calls this once at start;
 * tests call it before timing-sensitive replays. No network; takes a few ms.
 *
 * {@link warmUpProbePath} also warms the HTTP side (undici's fetch, writing a request body, the
 * read stamps, the parse scheduler) against a throw-away server on 127.0.0.1 inside this process:
 * in a cold `tokenpace probe` process the first request's body was written 6 ms after its headers
 * and its first token read 2 ms late, which entered TTFT (decision 150).
 * After both, callers settle the heap (./settle-heap.ts, decision 185).
 */
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGuardedFetch } from '../security/ssrf-guard';
import { buildProbeResult } from './build-probe-result';
import { probeEndpoint } from './probe-endpoint';
import { parseStream } from './parse-stream';
import type { Protocol } from './types';

const encoder = new TextEncoder();

function sampleStreams(): Record<Protocol, Uint8Array[]> {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const frame = (eventType: string, payload: unknown) =>
    codec.encode({
      headers: { ':event-type': { type: 'string', value: eventType }, ':message-type': { type: 'string', value: 'event' } },
      body: fromUtf8(JSON.stringify(payload)),
    });
  const text = (s: string) => encoder.encode(s);
  return {
    'openai-chat': [
      text('data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n'),
      text(
        'data: {"choices":[{"index":0,"delta":{"content":"Warm"}}]}\n\ndata: {"choices":[{"index":0,"delta":{"content":" up"},"finish_reason":"stop"}]}\n\n',
      ),
      text('data: {"choices":[],"usage":{"completion_tokens":2}}\n\ndata: [DONE]\n\n'),
    ],
    'openai-responses': [
      text('event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"status":"in_progress"}}\n\n'),
      text(
        'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":1,"item_id":"m","output_index":0,"content_index":0,"delta":"Warm"}\n\n',
      ),
      text(
        'event: response.completed\ndata: {"type":"response.completed","sequence_number":2,"response":{"status":"completed","usage":{"output_tokens":1}}}\n\n',
      ),
    ],
    'anthropic-messages': [
      text('event: message_start\ndata: {"type":"message_start","message":{"usage":{"output_tokens":1}}}\n\n'),
      text('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Warm"}}\n\n'),
      text(
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
      ),
    ],
    'bedrock-converse-stream': [
      frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Warm' } }),
      frame('messageStop', { stopReason: 'end_turn' }),
      frame('metadata', { usage: { outputTokens: 1 } }),
    ],
    'gemini-stream': [text('data: {"candidates":[{"content":{"parts":[{"text":"Warm"}]},"finishReason":"STOP"}]}\r\n\r\n')],
  };
}

/** Parses one small synthetic stream per protocol (several times) and discards the results. */
export async function warmUpProbeCore(rounds = 20): Promise<void> {
  const streams = sampleStreams();
  for (let i = 0; i < rounds; i++) {
    for (const [protocol, chunks] of Object.entries(streams) as Array<[Protocol, Uint8Array[]]>) {
      async function* body() {
        yield* chunks;
      }
      let t = 0;
      const parsed = await parseStream(protocol, body(), () => (t += 1));
      buildProbeResult(parsed, { protocol, httpStatus: 200, ttfbMs: 0, connectMs: null, abort: null });
    }
  }
}

/**
 * Real loopback probes run before the first timed one. Enough for V8 to tier the request and
 * read path up past the interpreter (decision 185): in cold `tokenpace probe` processes against
 * one reference server (1,000 TPS/user, TTFT 100 ms), 8 interleaved runs each gave a median TTFT
 * of ~104 ms after 3 rounds (worst 131.9) and ~101.3 ms after 40 (worst 103.0). 40 rounds cost
 * ~200 ms once per process.
 */
export const WARM_UP_PROBE_ROUNDS = 40;

/**
 * Runs `rounds` real probes (OpenAI chat protocol, a few small events each) against a server on
 * 127.0.0.1 started and stopped here, through the SSRF-guarded fetch (loopback allowed for this
 * server only: it is ours). No provider is contacted. Takes ~200 ms cold at the default rounds.
 * Never throws: a failure to warm only leaves the process cold.
 */
export async function warmUpProbePath(rounds = WARM_UP_PROBE_ROUNDS): Promise<void> {
  const events = [
    '{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}',
    '{"choices":[{"index":0,"delta":{"content":"Warm"}}]}',
    '{"choices":[{"index":0,"delta":{"content":" up"},"finish_reason":"stop"}]}',
    '{"choices":[],"usage":{"completion_tokens":2}}',
    '[DONE]',
  ];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const next = () => {
        res.write(`data: ${events[i++]}\n\n`);
        if (i < events.length) setImmediate(next);
        else res.end();
      };
      next();
    });
  });
  const fetch = createGuardedFetch({ allowPrivate: true });
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    for (let i = 0; i < rounds; i++) {
      await probeEndpoint({
        protocol: 'openai-chat',
        url,
        model: 'warm-up',
        apiKey: null,
        prompt: 'warm up',
        maxOutputTokens: 2,
        deadlines: { ttftMs: 5_000, idleMs: 5_000, totalMs: 10_000, maxBytes: 64 * 1024 },
        fetch,
      });
    }
  } catch {
    // warming is best effort
  } finally {
    await fetch.dispatcher.close().catch(() => {});
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
