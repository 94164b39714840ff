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
import { countO200kTokens } from '../../tokens/o200k';
import type { ReplayCase } from './replay-case';
import {
  BEDROCK_RESPONSE as bedrockHeaders,
  bedrockFrame as frame,
  bytesWrite as b,
  SSE_RESPONSE as sseHeaders,
  streamErrorExpect as failed,
  successExpect as ok,
  textWrite as w,
} from './case-wire';

const SOURCE = 'Tokenpace issue-22 variant (constructed from the provider documentation and public reports of 2025-26)';
const cases: Array<ReplayCase & { slug: string }> = [];

function add(slug: string, c: Omit<ReplayCase, 'tolerance_ms' | 'source'> & { source?: string }): void {
  cases.push({ slug, source: SOURCE, tolerance_ms: 25, ...c });
}

/** o200k_base count of texts (what an honest provider reports for them, within a token). */
const o200k = (...texts: string[]) => texts.reduce((n, t) => n + countO200kTokens(t), 0);

// ---------- OpenAI Chat helpers ----------
function oa(
  model: string,
  delta: Record<string, unknown> | null,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
  choiceExtra: Record<string, unknown> = {},
): string {
  const choices = delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish, ...choiceExtra }];
  return JSON.stringify({ id: 'chatcmpl-s22', object: 'chat.completion.chunk', created: 1764500000, model, choices, ...extra });
}
const sse = (json: string) => `data: ${json}\n\n`;
const done = 'data: [DONE]\n\n';
/** Text pieces as chat deltas starting at `t0`, every `step` ms. */
const chatPieces = (m: string, pieces: string[], t0: number, step: number, key = 'content') => pieces.map((p, i) => w(t0 + i * step, sse(oa(m, { [key]: p }))));

// ---------- Anthropic helpers ----------
const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const messageStart = (model: string) =>
  ev('message_start', {
    message: {
      id: 'msg_s22',
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 1 },
    },
  });
const textDelta = (index: number, text: string) => ev('content_block_delta', { index, delta: { type: 'text_delta', text } });

// ---------- Gemini helpers ----------
const gem = (parts: unknown[] | null, extra: Record<string, unknown> = {}, candidateExtra: Record<string, unknown> = {}) =>
  JSON.stringify({
    candidates: [{ ...(parts ? { content: { role: 'model', parts } } : {}), index: 0, ...candidateExtra }],
    modelVersion: 'gemini-2.5-flash',
    ...extra,
  });
const gemSse = (json: string) => `data: ${json}\r\n\r\n`;

// ---------- Bedrock helpers ----------

// =====================================================================================
// Kind 1: finish reasons (decision 190). A failure-named finish is an error of its kind even
// when usage and [DONE] follow; a filter's finish is not clean; an unknown one is unrankable.
// =====================================================================================
{
  const m = 'meta-llama/Llama-3.3-70B-Instruct';
  const pieces = ['The', ' quick', ' brown', ' fox'];
  add('vllm-abort-finish-then-usage-and-done', {
    id: 'S01',
    kind: 'errors',
    protocol: 'openai-chat',
    about:
      'vLLM ends a request its engine aborted (preemption, client-side cancel relayed by a router) with finish_reason "abort", then the usage chunk and [DONE]. The answer is cut short: an error, never a published speed.',
    request: { model: m, stream: true, stream_options: { include_usage: true } },
    response: sseHeaders,
    writes: [
      w(50, sse(oa(m, { role: 'assistant', content: '' }))),
      ...chatPieces(m, pieces, 200, 20),
      w(290, sse(oa(m, {}, 'abort'))),
      w(295, sse(oa(m, null, null, { usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } }))),
      w(297, done),
    ],
    end: 'close',
    expect: failed({
      answer_text: 'The quick brown fox',
      content_chunks: 4,
      output_tokens_reported: 4,
      ttft_ms: 200,
      last_token_ms: 260,
      e2e_ms: 297,
      error_message_contains: 'abort',
    }),
  });
}
{
  const m = 'gpt-4.1-mini';
  add('gateway-network-error-finish-with-usage', {
    id: 'S02',
    kind: 'errors',
    protocol: 'openai-chat',
    about:
      'A gateway (LiteLLM-style proxy) that lost its upstream mid-answer ends the stream it already started with finish_reason "network_error" and usage in the same chunk, then [DONE]. Failure-named: stream_error.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      ...chatPieces(m, ['Once', ' upon', ' a'], 120, 25),
      w(400, sse(oa(m, {}, 'network_error', { usage: { prompt_tokens: 20, completion_tokens: 3, total_tokens: 23 } }))),
      w(402, done),
    ],
    end: 'close',
    expect: failed({
      answer_text: 'Once upon a',
      content_chunks: 3,
      output_tokens_reported: 3,
      ttft_ms: 120,
      last_token_ms: 170,
      e2e_ms: 402,
      error_message_contains: 'network_error',
    }),
  });
}
{
  const m = 'deepseek-chat';
  add('deepseek-insufficient-system-resource-finish', {
    id: 'S03',
    kind: 'errors',
    protocol: 'openai-chat',
    about:
      'DeepSeek interrupts a generation when its inference system runs short with finish_reason "insufficient_system_resource", then usage and [DONE]. Documented as an interruption: an error.',
    request: { model: m, stream: true },
    response: sseHeaders,
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
    id: 'S04',
    kind: 'errors',
    protocol: 'openai-chat',
    about:
      'An engine cancels a request and reports finish_reason "cancelled", then closes without [DONE] (a non-null finish would otherwise make the close a clean end). Failure-named: stream_error.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [...chatPieces(m, ['Alpha', ' beta'], 100, 40), w(250, sse(oa(m, {}, 'cancelled')))],
    end: 'close',
    expect: failed({ answer_text: 'Alpha beta', content_chunks: 2, ttft_ms: 100, last_token_ms: 140, e2e_ms: 250 }),
  });
}
{
  const m = 'llama-3.3-70b';
  add('finish-naming-rate-limit', {
    id: 'S05',
    kind: 'errors',
    protocol: 'openai-chat',
    about: 'A provider stops an answer with finish_reason "rate_limit_exceeded" and then [DONE]: a failure of the rate_limited kind.',
    request: { model: m, stream: true },
    response: sseHeaders,
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
    id: 'S06',
    kind: 'errors',
    protocol: 'openai-chat',
    about:
      'A compatible server ends with finish_reason "COMPLETE" (its own word, not one of the protocol). Unknown: the measurement is kept as a success with its times but is not rankable (unknown_finish), the word recorded.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      ...chatPieces(m, pieces, 100, 20),
      w(200, sse(oa(m, {}, 'COMPLETE', { usage: { prompt_tokens: 5, completion_tokens: o200k(text), total_tokens: 5 + o200k(text) } }))),
      w(201, done),
    ],
    end: 'close',
    expect: ok({
      finish_reason: null,
      answer_text: text,
      content_chunks: 5,
      output_tokens_reported: o200k(text),
      ttft_ms: 100,
      last_token_ms: 180,
      e2e_ms: 201,
      not_rankable_reasons_include: ['unknown_finish'],
    }),
  });
}
{
  const m = 'claude-sonnet-4-5';
  add('anthropic-refusal-stop-reason', {
    id: 'S07',
    kind: 'errors',
    protocol: 'anthropic-messages',
    about:
      'Claude\'s streaming classifiers stop an answer with stop_reason "refusal" in message_delta, then message_stop. The filter cut the answer: not a clean finish, an error (decision 190).',
    request: { model: m, stream: true, max_tokens: 256 },
    response: sseHeaders,
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
    expect: failed({
      answer_text: 'I can explain',
      content_chunks: 2,
      output_tokens_reported: 3,
      ttft_ms: 300,
      last_token_ms: 330,
      e2e_ms: 352,
      error_message_contains: 'refusal',
    }),
  });
}
{
  add('gemini-malformed-function-call-finish', {
    id: 'S08',
    kind: 'errors',
    protocol: 'gemini-stream',
    about:
      'Gemini ends with finishReason MALFORMED_FUNCTION_CALL (the model produced a call it could not parse) and a final usageMetadata. Failure-named: stream_error, even though the stream then closes cleanly.',
    request: { model: 'gemini-2.5-flash', path: ':streamGenerateContent?alt=sse' },
    response: sseHeaders,
    writes: [
      w(400, gemSse(gem([{ text: 'Let me check' }]))),
      w(450, gemSse(gem([{ text: ' the weather.' }]))),
      w(
        600,
        gemSse(
          gem(null, { usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 5, totalTokenCount: 25 } }, { finishReason: 'MALFORMED_FUNCTION_CALL' }),
        ),
      ),
    ],
    end: 'close',
    expect: failed({
      answer_text: 'Let me check the weather.',
      content_chunks: 2,
      output_tokens_reported: 5,
      ttft_ms: 400,
      last_token_ms: 450,
      e2e_ms: 600,
      error_message_contains: 'MALFORMED_FUNCTION_CALL',
    }),
  });
}
{
  add('gemini-safety-finish', {
    id: 'S09',
    kind: 'errors',
    protocol: 'gemini-stream',
    about: 'Gemini stops a candidate with finishReason SAFETY and safetyRatings after part of the answer. A filter, not a clean finish: an error.',
    request: { model: 'gemini-2.5-pro', path: ':streamGenerateContent?alt=sse' },
    response: sseHeaders,
    writes: [
      w(500, gemSse(gem([{ text: 'The history of' }]))),
      w(
        540,
        gemSse(
          gem(
            [{ text: '' }],
            { usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 3, totalTokenCount: 11 } },
            { finishReason: 'SAFETY', safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'MEDIUM', blocked: true }] },
          ),
        ),
      ),
    ],
    end: 'close',
    expect: failed({
      answer_text: 'The history of',
      content_chunks: 1,
      output_tokens_reported: 3,
      ttft_ms: 500,
      last_token_ms: 500,
      e2e_ms: 540,
      error_message_contains: 'content filter',
    }),
  });
}
{
  const text = 'Plain words from a Gemini model.';
  add('gemini-other-finish-unrankable', {
    id: 'S10',
    kind: 'errors',
    protocol: 'gemini-stream',
    about: 'Gemini ends with finishReason OTHER ("unknown reason"). Neither clean nor failure-named: kept as a success, not rankable (unknown_finish).',
    request: { model: 'gemini-2.5-flash', path: ':streamGenerateContent?alt=sse' },
    response: sseHeaders,
    writes: [
      w(300, gemSse(gem([{ text: 'Plain words' }]))),
      w(340, gemSse(gem([{ text: ' from a Gemini' }]))),
      w(
        380,
        gemSse(
          gem(
            [{ text: ' model.' }],
            { usageMetadata: { promptTokenCount: 8, candidatesTokenCount: o200k(text), totalTokenCount: 8 + o200k(text) } },
            { finishReason: 'OTHER' },
          ),
        ),
      ),
    ],
    end: 'close',
    expect: ok({
      finish_reason: null,
      answer_text: text,
      content_chunks: 3,
      output_tokens_reported: o200k(text),
      ttft_ms: 300,
      last_token_ms: 380,
      e2e_ms: 380,
      not_rankable_reasons_include: ['unknown_finish'],
    }),
  });
}
{
  add('bedrock-guardrail-intervened', {
    id: 'S11',
    kind: 'errors',
    protocol: 'bedrock-converse-stream',
    about:
      'Bedrock Guardrails stop an answer: messageStop with stopReason guardrail_intervened, then metadata with usage. A filter, not a clean finish: an error.',
    request: { model: 'us.anthropic.claude-3-5-haiku-20241022-v1:0' },
    response: bedrockHeaders,
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
    id: 'S12',
    kind: 'errors',
    protocol: 'anthropic-messages',
    about:
      'Anthropic pauses a long server-tool turn with stop_reason "pause_turn": what was generated is whole (the client may resume). A clean finish, normalised to stop.',
    request: { model: m, stream: true, max_tokens: 256 },
    response: sseHeaders,
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
    expect: ok({
      answer_text: text,
      content_chunks: 3,
      output_tokens_reported: o200k(text),
      ttft_ms: 200,
      last_token_ms: 260,
      e2e_ms: 282,
      token_count_mismatch: false,
    }),
  });
}

