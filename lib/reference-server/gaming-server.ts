/**
 * The gaming reference server (issue 20 item 6, decision 176): an OpenAI-compatible streaming
 * server that does, on purpose, each trick a provider bent on ranking first without being fast
 * would try, so that tests (and an operator, `tokenpace reference-server --gaming`) can show that
 * every one ends not rankable or not ranked. The trick is chosen by the request's `model` (the
 * endpoint's API model id), so one server serves every trick at once.
 *
 * Every answer is made of reference words (./reference-words.ts: one o200k token each), starting
 * at a point chosen by the prompt's hash, and fidelity prompts are answered correctly (as the
 * honest reference server does) unless the trick is about answers: each trick breaks exactly one
 * rule, so the test can name the rule that caught it. Times are ms after the request body was read.
 *
 * Tricks (`GAMING_TRICKS`), each an issue-20 table row or a variant around a rule's edge:
 * - answers: `junk-text` (the same fixed text to every prompt, fidelity tasks included),
 *   `junk-varied` (plausible varied text that never answers a fidelity task), `junk-wrong` (a
 *   fidelity reply in the right format with a wrong result and code), `junk-loop` (a repeated
 *   phrase: a generation loop);
 * - `whole-answer`: the whole answer in one write after generating it (the old bulk rule's case);
 * - hold then burst: `hold-then-burst` (2 s hold, then 250 one-token events 0.5 ms apart),
 *   `bulk-63` (generate 256 tokens at 100 tok/s = 2.56 s, then 63 tokens per event every 1 ms),
 *   `burst-first-read` (hold 2.5 s, then all but 15 tokens as one-token events in one write, then
 *   the 15 at 10 ms: few tokens after the first read, but a published speed of almost all of them),
 *   `hold-just-over` / `hold-just-under` (1.15× / 0.85× the hold rule's allowance, 250 tokens at
 *   2 ms each);
 * - clock padding: `clock-padding` (one word at once, a 1.5 s pause, then 200 tok/s),
 *   `padding-just-over` / `padding-just-under` (first gap 12× / 5× the stream's pace of 20 ms,
 *   both above the 25 ms floor), `stall-just-under` / `stall-just-over` (one word at 50 ms, then
 *   a stall of 50 / 150 ms before a 5 ms pace: 10× / 30× the pace, under / over the 100 ms
 *   short-stall allowance of decision 312; the ratio alone refused both before it);
 * - counts: `usage-inflated-24` (usage 24 % above the tokens sent; the agreement check allows
 *   25 %), `usage-inflated-30` (30 % above);
 * - `honest` (any other model id): a steady 500 tok/s stream, for comparison.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createHash } from 'node:crypto';
import { answerFidelityTokens, promptFromChatMessages } from '../fidelity/answer-task';
import { referenceWord } from './reference-words';

/** Trick names (the request's `model`). */
export const GAMING_TRICKS = [
  'junk-text',
  'junk-varied',
  'junk-wrong',
  'junk-loop',
  'whole-answer',
  'hold-then-burst',
  'bulk-63',
  'burst-first-read',
  'hold-just-over',
  'hold-just-under',
  'clock-padding',
  'padding-just-over',
  'padding-just-under',
  'stall-just-under',
  'stall-just-over',
  'usage-inflated-24',
  'usage-inflated-30',
  'honest',
] as const;
export type GamingTrick = (typeof GAMING_TRICKS)[number];

/** One write of a plan: at `atMs` after the request, `tokens` tokens in `events` SSE events (default 1 per token). */
interface PlannedWrite {
  atMs: number;
  tokens: number;
  /** tokens per SSE event in this write (default 1) */
  perEvent?: number;
}

/** The hold rule's allowance the `hold-just-*` tricks scale (lib/probe/plausible-delivery: 4 spans + prefill + 25 ms). */
function holdAllowanceMs(spanMs: number, tokensAfterFirst: number, promptChars: number): number {
  const inputTokens = Math.ceil(promptChars / 4); // the probe's own estimate of the prompt's size
  const ratePerMs = tokensAfterFirst / spanMs;
  return 4 * spanMs + inputTokens / (4 * ratePerMs) + 25;
}

