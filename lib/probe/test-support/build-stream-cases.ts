/**
 * Writes the issue-22 cases (cases/S*.json): several per kind of "every stream of 2026" (finish
 * reasons, usage places, repeated text, cumulative channels, tool-call identity, Gemini streamed
 * function-call arguments, duplicate reasoning fields, the OpenAI Responses API), in the shapes of
 * several providers each. Run: `npx tsx lib/probe/test-support/build-stream-cases.ts` (output is
 * committed).
 *
 * Expectations are written down from how each stream is constructed (texts, the write completing
 * each event), never copied from a probe run. Where a case reports a count that must agree with
 * the text (rankable), the count is the o200k_base count of the streamed text, computed here.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { countO200kTokens } from '../../tokens/o200k';
import type { ReplayCase, ReplayExpect, ReplayWrite } from './replay-case';

const SOURCE = 'Tokenpace issue-22 variant (constructed from the provider documentation and public reports of 2025-26)';
const cases: Array<ReplayCase & { slug: string }> = [];

function add(slug: string, c: Omit<ReplayCase, 'tolerance_ms' | 'source'> & { source?: string }): void {
  cases.push({ slug, source: SOURCE, tolerance_ms: 25, ...c });
}

const ok = (e: Partial<ReplayExpect> & Pick<ReplayExpect, 'answer_text' | 'content_chunks' | 'ttft_ms' | 'last_token_ms' | 'e2e_ms'>): ReplayExpect => ({
  outcome: 'success',
  error_kind: null,
  finish_reason: 'stop',
  output_tokens_reported: null,
  ttfat_ms: e.ttft_ms,
  ...e,
});
const failed = (e: Partial<ReplayExpect> & Pick<ReplayExpect, 'answer_text' | 'content_chunks' | 'ttft_ms' | 'last_token_ms' | 'e2e_ms'>): ReplayExpect => ({
  outcome: 'error',
  error_kind: 'stream_error',
  finish_reason: null,
  output_tokens_reported: null,
  ttfat_ms: e.ttft_ms,
  ...e,
});
/** o200k_base count of texts (what an honest provider reports for them, within a token). */
const o200k = (...texts: string[]) => texts.reduce((n, t) => n + countO200kTokens(t), 0);

const w = (at_ms: number, utf8: string): ReplayWrite => ({ at_ms, utf8 });
const b = (at_ms: number, bytes: Uint8Array): ReplayWrite => ({ at_ms, base64: Buffer.from(bytes).toString('base64') });
const sseHeaders = { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } };

// ---------- OpenAI Chat helpers ----------
function oa(model: string, delta: Record<string, unknown> | null, finish: string | null = null, extra: Record<string, unknown> = {}, choiceExtra: Record<string, unknown> = {}): string {
  const choices = delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish, ...choiceExtra }];
  return JSON.stringify({ id: 'chatcmpl-s22', object: 'chat.completion.chunk', created: 1764500000, model, choices, ...extra });
}
const sse = (json: string) => `data: ${json}\n\n`;
const done = 'data: [DONE]\n\n';
/** Text pieces as chat deltas starting at `t0`, every `step` ms. */
const chatPieces = (m: string, pieces: string[], t0: number, step: number, key = 'content') => pieces.map((p, i) => w(t0 + i * step, sse(oa(m, { [key]: p }))));

// ---------- Anthropic helpers ----------
const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const messageStart = (model: string) => ev('message_start', { message: { id: 'msg_s22', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } });
const textDelta = (index: number, text: string) => ev('content_block_delta', { index, delta: { type: 'text_delta', text } });

// ---------- Gemini helpers ----------
const gem = (parts: unknown[] | null, extra: Record<string, unknown> = {}, candidateExtra: Record<string, unknown> = {}) =>
  JSON.stringify({ candidates: [{ ...(parts ? { content: { role: 'model', parts } } : {}), index: 0, ...candidateExtra }], modelVersion: 'gemini-2.5-flash', ...extra });
const gemSse = (json: string) => `data: ${json}\r\n\r\n`;

// ---------- Bedrock helpers ----------
const codec = new EventStreamCodec(toUtf8, fromUtf8);
const str = (value: string) => ({ type: 'string' as const, value });
const frame = (eventType: string, payload: unknown) =>
  codec.encode({ headers: { ':event-type': str(eventType), ':content-type': str('application/json'), ':message-type': str('event') }, body: fromUtf8(JSON.stringify({ ...(payload as object), p: 'abcdef' })) });