// =====================================================================================
// Kind 2: usage wherever the servers of the field put it (decision 191); a count in an unknown
// place is recorded by path and makes the measurement unrankable.
// =====================================================================================
{
  const m = 'kimi-k2-0905-preview';
  const pieces = ['Moonshot', ' puts', ' usage', ' in', ' the', ' choice', '.'];
  const text = pieces.join('');
  const n = o200k(text);
  add('moonshot-usage-inside-choice', {
    id: 'S13',
    kind: 'usage',
    protocol: 'openai-chat',
    about:
      'Moonshot (Kimi) sends its usage inside the final choice (choices[0].usage), not at the top level. Read there, it is the reported count; ranked on it.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      w(60, sse(oa(m, { role: 'assistant', content: '' }))),
      ...chatPieces(m, pieces, 150, 15),
      w(260, sse(oa(m, {}, 'stop', {}, { usage: { prompt_tokens: 19, completion_tokens: n, total_tokens: 19 + n } }))),
      w(262, done),
    ],
    end: 'close',
    expect: ok({ answer_text: text, content_chunks: 7, output_tokens_reported: n, ttft_ms: 150, last_token_ms: 240, e2e_ms: 262, token_count_mismatch: false }),
  });
}
{
  const m = 'glm-4.6';
  const pieces = ['Usage', ' beside', ' a', ' null', ' top', ' level', '.'];
  const text = pieces.join('');
  const n = o200k(text);
  add('usage-in-choice-with-null-top-level-usage', {
    id: 'S14',
    kind: 'usage',
    protocol: 'openai-chat',
    about:
      'A server writes "usage": null at the top level of every chunk and the real usage inside the final choice. The null is no report; the choice usage is.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      ...pieces.map((p, i) => w(100 + i * 20, sse(oa(m, { content: p }, null, { usage: null })))),
      w(250, sse(oa(m, { content: '' }, 'stop', { usage: null }, { usage: { prompt_tokens: 7, completion_tokens: n, total_tokens: 7 + n } }))),
      w(251, done),
    ],
    end: 'close',
    expect: ok({ answer_text: text, content_chunks: 7, output_tokens_reported: n, ttft_ms: 100, last_token_ms: 220, e2e_ms: 251, token_count_mismatch: false }),
  });
}
{
  const m = 'abab7-chat';
  const pieces = ['Counts', ' in', ' metadata'];
  add('usage-in-unknown-place-recorded', {
    id: 'S15',
    kind: 'usage',
    protocol: 'openai-chat',
    about:
      "A gateway puts its usage under metadata.usage, a place no Chat Completions server documents. The probe cannot know whether it is this output's report: recorded by path, not rankable, no reported count.",
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      ...chatPieces(m, pieces, 100, 20),
      w(200, sse(oa(m, {}, 'stop', { metadata: { usage: { completion_tokens: 3, prompt_tokens: 4 } } }))),
      w(201, done),
    ],
    end: 'close',
    expect: ok({
      answer_text: 'Counts in metadata',
      content_chunks: 3,
      ttft_ms: 100,
      last_token_ms: 140,
      e2e_ms: 201,
      not_rankable_reasons_include: ['unrecognized_shape'],
      unrecognized_paths: ['metadata.usage'],
    }),
  });
}
{
  const m = 'claude-haiku-4-5';
  add('anthropic-usage-inside-delta-unknown-place', {
    id: 'S16',
    kind: 'usage',
    protocol: 'anthropic-messages',
    about:
      "A Messages gateway puts the final output count inside message_delta.delta.usage instead of message_delta.usage. An unknown place: recorded by path, not rankable, no reported count (message_start's count is provisional).",
    request: { model: m, stream: true, max_tokens: 128 },
    response: sseHeaders,
    writes: [
      w(80, messageStart(m)),
      w(85, ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })),
      w(200, textDelta(0, 'Short')),
      w(220, textDelta(0, ' reply')),
      w(230, ev('content_block_stop', { index: 0 })),
      w(240, ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null, usage: { output_tokens: 2 } } })),
      w(242, ev('message_stop', {})),
    ],
    end: 'close',
    expect: ok({
      answer_text: 'Short reply',
      content_chunks: 2,
      ttft_ms: 200,
      last_token_ms: 220,
      e2e_ms: 242,
      not_rankable_reasons_include: ['unrecognized_shape'],
      unrecognized_paths: ['message_delta.delta.usage'],
    }),
  });
}