/** Steady one-token writes: the first at `startMs`, then one every `stepMs`. */
function steady(n: number, startMs: number, stepMs: number): PlannedWrite[] {
  return Array.from({ length: n }, (_, i) => ({ atMs: startMs + i * stepMs, tokens: 1 }));
}

/** The write plan of a trick for an answer of `n` tokens to a prompt of `promptChars` characters. */
export function planTrick(trick: GamingTrick, n: number, promptChars: number): PlannedWrite[] {
  switch (trick) {
    case 'whole-answer':
      return [{ atMs: n * 10, tokens: n }];
    case 'hold-then-burst':
      return steady(n, 2000, 0.5);
    case 'burst-first-read':
      return [{ atMs: 2500, tokens: n - 15 }, ...steady(15, 2510, 10)];
    case 'bulk-63': {
      // generated at 100 tok/s before anything is sent (256 tokens: 2.56 s), then 63 per event every 1 ms
      const writes: PlannedWrite[] = [];
      for (let sent = 0, i = 0; sent < n; i++) {
        const k = Math.min(63, n - sent);
        writes.push({ atMs: n * 10 + i, tokens: k, perEvent: k });
        sent += k;
      }
      return writes;
    }
    case 'hold-just-over':
    case 'hold-just-under': {
      const stepMs = 2;
      const spanMs = (n - 1) * stepMs;
      const hold = holdAllowanceMs(spanMs, n - 1, promptChars) * (trick === 'hold-just-over' ? 1.15 : 0.85);
      return steady(n, hold, stepMs);
    }
    case 'clock-padding':
      return [{ atMs: 1, tokens: 1 }, ...steady(n - 1, 1500, 5)];
    case 'padding-just-over':
    case 'padding-just-under': {
      // 20 ms steps: the server's own timer jitter stays small beside the pace, and just-under's
      // 100 ms first gap needs 60 ms of its own lateness to reach 8 steps (10 ms steps needed 30 ms,
      // which three busy loops beside this process gave)
      const pace = 20;
      const gap = pace * (trick === 'padding-just-over' ? 12 : 5);
      return [{ atMs: 50, tokens: 1 }, ...steady(n - 1, 50 + gap, pace)];
    }
    case 'stall-just-under':
    case 'stall-just-over': {
      // one short stall after the first word (lib/probe/plausible-delivery SHORT_STALL_MS = 100 ms):
      // 0.5× / 1.5× of it, both far over 8 steps of the 5 ms pace
      const stall = trick === 'stall-just-over' ? 150 : 50;
      return [{ atMs: 50, tokens: 1 }, ...steady(n - 1, 50 + stall, 5)];
    }
    default:
      // answers and counts tricks, and `honest`: a steady 500 tok/s stream after 50 ms
      return steady(n, 50, 2);
  }
}

/** Options of {@link startGamingServer}. */
export interface GamingServerOptions {
  /** TCP port; 0 for an ephemeral one. */
  port: number;
  host?: string;
  /** Answer length unless max_tokens is smaller (default 256). */
  outputTokens?: number;
}

/** A running gaming server. */
export interface GamingServer {
  /** OpenAI base URL, e.g. http://127.0.0.1:8788/v1 */
  url: string;
  port: number;
  close(): Promise<void>;
}

function wordOffset(prompt: string): number {
  return createHash('sha256').update(prompt).digest().readUIntBE(0, 3);
}

