/**
 * Stream bodies the probe cannot vouch for (decision 318), each beside the honest neighbour at the
 * edge of its rule: repeated JSON keys, text in usage reports, a whole-text object that differs
 * from the deltas, status notices with text, and tool-call text the request did not ask for.
 * One body per protocol shape, one read per event (read paced, so no delivery rule applies).
 * Used by lib/probe/adapters/unvouched-text.test.ts.
 */
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { Protocol } from '../types';

/** One body: its events (one read each) and, for a dishonest one, what the probe must say. */
export interface UnvouchedBody {
  label: string;
  protocol: Protocol;
  events: Array<string | Uint8Array>;
  /** the request declared a tool (a tool-call workload); absent: it asked for none */
  toolsDeclared?: boolean;
  /** the answer an honest body says; absent: ANSWER */
  answer?: string;
}

/** A body the probe must refuse: unrecognised with exactly `paths`, or failed with `failed` as its message. */
export interface AttackBody extends UnvouchedBody {
  rule: string;
  paths?: string[];
  failed?: string;
}

/** The answer, in small pieces, and its o200k count as the providers report it. */
export const PIECES = ['Hello', ' there', ', my', ' friend', '.'];
export const ANSWER = PIECES.join('');
export const COUNT = 6;

const j = JSON.stringify;
const data = (json: string) => `data: ${json}\n\n`;
const named = (type: string, json: string) => `event: ${type}\ndata: ${json}\n\n`;

// ---------- OpenAI Chat ----------
const chatDelta = (content: string) => j({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });
const CHAT_USAGE = j({ prompt_tokens: 5, completion_tokens: COUNT, total_tokens: 5 + COUNT });
/** A Chat stream: the pieces (piece `k` replaced by `replace` when given), `extra` chunks, a stop chunk with `usage`. */
function chat(opts: { replace?: [number, string]; extra?: string[]; stop?: string; usage?: string } = {}): string[] {
  const pieces = PIECES.map((p, k) => data(opts.replace?.[0] === k ? opts.replace[1] : chatDelta(p)));
  const stop = opts.stop ?? `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":${opts.usage ?? CHAT_USAGE}}`;
  return [...pieces, ...(opts.extra ?? []).map(data), data(stop), 'data: [DONE]\n\n'];
}

// ---------- Anthropic Messages ----------
const MESSAGE_START = (usage = '{"input_tokens":5,"output_tokens":1}') =>
  `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"stop_sequence":null,"usage":${usage}}}`;
const textDelta = (text: string) => j({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
function anthropic(opts: { start?: string; replace?: [number, string]; delta?: string; blocks?: string[] } = {}): string[] {
  const blocks = opts.blocks ?? [
    named('content_block_start', j({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })),
    ...PIECES.map((p, k) => named('content_block_delta', opts.replace?.[0] === k ? opts.replace[1] : textDelta(p))),
    named('content_block_stop', j({ type: 'content_block_stop', index: 0 })),
  ];
  return [
    named('message_start', opts.start ?? MESSAGE_START()),
    ...blocks,
    named('message_delta', opts.delta ?? `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":${COUNT}}}`),
    named('message_stop', '{"type":"message_stop"}'),
  ];
}

// ---------- Gemini ----------
const gemPart = (text: string) => j({ candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0 }] });
const GEM_USAGE = `{"promptTokenCount":5,"candidatesTokenCount":${COUNT},"totalTokenCount":${5 + COUNT}}`;
function gemini(opts: { replace?: [number, string]; last?: string; usage?: string; extra?: string } = {}): string[] {
  const pieces = PIECES.slice(0, -1).map((p, k) => data(opts.replace?.[0] === k ? opts.replace[1] : gemPart(p)));
  const last =
    opts.last ??
    `{"candidates":[{"content":{"parts":[{"text":"."}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":${opts.usage ?? GEM_USAGE},"modelVersion":"gemini-2.5-flash"${opts.extra ?? ''}}`;
  return [...pieces, data(last)];
}