// =====================================================================================
// Kind 3: text sent again is counted once.
// =====================================================================================
{
  const m = 'llama-4-maverick';
  const pieces = ['Whole', ' message', ' repeated', ' at', ' the', ' end', '.'];
  const text = pieces.join('');
  const n = o200k(text);
  add('trailing-whole-message-chunk-repeats-answer', {
    id: 'S17',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'After the deltas, a server sends one more chunk whose choice carries the whole answer as `message` (no delta), then usage and [DONE]. The repeat is recognised: the answer counts once, and the repeat is no token event.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      ...chatPieces(m, pieces, 100, 15),
      w(
        300,
        sse(
          JSON.stringify({
            id: 'chatcmpl-s22',
            object: 'chat.completion.chunk',
            model: m,
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          }),
        ),
      ),
      w(302, sse(oa(m, null, null, { usage: { prompt_tokens: 8, completion_tokens: n, total_tokens: 8 + n } }))),
      w(303, done),
    ],
    end: 'close',
    expect: ok({ answer_text: text, content_chunks: 7, output_tokens_reported: n, ttft_ms: 100, last_token_ms: 190, e2e_ms: 303, token_count_mismatch: false }),
  });
}
{
  const m = 'claude-sonnet-4-5';
  const text = 'Hello world, from a gateway.';
  add('anthropic-block-start-text-repeated-by-first-delta', {
    id: 'S18',
    kind: 'content',
    protocol: 'anthropic-messages',
    about:
      'A Messages gateway opens the text block with the first text already in content_block_start, and the first text_delta repeats it. Counted once; content_block_start carries no tokens of its own here, so TTFT is the first delta.',
    request: { model: m, stream: true, max_tokens: 128 },
    response: sseHeaders,
    writes: [
      w(80, messageStart(m)),
      w(100, ev('content_block_start', { index: 0, content_block: { type: 'text', text: 'Hello' } })),
      w(300, textDelta(0, 'Hello')),
      w(320, textDelta(0, ' world')),
      w(340, textDelta(0, ', from')),
      w(360, textDelta(0, ' a gateway.')),
      w(370, ev('content_block_stop', { index: 0 })),
      w(380, ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: o200k(text) } })),
      w(382, ev('message_stop', {})),
    ],
    end: 'close',
    expect: ok({
      answer_text: text,
      content_chunks: 4,
      output_tokens_reported: o200k(text),
      ttft_ms: 300,
      last_token_ms: 360,
      e2e_ms: 382,
      token_count_mismatch: false,
    }),
  });
}
{
  const m = 'claude-opus-4-1';
  const text = 'Thinking block repeated by its delta.';
  const thinking = 'First I consider it.';
  add('anthropic-thinking-block-start-repeated', {
    id: 'S19',
    kind: 'content',
    protocol: 'anthropic-messages',
    about:
      'The same repeat on the thinking channel: content_block_start holds the first thinking text and the first thinking_delta repeats and extends it. Reasoning counted once.',
    request: { model: m, stream: true, max_tokens: 256 },
    response: sseHeaders,
    writes: [
      w(80, messageStart(m)),
      w(90, ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: 'First', signature: '' } })),
      w(200, ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'First I' } })),
      w(220, ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: ' consider it.' } })),
      w(230, ev('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'sig' } })),
      w(235, ev('content_block_stop', { index: 0 })),
      w(240, ev('content_block_start', { index: 1, content_block: { type: 'text', text: '' } })),
      w(300, textDelta(1, 'Thinking block')),
      w(320, textDelta(1, ' repeated by')),
      w(340, textDelta(1, ' its delta.')),
      w(350, ev('content_block_stop', { index: 1 })),
      w(360, ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: o200k(text, thinking) } })),
      w(362, ev('message_stop', {})),
    ],
    end: 'close',
    expect: ok({
      answer_text: text,
      reasoning_text: thinking,
      content_chunks: 5,
      output_tokens_reported: o200k(text, thinking),
      ttft_ms: 200,
      ttfat_ms: 300,
      last_token_ms: 340,
      e2e_ms: 362,
      token_count_mismatch: false,
    }),
  });
}
{
  const text = 'Gemini streams, then repeats the whole text.';
  const pieces = ['Gemini streams,', ' then repeats', ' the whole', ' text.'];
  add('gemini-final-chunk-repeats-whole-text', {
    id: 'S20',
    kind: 'content',
    protocol: 'gemini-stream',
    about:
      'A Vertex-fronting gateway ends the stream with one more candidate whose single part repeats the whole answer, with finishReason and usageMetadata. The repeat is recognised and counted once.',
    request: { model: 'gemini-2.5-flash', path: ':streamGenerateContent?alt=sse' },
    response: sseHeaders,
    writes: [
      ...pieces.map((p, i) => w(300 + i * 40, gemSse(gem([{ text: p }])))),
      w(
        500,
        gemSse(
          gem(
            [{ text }],
            { usageMetadata: { promptTokenCount: 9, candidatesTokenCount: o200k(text), totalTokenCount: 9 + o200k(text) } },
            { finishReason: 'STOP' },
          ),
        ),
      ),
    ],
    end: 'close',
    expect: ok({
      answer_text: text,
      content_chunks: 4,
      output_tokens_reported: o200k(text),
      ttft_ms: 300,
      last_token_ms: 420,
      e2e_ms: 500,
      token_count_mismatch: false,
    }),
  });
}
{
  const m = 'deepseek-reasoner';
  const reasoning = ['The user', ' wants', ' a short', ' answer.'];
  const answer = ['Yes', '.'];
  const r = reasoning.join('');
  add('reasoning-repeated-whole-before-answer', {
    id: 'S21',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'A server streams reasoning_content deltas, then sends the whole reasoning again in one chunk before the answer. Reasoning counted once; the repeat is no token event.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      ...chatPieces(m, reasoning, 100, 20, 'reasoning_content'),
      w(200, sse(oa(m, { reasoning_content: r }))),
      ...chatPieces(m, answer, 300, 20),
      w(350, sse(oa(m, {}, 'stop', { usage: { prompt_tokens: 5, completion_tokens: o200k(r, 'Yes.'), total_tokens: 5 + o200k(r, 'Yes.') } }))),
      w(351, done),
    ],
    end: 'close',
    expect: ok({
      answer_text: 'Yes.',
      reasoning_text: r,
      content_chunks: 6,
      output_tokens_reported: o200k(r, 'Yes.'),
      ttft_ms: 100,
      ttfat_ms: 300,
      last_token_ms: 320,
      e2e_ms: 351,
      token_count_mismatch: false,
    }),
  });
}

