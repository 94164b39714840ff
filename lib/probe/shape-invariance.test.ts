/**
 * Property (issue 9 item 1): every known text-bearing shape of every protocol, generated with
 * random texts, channels, noise events and SSE line styles, then cut into reads at random, parses
 * to the same answer, reasoning, chunk count and token counts, with nothing reported as
 * unrecognised; when the cuts only split the server's writes (never merge them) every event keeps
 * its exact time. Extends split-invariance.test.ts (which re-cuts the fixed cases) to generated
 * streams, so a shape is covered whatever text, position or neighbours it has.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildProbeResult } from './build-probe-result';
import { parseStream } from './parse-stream';
import type { ProbeResult, Protocol } from './types';
import { bedrockFrame } from './test-support/case-wire';
import { cutBody, timedBody, type TimedPiece } from './test-support/cut-body';

type Channel = 'answer' | 'reasoning';
interface GenEvent {
  channel: Channel;
  text: string;
  shape: number;
}

const WORDS = ['alpha', ' beta', ' gamma', ' δέλτα', ' 表', ' 🚀', '\n', ' "quoted"', ' back\\slash', ' x'];
const textArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(''));
const eventsArb = fc.array(fc.record({ channel: fc.constantFrom<Channel>('answer', 'reasoning'), text: textArb, shape: fc.nat(20) }), {
  minLength: 1,
  maxLength: 10,
});

/** OpenAI delta shapes per channel (every one a shape the adapter must read). */
const OPENAI_SHAPES: Record<Channel, Array<(t: string) => Record<string, unknown>>> = {
  answer: [
    (t) => ({ content: t }),
    (t) => ({ content: [{ type: 'text', text: t }] }),
    (t) => ({ content: [{ type: 'output_text', text: [{ type: 'text', text: t }] }] }),
    (t) => ({ content: [{ type: 'text', text: { value: t, annotations: [] } }] }),
    (t) => ({ content: t, reasoning_content: null }),
    (t) => ({
      content: [
        { type: 'thinking', thinking: [] },
        { type: 'text', text: t },
      ],
    }),
  ],
  reasoning: [
    (t) => ({ reasoning_content: t }),
    (t) => ({ reasoning: t, content: '' }),
    (t) => ({ reasoning_details: [{ type: 'reasoning.text', text: t, format: 'unknown', index: 0 }] }),
    (t) => ({ reasoning: t, reasoning_details: [{ type: 'reasoning.text', text: t }] }),
    (t) => ({ reasoning: { text: t } }),
    (t) => ({ reasoning_content: [{ type: 'thinking', thinking: t }] }),
    (t) => ({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: t }] }] }),
    (t) => ({
      reasoning_details: [
        { type: 'reasoning.summary', summary: t },
        { type: 'reasoning.encrypted', data: 'b64==' },
      ],
    }),
  ],
};

function sseEvent(json: unknown, style: { eol: string; noSpace: boolean; consecutive: boolean; eventName?: string }): string {
  const data = `data:${style.noSpace ? '' : ' '}${typeof json === 'string' ? json : JSON.stringify(json)}`;
  const head = style.eventName ? `event: ${style.eventName}${style.eol}` : '';
  return `${head}${data}${style.eol}${style.consecutive ? '' : style.eol}`;
}

const styleArb = fc.record({ eol: fc.constantFrom('\n', '\r\n', '\r'), noSpace: fc.boolean(), consecutive: fc.boolean(), noise: fc.boolean() });