// ---------- OpenAI Responses ----------
const IDS = { item_id: 'msg_1', output_index: 0, content_index: 0 };
const messageItem = (text: string) => ({
  id: 'msg_1',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [] }],
});
const RESP_USAGE = j({
  input_tokens: 5,
  output_tokens: COUNT,
  output_tokens_details: { reasoning_tokens: 0 },
  input_tokens_details: { cached_tokens: 0 },
  total_tokens: 5 + COUNT,
});
function responses(opts: { replace?: [number, string]; usage?: string } = {}): string[] {
  let seq = 0;
  const ev = (o: Record<string, unknown>) => named(String(o.type), j({ ...o, sequence_number: seq++ }));
  // A raw event text keeps its spelling; its sequence number is spliced in before the closing brace.
  const raw = (type: string, json: string) => named(type, `${json.slice(0, -1)},"sequence_number":${seq++}}`);
  return [
    ev({ type: 'response.created', response: { id: 'r', status: 'in_progress', output: [] } }),
    ev({ type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } }),
    ev({ type: 'response.content_part.added', ...IDS, part: { type: 'output_text', text: '', annotations: [] } }),
    ...PIECES.map((delta, k) =>
      opts.replace?.[0] === k ? raw('response.output_text.delta', opts.replace[1]) : ev({ type: 'response.output_text.delta', ...IDS, delta }),
    ),
    ev({ type: 'response.output_text.done', ...IDS, text: ANSWER }),
    ev({ type: 'response.content_part.done', ...IDS, part: { type: 'output_text', text: ANSWER, annotations: [] } }),
    ev({ type: 'response.output_item.done', output_index: 0, item: messageItem(ANSWER) }),
    raw(
      'response.completed',
      `{"type":"response.completed","response":{"id":"r","status":"completed","error":null,"incomplete_details":null,"output":${j([messageItem(ANSWER)])},"usage":${opts.usage ?? RESP_USAGE}}}`,
    ),
  ];
}

// ---------- Bedrock ConverseStream ----------
const codec = new EventStreamCodec(toUtf8, fromUtf8);
const str = (value: string) => ({ type: 'string' as const, value });
/** A Bedrock event frame whose payload is `json` as spelled (the `p` padding field added inside it). */
const frame = (eventType: string, json: string) =>
  codec.encode({
    headers: { ':event-type': str(eventType), ':content-type': str('application/json'), ':message-type': str('event') },
    body: fromUtf8(`${json.slice(0, -1)}${json === '{}' ? '' : ','}"p":"abcdef"}`),
  });
const BEDROCK_USAGE = `{"inputTokens":5,"outputTokens":${COUNT},"totalTokens":${5 + COUNT}}`;
function bedrock(opts: { replace?: [number, string]; usage?: string } = {}): Uint8Array[] {
  return [
    frame('messageStart', '{"role":"assistant"}'),
    ...PIECES.map((text, k) => frame('contentBlockDelta', opts.replace?.[0] === k ? opts.replace[1] : j({ contentBlockIndex: 0, delta: { text } }))),
    frame('contentBlockStop', '{"contentBlockIndex":0}'),
    frame('messageStop', '{"stopReason":"end_turn"}'),
    frame('metadata', `{"usage":${opts.usage ?? BEDROCK_USAGE},"metrics":{"latencyMs":90}}`),
  ];
}