// =====================================================================================
// Kind 4: cumulative detection on every channel (answer, reasoning, each call's arguments).
// =====================================================================================
const call = (index: number, fn: Record<string, unknown>, id?: string) => ({ index, ...(id ? { id, type: 'function' } : {}), function: fn });
{
  const m = 'Qwen/Qwen3-Coder-480B';
  const args = '{"city":"Paris","unit":"celsius"}';
  const cuts = [8, 16, 24, args.length];
  add('tool-arguments-resent-whole-every-event', {
    id: 'S22',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'A tool parser resends the whole argument string so far on every event instead of a delta. Concatenated it is invalid JSON; detected as cumulative per call, the arguments are the last (whole) value.',
    request: { model: m, stream: true, tools: [{ type: 'function', function: { name: 'get_weather' } }] },
    response: sseHeaders,
    writes: [
      w(100, sse(oa(m, { role: 'assistant', tool_calls: [call(0, { name: 'get_weather', arguments: '' }, 'call_s22a')] }))),
      ...cuts.map((c, i) => w(200 + i * 30, sse(oa(m, { tool_calls: [call(0, { arguments: args.slice(0, c) })] })))),
      w(400, sse(oa(m, {}, 'tool_calls'))),
      w(401, done),
    ],
    end: 'close',
    expect: ok({
      finish_reason: 'tool_calls',
      answer_text: '',
      tool_calls: [{ id: 'call_s22a', name: 'get_weather', arguments: args }],
      content_chunks: 4,
      ttft_ms: 200,
      last_token_ms: 290,
      e2e_ms: 401,
    }),
  });
}
{
  const m = 'qwq-32b';
  const steps = ['Let', 'Let me', 'Let me think', 'Let me think briefly.'];
  add('reasoning-cumulative-answer-deltas', {
    id: 'S23',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      "A server sends reasoning cumulatively (each chunk's `reasoning` holds the whole reasoning so far) while the answer comes as ordinary deltas. Each channel is judged on its own.",
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      ...steps.map((r, i) => w(100 + i * 20, sse(oa(m, { reasoning: r })))),
      ...chatPieces(m, ['Done', ' thinking', '.'], 250, 20),
      w(320, sse(oa(m, {}, 'stop'))),
      w(321, done),
    ],
    end: 'close',
    expect: ok({
      answer_text: 'Done thinking.',
      reasoning_text: 'Let me think briefly.',
      content_chunks: 7,
      ttft_ms: 100,
      ttfat_ms: 250,
      last_token_ms: 290,
      e2e_ms: 321,
    }),
  });
}
{
  const steps = ['Cumulative', 'Cumulative Gemini', 'Cumulative Gemini text', 'Cumulative Gemini text parts.'];
  const text = steps[3]!;
  add('gemini-cumulative-text-parts', {
    id: 'S24',
    kind: 'content',
    protocol: 'gemini-stream',
    about:
      'An OpenAI-to-Gemini bridge emits every candidate with the whole text so far. Cumulative detection applies to every protocol: the answer counts once.',
    request: { model: 'gemini-2.5-flash', path: ':streamGenerateContent?alt=sse' },
    response: sseHeaders,
    writes: [
      ...steps.map((t, i) =>
        w(
          200 + i * 30,
          gemSse(
            gem(
              [{ text: t }],
              i === 3 ? { usageMetadata: { promptTokenCount: 4, candidatesTokenCount: o200k(text), totalTokenCount: 4 + o200k(text) } } : {},
              i === 3 ? { finishReason: 'STOP' } : {},
            ),
          ),
        ),
      ),
    ],
    end: 'close',
    expect: ok({ answer_text: text, content_chunks: 4, output_tokens_reported: o200k(text), ttft_ms: 200, last_token_ms: 290, e2e_ms: 290 }),
  });
}
{
  const m = 'claude-sonnet-4-5';
  const args = '{"query":"tokenpace","limit":5}';
  add('anthropic-input-json-cumulative', {
    id: 'S25',
    kind: 'content',
    protocol: 'anthropic-messages',
    about:
      'A Messages gateway sends each input_json_delta with the whole partial JSON so far. Detected as cumulative for that call: the arguments are valid JSON, counted once.',
    request: { model: m, stream: true, max_tokens: 128 },
    response: sseHeaders,
    writes: [
      w(80, messageStart(m)),
      w(100, ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_s25', name: 'search', input: {} } })),
      ...[10, 22, args.length].map((c, i) =>
        w(200 + i * 25, ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: args.slice(0, c) } })),
      ),
      w(280, ev('content_block_stop', { index: 0 })),
      w(290, ev('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } })),
      w(292, ev('message_stop', {})),
    ],
    end: 'close',
    expect: ok({
      finish_reason: 'tool_calls',
      answer_text: '',
      tool_calls: [{ id: 'toolu_s25', name: 'search', arguments: args }],
      content_chunks: 3,
      output_tokens_reported: 20,
      ttft_ms: 200,
      last_token_ms: 250,
      e2e_ms: 292,
    }),
  });
}
{
  const m = 'llama3.3';
  const args = { path: '/tmp/x', mode: 'r' };
  add('tool-arguments-object-resent-identically', {
    id: 'S26',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'A server sends the arguments as a whole JSON object and repeats the same tool-call fragment (same index, same object) in the next two chunks. The repeats add nothing: one call, valid JSON, one token event.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      w(150, sse(oa(m, { role: 'assistant', tool_calls: [call(0, { name: 'read_file', arguments: args }, 'call_s26')] }))),
      w(170, sse(oa(m, { tool_calls: [call(0, { arguments: args })] }))),
      w(190, sse(oa(m, { tool_calls: [call(0, { arguments: JSON.stringify(args) })] }))),
      w(210, sse(oa(m, {}, 'tool_calls'))),
      w(211, done),
    ],
    end: 'close',
    expect: ok({
      finish_reason: 'tool_calls',
      answer_text: '',
      tool_calls: [{ id: 'call_s26', name: 'read_file', arguments: JSON.stringify(args) }],
      content_chunks: 1,
      ttft_ms: 150,
      last_token_ms: 150,
      e2e_ms: 211,
    }),
  });
}