const bedrockHeaders = { status: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' } };

// =====================================================================================
// Kind 1: finish reasons (decision 190). A failure-named finish is an error of its kind even
// when usage and [DONE] follow; a filter's finish is not clean; an unknown one is unrankable.
// =====================================================================================
{
  const m = 'meta-llama/Llama-3.3-70B-Instruct';
  const pieces = ['The', ' quick', ' brown', ' fox'];
  add('vllm-abort-finish-then-usage-and-done', {
    id: 'S01', kind: 'errors', protocol: 'openai-chat',
    about: 'vLLM ends a request its engine aborted (preemption, client-side cancel relayed by a router) with finish_reason "abort", then the usage chunk and [DONE]. The answer is cut short: an error, never a published speed.',
    request: { model: m, stream: true, stream_options: { include_usage: true } }, response: sseHeaders,
    writes: [
      w(50, sse(oa(m, { role: 'assistant', content: '' }))),
      ...chatPieces(m, pieces, 200, 20),
      w(290, sse(oa(m, {}, 'abort'))),
      w(295, sse(oa(m, null, null, { usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } }))),
      w(297, done),
    ],
    end: 'close',
    expect: failed({ answer_text: 'The quick brown fox', content_chunks: 4, output_tokens_reported: 4, ttft_ms: 200, last_token_ms: 260, e2e_ms: 297, error_message_contains: 'abort' }),
  });
}
{
  const m = 'gpt-4.1-mini';
  add('gateway-network-error-finish-with-usage', {
    id: 'S02', kind: 'errors', protocol: 'openai-chat',
    about: 'A gateway (LiteLLM-style proxy) that lost its upstream mid-answer ends the stream it already started with finish_reason "network_error" and usage in the same chunk, then [DONE]. Failure-named: stream_error.',
    request: { model: m, stream: true }, response: sseHeaders,
    writes: [
      ...chatPieces(m, ['Once', ' upon', ' a'], 120, 25),
      w(400, sse(oa(m, {}, 'network_error', { usage: { prompt_tokens: 20, completion_tokens: 3, total_tokens: 23 } }))),
      w(402, done),
    ],
    end: 'close',
    expect: failed({ answer_text: 'Once upon a', content_chunks: 3, output_tokens_reported: 3, ttft_ms: 120, last_token_ms: 170, e2e_ms: 402, error_message_contains: 'network_error' }),
  });
}
{
  const m = 'deepseek-chat';
  add('deepseek-insufficient-system-resource-finish', {
    id: 'S03', kind: 'errors', protocol: 'openai-chat',
    about: 'DeepSeek interrupts a generation when its inference system runs short with finish_reason "insufficient_system_resource", then usage and [DONE]. Documented as an interruption: an error.',
    request: { model: m, stream: true }, response: sseHeaders,
    writes: [
      w(30, sse(oa(m, { role: 'assistant', content: '' }))),
      ...chatPieces(m, ['Sure', ',', ' here'], 300, 30),
      w(420, sse(oa(m, { content: '' }, 'insufficient_system_resource', { usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 } }))),
      w(421, done),
    ],
    end: 'close',
    expect: failed({ answer_text: 'Sure, here', content_chunks: 3, output_tokens_reported: 3, ttft_ms: 300, last_token_ms: 360, e2e_ms: 421 }),
  });
}
{
  const m = 'Qwen/Qwen3-32B';
  add('sglang-cancelled-finish-close-without-done', {
    id: 'S04', kind: 'errors', protocol: 'openai-chat',
    about: 'An engine cancels a request and reports finish_reason "cancelled", then closes without [DONE] (a non-null finish would otherwise make the close a clean end). Failure-named: stream_error.',
    request: { model: m, stream: true }, response: sseHeaders,
    writes: [...chatPieces(m, ['Alpha', ' beta'], 100, 40), w(250, sse(oa(m, {}, 'cancelled')))],
    end: 'close',
    expect: failed({ answer_text: 'Alpha beta', content_chunks: 2, ttft_ms: 100, last_token_ms: 140, e2e_ms: 250 }),
  });
}
{
  const m = 'llama-3.3-70b';
  add('finish-naming-rate-limit', {
    id: 'S05', kind: 'errors', protocol: 'openai-chat',
    about: 'A provider stops an answer with finish_reason "rate_limit_exceeded" and then [DONE]: a failure of the rate_limited kind.',
    request: { model: m, stream: true }, response: sseHeaders,
    writes: [...chatPieces(m, ['Fast', ' tokens'], 80, 10), w(120, sse(oa(m, {}, 'rate_limit_exceeded'))), w(121, done)],
    end: 'close',
    expect: failed({ error_kind: 'rate_limited', answer_text: 'Fast tokens', content_chunks: 2, ttft_ms: 80, last_token_ms: 90, e2e_ms: 121 }),
  });
}
{
  const m = 'command-a';
  const pieces = ['Unknown', ' finish', ' word', ' here', '.'];
  const text = pieces.join('');
  add('unknown-finish-word-unrankable', {
    id: 'S06', kind: 'errors', protocol: 'openai-chat',
    about: 'A compatible server ends with finish_reason "COMPLETE" (its own word, not one of the protocol). Unknown: the measurement is kept as a success with its times but is not rankable (unknown_finish), the word recorded.',
    request: { model: m, stream: true }, response: sseHeaders,
    writes: [...chatPieces(m, pieces, 100, 20), w(200, sse(oa(m, {}, 'COMPLETE', { usage: { prompt_tokens: 5, completion_tokens: o200k(text), total_tokens: 5 + o200k(text) } }))), w(201, done)],
    end: 'close',
    expect: ok({ finish_reason: null, answer_text: text, content_chunks: 5, output_tokens_reported: o200k(text), ttft_ms: 100, last_token_ms: 180, e2e_ms: 201, rankable: false, not_rankable_reasons: ['unknown_finish'] }),
  });
}
{
  const m = 'claude-sonnet-4-5';
  add('anthropic-refusal-stop-reason', {
    id: 'S07', kind: 'errors', protocol: 'anthropic-messages',
    about: 'Claude\'s streaming classifiers stop an answer with stop_reason "refusal" in message_delta, then message_stop. The filter cut the answer: not a clean finish, an error (decision 190).',
    request: { model: m, stream: true, max_tokens: 256 }, response: sseHeaders,
    writes: [
      w(100, messageStart(m)),
      w(110, ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })),
      w(300, textDelta(0, 'I can')),
      w(330, textDelta(0, ' explain')),
      w(340, ev('content_block_stop', { index: 0 })),
      w(350, ev('message_delta', { delta: { stop_reason: 'refusal', stop_sequence: null }, usage: { output_tokens: 3 } })),
      w(352, ev('message_stop', {})),
    ],
    end: 'close',
    expect: failed({ answer_text: 'I can explain', content_chunks: 2, output_tokens_reported: 3, ttft_ms: 300, last_token_ms: 330, e2e_ms: 352, error_message_contains: 'refusal' }),
  });
}
{
  add('gemini-malformed-function-call-finish', {
    id: 'S08', kind: 'errors', protocol: 'gemini-stream',
    about: 'Gemini ends with finishReason MALFORMED_FUNCTION_CALL (the model produced a call it could not parse) and a final usageMetadata. Failure-named: stream_error, even though the stream then closes cleanly.',
    request: { model: 'gemini-2.5-flash', path: ':streamGenerateContent?alt=sse' }, response: sseHeaders,
    writes: [
      w(400, gemSse(gem([{ text: 'Let me check' }]))),
      w(450, gemSse(gem([{ text: ' the weather.' }]))),
      w(600, gemSse(gem(null, { usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 5, totalTokenCount: 25 } }, { finishReason: 'MALFORMED_FUNCTION_CALL' }))),
    ],
    end: 'close',
    expect: failed({ answer_text: 'Let me check the weather.', content_chunks: 2, output_tokens_reported: 5, ttft_ms: 400, last_token_ms: 450, e2e_ms: 600, error_message_contains: 'MALFORMED_FUNCTION_CALL' }),
  });
}
{
  add('gemini-safety-finish', {
    id: 'S09', kind: 'errors', protocol: 'gemini-stream',
    about: 'Gemini stops a candidate with finishReason SAFETY and safetyRatings after part of the answer. A filter, not a clean finish: an error.',
    request: { model: 'gemini-2.5-pro', path: ':streamGenerateContent?alt=sse' }, response: sseHeaders,
    writes: [
      w(500, gemSse(gem([{ text: 'The history of' }]))),
      w(540, gemSse(gem([{ text: '' }], { usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 3, totalTokenCount: 11 } }, { finishReason: 'SAFETY', safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'MEDIUM', blocked: true }] }))),
    ],
    end: 'close',
    expect: failed({ answer_text: 'The history of', content_chunks: 1, output_tokens_reported: 3, ttft_ms: 500, last_token_ms: 500, e2e_ms: 540, error_message_contains: 'content filter' }),
  });
}
{
  const text = 'Plain words from a Gemini model.';
  add('gemini-other-finish-unrankable', {
    id: 'S10', kind: 'errors', protocol: 'gemini-stream',
    about: 'Gemini ends with finishReason OTHER ("unknown reason"). Neither clean nor failure-named: kept as a success, not rankable (unknown_finish).',
    request: { model: 'gemini-2.5-flash', path: ':streamGenerateContent?alt=sse' }, response: sseHeaders,
    writes: [
      w(300, gemSse(gem([{ text: 'Plain words' }]))),
      w(340, gemSse(gem([{ text: ' from a Gemini' }]))),
      w(380, gemSse(gem([{ text: ' model.' }], { usageMetadata: { promptTokenCount: 8, candidatesTokenCount: o200k(text), totalTokenCount: 8 + o200k(text) } }, { finishReason: 'OTHER' }))),
    ],
    end: 'close',
    expect: ok({ finish_reason: null, answer_text: text, content_chunks: 3, output_tokens_reported: o200k(text), ttft_ms: 300, last_token_ms: 380, e2e_ms: 380, rankable: false, not_rankable_reasons: ['unknown_finish'] }),
  });
}
{
  add('bedrock-guardrail-intervened', {
    id: 'S11', kind: 'errors', protocol: 'bedrock-converse-stream',
    about: 'Bedrock Guardrails stop an answer: messageStop with stopReason guardrail_intervened, then metadata with usage. A filter, not a clean finish: an error.',
    request: { model: 'us.anthropic.claude-3-5-haiku-20241022-v1:0' }, response: bedrockHeaders,
    writes: [
      b(100, frame('messageStart', { role: 'assistant' })),
      b(250, frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Here are' } })),
      b(270, frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' the steps' } })),
      b(280, frame('contentBlockStop', { contentBlockIndex: 0 })),
      b(290, frame('messageStop', { stopReason: 'guardrail_intervened' })),
      b(300, frame('metadata', { usage: { inputTokens: 10, outputTokens: 4, totalTokens: 14 }, metrics: { latencyMs: 280 } })),
    ],
    end: 'close',
    expect: failed({ answer_text: 'Here are the steps', content_chunks: 2, output_tokens_reported: 4, ttft_ms: 250, last_token_ms: 270, e2e_ms: 300 }),
  });
}
{
  const m = 'claude-opus-4-1';
  const text = 'Searching the web first.';
  add('anthropic-pause-turn-clean', {
    id: 'S12', kind: 'errors', protocol: 'anthropic-messages',
    about: 'Anthropic pauses a long server-tool turn with stop_reason "pause_turn": what was generated is whole (the client may resume). A clean finish, normalised to stop.',
    request: { model: m, stream: true, max_tokens: 256 }, response: sseHeaders,
    writes: [
      w(90, messageStart(m)),
      w(95, ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })),
      w(200, textDelta(0, 'Searching')),
      w(230, textDelta(0, ' the web')),
      w(260, textDelta(0, ' first.')),
      w(270, ev('content_block_stop', { index: 0 })),
      w(280, ev('message_delta', { delta: { stop_reason: 'pause_turn', stop_sequence: null }, usage: { output_tokens: o200k(text) } })),
      w(282, ev('message_stop', {})),
    ],
    end: 'close',
    expect: ok({ answer_text: text, content_chunks: 3, output_tokens_reported: o200k(text), ttft_ms: 200, last_token_ms: 260, e2e_ms: 282, rankable: true }),
  });
}

// =====================================================================================
const dir = path.join(__dirname, 'cases');
for (const { slug, ...c } of cases) writeFileSync(path.join(dir, `${c.id}-${slug}.json`), `${JSON.stringify(c, null, 2)}\n`);
console.log(`wrote ${cases.length} issue-22 cases to ${dir}`);