/** Builds one stream: writes (one per server event) and, per generated event, the write time that completes it. */
function buildStream(protocol: Protocol, events: GenEvent[], style: { eol: string; noSpace: boolean; consecutive: boolean; noise: boolean }): TimedPiece[] {
  const writes: TimedPiece[] = [];
  let at = 50;
  const push = (text: string | Uint8Array) => {
    writes.push({ bytes: typeof text === 'string' ? Buffer.from(text, 'utf8') : text, atMs: at });
    at += 10;
  };
  if (protocol === 'openai-chat') {
    const s = { ...style };
    const chunk = (delta: Record<string, unknown> | null, finish: string | null = null, extra: Record<string, unknown> = {}) =>
      sseEvent({ id: 'g', object: 'chat.completion.chunk', choices: delta === null ? [] : [{ index: 0, delta, finish_reason: finish }], ...extra }, s);
    push(chunk({ role: 'assistant', content: '' }));
    for (const e of events) {
      const shapes = OPENAI_SHAPES[e.channel];
      push(chunk(shapes[e.shape % shapes.length]!(e.text)));
      if (style.noise && !style.consecutive) push(`: keep-alive${style.eol}${style.eol}`);
    }
    push(chunk({}, 'stop'));
    push(chunk(null, null, { usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } }));
    push(sseEvent('[DONE]', { ...s, consecutive: false }));
  } else if (protocol === 'anthropic-messages') {
    const s = { ...style, consecutive: false };
    const ev = (name: string, data: unknown) => sseEvent(data, { ...s, eventName: name });
    push(
      ev('message_start', {
        type: 'message_start',
        message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 3, output_tokens: 1 } },
      }),
    );
    events.forEach((e, i) => {
      if (e.shape % 3 === 0) {
        // A block that opens with its first text.
        const block = e.channel === 'answer' ? { type: 'text', text: e.text } : { type: 'thinking', thinking: e.text, signature: '' };
        push(ev('content_block_start', { type: 'content_block_start', index: i, content_block: block }));
      } else {
        const delta = e.channel === 'answer' ? { type: 'text_delta', text: e.text } : { type: 'thinking_delta', thinking: e.text };
        push(ev('content_block_delta', { type: 'content_block_delta', index: i, delta }));
      }
      if (style.noise) push(ev('ping', { type: 'ping' }));
    });
    push(ev('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } }));
    push(ev('message_stop', { type: 'message_stop' }));
  } else if (protocol === 'gemini-stream') {
    const s = { ...style, consecutive: false };
    events.forEach((e, i) => {
      const part =
        e.channel === 'reasoning'
          ? { text: e.text, thought: true }
          : e.shape % 4 === 0
            ? { executableCode: { language: 'PYTHON', code: e.text } }
            : { text: e.text };
      const last = i === events.length - 1;
      push(
        sseEvent(
          {
            candidates: [{ content: { parts: [part], role: 'model' }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
            usageMetadata: { promptTokenCount: 3, candidatesTokenCount: i + 1 },
          },
          s,
        ),
      );
    });
  } else {
    const frame = bedrockFrame;
    push(frame('messageStart', { role: 'assistant' }));
    events.forEach((e, i) => {
      const delta =
        e.channel === 'answer'
          ? { text: e.text }
          : e.shape % 2 === 0
            ? { reasoningContent: { text: e.text } }
            : { reasoningContent: { reasoningText: { text: e.text, signature: 's' } } };
      push(frame('contentBlockDelta', { contentBlockIndex: i, delta }));
    });
    push(frame('messageStop', { stopReason: 'end_turn' }));
    push(frame('metadata', { usage: { inputTokens: 3, outputTokens: 5 }, metrics: { latencyMs: 100 } }));
  }
  return writes;
}

/** The write times at which each generated event completes, derived from the stream's structure. */
function expectedTimes(protocol: Protocol, events: GenEvent[], style: { noise: boolean; consecutive: boolean }): number[] {
  const step = protocol === 'openai-chat' ? (style.noise && !style.consecutive ? 2 : 1) : protocol === 'anthropic-messages' ? (style.noise ? 2 : 1) : 1;
  const first = protocol === 'gemini-stream' ? 0 : 1; // role chunk / message_start / messageStart come first
  return events.map((_, i) => 50 + 10 * (first + i * step));
}

async function parseWrites(protocol: Protocol, pieces: TimedPiece[]): Promise<ProbeResult> {
  const { chunks, now } = timedBody(pieces);
  const parsed = await parseStream(protocol, chunks, now);
  return buildProbeResult(parsed, { protocol, httpStatus: 200, ttfbMs: 0, connectMs: null, abort: null });
}

function recut(writes: TimedPiece[], points: number[], keepBoundaries: boolean): TimedPiece[] {
  const body = Buffer.concat(writes.map((w) => Buffer.from(w.bytes)));
  const timeOf: number[] = [];
  const boundaries: number[] = [];
  let offset = 0;
  for (const w of writes) {
    for (let k = 0; k < w.bytes.length; k++) timeOf.push(w.atMs);
    boundaries.push((offset += w.bytes.length));
  }
  return cutBody(body, timeOf, [...points.map((p) => p % Math.max(1, body.length)), ...(keepBoundaries ? boundaries : [])]);
}

const PROTOCOLS_UNDER_TEST: Protocol[] = ['openai-chat', 'anthropic-messages', 'gemini-stream', 'bedrock-converse-stream'];

describe('every known shape, any text, any cut', () => {
  it.each(PROTOCOLS_UNDER_TEST)('%s: same content, counts and times under random re-cuts', async (protocol) => {
    await fc.assert(
      fc.asyncProperty(eventsArb, styleArb, fc.array(fc.nat(), { maxLength: 30 }), async (events, style, points) => {
        const writes = buildStream(protocol, events, style);
        const answer = events
          .filter((e) => e.channel === 'answer')
          .map((e) => e.text)
          .join('');
        const reasoning = events
          .filter((e) => e.channel === 'reasoning')
          .map((e) => e.text)
          .join('');
        const asSent = await parseWrites(protocol, writes);
        expect(asSent.outcome, asSent.errorMessage ?? '').toBe('success');
        expect(asSent.answerText).toBe(answer);
        expect(asSent.reasoningText).toBe(reasoning);
        expect(asSent.contentChunks).toBe(events.length);
        expect(asSent.flags.unrecognizedShape, (asSent.evidence.unrecognizedPaths ?? []).join(', ')).toBe(false);
        expect(asSent.timeline.map((t) => t.atMs)).toEqual(expectedTimes(protocol, events, style));
        const firstAnswer = events.findIndex((e) => e.channel === 'answer');
        expect(asSent.ttfatMs).toBe(firstAnswer < 0 ? null : expectedTimes(protocol, events, style)[firstAnswer]!);

        const merged = await parseWrites(protocol, recut(writes, points, false));
        expect(merged.answerText).toBe(answer);
        expect(merged.reasoningText).toBe(reasoning);
        expect(merged.contentChunks).toBe(events.length);
        expect(merged.outputTokensO200k).toBe(asSent.outputTokensO200k);
        expect(merged.timeline.map((t) => t.tokens)).toEqual(asSent.timeline.map((t) => t.tokens));
        // `buffered` is about arrival grouping (isBulkDelivery), which merging reads changes by
        // design; the other flags must not depend on the cut.
        expect({ ...merged.flags, buffered: null }).toEqual({ ...asSent.flags, buffered: null });

        const split = await parseWrites(protocol, recut(writes, points, true));
        expect(split.timeline).toEqual(asSent.timeline);
        expect(split.flags).toEqual(asSent.flags);
        expect(split.e2eMs).toBe(asSent.e2eMs);
      }),
      { numRuns: 150, seed: 9009 },
    );
  });
});