// =====================================================================================
// Kind 5: tool-call identity. The index identifies a call; a fragment with the same index, no
// name and a new id is a later fragment of that call.
// =====================================================================================
{
  const m = 'mistral-large-latest';
  const parts = ['{"ci', 'ty": "Ro', 'me"}'];
  add('same-index-new-id-no-name-continues-call', {
    id: 'S27',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'A server stamps every tool-call fragment with a fresh id (same index 0, no function name after the first). The index identifies the call: one call, with the id it was opened with.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      w(100, sse(oa(m, { role: 'assistant', tool_calls: [call(0, { name: 'get_weather', arguments: '' }, 'call_first')] }))),
      ...parts.map((p, i) => w(200 + i * 20, sse(oa(m, { tool_calls: [call(0, { arguments: p }, `call_frag_${i}`)] })))),
      w(300, sse(oa(m, {}, 'tool_calls'))),
      w(301, done),
    ],
    end: 'close',
    expect: ok({
      finish_reason: 'tool_calls',
      answer_text: '',
      tool_calls: [{ id: 'call_first', name: 'get_weather', arguments: '{"city": "Rome"}' }],
      content_chunks: 3,
      ttft_ms: 200,
      last_token_ms: 240,
      e2e_ms: 301,
    }),
  });
}
{
  const m = 'moonshot-v1-8k';
  add('parallel-calls-continuations-with-new-ids', {
    id: 'S28',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'Two parallel calls (index 0 and 1); the continuation fragments of each carry new ids and no names. Two calls, each with its opening id and its own arguments.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      w(100, sse(oa(m, { role: 'assistant', tool_calls: [call(0, { name: 'lookup', arguments: '{"q":' }, 'call_a')] }))),
      w(120, sse(oa(m, { tool_calls: [call(0, { arguments: '"x"}' }, 'chunk_2')] }))),
      w(140, sse(oa(m, { tool_calls: [call(1, { name: 'lookup', arguments: '{"q":' }, 'call_b')] }))),
      w(160, sse(oa(m, { tool_calls: [call(1, { arguments: '"y"}' }, 'chunk_4')] }))),
      w(200, sse(oa(m, {}, 'tool_calls'))),
      w(201, done),
    ],
    end: 'close',
    expect: ok({
      finish_reason: 'tool_calls',
      answer_text: '',
      tool_calls: [
        { id: 'call_a', name: 'lookup', arguments: '{"q":"x"}' },
        { id: 'call_b', name: 'lookup', arguments: '{"q":"y"}' },
      ],
      content_chunks: 4,
      ttft_ms: 100,
      last_token_ms: 160,
      e2e_ms: 201,
    }),
  });
}
{
  const m = 'gemini-2.5-flash';
  add('index-zero-reused-by-named-calls', {
    id: 'S29',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'The edge of the identity rule: a server numbers every call index 0, but each new call comes with a new id AND a function name, so each opens a call; a nameless fragment with a new id continues the last one.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      w(100, sse(oa(m, { role: 'assistant', tool_calls: [call(0, { name: 'a', arguments: '{"n":1' }, 'id_1')] }))),
      w(120, sse(oa(m, { tool_calls: [call(0, { arguments: '}' }, 'id_1b')] }))),
      w(140, sse(oa(m, { tool_calls: [call(0, { name: 'b', arguments: '{"n":2}' }, 'id_2')] }))),
      w(200, sse(oa(m, {}, 'tool_calls'))),
      w(201, done),
    ],
    end: 'close',
    expect: ok({
      finish_reason: 'tool_calls',
      answer_text: '',
      tool_calls: [
        { id: 'id_1', name: 'a', arguments: '{"n":1}' },
        { id: 'id_2', name: 'b', arguments: '{"n":2}' },
      ],
      content_chunks: 3,
      ttft_ms: 100,
      last_token_ms: 140,
      e2e_ms: 201,
    }),
  });
}

// =====================================================================================
// Kind 6: Gemini function calls streamed in pieces (partialArgs); unknown part types flagged.
// =====================================================================================
const usage = (n: number) => ({ usageMetadata: { promptTokenCount: 30, candidatesTokenCount: n, totalTokenCount: 30 + n } });
{
  const fc = (functionCall: Record<string, unknown>) => [{ functionCall }];
  add('gemini-partial-args-one-call', {
    id: 'S30',
    kind: 'protocol',
    protocol: 'gemini-stream',
    about:
      'Vertex AI with streamFunctionCallArguments: the call opens with its name and willContinue, its arguments arrive as partialArgs (jsonPath, stringValue, willContinue) over several responses, and an empty functionCall ends it. One call, arguments assembled as JSON.',
    request: {
      model: 'gemini-3-pro-preview',
      path: ':streamGenerateContent?alt=sse',
      toolConfig: { functionCallingConfig: { streamFunctionCallArguments: true } },
    },
    response: sseHeaders,
    writes: [
      w(300, gemSse(gem(fc({ name: 'get_weather', willContinue: true })))),
      w(350, gemSse(gem(fc({ partialArgs: [{ jsonPath: '$.location', stringValue: 'Bos', willContinue: true }], willContinue: true })))),
      w(380, gemSse(gem(fc({ partialArgs: [{ jsonPath: '$.location', stringValue: 'ton, MA' }], willContinue: true })))),
      w(410, gemSse(gem(fc({ partialArgs: [{ jsonPath: '$.unit', stringValue: 'celsius' }], willContinue: true })))),
      w(450, gemSse(gem(fc({})))),
      w(470, gemSse(gem(null, usage(12), { finishReason: 'STOP' }))),
    ],
    end: 'close',
    expect: ok({
      finish_reason: 'stop',
      answer_text: '',
      tool_calls: [{ id: null, name: 'get_weather', arguments: '{"location":"Boston, MA","unit":"celsius"}' }],
      content_chunks: 3,
      output_tokens_reported: 12,
      ttft_ms: 350,
      last_token_ms: 410,
      e2e_ms: 470,
    }),
  });
}
{
  const fc = (functionCall: Record<string, unknown>) => [{ functionCall }];
  add('gemini-partial-args-two-calls-nested-and-numbers', {
    id: 'S31',
    kind: 'protocol',
    protocol: 'gemini-stream',
    about:
      'Two calls streamed in pieces one after the other: nested paths ($.options.days, $.tags[0]), numberValue and boolValue. A part naming a function opens the next call.',
    request: { model: 'gemini-3-pro-preview', path: ':streamGenerateContent?alt=sse' },
    response: sseHeaders,
    writes: [
      w(200, gemSse(gem(fc({ name: 'forecast', willContinue: true, partialArgs: [{ jsonPath: '$.city', stringValue: 'Oslo' }] })))),
      w(
        230,
        gemSse(
          gem(
            fc({
              partialArgs: [
                { jsonPath: '$.options.days', numberValue: 3 },
                { jsonPath: '$.options.hourly', boolValue: false },
              ],
              willContinue: false,
            }),
          ),
        ),
      ),
      w(260, gemSse(gem(fc({ name: 'tag', willContinue: true, partialArgs: [{ jsonPath: '$.tags[0]', stringValue: 'cold' }] })))),
      w(290, gemSse(gem(fc({ partialArgs: [{ jsonPath: "$['note text']", stringValue: 'wrap up' }] })))),
      w(320, gemSse(gem(null, usage(20), { finishReason: 'STOP' }))),
    ],
    end: 'close',
    expect: ok({
      finish_reason: 'stop',
      answer_text: '',
      tool_calls: [
        { id: null, name: 'forecast', arguments: '{"city":"Oslo","options":{"days":3,"hourly":false}}' },
        { id: null, name: 'tag', arguments: '{"tags":["cold"],"note text":"wrap up"}' },
      ],
      content_chunks: 4,
      output_tokens_reported: 20,
      ttft_ms: 200,
      last_token_ms: 290,
      e2e_ms: 320,
    }),
  });
}
{
  add('gemini-unknown-part-type-flagged', {
    id: 'S32',
    kind: 'protocol',
    protocol: 'gemini-stream',
    about:
      'A part of a type the probe does not know (`toolCallDelta` holding text) and a functionCall carrying an unknown field with text: flagged as unrecognised with their paths, never dropped silently; not rankable.',
    request: { model: 'gemini-3-flash', path: ':streamGenerateContent?alt=sse' },
    response: sseHeaders,
    writes: [
      w(200, gemSse(gem([{ text: 'Known text' }]))),
      w(240, gemSse(gem([{ toolCallDelta: { name: 'search', argsText: '{"q":"a"}' } }]))),
      w(280, gemSse(gem([{ functionCall: { name: 'search', args: { q: 'b' }, argsStream: '{"q":"b"}' } }]))),
      w(320, gemSse(gem(null, usage(9), { finishReason: 'STOP' }))),
    ],
    end: 'close',
    expect: ok({
      answer_text: 'Known text',
      tool_calls: [{ id: null, name: 'search', arguments: '{"q":"b"}' }],
      content_chunks: 2,
      output_tokens_reported: 9,
      ttft_ms: 200,
      last_token_ms: 280,
      e2e_ms: 320,
      not_rankable_reasons_include: ['unrecognized_shape'],
      unrecognized_paths: ['candidates[0].content.parts[0].toolCallDelta', 'candidates[0].content.parts[0].functionCall.argsStream'],
    }),
  });
}

