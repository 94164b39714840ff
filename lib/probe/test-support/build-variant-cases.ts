/**
 * Writes the Tokenpace variant cases (cases/T*.json): one or more per fault kind and per seed
 * provider wire format, so variants the shared C cases do not show are covered too.
 * Run: `npx tsx lib/probe/test-support/build-variant-cases.ts` (output is committed).
 *
 * Expectations are written down from how each stream is constructed (the texts, the write that
 * completes each event), never copied from a probe run.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ReplayCase, ReplayWrite } from './replay-case';
import {
  BEDROCK_RESPONSE as bedrockHeaders,
  bedrockException as exception,
  bedrockFrame as frame,
  bytesWrite as b,
  SSE_RESPONSE,
  successExpect as ok,
  textWrite as w,
} from './case-wire';

const SOURCE = 'Tokenpace variant (constructed from the provider documentation and the shared cases README)';
const cases: ReplayCase[] = [];

function add(c: Omit<ReplayCase, 'tolerance_ms' | 'source'> & { source?: string }): void {
  cases.push({ source: SOURCE, tolerance_ms: 25, ...c });
}

// ---------- OpenAI-compatible helpers ----------
interface OaDelta {
  role?: string;
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string;
  tool_calls?: unknown[];
}
function oa(model: string, delta: OaDelta | null, finish: string | null = null, extra: Record<string, unknown> = {}): string {
  const choices = delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish }];
  return JSON.stringify({ id: 'chatcmpl-tp-variant', object: 'chat.completion.chunk', created: 1764400000, model, choices, ...extra });
}
const sse = (json: string, eol = '\n') => `data: ${json}${eol}${eol}`;

// T01: CR-only line ends (old Mac style; eventsource-parser v3 lost these events).
{
  const m = 'llama-cpp';
  const pieces = ['Carriage', ' returns', ' only', '.'];
  add({
    id: 'T01',
    kind: 'framing',
    protocol: 'openai-chat',
    about: 'Every line ends with a bare CR, including the blank line that ends each event. A parser that only knows LF or CRLF never sees an event boundary.',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [
      w(40, sse(oa(m, { role: 'assistant' }), '\r')),
      ...pieces.map((p, i) => w(120 + i * 30, sse(oa(m, { content: p }), '\r'))),
      w(260, sse(oa(m, {}, 'stop'), '\r')),
      w(265, 'data: [DONE]\r\r'),
    ],
    end: 'close',
    expect: ok({ answer_text: pieces.join(''), content_chunks: 4, ttft_ms: 120, last_token_ms: 210, e2e_ms: 265 }),
  });
}

// T02: a comment before every event, event names, and keep-alive comments while generating.
{
  const m = 'gpt-4o-mini';
  const pieces = ['Comments', ' everywhere', ' are', ' fine'];
  const writes: ReplayWrite[] = [w(30, ': keep-alive\n\n'), w(60, `: hello\nevent: message\n${sse(oa(m, { role: 'assistant', content: '' }))}`)];
  pieces.forEach((p, i) => {
    writes.push(w(150 + i * 40, `: ping ${i}\n\n`));
    writes.push(w(160 + i * 40, `: before\nevent: message\nid: ${i}\n${sse(oa(m, { content: p }))}`));
  });
  writes.push(w(320, `: bye\n${sse(oa(m, {}, 'stop'))}`), w(330, ': trailing comment\n\ndata: [DONE]\n\n'));
  add({
    id: 'T02',
    kind: 'framing',
    protocol: 'openai-chat',
    about:
      'Gateways interleave comment lines, event names and ids with data. Comments are never events and never tokens; the event still completes at its blank line.',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes,
    end: 'close',
    expect: ok({ answer_text: pieces.join(''), content_chunks: 4, ttft_ms: 160, last_token_ms: 280, e2e_ms: 330 }),
  });
}

// T03: vLLM continuous_usage_stats, one token per chunk, running usage in every chunk.
{
  const m = 'Qwen/Qwen3-8B';
  const pieces = ['One', ' two', ' three', ' four', ' five'];
  const writes: ReplayWrite[] = [
    w(50, sse(oa(m, { role: 'assistant', content: '' }, null, { usage: { prompt_tokens: 9, completion_tokens: 0, total_tokens: 9 } }))),
  ];
  pieces.forEach((p, i) =>
    writes.push(w(200 + i * 20, sse(oa(m, { content: p }, null, { usage: { prompt_tokens: 9, completion_tokens: i + 1, total_tokens: 10 + i } })))),
  );
  writes.push(w(290, sse(oa(m, { content: '' }, 'stop', { usage: { prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 } }))));
  writes.push(w(292, sse(oa(m, null, null, { usage: { prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 } }))));
  writes.push(w(294, 'data: [DONE]\n\n'));
  add({
    id: 'T03',
    kind: 'usage',
    protocol: 'openai-chat',
    about:
      'vLLM with continuous_usage_stats repeats the running completion count in every chunk, including the final usage chunk. The count is cumulative: its last value (5), never the sum (20).',
    request: { model: m, stream: true, stream_options: { include_usage: true, continuous_usage_stats: true } },
    response: SSE_RESPONSE,
    writes,
    end: 'close',
    expect: ok({ answer_text: pieces.join(''), content_chunks: 5, output_tokens_reported: 5, ttft_ms: 200, last_token_ms: 280, e2e_ms: 294 }),
  });
}

// ---------- Anthropic helpers ----------
const an = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const anStart = (out = 1) =>
  an('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_tp',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 20, output_tokens: out },
    },
  });
const anText = (text: string, index = 0) => an('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } });

// T04: overloaded_error after partial text.
add({
  id: 'T04',
  kind: 'errors',
  protocol: 'anthropic-messages',
  about:
    'After HTTP 200 Anthropic can only report overload inside the stream, as an error event; the stream then ends without message_stop. The attempt failed (stream_error); the partial text is kept as a diagnostic. (Issue 9: the provisional output_tokens of message_start is not a report of the output, so a stream that fails before message_delta has no count.)',
  request: { model: 'claude-sonnet-4-5', stream: true, max_tokens: 256 },
  response: SSE_RESPONSE,
  writes: [
    w(100, anStart() + an('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })),
    w(300, anText('Partial')),
    w(320, anText(' answer')),
    w(700, an('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })),
  ],
  end: 'close',
  expect: {
    outcome: 'error',
    error_kind: 'stream_error',
    answer_text: 'Partial answer',
    finish_reason: null,
    content_chunks: 2,
    output_tokens_reported: null,
    ttft_ms: 300,
    ttfat_ms: 300,
    last_token_ms: 320,
    e2e_ms: 700,
  },
});

// T05: rate_limit_error event.
add({
  id: 'T05',
  kind: 'errors',
  protocol: 'anthropic-messages',
  about:
    'A rate_limit_error event inside a 200 stream is a rate limit, not a generic stream error. (Issue 9: the provisional output_tokens of message_start is not a report of the output.)',
  request: { model: 'claude-sonnet-4-5', stream: true, max_tokens: 256 },
  response: SSE_RESPONSE,
  writes: [
    w(80, anStart()),
    w(150, an('error', { type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } })),
  ],
  end: 'close',
  expect: {
    outcome: 'error',
    error_kind: 'rate_limited',
    answer_text: '',
    finish_reason: null,
    content_chunks: 0,
    output_tokens_reported: null,
    ttft_ms: null,
    ttfat_ms: null,
    last_token_ms: null,
    e2e_ms: 150,
  },
});

// T06: extended thinking then a tool call.
add({
  id: 'T06',
  kind: 'content',
  protocol: 'anthropic-messages',
  about:
    'With extended thinking, thinking_delta events come first (reasoning tokens count for TTFT), a signature_delta carries no tokens, then a tool_use block streams its arguments as input_json_delta. TTFAT is the first tool argument token; stop_reason tool_use normalises to tool_calls.',
  request: { model: 'claude-sonnet-4-5', stream: true, max_tokens: 1024 },
  response: SSE_RESPONSE,
  writes: [
    w(90, anStart(4) + an('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } })),
    w(400, an('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Need the weather' } })),
    w(430, an('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: ' for Paris.' } })),
    w(
      440,
      an('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' } }) +
        an('content_block_stop', { type: 'content_block_stop', index: 0 }),
    ),
    w(
      500,
      an('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: {} } }),
    ),
    w(520, an('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } })),
    w(560, an('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' } })),
    w(590, an('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'ris"}' } })),
    w(
      600,
      an('content_block_stop', { type: 'content_block_stop', index: 1 }) +
        an('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 21 } }),
    ),
    w(605, an('message_stop', { type: 'message_stop' })),
  ],
  end: 'close',
  expect: {
    outcome: 'success',
    error_kind: null,
    answer_text: '',
    reasoning_text: 'Need the weather for Paris.',
    tool_calls: [{ id: 'toolu_01', name: 'get_weather', arguments: '{"city": "Paris"}' }],
    finish_reason: 'tool_calls',
    content_chunks: 4,
    output_tokens_reported: 21,
    ttft_ms: 400,
    ttfat_ms: 560,
    last_token_ms: 590,
    e2e_ms: 605,
  },
});

// ---------- Gemini ----------
const gem = (parts: unknown[] | null, extra: Record<string, unknown> = {}, finishReason?: string) =>
  JSON.stringify({
    candidates: parts === null ? undefined : [{ content: { parts, role: 'model' }, ...(finishReason ? { finishReason } : {}), index: 0 }],
    modelVersion: 'gemini-2.5-flash',
    ...extra,
  });

// T07: streamed JSON array (no alt=sse), elements cut mid-object, thoughts first.
{
  const e1 = gem([{ text: 'Plan the reply.', thought: true }]);
  const e2 = gem([{ text: 'Bonjour' }]);
  const e3 = gem([{ text: ' tout le monde' }], {});
  const e4 = gem([{ text: ' !' }], { usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 5, thoughtsTokenCount: 4, totalTokenCount: 17 } }, 'STOP');
  const body = `[${e1}\r\n,${e2}\r\n,${e3}\r\n,${e4}\r\n]`;
  const cut = (s: string, x: string) => body.indexOf(x) + x.length;
  const i1 = cut(body, '"Plan the');
  const i2 = cut(body, e1);
  const i3 = cut(body, '"Bonj');
  const i4 = cut(body, e2);
  const i5 = cut(body, e3) - 3;
  const i6 = cut(body, e3);
  const i7 = cut(body, e4);
  add({
    id: 'T07',
    kind: 'protocol',
    protocol: 'gemini-stream',
    about:
      'Without alt=sse, streamGenerateContent returns one JSON array streamed element by element, separated by "\\r\\n,"; reads cut elements anywhere. Each element is timed when its closing brace arrives; thought parts are reasoning; usage counts thoughts too.',
    request: { model: 'gemini-2.5-flash', path: ':streamGenerateContent' },
    response: { status: 200, headers: { 'content-type': 'application/json; charset=UTF-8' } },
    writes: [
      w(200, body.slice(0, i1)),
      w(230, body.slice(i1, i2)),
      w(300, body.slice(i2, i3)),
      w(340, body.slice(i3, i4)),
      w(380, body.slice(i4, i5)),
      w(400, body.slice(i5, i6)),
      w(450, body.slice(i6, i7)),
      w(455, body.slice(i7)),
    ],
    end: 'close',
    expect: {
      outcome: 'success',
      error_kind: null,
      answer_text: 'Bonjour tout le monde !',
      reasoning_text: 'Plan the reply.',
      finish_reason: 'stop',
      content_chunks: 4,
      output_tokens_reported: 9,
      ttft_ms: 230,
      ttfat_ms: 340,
      last_token_ms: 450,
      e2e_ms: 455,
    },
  });
}

// T08: SSE form with a function call and MAX_TOKENS.
add({
  id: 'T08',
  kind: 'protocol',
  protocol: 'gemini-stream',
  about:
    'With alt=sse each GenerateContentResponse is one data event (CRLF line ends on Google front ends). A functionCall part is a whole tool call; MAX_TOKENS normalises to length; usageMetadata is cumulative (last value).',
  request: { model: 'gemini-2.5-flash', path: ':streamGenerateContent?alt=sse' },
  response: { status: 200, headers: { 'content-type': 'text/event-stream' } },
  writes: [
    w(250, `data: ${gem([{ text: 'Checking' }], { usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 1, totalTokenCount: 9 } })}\r\n\r\n`),
    w(290, `data: ${gem([{ text: ' now.' }], { usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 3, totalTokenCount: 11 } })}\r\n\r\n`),
    w(
      340,
      `data: ${gem([{ functionCall: { name: 'lookup', args: { q: 'tps' } } }], { usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 9, totalTokenCount: 17 } }, 'MAX_TOKENS')}\r\n\r\n`,
    ),
  ],
  end: 'close',
  expect: {
    outcome: 'success',
    error_kind: null,
    answer_text: 'Checking now.',
    tool_calls: [{ id: null, name: 'lookup', arguments: '{"q":"tps"}' }],
    finish_reason: 'length',
    content_chunks: 3,
    output_tokens_reported: 9,
    ttft_ms: 250,
    ttfat_ms: 250,
    last_token_ms: 340,
    e2e_ms: 340,
  },
});

// T09: Gemini SSE error object (quota) inside the stream.
add({
  id: 'T09',
  kind: 'errors',
  protocol: 'gemini-stream',
  about: 'Gemini reports quota exhaustion inside an already-started stream as an error object with status RESOURCE_EXHAUSTED: rate_limited.',
  request: { model: 'gemini-2.5-flash', path: ':streamGenerateContent?alt=sse' },
  response: { status: 200, headers: { 'content-type': 'text/event-stream' } },
  writes: [
    w(200, `data: ${gem([{ text: 'Hi' }])}\r\n\r\n`),
    w(
      260,
      `data: ${JSON.stringify({ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } })}\r\n\r\n`,
    ),
  ],
  end: 'close',
  expect: {
    outcome: 'error',
    error_kind: 'rate_limited',
    answer_text: 'Hi',
    finish_reason: null,
    content_chunks: 1,
    output_tokens_reported: null,
    ttft_ms: 200,
    ttfat_ms: 200,
    last_token_ms: 200,
    e2e_ms: 260,
  },
});

// ---------- Bedrock ----------
const concat = (...parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));

// T10: throttlingException after partial text.
add({
  id: 'T10',
  kind: 'errors',
  protocol: 'bedrock-converse-stream',
  about:
    'Bedrock reports throttling mid-stream as an exception frame (:message-type exception, :exception-type throttlingException): rate_limited, with the partial text kept.',
  request: { model: 'us.meta.llama4-maverick-17b-instruct-v1:0' },
  response: bedrockHeaders,
  writes: [
    b(150, frame('messageStart', { role: 'assistant' })),
    b(300, frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hello' } })),
    b(320, frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' there' } })),
    b(500, exception('throttlingException', 'Too many requests, please wait before trying again.')),
  ],
  end: 'close',
  expect: {
    outcome: 'error',
    error_kind: 'rate_limited',
    answer_text: 'Hello there',
    finish_reason: null,
    content_chunks: 2,
    output_tokens_reported: null,
    ttft_ms: 300,
    ttfat_ms: 300,
    last_token_ms: 320,
    e2e_ms: 500,
  },
});

// T11: reasoning + tool use, frames split at odd places, modelStreamErrorException variant separately.
{
  const frames = [
    frame('messageStart', { role: 'assistant' }),
    frame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'User wants' } } }),
    frame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: ' a lookup.' } } }),
    frame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig' } } }),
    frame('contentBlockStop', { contentBlockIndex: 0 }),
    frame('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_1', name: 'search' } } }),
    frame('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"q":' } } }),
    frame('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '"b200"}' } } }),
    frame('contentBlockStop', { contentBlockIndex: 1 }),
    frame('messageStop', { stopReason: 'tool_use' }),
    frame('metadata', { usage: { inputTokens: 30, outputTokens: 14, totalTokens: 44 }, metrics: { latencyMs: 410 } }),
  ];
  const f = frames;
  add({
    id: 'T11',
    kind: 'protocol',
    protocol: 'bedrock-converse-stream',
    about:
      'Bedrock reasoning (reasoningContent.text; a signature-only delta carries no tokens) followed by a toolUse block whose input streams in pieces; frames are split inside the prelude and payload and merged. stopReason tool_use → tool_calls; usage from metadata.',
    request: { model: 'us.anthropic.claude-sonnet-4-5-v1:0' },
    response: bedrockHeaders,
    writes: [
      b(100, concat(f[0]!, f[1]!.subarray(0, 7))),
      b(380, f[1]!.subarray(7)),
      b(410, concat(f[2]!, f[3]!, f[4]!.subarray(0, 20))),
      b(430, concat(f[4]!.subarray(20), f[5]!)),
      b(470, f[6]!.subarray(0, f[6]!.length - 1)),
      b(480, f[6]!.subarray(f[6]!.length - 1)),
      b(520, concat(f[7]!, f[8]!, f[9]!)),
      b(560, f[10]!),
    ],
    end: 'close',
    expect: {
      outcome: 'success',
      error_kind: null,
      answer_text: '',
      reasoning_text: 'User wants a lookup.',
      tool_calls: [{ id: 'tooluse_1', name: 'search', arguments: '{"q":"b200"}' }],
      finish_reason: 'tool_calls',
      content_chunks: 4,
      output_tokens_reported: 14,
      ttft_ms: 380,
      ttfat_ms: 480,
      last_token_ms: 520,
      e2e_ms: 560,
    },
  });
}

// T12: modelStreamErrorException → stream_error.
add({
  id: 'T12',
  kind: 'errors',
  protocol: 'bedrock-converse-stream',
  about: 'A modelStreamErrorException frame is a failure of the stream, not throttling: stream_error.',
  request: { model: 'us.meta.llama4-maverick-17b-instruct-v1:0' },
  response: bedrockHeaders,
  writes: [
    b(120, frame('messageStart', { role: 'assistant' })),
    b(200, frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Par' } })),
    b(260, exception('modelStreamErrorException', 'Model stream error: worker crashed')),
  ],
  end: 'close',
  expect: {
    outcome: 'error',
    error_kind: 'stream_error',
    answer_text: 'Par',
    finish_reason: null,
    content_chunks: 1,
    output_tokens_reported: null,
    ttft_ms: 200,
    ttfat_ms: 200,
    last_token_ms: 200,
    e2e_ms: 260,
  },
});

// ---------- HTTP-level ----------
add({
  id: 'T13',
  kind: 'errors',
  protocol: 'openai-chat',
  about:
    'HTTP 429 with Retry-After in seconds: rate_limited, retry_after_ms recorded, no stream parsed. (Issue 9: a failed HTTP response ends when its error body has arrived.)',
  request: { model: 'llama-3.3-70b-versatile', stream: true },
  response: { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '7' } },
  writes: [w(5, JSON.stringify({ error: { message: 'Rate limit reached for model llama-3.3-70b-versatile', type: 'tokens', code: 'rate_limit_exceeded' } }))],
  end: 'close',
  expect: {
    outcome: 'error',
    error_kind: 'rate_limited',
    answer_text: '',
    finish_reason: null,
    content_chunks: 0,
    output_tokens_reported: null,
    ttft_ms: null,
    ttfat_ms: null,
    last_token_ms: null,
    e2e_ms: 5,
    http_status: 429,
    retry_after_ms: 7000,
  },
});
add({
  id: 'T14',
  kind: 'errors',
  protocol: 'anthropic-messages',
  about:
    'HTTP 529 overloaded (Anthropic) or any other non-2xx status: http_error with the status kept. (Issue 9: a failed HTTP response ends when its error body has arrived.)',
  request: { model: 'claude-sonnet-4-5', stream: true },
  response: { status: 529, headers: { 'content-type': 'application/json' } },
  writes: [w(5, JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }))],
  end: 'close',
  expect: {
    outcome: 'error',
    error_kind: 'http_error',
    answer_text: '',
    finish_reason: null,
    content_chunks: 0,
    output_tokens_reported: null,
    ttft_ms: null,
    ttfat_ms: null,
    last_token_ms: null,
    e2e_ms: 5,
    http_status: 529,
    retry_after_ms: null,
  },
});

// ---------- Deadlines, caps, termination ----------
{
  const m = 'hung-model';
  add({
    id: 'T15',
    kind: 'errors',
    protocol: 'openai-chat',
    about:
      'The server sends one token, then only keep-alive comments and empty chunks, never ending. Keep-alives must not reset the idle deadline: the probe ends as timeout (idle 400 ms after the last token), with the token recorded.',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [
      w(50, sse(oa(m, { role: 'assistant', content: '' }))),
      w(150, sse(oa(m, { content: 'Stuck' }))),
      w(250, ': keep-alive\n\n'),
      w(350, sse(oa(m, { content: '' }))),
      w(450, ': keep-alive\n\n'),
    ],
    end: 'hang',
    probe: { deadlines: { idleMs: 400, ttftMs: 2000, totalMs: 5000 } },
    expect: {
      outcome: 'error',
      error_kind: 'timeout',
      answer_text: 'Stuck',
      finish_reason: null,
      content_chunks: 1,
      output_tokens_reported: null,
      ttft_ms: 150,
      ttfat_ms: 150,
      last_token_ms: 150,
      e2e_ms: null,
    },
  });
  add({
    id: 'T16',
    kind: 'errors',
    protocol: 'openai-chat',
    about: 'A queue that only ever sends comments: the TTFT deadline ends it (comments are not tokens).',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [w(50, ': PROCESSING\n\n'), w(200, ': PROCESSING\n\n'), w(350, ': PROCESSING\n\n')],
    end: 'hang',
    probe: { deadlines: { ttftMs: 500, idleMs: 5000, totalMs: 5000 } },
    expect: {
      outcome: 'error',
      error_kind: 'timeout',
      answer_text: '',
      finish_reason: null,
      content_chunks: 0,
      output_tokens_reported: null,
      ttft_ms: null,
      ttfat_ms: null,
      last_token_ms: null,
      e2e_ms: null,
    },
  });
  const flood: ReplayWrite[] = [w(20, sse(oa(m, { role: 'assistant', content: '' }))), w(60, sse(oa(m, { content: 'Flood' })))];
  for (let i = 0; i < 12; i++) flood.push(w(80 + i * 5, `: ${'x'.repeat(8190)}\n\n`));
  add({
    id: 'T17',
    kind: 'errors',
    protocol: 'openai-chat',
    about:
      'A server floods the stream with bytes (here 12 × 8 KiB comments). The byte cap (64 KiB for this case) ends it as stream_error instead of buffering without bound.',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: flood,
    end: 'hang',
    probe: { deadlines: { maxBytes: 65_536 } },
    expect: {
      outcome: 'error',
      error_kind: 'stream_error',
      answer_text: 'Flood',
      finish_reason: null,
      content_chunks: 1,
      output_tokens_reported: null,
      ttft_ms: 60,
      ttfat_ms: 60,
      last_token_ms: 60,
      e2e_ms: null,
    },
  });
  add({
    id: 'T18',
    kind: 'errors',
    protocol: 'openai-chat',
    about: 'The connection is reset (TCP RST) mid-answer: stream_error, no E2E (the stream never ended cleanly).',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [w(40, sse(oa(m, { role: 'assistant', content: '' }))), w(120, sse(oa(m, { content: 'Cut' }))), w(140, sse(oa(m, { content: ' off' })))],
    end: 'reset',
    expect: {
      outcome: 'error',
      error_kind: 'stream_error',
      answer_text: 'Cut off',
      finish_reason: null,
      content_chunks: 2,
      output_tokens_reported: null,
      ttft_ms: 120,
      ttfat_ms: 120,
      last_token_ms: 140,
      e2e_ms: null,
    },
  });
  add({
    id: 'T19',
    kind: 'errors',
    protocol: 'openai-chat',
    about: 'A clean close mid-answer, with neither finish_reason nor [DONE]: truncated, so stream_error (never a short success).',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [w(40, sse(oa(m, { role: 'assistant', content: '' }))), w(120, sse(oa(m, { content: 'Half' }))), w(140, sse(oa(m, { content: ' an' })))],
    end: 'close',
    expect: {
      outcome: 'error',
      error_kind: 'stream_error',
      answer_text: 'Half an',
      finish_reason: null,
      content_chunks: 2,
      output_tokens_reported: null,
      ttft_ms: 120,
      ttfat_ms: 120,
      last_token_ms: 140,
      e2e_ms: 140,
    },
  });
  add({
    id: 'T20',
    kind: 'errors',
    protocol: 'openai-chat',
    about: 'A well-formed stream with no generated token (role chunk, empty content, finish stop, usage 0, [DONE]): empty.',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [
      w(40, sse(oa(m, { role: 'assistant', content: '' }))),
      w(90, sse(oa(m, { content: '' }, 'stop'))),
      w(95, sse(oa(m, null, null, { usage: { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 } }))),
      w(97, 'data: [DONE]\n\n'),
    ],
    end: 'close',
    expect: {
      outcome: 'error',
      error_kind: 'empty',
      answer_text: '',
      finish_reason: null,
      content_chunks: 0,
      output_tokens_reported: 0,
      ttft_ms: null,
      ttfat_ms: null,
      last_token_ms: null,
      e2e_ms: 97,
    },
  });
  add({
    id: 'T21',
    kind: 'framing',
    protocol: 'openai-chat',
    about:
      'The final event lacks its blank line: the stream ends with "data: [DONE]" and no newline at all. A strict SSE parser drops it and calls the stream truncated; the server evidently meant [DONE].',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [
      w(40, sse(oa(m, { role: 'assistant', content: '' }))),
      w(100, sse(oa(m, { content: 'Done' }))),
      w(120, sse(oa(m, { content: ' anyway' }))),
      w(130, 'data: [DONE]'),
    ],
    end: 'close',
    // No finish_reason anywhere: kept as a success, not rankable (decision 313).
    expect: ok({
      answer_text: 'Done anyway',
      finish_reason: null,
      content_chunks: 2,
      ttft_ms: 100,
      last_token_ms: 120,
      e2e_ms: 130,
      not_rankable_reasons_include: ['unknown_finish'],
    }),
  });
  add({
    id: 'T22',
    kind: 'framing',
    protocol: 'openai-chat',
    about:
      'The last content chunk, carrying finish_reason, ends with a single newline before the server closes. It still carries a token and the finish: the server evidently meant a complete event.',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [
      w(40, sse(oa(m, { role: 'assistant', content: '' }))),
      w(100, sse(oa(m, { content: 'Almost' }))),
      w(150, `data: ${oa(m, { content: ' there' }, 'stop')}\n`),
    ],
    end: 'close',
    expect: ok({ answer_text: 'Almost there', content_chunks: 2, ttft_ms: 100, last_token_ms: 150, e2e_ms: 150 }),
  });
}

// ---------- Seed providers' OpenAI-compatible dialects ----------
{
  // T23: TensorRT-LLM trtllm-serve / NVIDIA NIM: "usage": null on every chunk, stop_reason, usage chunk at the end.
  const m = 'nvidia/llama-3.3-70b-instruct';
  const pieces = ['Blackwell', ' runs', ' fast', '.'];
  const writes: ReplayWrite[] = [w(60, sse(oa(m, { role: 'assistant', content: null }, null, { usage: null })))];
  pieces.forEach((p, i) => writes.push(w(180 + i * 12, sse(oa(m, { content: p }, null, { usage: null })))));
  writes.push(w(230, sse(oa(m, { content: '' }, 'stop', { usage: null }).replace('"finish_reason":"stop"', '"finish_reason":"stop","stop_reason":null'))));
  writes.push(w(232, sse(oa(m, null, null, { usage: { prompt_tokens: 11, total_tokens: 15, completion_tokens: 4 } }))));
  writes.push(w(233, 'data: [DONE]\n\n'));
  add({
    id: 'T23',
    kind: 'usage',
    protocol: 'openai-chat',
    about:
      'TensorRT-LLM trtllm-serve and NVIDIA NIM send "usage": null on every chunk, content: null in the role chunk, a stop_reason next to finish_reason, then a usage chunk with empty choices.',
    request: { model: m, stream: true, stream_options: { include_usage: true } },
    response: SSE_RESPONSE,
    writes,
    end: 'close',
    expect: ok({ answer_text: pieces.join(''), content_chunks: 4, output_tokens_reported: 4, ttft_ms: 180, last_token_ms: 216, e2e_ms: 233 }),
  });
}
{
  // T24: SGLang: matched_stop, finish length, usage in the finish chunk.
  const m = 'deepseek-ai/DeepSeek-R1';
  const writes: ReplayWrite[] = [
    w(70, sse(oa(m, { role: 'assistant', content: '' }))),
    w(300, sse(oa(m, { reasoning_content: 'Think', content: null }))),
    w(320, sse(oa(m, { reasoning_content: ' briefly.', content: null }))),
    w(360, sse(oa(m, { content: 'Answer' }))),
    w(
      380,
      sse(
        oa(m, { content: ' cut' }, 'length', { usage: { prompt_tokens: 12, total_tokens: 18, completion_tokens: 6 } }).replace(
          '"finish_reason":"length"',
          '"finish_reason":"length","matched_stop":null',
        ),
      ),
    ),
    w(382, 'data: [DONE]\n\n'),
  ];
  add({
    id: 'T24',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'SGLang: reasoning_content from its reasoning parser, then content; the last content chunk also carries finish_reason length (with matched_stop) and usage.',
    request: { model: m, stream: true, max_tokens: 6 },
    response: SSE_RESPONSE,
    writes,
    end: 'close',
    expect: ok({
      answer_text: 'Answer cut',
      reasoning_text: 'Think briefly.',
      finish_reason: 'length',
      content_chunks: 4,
      output_tokens_reported: 6,
      ttft_ms: 300,
      ttfat_ms: 360,
      last_token_ms: 380,
      e2e_ms: 382,
    }),
  });
}
{
  // T25: multi-byte UTF-8 split across writes.
  const m = 'qwen3-32b';
  const chunk = Buffer.from(sse(oa(m, { content: 'Größe 🚀 ok' })), 'utf8');
  const rocket = chunk.indexOf(Buffer.from('🚀', 'utf8'));
  const umlaut = chunk.indexOf(Buffer.from('ö', 'utf8'));
  add({
    id: 'T25',
    kind: 'framing',
    protocol: 'openai-chat',
    about:
      'Writes end in the middle of multi-byte UTF-8 characters (ö, and a 4-byte emoji split twice). Decoding each read alone produces replacement characters; a streaming decoder recovers the exact text.',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [
      w(30, sse(oa(m, { role: 'assistant', content: '' }))),
      b(100, chunk.subarray(0, umlaut + 1)),
      b(110, chunk.subarray(umlaut + 1, rocket + 1)),
      b(120, chunk.subarray(rocket + 1, rocket + 3)),
      b(130, chunk.subarray(rocket + 3)),
      w(150, sse(oa(m, {}, 'stop')) + 'data: [DONE]\n\n'),
    ],
    end: 'close',
    expect: ok({ answer_text: 'Größe 🚀 ok', content_chunks: 1, ttft_ms: 130, last_token_ms: 130, e2e_ms: 150 }),
  });
}
{
  // T26: in-band rate-limit error object (SambaNova/OpenRouter style) → rate_limited.
  const m = 'Meta-Llama-3.3-70B-Instruct';
  add({
    id: 'T26',
    kind: 'errors',
    protocol: 'openai-chat',
    about: 'SambaNova and OpenRouter can report a rate limit inside a 200 stream as a data event with an error object (code 429): rate_limited, not success.',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [
      w(60, sse(oa(m, { role: 'assistant', content: '' }))),
      w(90, sse(JSON.stringify({ error: { message: 'Rate limit exceeded. Please retry later.', code: 429, type: 'rate_limit_exceeded' } }))),
      w(92, 'data: [DONE]\n\n'),
    ],
    end: 'close',
    expect: {
      outcome: 'error',
      error_kind: 'rate_limited',
      answer_text: '',
      finish_reason: null,
      content_chunks: 0,
      output_tokens_reported: null,
      ttft_ms: null,
      ttfat_ms: null,
      last_token_ms: null,
      e2e_ms: 92,
    },
  });
}
{
  // T27: Azure OpenAI content filter stops the answer.
  const m = 'gpt-4o';
  const ext = { system_fingerprint: 'fp_azure' };
  add({
    id: 'T27',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'Azure OpenAI stops an answer with finish_reason content_filter (after its prompt-filter chunk with empty choices). The filter cut the answer short: not a clean finish, so a failure (decision 190); the partial answer and its times are kept as diagnostics.',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [
      w(
        80,
        sse(
          JSON.stringify({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] }),
        ),
      ),
      w(300, sse(oa(m, { role: 'assistant', content: '' }, null, ext))),
      w(400, sse(oa(m, { content: 'Here is' }, null, ext))),
      w(415, sse(oa(m, { content: ' the' }, null, ext))),
      w(430, sse(oa(m, {}, 'content_filter', ext))),
      w(432, 'data: [DONE]\n\n'),
    ],
    end: 'close',
    expect: {
      outcome: 'error',
      error_kind: 'stream_error',
      answer_text: 'Here is the',
      finish_reason: null,
      content_chunks: 2,
      output_tokens_reported: null,
      ttft_ms: 400,
      ttfat_ms: 400,
      last_token_ms: 415,
      e2e_ms: 432,
      error_message_contains: 'content filter',
    },
  });
}
{
  // T28: Groq usage only in x_groq (no include_usage chunk).
  const m = 'llama-3.1-8b-instant';
  const pieces = ['Groq', ' is', ' quick'];
  const writes: ReplayWrite[] = [w(20, sse(oa(m, { role: 'assistant', content: '' }, null, { x_groq: { id: 'req_1' } })))];
  pieces.forEach((p, i) => writes.push(w(60 + i * 3, sse(oa(m, { content: p })))));
  writes.push(
    w(
      75,
      sse(
        oa(m, {}, 'stop', {
          x_groq: { id: 'req_1', usage: { queue_time: 0.01, prompt_tokens: 10, completion_tokens: 3, total_tokens: 13, completion_time: 0.004 } },
        }),
      ),
    ),
  );
  writes.push(w(76, 'data: [DONE]\n\n'));
  add({
    id: 'T28',
    kind: 'usage',
    protocol: 'openai-chat',
    about: 'Without stream_options.include_usage Groq reports usage only inside x_groq on the finish chunk; that is then the one source.',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes,
    end: 'close',
    expect: ok({ answer_text: pieces.join(''), content_chunks: 3, output_tokens_reported: 3, ttft_ms: 60, last_token_ms: 66, e2e_ms: 76 }),
  });
}
{
  // T29: OpenAI tool calls streamed (vLLM/NIM tool parsers) — two calls.
  const m = 'meta-llama/Llama-3.3-70B-Instruct';
  const tc = (index: number, args: string, id?: string, name?: string) => [
    { index, ...(id ? { id, type: 'function' } : {}), function: { ...(name ? { name } : {}), arguments: args } },
  ];
  add({
    id: 'T29',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'Tool calls stream as tool_calls deltas keyed by index: the first fragment carries id and name (and here argument text), later fragments only arguments. Two calls, in order; finish_reason tool_calls.',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [
      w(50, sse(oa(m, { role: 'assistant', content: null }))),
      w(200, sse(oa(m, { tool_calls: tc(0, '{"city":', 'call_a', 'weather') }))),
      w(220, sse(oa(m, { tool_calls: tc(0, ' "Oslo"}') }))),
      w(240, sse(oa(m, { tool_calls: tc(1, '{"tz":', 'call_b', 'clock') }))),
      w(260, sse(oa(m, { tool_calls: tc(1, ' "CET"}') }))),
      w(270, sse(oa(m, {}, 'tool_calls'))),
      w(272, 'data: [DONE]\n\n'),
    ],
    end: 'close',
    expect: ok({
      answer_text: '',
      tool_calls: [
        { id: 'call_a', name: 'weather', arguments: '{"city": "Oslo"}' },
        { id: 'call_b', name: 'clock', arguments: '{"tz": "CET"}' },
      ],
      finish_reason: 'tool_calls',
      content_chunks: 4,
      ttft_ms: 200,
      ttfat_ms: 200,
      last_token_ms: 260,
      e2e_ms: 272,
    }),
  });
}
{
  // T30: cumulative reasoning + answer (trtllm-serve style), usage inflated: flags the mismatch.
  const m = 'trtllm-model';
  add({
    id: 'T30',
    kind: 'content',
    protocol: 'openai-chat',
    about:
      'A cumulative server (every chunk repeats the whole text so far) streaming 12 answer chunks whose naive sum gives an inflated usage. Only the new suffixes count; the reported figure is recorded as sent and flagged (token_count_mismatch).',
    request: { model: m, stream: true },
    response: SSE_RESPONSE,
    writes: [
      w(40, sse(oa(m, { role: 'assistant', content: '' }))),
      w(100, sse(oa(m, { content: 'A' }))),
      w(120, sse(oa(m, { content: 'A b' }))),
      w(140, sse(oa(m, { content: 'A b c' }))),
      w(160, sse(oa(m, { content: 'A b c d' }))),
      w(170, sse(oa(m, {}, 'stop', { usage: { prompt_tokens: 3, completion_tokens: 10, total_tokens: 13 } }))),
      w(172, 'data: [DONE]\n\n'),
    ],
    end: 'close',
    expect: ok({
      answer_text: 'A b c d',
      content_chunks: 4,
      output_tokens_reported: 10,
      ttft_ms: 100,
      last_token_ms: 160,
      e2e_ms: 172,
      token_count_mismatch: true,
    }),
  });
}

const SLUGS: Record<string, string> = {
  T01: 'cr-only-line-ends',
  T02: 'comments-between-every-event',
  T03: 'vllm-running-usage-every-chunk',
  T04: 'anthropic-error-event-after-text',
  T05: 'anthropic-rate-limit-error-event',
  T06: 'anthropic-thinking-then-tool-use',
  T07: 'gemini-json-array-stream',
  T08: 'gemini-sse-function-call-max-tokens',
  T09: 'gemini-sse-resource-exhausted',
  T10: 'bedrock-throttling-exception-frame',
  T11: 'bedrock-reasoning-tool-use-split-frames',
  T12: 'bedrock-model-stream-error-exception',
  T13: 'http-429-retry-after',
  T14: 'http-529-overloaded',
  T15: 'hang-after-first-token-idle-timeout',
  T16: 'comments-only-ttft-timeout',
  T17: 'byte-flood-max-bytes',
  T18: 'reset-mid-answer',
  T19: 'clean-close-mid-answer',
  T20: 'empty-stream',
  T21: 'done-without-newline-at-eof',
  T22: 'final-event-without-blank-line',
  T23: 'trtllm-nim-usage-null-chunks',
  T24: 'sglang-reasoning-finish-length',
  T25: 'utf8-split-across-writes',
  T26: 'in-band-rate-limit-error-object',
  T27: 'azure-content-filter-finish',
  T28: 'groq-x-groq-usage-only',
  T29: 'openai-tool-call-deltas',
  T30: 'cumulative-chunks-inflated-usage',
};
const dir = path.join(__dirname, 'cases');
for (const c of cases) {
  const slug = SLUGS[c.id];
  if (!slug) throw new Error(`no slug for ${c.id}`);
  const file = `${c.id}-${slug}.json`;
  writeFileSync(path.join(dir, file), `${JSON.stringify(c, null, 2)}\n`);
}
console.log(`wrote ${cases.length} variant cases to ${dir}`);