/** The honest shapes at the edge of every rule: each must stay an honest, rankable success with ANSWER. */
export const HONEST_BODIES: UnvouchedBody[] = [
  // the plain documented stream of every protocol
  { label: 'chat: documented stream', protocol: 'openai-chat', events: chat() },
  { label: 'anthropic: documented stream', protocol: 'anthropic-messages', events: anthropic() },
  { label: 'gemini: documented stream', protocol: 'gemini-stream', events: gemini() },
  { label: 'responses: documented stream', protocol: 'openai-responses', events: responses() },
  { label: 'bedrock: documented stream', protocol: 'bedrock-converse-stream', events: bedrock() },
  // repeated keys: a key's name inside a string, the same keys in sibling objects and nested objects
  {
    label: 'chat: a key name inside the text, the same keys in sibling choices',
    protocol: 'openai-chat',
    events: chat({
      replace: [
        1,
        j({
          choices: [
            {
              index: 0,
              delta: { content: ' there' },
              finish_reason: null,
              logprobs: {
                content: [
                  {
                    token: ' there',
                    logprob: -0.1,
                    top_logprobs: [
                      { token: ' there', logprob: -0.1 },
                      { token: ' here', logprob: -3 },
                    ],
                  },
                ],
              },
            },
          ],
        }),
      ],
    }),
  },
  {
    label: 'chat: a content with quotes and a key inside',
    protocol: 'openai-chat',
    events: chat({ replace: [2, chatDelta(', "a"')], usage: 'null' }),
    answer: 'Hello there, "a" friend.',
  },
  // usage: numbers, nested details of integers, documented word fields
  {
    label: 'chat: OpenAI usage details of integers',
    protocol: 'openai-chat',
    events: chat({
      usage: j({
        prompt_tokens: 5,
        completion_tokens: COUNT,
        total_tokens: 5 + COUNT,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      }),
    }),
  },
  {
    label: 'chat: Groq usage with queue and completion times (x_groq and top level)',
    protocol: 'openai-chat',
    events: chat({
      stop: j({
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
        x_groq: {
          id: 'req_01',
          usage: {
            queue_time: 0.0271,
            prompt_tokens: 5,
            prompt_time: 0.0012,
            completion_tokens: COUNT,
            completion_time: 0.021,
            total_tokens: 11,
            total_time: 0.0222,
          },
        },
        usage: {
          queue_time: 0.0271,
          prompt_tokens: 5,
          prompt_time: 0.0012,
          completion_tokens: COUNT,
          completion_time: 0.021,
          total_tokens: 11,
          total_time: 0.0222,
        },
      }),
    }),
  },
  {
    label: 'chat: SambaNova usage with timings and its stop_reason word',
    protocol: 'openai-chat',
    events: chat({
      usage: j({
        completion_tokens: COUNT,
        prompt_tokens: 5,
        total_tokens: 11,
        stop_reason: 'stop',
        time_to_first_token: 0.08,
        completion_tokens_after_first_per_sec: 480.2,
        is_last_response: true,
      }),
    }),
  },
  {
    label: 'anthropic: usage with service_tier, cache_creation and server_tool_use',
    protocol: 'anthropic-messages',
    events: anthropic({
      start: MESSAGE_START(
        j({
          input_tokens: 5,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
          output_tokens: 1,
          service_tier: 'standard',
        }),
      ),
      delta: j({
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: COUNT, server_tool_use: { web_search_requests: 0 } },
      }),
    }),
  },
  {
    label: 'gemini: usage with modality details and the Vertex traffic type',
    protocol: 'gemini-stream',
    events: gemini({
      usage: j({
        promptTokenCount: 5,
        candidatesTokenCount: COUNT,
        totalTokenCount: 11,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: 5 }],
        candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: COUNT }],
        trafficType: 'ON_DEMAND',
      }),
    }),
  },
  {
    label: 'bedrock: usage with cache counts',
    protocol: 'bedrock-converse-stream',
    events: bedrock({ usage: j({ inputTokens: 5, outputTokens: COUNT, totalTokens: 11, cacheReadInputTokens: 0, cacheWriteInputTokens: 0 }) }),
  },
];