// =====================================================================================
// Kind 7: the same reasoning (or answer) in two fields is one text.
// =====================================================================================
{
  const m = 'anthropic/claude-sonnet-4-5';
  const reasoning = ['Check', ' the', ' units', ' first.'];
  const answer = ['Ten', ' metres', '.'];
  const n = o200k(reasoning.join(''), answer.join(''));
  add('litellm-reasoning-content-and-thinking-blocks', {
    id: 'S33',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'LiteLLM relays Anthropic thinking as reasoning_content and again as thinking_blocks ([{type: thinking, thinking, signature}]) in the same delta. The same text twice is one reasoning text: recognised, counted once, rankable.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      ...reasoning.map((r, i) =>
        w(
          100 + i * 20,
          sse(
            oa(m, {
              role: 'assistant',
              content: '',
              reasoning_content: r,
              thinking_blocks: [{ type: 'thinking', thinking: r, signature: i === 3 ? 'EqQBCkYIBx' : null }],
            }),
          ),
        ),
      ),
      ...chatPieces(m, answer, 250, 20),
      w(320, sse(oa(m, {}, 'stop', { usage: { prompt_tokens: 10, completion_tokens: n, total_tokens: 10 + n } }))),
      w(321, done),
    ],
    end: 'close',
    expect: ok({
      answer_text: answer.join(''),
      reasoning_text: reasoning.join(''),
      content_chunks: 7,
      output_tokens_reported: n,
      ttft_ms: 100,
      ttfat_ms: 250,
      last_token_ms: 290,
      e2e_ms: 321,
      token_count_mismatch: false,
    }),
  });
}
{
  const m = 'openai/gpt-oss-120b';
  const reasoning = ['Both', ' fields', ' carry', ' this.'];
  const answer = ['Once', '.'];
  const n = o200k(reasoning.join(''), answer.join(''));
  add('vllm-reasoning-and-reasoning-content-same-text', {
    id: 'S34',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'vLLM (since the `reasoning` rename) sends the same reasoning text in both `reasoning` and `reasoning_content` of every delta, and a gateway adds `reasoning_text` too. One reasoning text, counted once, rankable.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      ...reasoning.map((r, i) => w(100 + i * 20, sse(oa(m, { reasoning: r, reasoning_content: r, reasoning_text: r })))),
      ...chatPieces(m, answer, 250, 20),
      w(300, sse(oa(m, {}, 'stop', { usage: { prompt_tokens: 10, completion_tokens: n, total_tokens: 10 + n } }))),
      w(301, done),
    ],
    end: 'close',
    expect: ok({
      answer_text: answer.join(''),
      reasoning_text: reasoning.join(''),
      content_chunks: 6,
      output_tokens_reported: n,
      ttft_ms: 100,
      ttfat_ms: 250,
      last_token_ms: 270,
      e2e_ms: 301,
      token_count_mismatch: false,
    }),
  });
}
{
  const m = 'sonar-pro';
  const pieces = ['Answer', ' given', ' twice', ' per', ' chunk.'];
  const text = pieces.join('');
  add('answer-in-content-and-text-fields', {
    id: 'S35',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'A server writes each answer piece both as delta.content and as delta.text. The same text in two fields is one answer; a field with DIFFERENT text would stay unrecognised.',
    request: { model: m, stream: true },
    response: sseHeaders,
    writes: [
      ...pieces.map((p, i) => w(100 + i * 20, sse(oa(m, { content: p, text: p })))),
      w(220, sse(oa(m, {}, 'stop', { usage: { prompt_tokens: 3, completion_tokens: o200k(text), total_tokens: 3 + o200k(text) } }))),
      w(221, done),
    ],
    end: 'close',
    expect: ok({
      answer_text: text,
      content_chunks: 5,
      output_tokens_reported: o200k(text),
      ttft_ms: 100,
      last_token_ms: 180,
      e2e_ms: 221,
      token_count_mismatch: false,
    }),
  });
}