/** The answer's tokens (one string per o200k token) for a trick. */
function answerTokens(trick: GamingTrick, messages: unknown, n: number): string[] {
  const prompt = promptFromChatMessages(messages);
  const offset = wordOffset(prompt);
  const words = (from: number) => Array.from({ length: n }, (_, i) => referenceWord(from + i));
  if (trick === 'junk-text') return words(0); // the very same text whatever the prompt
  if (trick === 'junk-varied') return words(offset); // never answers a fidelity task
  if (trick === 'junk-wrong') {
    // the reply's shape, a wrong result and code: looks like an answer to a format check
    const wrong = answerFidelityTokens(messages) ? ['ANSWER', ':', ' 7', '\n', 'CODE', ':', ' AAAA', '-BBBB', '-CCCC', '\n'] : [];
    return [...wrong, ...words(offset)].slice(0, n);
  }
  if (trick === 'junk-loop') return Array.from({ length: n }, (_, i) => [' the', ' answer', ' is', ' here'][i % 4]!);
  const fidelity = answerFidelityTokens(messages) ?? [];
  return [...fidelity, ...words(offset)].slice(0, n);
}

function chunk(id: string, delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: 'gaming', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** Starts the gaming server; resolves once it listens. */
export async function startGamingServer(options: GamingServerOptions): Promise<GamingServer> {
  const outputTokens = options.outputTokens ?? 256;
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let count = 0;

  const serve = (req: IncomingMessage, res: ServerResponse, body: string) => {
    let request: { model?: unknown; messages?: unknown; max_tokens?: unknown; max_completion_tokens?: unknown };
    try {
      request = JSON.parse(body) as typeof request;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'invalid JSON' } }));
      return;
    }
    const trick: GamingTrick = (GAMING_TRICKS as readonly string[]).includes(String(request.model)) ? (request.model as GamingTrick) : 'honest';
    const maxTokens = Number(request.max_completion_tokens ?? request.max_tokens ?? outputTokens);
    const n = Math.max(8, Math.min(outputTokens, Number.isFinite(maxTokens) ? maxTokens : outputTokens));
    const tokens = answerTokens(trick, request.messages, n);
    const plan = planTrick(trick, tokens.length, promptFromChatMessages(request.messages).length);
    const inflation = trick === 'usage-inflated-24' ? 1.24 : trick === 'usage-inflated-30' ? 1.3 : 1;
    const id = `chatcmpl-gaming-${++count}`;
    const t0 = performance.now();
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk(id, { role: 'assistant', content: '' }));
    let sent = 0;
    let w = 0;
    const step = () => {
      if (res.destroyed) return;
      // every write that is due goes out now, each token group as its own SSE event
      let out = '';
      const now = performance.now() - t0;
      while (w < plan.length && plan[w]!.atMs <= now) {
        const { tokens: k, perEvent = 1 } = plan[w++]!;
        for (let i = 0; i < k; i += perEvent) {
          out += chunk(id, { content: tokens.slice(sent + i, sent + Math.min(k, i + perEvent)).join('') });
        }
        sent += k;
      }
      if (out) res.write(out);
      if (w < plan.length) {
        const wait = plan[w]!.atMs - (performance.now() - t0);
        // sleep to ~1 ms before the next write, then spin: sub-millisecond plans stay on time
        if (wait > 1.5) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            step();
          }, wait - 1);
          timers.add(timer);
        } else setImmediate(step);
        return;
      }
      res.write(chunk(id, {}, 'stop'));
      const usage = { prompt_tokens: 100, completion_tokens: Math.round(sent * inflation), total_tokens: 100 + Math.round(sent * inflation) };
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: 'gaming', choices: [], usage })}\n\n`);
      res.end('data: [DONE]\n\n');
    };
    step();
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (req.method !== 'POST' || !/(^|\/)chat\/completions$/.test(path)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'POST /v1/chat/completions only' } }));
      return;
    }
    let body = '';
    let bytes = 0;
    req.on('data', (c: Buffer) => {
      bytes += c.length;
      if (bytes > 2 * 1024 * 1024)
        req.destroy(); // bounded: a 100k-token prompt is ~0.5 MB
      else body += c.toString('utf8');
    });
    req.on('end', () => serve(req, res, body));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/v1`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