HONEST_BODIES.push(
  // whole-text copies that say what the deltas said
  {
    label: 'chat: a final message (no delta) repeating the deltas (S17 shape)',
    protocol: 'openai-chat',
    events: chat({
      stop: j({ choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }], usage: JSON.parse(CHAT_USAGE) }),
    }),
  },
  {
    label: 'chat: a message beside the last delta, equal to all the text',
    protocol: 'openai-chat',
    events: chat({
      stop: j({ choices: [{ index: 0, delta: {}, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }], usage: JSON.parse(CHAT_USAGE) }),
    }),
  },
  {
    label: 'chat: Together’s text beside each delta, the same text',
    protocol: 'openai-chat',
    events: chat({ replace: [1, j({ choices: [{ index: 0, delta: { content: ' there' }, text: ' there', finish_reason: null }] })] }),
  },
  // tool calls where the workload declared a tool
  {
    label: 'chat: a declared tool called, name and arguments only',
    protocol: 'openai-chat',
    toolsDeclared: true,
    answer: '',
    events: [
      data(
        j({
          choices: [
            {
              index: 0,
              delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
              finish_reason: null,
            },
          ],
        }),
      ),
      ...['{"city":', ' "Paris",', ' "unit":', ' "celsius"}'].map((a) =>
        data(j({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: a } }] }, finish_reason: null }] })),
      ),
      data(j({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })),
      'data: [DONE]\n\n',
    ],
  },
  // a status object with no text, and an empty message
  {
    label: 'gemini: modelStatus with its stage and time only',
    protocol: 'gemini-stream',
    events: gemini({ extra: ',"modelStatus":{"modelStage":"STABLE","retirementTime":"2027-01-01T00:00:00Z","message":""}' }),
  },
);