// =====================================================================================
// Kind 8: the OpenAI Responses API (decision 192).
// =====================================================================================
/** A Responses stream writer: numbers every event (sequence_number), `skip` leaves numbers out. */
function responsesStream() {
  let seq = 0;
  return (type: string, fields: Record<string, unknown> = {}, opts: { skip?: number; seq?: number } = {}) => {
    seq += opts.skip ?? 0;
    const n = opts.seq ?? seq++;
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: n, ...fields })}\n\n`;
  };
}
const resp = (status: string, extra: Record<string, unknown> = {}) => ({
  id: 'resp_s22',
  object: 'response',
  created_at: 1764500000,
  status,
  model: 'gpt-5-mini',
  output: [],
  ...extra,
});
const textDeltaR = (delta: string, item = 'msg_1') => ({ item_id: item, output_index: 1, content_index: 0, delta, logprobs: [] });
const responsesUsage = (output: number, reasoning = 0, cached = 0) => ({
  input_tokens: 20,
  input_tokens_details: { cached_tokens: cached },
  output_tokens: output,
  output_tokens_details: { reasoning_tokens: reasoning },
  total_tokens: 20 + output,
});
{
  const e = responsesStream();
  const summary = ['**Planning**', ' the reply', ' briefly.'];
  const answer = ['Paris', ' is', ' the', ' capital', '.'];
  const r = summary.join('');
  const a = answer.join('');
  const n = o200k(r, a);
  add('responses-reasoning-summary-and-text', {
    id: 'S36',
    kind: 'protocol',
    protocol: 'openai-responses',
    about:
      'OpenAI Responses API: response.created and in_progress, a reasoning item whose summary streams as response.reasoning_summary_text.delta, then the message as response.output_text.delta; the .done events and the final response repeat the text and are not counted; response.completed carries usage (output_tokens, reasoning_tokens, cached_tokens). No [DONE].',
    request: { model: 'gpt-5-mini', stream: true, input: 'What is the capital of France?', reasoning: { summary: 'auto' } },
    response: sseHeaders,
    writes: [
      w(40, e('response.created', { response: resp('in_progress') }) + e('response.in_progress', { response: resp('in_progress') })),
      w(
        300,
        e('response.output_item.added', { output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } }) +
          e('response.reasoning_summary_part.added', { item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } }),
      ),
      ...summary.map((t, i) => w(400 + i * 20, e('response.reasoning_summary_text.delta', { item_id: 'rs_1', output_index: 0, summary_index: 0, delta: t }))),
      w(
        470,
        e('response.reasoning_summary_text.done', { item_id: 'rs_1', output_index: 0, summary_index: 0, text: r }) +
          e('response.output_item.done', { output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: r }] } }),
      ),
      w(
        480,
        e('response.output_item.added', { output_index: 1, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } }) +
          e('response.content_part.added', { item_id: 'msg_1', output_index: 1, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
      ),
      ...answer.map((t, i) => w(600 + i * 15, e('response.output_text.delta', textDeltaR(t)))),
      w(
        700,
        e('response.output_text.done', { item_id: 'msg_1', output_index: 1, content_index: 0, text: a }) +
          e('response.content_part.done', { item_id: 'msg_1', output_index: 1, content_index: 0, part: { type: 'output_text', text: a, annotations: [] } }),
      ),
      w(
        705,
        e('response.output_item.done', {
          output_index: 1,
          item: { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: a, annotations: [] }] },
        }),
      ),
      w(
        720,
        e('response.completed', {
          response: resp('completed', {
            output: [{ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: a }] }],
            usage: responsesUsage(n, o200k(r), 8),
          }),
        }),
      ),
    ],
    end: 'close',
    expect: ok({
      answer_text: a,
      reasoning_text: r,
      content_chunks: 8,
      output_tokens_reported: n,
      reasoning_tokens_hidden: 0,
      ttft_ms: 400,
      ttfat_ms: 600,
      last_token_ms: 660,
      e2e_ms: 720,
      token_count_mismatch: false,
    }),
  });
}
{
  const e = responsesStream();
  const answer = ['Hidden', ' reasoning', ' came', ' first', '.'];
  const a = answer.join('');
  add('responses-hidden-reasoning-tokens', {
    id: 'S37',
    kind: 'usage',
    protocol: 'openai-responses',
    about:
      'A reasoning model over the Responses API without summaries: reasoning happens before the first text (inside TTFT) and only usage.output_tokens_details.reasoning_tokens says so. Those tokens are hidden (decision 065): speed on the visible tokens, rankable.',
    request: { model: 'o4-mini', stream: true },
    response: sseHeaders,
    writes: [
      w(30, e('response.created', { response: resp('in_progress') })),
      w(
        1500,
        e('response.output_item.added', { output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } }) +
          e('response.output_item.done', { output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAAB' } }),
      ),
      w(1510, e('response.output_item.added', { output_index: 1, item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] } })),
      ...answer.map((t, i) => w(1600 + i * 20, e('response.output_text.delta', textDeltaR(t)))),
      w(1720, e('response.output_text.done', { item_id: 'msg_1', output_index: 1, content_index: 0, text: a })),
      w(1730, e('response.completed', { response: resp('completed', { usage: responsesUsage(192 + o200k(a), 192) }) })),
    ],
    end: 'close',
    expect: ok({
      answer_text: a,
      content_chunks: 5,
      output_tokens_reported: 192 + o200k(a),
      reasoning_tokens_hidden: 192,
      ttft_ms: 1600,
      last_token_ms: 1680,
      e2e_ms: 1730,
      token_count_mismatch: false,
    }),
  });
}
{
  const e = responsesStream();
  const args = '{"location":"Paris","unit":"c"}';
  add('responses-function-call-arguments', {
    id: 'S38',
    kind: 'protocol',
    protocol: 'openai-responses',
    about:
      'A function call over the Responses API: output_item.added opens it (call_id, name), response.function_call_arguments.delta carries the arguments, .done repeats them (not counted). Status completed with a function call output is finish tool_calls.',
    request: { model: 'gpt-4.1', stream: true, tools: [{ type: 'function', name: 'get_weather' }] },
    response: sseHeaders,
    writes: [
      w(20, e('response.created', { response: resp('in_progress') })),
      w(
        200,
        e('response.output_item.added', {
          output_index: 0,
          item: { id: 'fc_1', type: 'function_call', call_id: 'call_abc', name: 'get_weather', arguments: '', status: 'in_progress' },
        }),
      ),
      ...[args.slice(0, 12), args.slice(12, 22), args.slice(22)].map((t, i) =>
        w(300 + i * 20, e('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 0, delta: t })),
      ),
      w(
        380,
        e('response.function_call_arguments.done', { item_id: 'fc_1', output_index: 0, arguments: args }) +
          e('response.output_item.done', {
            output_index: 0,
            item: { id: 'fc_1', type: 'function_call', call_id: 'call_abc', name: 'get_weather', arguments: args, status: 'completed' },
          }),
      ),
      w(
        400,
        e('response.completed', {
          response: resp('completed', {
            output: [{ id: 'fc_1', type: 'function_call', call_id: 'call_abc', name: 'get_weather', arguments: args }],
            usage: responsesUsage(o200k(args)),
          }),
        }),
      ),
    ],
    end: 'close',
    expect: ok({
      finish_reason: 'tool_calls',
      answer_text: '',
      tool_calls: [{ id: 'call_abc', name: 'get_weather', arguments: args }],
      content_chunks: 3,
      output_tokens_reported: o200k(args),
      ttft_ms: 300,
      last_token_ms: 340,
      e2e_ms: 400,
    }),
  });
}
{
  const e = responsesStream();
  const answer = ['Cut', ' at', ' the', ' budget'];
  const a = answer.join('');
  add('responses-incomplete-max-output-tokens', {
    id: 'S39',
    kind: 'errors',
    protocol: 'openai-responses',
    about: 'The output budget ran out: response.incomplete with incomplete_details.reason max_output_tokens. A clean finish (length), with usage.',
    request: { model: 'gpt-4.1-mini', stream: true, max_output_tokens: 4 },
    response: sseHeaders,
    writes: [
      w(20, e('response.created', { response: resp('in_progress') })),
      ...answer.map((t, i) => w(150 + i * 10, e('response.output_text.delta', textDeltaR(t)))),
      w(200, e('response.incomplete', { response: resp('incomplete', { incomplete_details: { reason: 'max_output_tokens' }, usage: responsesUsage(4) }) })),
    ],
    end: 'close',
    expect: ok({
      finish_reason: 'length',
      answer_text: a,
      content_chunks: 4,
      output_tokens_reported: 4,
      ttft_ms: 150,
      last_token_ms: 180,
      e2e_ms: 200,
      token_count_mismatch: false,
    }),
  });
}
{
  const e = responsesStream();
  add('responses-incomplete-content-filter', {
    id: 'S40',
    kind: 'errors',
    protocol: 'openai-responses',
    about: 'response.incomplete with reason content_filter: the filter cut the answer, not a clean finish: an error (decision 190).',
    request: { model: 'gpt-4.1-mini', stream: true },
    response: sseHeaders,
    writes: [
      w(20, e('response.created', { response: resp('in_progress') })),
      w(150, e('response.output_text.delta', textDeltaR('Well'))),
      w(170, e('response.output_text.delta', textDeltaR(', the'))),
      w(200, e('response.incomplete', { response: resp('incomplete', { incomplete_details: { reason: 'content_filter' }, usage: responsesUsage(3) }) })),
    ],
    end: 'close',
    expect: failed({
      answer_text: 'Well, the',
      content_chunks: 2,
      output_tokens_reported: 3,
      ttft_ms: 150,
      last_token_ms: 170,
      e2e_ms: 200,
      error_message_contains: 'content filter',
    }),
  });
}
{
  const e = responsesStream();
  add('responses-failed-server-error', {
    id: 'S41',
    kind: 'errors',
    protocol: 'openai-responses',
    about: 'response.failed after partial text, its response.error naming a server error: stream_error with the message kept.',
    request: { model: 'gpt-5', stream: true },
    response: sseHeaders,
    writes: [
      w(20, e('response.created', { response: resp('in_progress') })),
      w(250, e('response.output_text.delta', textDeltaR('Partial'))),
      w(270, e('response.output_text.delta', textDeltaR(' answer'))),
      w(400, e('response.failed', { response: resp('failed', { error: { code: 'server_error', message: 'The model failed to generate a response.' } }) })),
    ],
    end: 'close',
    expect: failed({
      answer_text: 'Partial answer',
      content_chunks: 2,
      ttft_ms: 250,
      last_token_ms: 270,
      e2e_ms: 400,
      error_message_contains: 'failed to generate',
    }),
  });
}
{
  const e = responsesStream();
  add('responses-error-event-rate-limit', {
    id: 'S42',
    kind: 'errors',
    protocol: 'openai-responses',
    about: 'An `error` event (type error, code rate_limit_exceeded) inside the 200 stream: rate_limited, even though the connection then closes cleanly.',
    request: { model: 'gpt-5', stream: true },
    response: sseHeaders,
    writes: [
      w(20, e('response.created', { response: resp('in_progress') })),
      w(100, e('response.output_text.delta', textDeltaR('Hi'))),
      w(150, e('error', { code: 'rate_limit_exceeded', message: 'Rate limit reached for requests', param: null })),
    ],
    end: 'close',
    expect: failed({
      error_kind: 'rate_limited',
      answer_text: 'Hi',
      content_chunks: 1,
      ttft_ms: 100,
      last_token_ms: 100,
      e2e_ms: 150,
      error_message_contains: 'Rate limit',
    }),
  });
}
{
  const e = responsesStream();
  const answer = ['Some', ' events', ' are', ' missing', '.'];
  const a = answer.join('');
  add('responses-sequence-number-gap', {
    id: 'S43',
    kind: 'protocol',
    protocol: 'openai-responses',
    about:
      'sequence_number jumps by three between two deltas (two events missing): events may have been lost or reordered by a proxy. Kept, not rankable (sequence_broken).',
    request: { model: 'gpt-5-nano', stream: true },
    response: sseHeaders,
    writes: [
      w(20, e('response.created', { response: resp('in_progress') })),
      w(100, e('response.output_text.delta', textDeltaR(answer[0]!))),
      w(120, e('response.output_text.delta', textDeltaR(answer[1]!))),
      w(140, e('response.output_text.delta', textDeltaR(answer[2]!), { skip: 2 })),
      w(160, e('response.output_text.delta', textDeltaR(answer[3]!))),
      w(180, e('response.output_text.delta', textDeltaR(answer[4]!))),
      w(200, e('response.completed', { response: resp('completed', { usage: responsesUsage(o200k(a)) }) })),
    ],
    end: 'close',
    expect: ok({
      answer_text: a,
      content_chunks: 5,
      output_tokens_reported: o200k(a),
      ttft_ms: 100,
      last_token_ms: 180,
      e2e_ms: 200,
      not_rankable_reasons_include: ['sequence_broken'],
    }),
  });
}
{
  const e = responsesStream();
  add('responses-cut-before-completed', {
    id: 'S44',
    kind: 'errors',
    protocol: 'openai-responses',
    about:
      'The connection closes after text deltas, before any terminal event (response.completed / incomplete / failed). The Responses API has no [DONE]: without a terminal event the stream was cut: stream_error.',
    request: { model: 'gpt-5', stream: true },
    response: sseHeaders,
    writes: [
      w(20, e('response.created', { response: resp('in_progress') })),
      w(100, e('response.output_text.delta', textDeltaR('Half'))),
      w(120, e('response.output_text.delta', textDeltaR(' an answer'))),
    ],
    end: 'close',
    expect: failed({ answer_text: 'Half an answer', content_chunks: 2, ttft_ms: 100, last_token_ms: 120, e2e_ms: 120 }),
  });
}
{
  const e = responsesStream();
  const reasoning = ['We', ' need', ' to', ' answer', '.'];
  const answer = ['Four', '.'];
  const r = reasoning.join('');
  const a = answer.join('');
  const n = o200k(r, a);
  add('vllm-responses-reasoning-text-deltas', {
    id: 'S45',
    kind: 'protocol',
    protocol: 'openai-responses',
    about:
      "vLLM's /v1/responses with a gpt-oss model streams raw reasoning as response.reasoning_text.delta (then the answer as output_text.delta) and counts it in output_tokens_details.reasoning_tokens: streamed, so nothing hidden; rankable.",
    request: { model: 'openai/gpt-oss-20b', stream: true },
    response: sseHeaders,
    writes: [
      w(20, e('response.created', { response: resp('in_progress') })),
      w(25, e('response.output_item.added', { output_index: 0, item: { id: 'rs_v', type: 'reasoning', content: [] } })),
      ...reasoning.map((t, i) => w(100 + i * 10, e('response.reasoning_text.delta', { item_id: 'rs_v', output_index: 0, content_index: 0, delta: t }))),
      w(160, e('response.reasoning_text.done', { item_id: 'rs_v', output_index: 0, content_index: 0, text: r })),
      ...answer.map((t, i) => w(200 + i * 10, e('response.output_text.delta', textDeltaR(t)))),
      w(230, e('response.completed', { response: resp('completed', { usage: responsesUsage(n, o200k(r)) }) })),
    ],
    end: 'close',
    expect: ok({
      answer_text: a,
      reasoning_text: r,
      content_chunks: 7,
      output_tokens_reported: n,
      reasoning_tokens_hidden: 0,
      ttft_ms: 100,
      ttfat_ms: 200,
      last_token_ms: 210,
      e2e_ms: 230,
      token_count_mismatch: false,
    }),
  });
}
{
  const e = responsesStream();
  const a = 'The whole answer arrived in one done event, never as deltas.';
  add('responses-done-event-without-deltas', {
    id: 'S46',
    kind: 'content',
    protocol: 'openai-responses',
    about:
      'A compatible server sends no output_text.delta at all, only output_text.done with the whole text. Its text counts (once), as one event: delivered, not streamed (buffered_stream).',
    request: { model: 'local-model', stream: true },
    response: sseHeaders,
    writes: [
      w(20, e('response.created', { response: resp('in_progress') })),
      w(500, e('response.output_text.done', { item_id: 'msg_1', output_index: 0, content_index: 0, text: a })),
      w(
        510,
        e('response.completed', {
          response: resp('completed', {
            output: [{ id: 'msg_1', type: 'message', content: [{ type: 'output_text', text: a }] }],
            usage: responsesUsage(o200k(a)),
          }),
        }),
      ),
    ],
    end: 'close',
    expect: ok({
      answer_text: a,
      content_chunks: 1,
      output_tokens_reported: o200k(a),
      ttft_ms: 500,
      last_token_ms: 500,
      e2e_ms: 510,
      not_rankable_reasons_include: ['buffered_stream'],
    }),
  });
}
{
  const e = responsesStream();
  add('responses-unknown-event-with-text', {
    id: 'S47',
    kind: 'protocol',
    protocol: 'openai-responses',
    about:
      'Text arrives in an event type the probe does not know (response.output_text_annotation.delta with a delta). Recorded as event:<type>, not rankable; the known text still counts.',
    request: { model: 'gpt-5', stream: true },
    response: sseHeaders,
    writes: [
      w(20, e('response.created', { response: resp('in_progress') })),
      w(100, e('response.output_text.delta', textDeltaR('Known'))),
      w(120, e('response.output_text_annotation.delta', { item_id: 'msg_1', delta: ' unknown text' })),
      w(140, e('response.output_text.delta', textDeltaR(' text'))),
      w(160, e('response.completed', { response: resp('completed', { usage: responsesUsage(2) }) })),
    ],
    end: 'close',
    expect: ok({
      answer_text: 'Known text',
      content_chunks: 2,
      output_tokens_reported: 2,
      ttft_ms: 100,
      last_token_ms: 140,
      e2e_ms: 160,
      not_rankable_reasons_include: ['unrecognized_shape'],
      unrecognized_paths: ['event:response.output_text_annotation.delta'],
    }),
  });
}

// =====================================================================================
const dir = path.join(__dirname, 'cases');
for (const { slug, ...c } of cases) writeFileSync(path.join(dir, `${c.id}-${slug}.json`), `${JSON.stringify(c, null, 2)}\n`);
console.log(`wrote ${cases.length} issue-22 cases to ${dir}`);