/** The attacks, by rule. */
export const ATTACK_BODIES: AttackBody[] = [
  // ----- repeated keys (RFC 8259 §4) -----
  {
    rule: 'repeated key',
    label: 'chat: delta content given twice',
    protocol: 'openai-chat',
    events: chat({ replace: [1, '{"choices":[{"index":0,"delta":{"content":" there","content":" THERE"},"finish_reason":null}]}'] }),
    paths: ['choices[0].delta.content (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'chat: the same key spelled with an escape',
    protocol: 'openai-chat',
    events: chat({ replace: [1, '{"choices":[{"index":0,"delta":{"content":" there","\\u0063ontent":" THERE"},"finish_reason":null}]}'] }),
    paths: ['choices[0].delta.content (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'chat: finish_reason given twice',
    protocol: 'openai-chat',
    events: chat({ stop: `{"choices":[{"index":0,"delta":{},"finish_reason":"content_filter","finish_reason":"stop"}],"usage":${CHAT_USAGE}}` }),
    paths: ['choices[0].finish_reason (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'chat: usage given twice',
    protocol: 'openai-chat',
    events: chat({ stop: `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"completion_tokens":60},"usage":${CHAT_USAGE}}` }),
    paths: ['usage (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'chat: completion_tokens given twice',
    protocol: 'openai-chat',
    events: chat({ usage: `{"prompt_tokens":5,"completion_tokens":60,"completion_tokens":${COUNT},"total_tokens":11}` }),
    paths: ['usage.completion_tokens (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'chat: choices given twice',
    protocol: 'openai-chat',
    events: chat({
      replace: [1, '{"choices":[{"index":0,"delta":{"content":" a lot more"}}],"choices":[{"index":0,"delta":{"content":" there"},"finish_reason":null}]}'],
    }),
    paths: ['choices (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'anthropic: text_delta text given twice',
    protocol: 'anthropic-messages',
    events: anthropic({ replace: [1, '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" there","text":" THERE"}}'] }),
    paths: ['delta.text (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'anthropic: output_tokens given twice',
    protocol: 'anthropic-messages',
    events: anthropic({
      delta: `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":60,"output_tokens":${COUNT}}}`,
    }),
    paths: ['usage.output_tokens (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'anthropic: stop_reason given twice',
    protocol: 'anthropic-messages',
    events: anthropic({ delta: `{"type":"message_delta","delta":{"stop_reason":"refusal","stop_reason":"end_turn"},"usage":{"output_tokens":${COUNT}}}` }),
    paths: ['delta.stop_reason (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'gemini: part text given twice',
    protocol: 'gemini-stream',
    events: gemini({ replace: [1, '{"candidates":[{"content":{"parts":[{"text":" there","text":" THERE"}],"role":"model"},"index":0}]}'] }),
    paths: ['candidates[0].content.parts[0].text (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'gemini: candidatesTokenCount given twice',
    protocol: 'gemini-stream',
    events: gemini({ usage: `{"promptTokenCount":5,"candidatesTokenCount":60,"candidatesTokenCount":${COUNT},"totalTokenCount":11}` }),
    paths: ['usageMetadata.candidatesTokenCount (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'gemini: finishReason given twice',
    protocol: 'gemini-stream',
    events: gemini({
      last: `{"candidates":[{"content":{"parts":[{"text":"."}],"role":"model"},"finishReason":"SAFETY","finishReason":"STOP","index":0}],"usageMetadata":${GEM_USAGE}}`,
    }),
    paths: ['candidates[0].finishReason (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'responses: delta given twice',
    protocol: 'openai-responses',
    events: responses({
      replace: [1, '{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":" there","delta":" THERE"}'],
    }),
    // JSON.parse read the last " THERE", so the done events (the first reading) differ too
    paths: [
      'delta (repeated key)',
      'response.output_text.done.text (differs from the deltas)',
      'response.content_part.done.part.text (differs from the deltas)',
    ],
  },
  {
    rule: 'repeated key',
    label: 'responses: output_tokens given twice',
    protocol: 'openai-responses',
    events: responses({ usage: `{"input_tokens":5,"output_tokens":60,"output_tokens":${COUNT},"total_tokens":11}` }),
    paths: ['response.usage.output_tokens (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'bedrock: delta text given twice',
    protocol: 'bedrock-converse-stream',
    events: bedrock({ replace: [1, '{"contentBlockIndex":0,"delta":{"text":" there","text":" THERE"}}'] }),
    paths: ['delta.text (repeated key)'],
  },
  {
    rule: 'repeated key',
    label: 'bedrock: outputTokens given twice',
    protocol: 'bedrock-converse-stream',
    events: bedrock({ usage: `{"inputTokens":5,"outputTokens":60,"outputTokens":${COUNT},"totalTokens":11}` }),
    paths: ['usage.outputTokens (repeated key)'],
  },
  // ----- text in usage reports -----
  {
    rule: 'usage text',
    label: 'chat: a note in usage',
    protocol: 'openai-chat',
    events: chat({ usage: j({ prompt_tokens: 5, completion_tokens: COUNT, total_tokens: 11, note: 'the real answer is 42' }) }),
    paths: ['usage.note (text)'],
  },
  {
    rule: 'usage text',
    label: 'chat: text in completion_tokens_details',
    protocol: 'openai-chat',
    events: chat({
      usage: j({ prompt_tokens: 5, completion_tokens: COUNT, total_tokens: 11, completion_tokens_details: { reasoning_tokens: 0, summary: 'I thought hard' } }),
    }),
    paths: ['usage.completion_tokens_details.summary (text)'],
  },
  {
    rule: 'usage text',
    label: 'chat: a list of texts in usage',
    protocol: 'openai-chat',
    events: chat({ usage: j({ prompt_tokens: 5, completion_tokens: COUNT, total_tokens: 11, extra: [{ said: 'more words' }] }) }),
    paths: ['usage.extra[0].said (text)'],
  },
  {
    rule: 'usage text',
    label: 'chat: prose in a word field (stop_reason)',
    protocol: 'openai-chat',
    events: chat({ usage: j({ prompt_tokens: 5, completion_tokens: COUNT, total_tokens: 11, stop_reason: 'stop, and here is the rest of the answer' }) }),
    paths: ['usage.stop_reason (text)'],
  },
  {
    rule: 'usage text',
    label: 'chat: a note in x_groq.usage',
    protocol: 'openai-chat',
    events: chat({
      stop: j({
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
        x_groq: { id: 'req_01', usage: { queue_time: 0.02, completion_tokens: COUNT, prompt_tokens: 5, total_tokens: 11, note: 'hidden words' } },
      }),
    }),
    paths: ['x_groq.usage.note (text)'],
  },
  {
    rule: 'usage text',
    label: 'chat: a note in the choice’s usage (Moonshot place)',
    protocol: 'openai-chat',
    events: chat({
      stop: j({
        choices: [{ index: 0, delta: {}, finish_reason: 'stop', usage: { completion_tokens: COUNT, prompt_tokens: 5, total_tokens: 11, note: 'hidden' } }],
      }),
    }),
    paths: ['choices[0].usage.note (text)'],
  },
  {
    rule: 'usage text',
    label: 'anthropic: a note in message_delta usage',
    protocol: 'anthropic-messages',
    events: anthropic({
      delta: j({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: COUNT, note: 'the rest' } }),
    }),
    paths: ['message_delta.usage.note (text)'],
  },
  {
    rule: 'usage text',
    label: 'anthropic: prose as service_tier in message_start usage',
    protocol: 'anthropic-messages',
    events: anthropic({ start: MESSAGE_START(j({ input_tokens: 5, output_tokens: 1, service_tier: 'standard tier, and the answer is 42' })) }),
    paths: ['message_start.message.usage.service_tier (text)'],
  },
  {
    rule: 'usage text',
    label: 'gemini: a note in usageMetadata',
    protocol: 'gemini-stream',
    events: gemini({ usage: j({ promptTokenCount: 5, candidatesTokenCount: COUNT, totalTokenCount: 11, note: 'the real answer' }) }),
    paths: ['usageMetadata.note (text)'],
  },
  {
    rule: 'usage text',
    label: 'gemini: prose as a modality',
    protocol: 'gemini-stream',
    events: gemini({
      usage: j({
        promptTokenCount: 5,
        candidatesTokenCount: COUNT,
        totalTokenCount: 11,
        candidatesTokensDetails: [{ modality: 'TEXT and more text', tokenCount: COUNT }],
      }),
    }),
    paths: ['usageMetadata.candidatesTokensDetails[0].modality (text)'],
  },
  {
    rule: 'usage text',
    label: 'responses: text in usage details',
    protocol: 'openai-responses',
    events: responses({
      usage: j({ input_tokens: 5, output_tokens: COUNT, output_tokens_details: { reasoning_tokens: 0, text: 'hidden' }, total_tokens: 11 }),
    }),
    paths: ['response.completed.response.usage.output_tokens_details.text (text)'],
  },
  {
    rule: 'usage text',
    label: 'bedrock: a note in metadata usage',
    protocol: 'bedrock-converse-stream',
    events: bedrock({ usage: j({ inputTokens: 5, outputTokens: COUNT, totalTokens: 11, note: 'the real answer' }) }),
    paths: ['metadata.usage.note (text)'],
  },
  // ----- a whole-text object that differs from the deltas -----
  {
    rule: 'whole text',
    label: 'chat: a final message (no delta) with other text after the deltas',
    protocol: 'openai-chat',
    events: chat({
      stop: j({ choices: [{ index: 0, message: { role: 'assistant', content: 'Goodbye.' }, finish_reason: 'stop' }], usage: JSON.parse(CHAT_USAGE) }),
    }),
    paths: ['choices[0].message (differs from the deltas)'],
  },
  {
    rule: 'whole text',
    label: 'chat: a message beside the last delta with other text (not read: it would be dropped)',
    protocol: 'openai-chat',
    events: chat({
      stop: j({
        choices: [{ index: 0, delta: {}, message: { role: 'assistant', content: `${ANSWER} And a great deal more.` }, finish_reason: 'stop' }],
        usage: JSON.parse(CHAT_USAGE),
      }),
    }),
    paths: ['choices[0].message (differs from the deltas)'],
  },
  {
    rule: 'whole text',
    label: 'chat: a message’s reasoning that the deltas never said',
    protocol: 'openai-chat',
    events: chat({
      stop: j({
        choices: [
          { index: 0, delta: {}, message: { role: 'assistant', content: ANSWER, reasoning_content: 'I thought for a long time.' }, finish_reason: 'stop' },
        ],
        usage: JSON.parse(CHAT_USAGE),
      }),
    }),
    paths: ['choices[0].message (differs from the deltas)'],
  },
  {
    rule: 'whole text',
    label: 'chat: a Completions text beside the delta saying other words',
    protocol: 'openai-chat',
    events: chat({ replace: [1, j({ choices: [{ index: 0, delta: { content: ' there' }, text: ' everyone, and then some', finish_reason: null }] })] }),
    paths: ['choices[0].text (differs from the deltas)'],
  },
  // ----- a status object carrying a message -----
  {
    rule: 'status message',
    label: 'gemini: modelStatus message with other text',
    protocol: 'gemini-stream',
    events: gemini({ extra: ',"modelStatus":{"modelStage":"STABLE","message":"The real answer is 42."}' }),
    paths: ['modelStatus.message'],
  },
  {
    rule: 'status message',
    label: 'gemini: modelStatus message naming a failure',
    protocol: 'gemini-stream',
    events: gemini({ extra: ',"modelStatus":{"modelStage":"STABLE","message":"Generation was aborted; output truncated."}' }),
    failed: 'modelStatus.message: Generation was aborted; output truncated.',
  },
  // ----- tool-call text the request did not ask for, or under keys not read -----
  {
    rule: 'tool text',
    label: 'chat: a tool call from a request that declared no tool',
    protocol: 'openai-chat',
    toolsDeclared: false,
    events: chat({
      extra: [
        j({
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"text": "more words"}' } }] },
              finish_reason: null,
            },
          ],
        }),
      ],
    }),
    paths: ['tool_calls (the request declared no tool)'],
  },
  {
    rule: 'tool text',
    label: 'chat: function.output text beside the arguments (tools declared)',
    protocol: 'openai-chat',
    toolsDeclared: true,
    events: chat({
      extra: [
        j({
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}', output: 'the real answer' } }] },
              finish_reason: null,
            },
          ],
        }),
      ],
    }),
    paths: ['choices[0].delta.tool_calls[0].function.output'],
  },
  {
    rule: 'tool text',
    label: 'chat: a result key on the call (tools declared)',
    protocol: 'openai-chat',
    toolsDeclared: true,
    events: chat({
      extra: [
        j({
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' }, result: 'hidden text' }] },
              finish_reason: null,
            },
          ],
        }),
      ],
    }),
    paths: ['choices[0].delta.tool_calls[0].result'],
  },
  {
    rule: 'tool text',
    label: 'chat: legacy function_call with an output',
    protocol: 'openai-chat',
    toolsDeclared: true,
    events: chat({
      extra: [j({ choices: [{ index: 0, delta: { function_call: { name: 'f', arguments: '{}', output: 'hidden text' } }, finish_reason: null }] })],
    }),
    paths: ['choices[0].delta.function_call.output'],
  },
  {
    rule: 'tool text',
    label: 'gemini: a function call from a request that declared no tool',
    protocol: 'gemini-stream',
    toolsDeclared: false,
    events: gemini({
      replace: [
        1,
        j({
          candidates: [{ content: { parts: [{ text: ' there' }, { functionCall: { name: 'f', args: { text: 'more words' } } }], role: 'model' }, index: 0 }],
        }),
      ],
    }),
    paths: ['tool_calls (the request declared no tool)'],
  },
];
