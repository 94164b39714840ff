/**
 * What the adapters record as unrecognised (decision 061): text in unknown places is reported with
 * its JSON path; metadata real providers send beside the text (ids, logprobs, filter results,
 * citations, token ids, signatures, usage details) never is, so their measurements stay rankable.
 */
import { describe, expect, it } from 'vitest';
import { buildProbeResult } from '../build-probe-result';
import { parseStream } from '../parse-stream';
import type { Protocol } from '../types';
import { bedrockFrame } from '../test-support/case-wire';
import { parseWholeBody } from '../test-support/parse-whole-body';

const sse = (objects: unknown[]) => objects.map((o) => `data: ${JSON.stringify(o)}\n\n`).join('') + 'data: [DONE]\n\n';
const choice = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ choices: [{ index: 0, delta, finish_reason: null, ...extra }] });

describe('openai-chat: metadata real providers send is not unrecognised', () => {
  it.each<[string, unknown]>([
    [
      'Together token_id and duplicate choice text',
      choice({ content: 'Hi', token_id: 13347, role: 'assistant', tool_calls: null }, { text: 'Hi', seed: null }),
    ],
    ['logprobs with token strings', choice({ content: 'Hi' }, { logprobs: { content: [{ token: 'Hi', logprob: -0.1, top_logprobs: [] }] } })],
    ['Azure content_filter_results', choice({ content: 'Hi' }, { content_filter_results: { hate: { filtered: false, severity: 'safe' } } })],
    [
      'OpenRouter native_finish_reason and provider',
      { ...choice({ content: 'Hi' }, { native_finish_reason: 'STOP' }), provider: 'Google', object: 'chat.completion.chunk' },
    ],
    ['Perplexity citations', { ...choice({ content: 'Hi' }), citations: ['https://example.com'], search_results: [{ title: 't', url: 'u' }] }],
    ['Gemini compat extra_content', choice({ content: 'Hi', extra_content: { google: { thought_signature: 'abc' } } })],
    ['vLLM stop_reason string', choice({ content: 'Hi' }, { stop_reason: '</s>' })],
    ['OpenAI obfuscation', { ...choice({ content: 'Hi' }), obfuscation: 'x1y2' }],
    [
      'Mistral thinking part flags',
      choice({
        content: [
          { type: 'thinking', thinking: [{ type: 'text', text: 'Hm' }], closed: true },
          { type: 'text', text: 'Hi' },
        ],
      }),
    ],
    [
      'OpenRouter encrypted reasoning detail',
      choice({ content: 'Hi', reasoning_details: [{ type: 'reasoning.encrypted', data: 'gAAA', id: 'rs_1', format: 'openai-responses-v1' }] }),
    ],
    ['Groq x_groq id', { ...choice({ content: 'Hi' }), x_groq: { id: 'req_01' } }],
    ['a gateway’s top-level copy of the choice text', { ...choice({ content: 'Hi' }), text: 'Hi' }],
    [
      'a status that is no failure, numbers beside the choices',
      { ...choice({ content: 'Hi' }), status: 'in_progress', time_info: { queue_time: 0.1 }, seq: 4 },
    ],
    [
      'Completions-style logprobs tokens',
      choice({ content: 'Hi' }, { logprobs: { tokens: ['H', 'i'], token_logprobs: [-0.1, -0.2], top_logprobs: [{ H: -0.1, Ho: -3 }] } }),
    ],
    ['logprobs null content, refusal null', choice({ content: 'Hi' }, { logprobs: { content: null, refusal: null } })],
  ])('%s', async (_label, chunk) => {
    const r = await parseWholeBody('openai-chat', sse([chunk, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }]));
    expect(r.outcome).toBe('success');
    expect(r.answerText).toBe('Hi');
    expect(r.evidence).toEqual({});
    expect(r.flags.unrecognizedShape).toBe(false);
  });
});

describe('openai-chat: text in unknown places is recorded with its path', () => {
  it.each<[string, unknown, string[]]>([
    ['unknown delta field', choice({ content: 'a', output_text: 'most of it' }), ['choices[0].delta.output_text']],
    [
      'unknown part type',
      choice({
        content: [
          { type: 'text', text: 'a' },
          { type: 'transcript', transcript: 'spoken' },
        ],
      }),
      ['choices[0].delta.content[1](type=transcript)'],
    ],
    ['unknown key inside a text part', choice({ content: [{ type: 'text', text: 'a', extra_text: 'more' }] }), ['choices[0].delta.content[0].extra_text']],
    ['unknown choice field', choice({ content: 'a' }, { output: 'elsewhere' }), ['choices[0].output']],
    ['another API’s typed event', { type: 'response.output_text.delta', delta: 'Hi', item_id: 'msg_1' }, ['event:response.output_text.delta']],
    // text beside the choices (decision 310): a field the probe does not read, never a number
    ['unknown top-level text beside the choices', { ...choice({ content: 'a' }), output_text: 'most of it' }, ['output_text']],
    ['top-level text beside an empty delta', { ...choice({}), generated: { text: 'hidden answer' } }, ['generated']],
    ['a top-level copy that says more than the choice', { ...choice({ content: 'a' }), text: 'a and more' }, ['text']],
    [
      'logprobs tokens that differ from the delta',
      choice(
        { content: 'a' },
        {
          logprobs: {
            content: [
              { token: 'a', logprob: 0 },
              { token: ' lot more', logprob: 0 },
            ],
          },
        },
      ),
      ['choices[0].logprobs (tokens differ from the text)'],
    ],
    [
      'an unknown field inside logprobs',
      choice({ content: 'a' }, { logprobs: { content: [{ token: 'a', logprob: 0 }], transcript: 'spoken' } }),
      ['choices[0].logprobs.transcript'],
    ],
    ['logprobs as bare text', choice({ content: 'a' }, { logprobs: 'a lot more' }), ['choices[0].logprobs']],
  ])('%s', async (_label, chunk, paths) => {
    const r = await parseWholeBody('openai-chat', sse([choice({ content: 'start' }), chunk, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }]));
    expect(r.evidence.unrecognizedPaths).toEqual(paths);
    expect(r.flags.unrecognizedShape).toBe(true);
    expect(r.rankable).toBe(false);
    expect(r.notRankableReasons).toContain('unrecognized_shape');
  });

  it('a non-standard SSE field with a value is recorded as sse:<name>', async () => {
    const r = await parseWholeBody('openai-chat', `${sse([choice({ content: 'Hi' })]).replace('data: [DONE]', 'note: extra\n\ndata: [DONE]')}`);
    expect(r.evidence.unrecognizedPaths).toEqual(['sse:note']);
  });
});

describe('other protocols', () => {
  it('Gemini: an unknown part key with text is recorded; thoughtSignature is not', async () => {
    const body = sse([
      { candidates: [{ content: { parts: [{ text: 'Hi', thoughtSignature: 'sig' }], role: 'model' }, index: 0 }] },
      { candidates: [{ content: { parts: [{ text: ' there', summary: 'unseen' }], role: 'model' }, finishReason: 'STOP', index: 0 }] },
    ]).replace('data: [DONE]\n\n', '');
    const r = await parseWholeBody('gemini-stream', body);
    expect(r.answerText).toBe('Hi there');
    expect(r.evidence.unrecognizedPaths).toEqual(['candidates[0].content.parts[0].summary']);
  });

  it('Anthropic: thinking signatures and citations are known; an unknown delta type with text is not', async () => {
    const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    const body = [
      ev('message_start', { type: 'message_start', message: { content: [], usage: { output_tokens: 1 } } }),
      ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hm', signature: 'x' } }),
      ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQB' } }),
      ev('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation: { cited_text: 'quoted source' } } }),
      ev('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Yes' } }),
      ev('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }),
      ev('message_stop', { type: 'message_stop' }),
    ].join('');
    const r = await parseWholeBody('anthropic-messages', body);
    expect(r.reasoningText).toBe('Hm');
    expect(r.answerText).toBe('Yes');
    expect(r.evidence).toEqual({});
  });
});

describe('errors wherever the server puts them', () => {
  it.each<[Protocol, string, 'stream_error' | 'rate_limited', string]>([
    ['openai-chat', 'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\nevent: error\n\n', 'stream_error', 'error event without a message'],
    ['anthropic-messages', 'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}\n\n', 'rate_limited', 'slow down'],
    ['anthropic-messages', 'event: error\ndata: upstream connect error\n\n', 'stream_error', 'upstream connect error'],
    [
      'gemini-stream',
      '{"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED"}}',
      'rate_limited',
      'Resource has been exhausted',
    ],
    ['openai-chat', '[{"error":{"code":429,"message":"Quota exceeded for this project","status":"RESOURCE_EXHAUSTED"}}]\n', 'rate_limited', 'Quota exceeded'],
    ['openai-chat', 'error: upstream timed out\n\ndata: [DONE]\n\n', 'stream_error', 'upstream timed out'],
    ['gemini-stream', '<html><head><title>503 Service Unavailable</title></head><body></body></html>', 'stream_error', '503 Service Unavailable'],
    ['bedrock-converse-stream', '<html><head><title>Too Many Requests</title></head></html>', 'rate_limited', 'Too Many Requests'],
  ])('%s: %j', async (protocol, body, kind, words) => {
    const r = await parseWholeBody(protocol, body);
    expect(r.outcome).toBe('error');
    expect(r.errorKind).toBe(kind);
    expect(r.errorMessage).toContain(words);
  });
});

describe('a refusal or a text without letters is no answer (decision 307)', () => {
  const stop = { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };
  it('openai-chat: text in delta.refusal fails the probe, the text kept; the same text as content succeeds', async () => {
    const refused = await parseWholeBody('openai-chat', sse([choice({ refusal: "I'm sorry, I can't help with that." }), stop]));
    expect(refused.outcome).toBe('error');
    expect(refused.errorKind).toBe('stream_error');
    expect(refused.answerText).toBe("I'm sorry, I can't help with that.");
    const answered = await parseWholeBody('openai-chat', sse([choice({ content: "I'm sorry, I can't help with that." }), stop]));
    expect(answered.outcome).toBe('success');
    // an empty refusal field beside the content (some gateways send refusal: null or "") is none
    const nulls = await parseWholeBody('openai-chat', sse([choice({ content: 'Hi there', refusal: null }), choice({ content: '!', refusal: '' }), stop]));
    expect(nulls.outcome).toBe('success');
  });

  it('openai-responses: response.refusal.delta fails the probe; output_text succeeds', async () => {
    const events = (deltaType: string) =>
      [
        { type: 'response.created', sequence_number: 0, response: { id: 'r', status: 'in_progress', output: [] } },
        { type: deltaType, sequence_number: 1, item_id: 'i', output_index: 0, content_index: 0, delta: 'I cannot help with that.' },
        { type: 'response.completed', sequence_number: 2, response: { id: 'r', status: 'completed' } },
      ]
        .map((o) => `event: ${o.type}\ndata: ${JSON.stringify(o)}\n\n`)
        .join('');
    const refused = await parseWholeBody('openai-responses', events('response.refusal.delta'));
    expect(refused.outcome).toBe('error');
    expect(refused.errorKind).toBe('stream_error');
    const answered = await parseWholeBody('openai-responses', events('response.output_text.delta'));
    expect(answered.outcome).toBe('success');
  });

  it('whitespace or punctuation alone is no_letters; one digit, or a tool call without text, is an answer', async () => {
    const blank = await parseWholeBody('openai-chat', sse([...Array.from({ length: 40 }, () => choice({ content: ' \n' })), stop]));
    expect(blank.evidence.degenerate).toContain('no_letters');
    expect(blank.rankable).toBe(false);
    const dots = await parseWholeBody('openai-chat', sse([...Array.from({ length: 31 }, () => choice({ content: '.' })), stop]));
    expect(dots.evidence.degenerate).toEqual(['no_letters']);
    const digit = await parseWholeBody('openai-chat', sse([choice({ content: ' ' }), choice({ content: '4' }), stop]));
    expect(digit.outcome).toBe('success');
    expect(digit.evidence.degenerate).toBeUndefined();
    const tool = await parseWholeBody(
      'openai-chat',
      sse([
        choice({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'noop', arguments: '{}' } }] }),
        { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      ]),
    );
    expect(tool.outcome).toBe('success');
    expect(tool.evidence.degenerate).toBeUndefined();
  });
});

describe('a failure stated where the adapters did not look (decision 307)', () => {
  const text = choice({ content: 'Hello there, friend.' });
  const finish = (extra: Record<string, unknown>) => ({ choices: [{ index: 0, delta: {}, finish_reason: 'stop', ...extra }] });

  it('openai-chat: a finish_reason that is not a string is unknown_finish; the string is clean', async () => {
    for (const value of [{ type: 'content_filter' }, ['error']]) {
      const r = await parseWholeBody('openai-chat', sse([text, { choices: [{ index: 0, delta: {}, finish_reason: value }] }]));
      expect(r.notRankableReasons, JSON.stringify(value)).toContain('unknown_finish');
      expect(r.evidence.unknownFinishReason).toBe(JSON.stringify(value));
    }
    const ok = await parseWholeBody('openai-chat', sse([text, finish({})]));
    expect(ok.finishReason).toBe('stop');
    expect(ok.notRankableReasons).not.toContain('unknown_finish');
  });

  it('openai-chat: native_finish_reason or finish_details.type naming a filter or failure fails; clean or unknown upstream words do not', async () => {
    for (const extra of [{ native_finish_reason: 'content_filter' }, { native_finish_reason: 'SAFETY' }, { finish_details: { type: 'error', message: 'x' } }]) {
      const r = await parseWholeBody('openai-chat', sse([text, finish(extra)]));
      expect(r.outcome, JSON.stringify(extra)).toBe('error');
    }
    for (const extra of [
      { native_finish_reason: 'STOP' },
      { native_finish_reason: 'end_turn' },
      { native_finish_reason: 'OTHER' },
      { finish_details: { type: 'stop' } },
    ]) {
      const r = await parseWholeBody('openai-chat', sse([text, finish(extra)]));
      expect(r.outcome, JSON.stringify(extra)).toBe('success');
    }
  });

  it('openai-chat: code / message / detail beside the choices are unrecognised; status partial or truncated fails', async () => {
    const r = await parseWholeBody('openai-chat', sse([text, { ...finish({}), code: 504, message: 'upstream timeout, partial output' }]));
    expect(r.evidence.unrecognizedPaths).toEqual(['code', 'message']);
    for (const status of ['partial', 'truncated']) {
      const s = await parseWholeBody('openai-chat', sse([{ ...text, status }, finish({})]));
      expect(s.outcome, status).toBe('error');
    }
    // the metadata of a real chunk beside the choices stays recognised
    const ok = await parseWholeBody(
      'openai-chat',
      sse([{ ...text, id: 'c', object: 'chat.completion.chunk', model: 'm', system_fingerprint: 'fp' }, finish({})]),
    );
    expect(ok.evidence.unrecognizedPaths).toBeUndefined();
  });

  const events = (list: Array<Record<string, unknown>>) => list.map((o) => `event: ${String(o.type)}\ndata: ${JSON.stringify(o)}\n\n`).join('');

  it('openai-responses: response.completed with a non-null error fails; error null is clean', async () => {
    const body = (error: unknown) =>
      events([
        { type: 'response.created', sequence_number: 0, response: { id: 'r', status: 'in_progress', output: [] } },
        { type: 'response.output_text.delta', sequence_number: 1, item_id: 'i', output_index: 0, content_index: 0, delta: 'Hello there.' },
        { type: 'response.completed', sequence_number: 2, response: { id: 'r', status: 'completed', error } },
      ]);
    expect((await parseWholeBody('openai-responses', body({ code: 'server_error', message: 'crashed' }))).outcome).toBe('error');
    expect((await parseWholeBody('openai-responses', body(null))).outcome).toBe('success');
  });

  it('anthropic-messages: a stop_reason that is not a string is unknown_finish; an unknown event with any data is unrecognised, a bare one is not', async () => {
    const body = (stop: unknown, extra: Array<Record<string, unknown>> = []) =>
      events([
        { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 3, output_tokens: 1 } } },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello there.' } },
        { type: 'content_block_stop', index: 0 },
        ...extra,
        { type: 'message_delta', delta: { stop_reason: stop }, usage: { output_tokens: 3 } },
        { type: 'message_stop' },
      ]);
    expect((await parseWholeBody('anthropic-messages', body({ type: 'refusal' }))).notRankableReasons).toContain('unknown_finish');
    const ok = await parseWholeBody('anthropic-messages', body('end_turn'));
    expect(ok.finishReason).toBe('stop');
    expect(ok.notRankableReasons).not.toContain('unknown_finish');
    // an event named for a failure fails the stream (decision 313); an unknown name with data is unrecognised
    const aborted = await parseWholeBody('anthropic-messages', body('end_turn', [{ type: 'generation_aborted', code: 13, fatal: true }]));
    expect(aborted.outcome).toBe('error');
    expect(aborted.errorKind).toBe('stream_error');
    const unknown = await parseWholeBody('anthropic-messages', body('end_turn', [{ type: 'generation_paused', code: 13, fatal: true }]));
    expect(unknown.evidence.unrecognizedPaths).toEqual(['event:generation_paused']);
    const bare = await parseWholeBody('anthropic-messages', body('end_turn', [{ type: 'new_marker' }]));
    expect(bare.evidence.unrecognizedPaths).toBeUndefined();
  });
});

describe('text under keys an event is not known to carry (decision 310)', () => {
  const sseEvents = (list: Array<Record<string, unknown>>) => list.map((o) => `event: ${String(o.type)}\ndata: ${JSON.stringify(o)}\n\n`).join('');
  const anthropic = (patch: (events: Array<Record<string, unknown>>) => void) => {
    const list: Array<Record<string, unknown>> = [
      {
        type: 'message_start',
        message: { id: 'm', type: 'message', role: 'assistant', content: [], model: 'x', usage: { input_tokens: 3, output_tokens: 1 } },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello there.' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } },
      { type: 'message_stop' },
    ];
    patch(list);
    return sseEvents(list);
  };

  it('anthropic-messages: known keys stay rankable; text under any other key of an event, its message or its delta is unrecognised', async () => {
    const honest = await parseWholeBody(
      'anthropic-messages',
      anthropic((l) => {
        Object.assign(l[4]!, { context_management: { applied_edits: [{ type: 'clear_tool_uses_20250919' }] } });
        Object.assign(l[5]!, { 'amazon-bedrock-invocationMetrics': { inputTokenCount: 3, outputTokenCount: 3 } });
        Object.assign(l[0]!.message as Record<string, unknown>, { container: { id: 'c1' } });
      }),
    );
    expect(honest.outcome).toBe('success');
    expect(honest.evidence.unrecognizedPaths).toBeUndefined();
    const cases: Array<[string, (l: Array<Record<string, unknown>>) => void, string[]]> = [
      ['beside a text delta', (l) => Object.assign(l[2]!, { output_text: 'and more words' }), ['content_block_delta.output_text']],
      [
        'in the started message',
        (l) => Object.assign(l[0]!.message as Record<string, unknown>, { transcript: 'spoken' }),
        ['message_start.message.transcript'],
      ],
      ['in message_delta’s delta', (l) => Object.assign(l[4]!.delta as Record<string, unknown>, { text: 'a late answer' }), ['message_delta.delta.text']],
      ['on message_stop', (l) => Object.assign(l[5]!, { summary: 'the rest' }), ['message_stop.summary']],
      ['on a ping', (l) => l.splice(3, 0, { type: 'ping', text: 'hidden' }), ['ping.text']],
    ];
    for (const [label, patch, paths] of cases) {
      const r = await parseWholeBody('anthropic-messages', anthropic(patch));
      expect(r.evidence.unrecognizedPaths, label).toEqual(paths);
      expect(r.notRankableReasons, label).toContain('unrecognized_shape');
    }
    // at an event's top level a number under an unknown key is recorded too (decision 313); false or null says nothing
    const numbers = await parseWholeBody(
      'anthropic-messages',
      anthropic((l) => Object.assign(l[5]!, { fatal: 1 })),
    );
    expect(numbers.evidence.unrecognizedPaths).toEqual(['message_stop.fatal']);
    const nothing = await parseWholeBody(
      'anthropic-messages',
      anthropic((l) => Object.assign(l[2]!, { final: false, note: null })),
    );
    expect(nothing.evidence.unrecognizedPaths).toBeUndefined();
  });

  const gemini = (first: Record<string, unknown>, candidateExtra: Record<string, unknown> = {}, candidates: unknown[] = []) =>
    [
      { candidates: [{ content: { parts: [{ text: 'Hello' }], role: 'model' }, index: 0, ...candidateExtra }, ...candidates], ...first },
      {
        candidates: [{ content: { parts: [{ text: ' there.' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { candidatesTokenCount: 3 },
      },
    ]
      .map((o) => `data: ${JSON.stringify(o)}\n\n`)
      .join('');

  it('gemini-stream: known response and candidate keys stay rankable; other text beside them, or a second candidate, is unrecognised', async () => {
    const honest = await parseWholeBody(
      'gemini-stream',
      gemini(
        { modelVersion: 'gemini-2.5-flash', responseId: 'r1', createTime: '2026-12-02T00:00:00Z' },
        {
          safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }],
          citationMetadata: { citations: [{ uri: 'https://example.com' }] },
          groundingMetadata: { webSearchQueries: ['q'] },
          finishMessage: 'done',
          avgLogprobs: -0.2,
        },
      ),
    );
    expect(honest.outcome).toBe('success');
    expect(honest.evidence.unrecognizedPaths).toBeUndefined();
    const cases: Array<[string, string, string[]]> = [
      ['beside the candidates', gemini({ outputText: 'more words' }), ['outputText']],
      ['in the candidate', gemini({}, { transcript: 'spoken' }), ['candidates[0].transcript']],
      ['a second candidate with text', gemini({}, {}, [{ content: { parts: [{ text: 'another answer' }] }, index: 1 }]), ['candidates[1]']],
    ];
    for (const [label, body, paths] of cases) {
      const r = await parseWholeBody('gemini-stream', body);
      expect(r.evidence.unrecognizedPaths, label).toEqual(paths);
      expect(r.notRankableReasons, label).toContain('unrecognized_shape');
    }
  });

  it('bedrock-converse-stream: the padding `p` and known frame keys stay rankable; text under another key is unrecognised', async () => {
    const frame = bedrockFrame;
    const body = (deltaFrame: Record<string, unknown>, stopExtra: Record<string, unknown> = {}) =>
      Buffer.concat([
        frame('messageStart', { role: 'assistant' }),
        frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hello there.' }, ...deltaFrame }),
        frame('contentBlockStop', { contentBlockIndex: 0 }),
        frame('messageStop', { stopReason: 'end_turn', ...stopExtra }),
        frame('metadata', { usage: { inputTokens: 3, outputTokens: 3, totalTokens: 6 }, metrics: { latencyMs: 90 } }),
      ]);
    const parseBytes = async (bytes: Uint8Array) => {
      async function* chunks() {
        yield bytes;
      }
      const parsed = await parseStream('bedrock-converse-stream', chunks(), () => 10);
      return buildProbeResult(parsed, { protocol: 'bedrock-converse-stream', httpStatus: 200, ttfbMs: 0, connectMs: null, abort: null });
    };
    const honest = await parseBytes(body({}, { additionalModelResponseFields: { stop_sequence: null } }));
    expect(honest.outcome).toBe('success');
    expect(honest.evidence.unrecognizedPaths).toBeUndefined();
    const extra = await parseBytes(body({ outputText: 'more words' }));
    expect(extra.evidence.unrecognizedPaths).toEqual(['contentBlockDelta.outputText']);
    expect(extra.notRankableReasons).toContain('unrecognized_shape');
    const late = await parseBytes(body({}, { text: 'a late answer' }));
    expect(late.evidence.unrecognizedPaths).toEqual(['messageStop.text']);
  });
});

describe('failures and finishes stated anywhere, read whole (decision 313)', () => {
  const words = (list: string[], extra: Record<string, unknown> = {}) =>
    list.map((w) => ({ choices: [{ index: 0, delta: { content: w }, finish_reason: null }], ...extra }));
  const answer = words(['Hello', ' there,', ' friend.']);
  const stop = (reason: string | null, extra: Record<string, unknown> = {}) => ({ choices: [{ index: 0, delta: {}, finish_reason: reason, ...extra }] });
  const chat = (objects: unknown[]) => parseWholeBody('openai-chat', sse(objects));
  const raw = (objects: unknown[]) => objects.map((o) => `data: ${JSON.stringify(o)}\n\n`).join('');

  it('a later clean finish never erases an earlier filter or failure; clean finishes that disagree are a broken sequence', async () => {
    const filtered = await chat([...answer, stop('content_filter'), stop('stop')]);
    expect(filtered.outcome).toBe('error');
    expect(filtered.errorMessage).toContain('content filter');
    expect((await chat([...answer, stop('abort'), stop('stop')])).outcome).toBe('error');
    const disagree = await chat([...answer, stop('length'), stop('stop')]);
    expect(disagree.outcome).toBe('success');
    expect(disagree.evidence.sequenceIssues).toEqual(['finishes that disagree: length then stop']);
    expect(disagree.notRankableReasons).toContain('sequence_broken');
    const unknownThenClean = await chat([...answer, stop('COMPLETE'), stop('stop')]);
    expect(unknownThenClean.evidence.unknownFinishReason).toBe('COMPLETE');
    // the same finish twice, in two spellings, is one finish
    const same = await chat([...answer, stop('stop'), stop('STOP')]);
    expect(same.finishReason).toBe('stop');
    expect(same.evidence.sequenceIssues).toBeUndefined();
    expect(same.evidence.unknownFinishReason).toBeUndefined();
  });

  it('a stream that states no finish at all is unknown_finish on every protocol', async () => {
    const none = await chat(answer);
    expect(none.outcome).toBe('success');
    expect(none.evidence.unknownFinishReason).toBe('(no finish stated)');
    expect(none.notRankableReasons).toContain('unknown_finish');
    expect((await chat([...answer, stop('stop')])).notRankableReasons).not.toContain('unknown_finish');
    const ev = (list: Array<Record<string, unknown>>) => list.map((o) => `event: ${String(o.type)}\ndata: ${JSON.stringify(o)}\n\n`).join('');
    const anthropic = await parseWholeBody(
      'anthropic-messages',
      ev([
        { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 3, output_tokens: 1 } } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello there.' } },
        { type: 'message_delta', delta: {}, usage: { output_tokens: 3 } },
        { type: 'message_stop' },
      ]),
    );
    expect(anthropic.evidence.unknownFinishReason).toBe('(no finish stated)');
  });

  it('an event named for a failure fails the stream whatever its data; a chunk under another unknown name is unrecognised', async () => {
    const body = (name: string, data: unknown) => raw(answer) + `event: ${name}\ndata: ${JSON.stringify(data)}\n\n` + raw([stop('stop')]) + 'data: [DONE]\n\n';
    for (const [name, data] of [
      ['stream_error', { code: 503 }],
      ['Error', { code: 500 }],
      ['failed', stop('stop')],
      ['generation_aborted', {}],
    ] as const) {
      const r = await parseWholeBody('openai-chat', body(name, data));
      expect(r.outcome, name).toBe('error');
    }
    const named = await parseWholeBody('openai-chat', body('completion', stop('stop')));
    expect(named.evidence.unrecognizedPaths).toEqual(['event:completion']);
    const numbersOnly = await parseWholeBody('openai-chat', body('progress', { pct: 50 }));
    expect(numbersOnly.evidence.unrecognizedPaths).toEqual(['event:progress']);
    // the names real servers use
    for (const name of ['message', 'chunk'])
      expect((await parseWholeBody('openai-chat', body(name, stop(null)))).evidence.unrecognizedPaths, name).toBeUndefined();
  });

  it('a refusal as a typed content part fails like delta.refusal; a text part does not', async () => {
    const refusal = await chat([choice({ content: [{ type: 'refusal', refusal: 'I cannot help with that.' }] }), stop('stop')]);
    expect(refusal.outcome).toBe('error');
    expect(refusal.errorMessage).toContain('refused');
    expect((await chat([choice({ content: [{ type: 'text', text: 'Hello there.' }] }), stop('stop')])).outcome).toBe('success');
  });

  it('a number or flag where text belongs is unrecognised', async () => {
    expect((await chat([...answer, choice({ content: 1234567 }), stop('stop')])).evidence.unrecognizedPaths).toEqual(['choices[0].delta.content (number)']);
    expect((await chat([...answer, choice({ content: [{ type: 'text', text: 99999999 }] }), stop('stop')])).evidence.unrecognizedPaths).toEqual([
      'choices[0].delta.content[0].text (number)',
    ]);
    expect((await chat([...answer, choice({ content: true }), stop('stop')])).evidence.unrecognizedPaths).toEqual(['choices[0].delta.content (boolean)']);
    // null content is "no text", as every server sends in role and finish chunks
    expect((await chat([choice({ role: 'assistant', content: null }), ...answer, stop('stop')])).evidence.unrecognizedPaths).toBeUndefined();
  });

  it('failures stated beside the choices: x_groq.error, status and errors in any shape, a content filter that filtered', async () => {
    const failed: Array<[string, Record<string, unknown>]> = [
      ['x_groq.error', { x_groq: { id: 'req_1', error: 'over_capacity' } }],
      ['status word with a failure in it', { status: 'internal_error' }],
      ['status fail', { status: 'fail' }],
      ['status object', { status: { code: 500, message: 'boom' } }],
      ['errors object', { errors: { message: 'upstream died' } }],
      ['prompt filter', { prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: { filtered: true, severity: 'high' } } }] }],
    ];
    for (const [label, extra] of failed) {
      const r = await chat([...answer, { ...stop('stop'), ...extra }]);
      expect(r.outcome, label).toBe('error');
    }
    const choiceFilter = await chat([...answer, stop('stop', { content_filter_results: { violence: { filtered: true, severity: 'medium' } } })]);
    expect(choiceFilter.outcome).toBe('error');
    expect(choiceFilter.errorMessage).toContain('violence');
    // the honest neighbours
    for (const [label, extra] of [
      ['x_groq id', { x_groq: { id: 'req_1' } }],
      ['status completed', { status: 'completed' }],
      ['status 200', { status: 200 }],
      ['errors empty', { errors: [] }],
      ['filter said safe', { prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }] }],
    ] as const) {
      const r = await chat([...answer, { ...stop('stop'), ...extra }]);
      expect(r.outcome, label).toBe('success');
      expect(r.evidence.unrecognizedPaths, label).toBeUndefined();
    }
    expect((await chat([...answer, { ...stop('stop'), status: 'paused_for_review' }])).evidence.unrecognizedPaths).toEqual(['status ("paused_for_review")']);
  });

  it('native_finish_reason in no protocol’s vocabulary, another choice, or a second reasoning field saying other words is unrecognised', async () => {
    for (const word of ['STOP', 'end_turn', 'MAX_TOKENS', 'tool_calls', 'eos'])
      expect((await chat([...answer, stop('stop', { native_finish_reason: word })])).evidence.unrecognizedPaths, word).toBeUndefined();
    expect((await chat([...answer, stop('stop', { native_finish_reason: 'OTHER' })])).evidence.unrecognizedPaths).toEqual([
      'choices[0].native_finish_reason (OTHER)',
    ]);
    const second = await chat([
      ...answer,
      {
        choices: [
          { index: 0, delta: {}, finish_reason: 'stop' },
          { index: 1, delta: { content: 'another answer' } },
        ],
      },
    ]);
    expect(second.evidence.unrecognizedPaths).toEqual(['choices[1] (another choice)']);
    const reasoning = (a: unknown, b: unknown) => chat([choice({ reasoning_content: a, reasoning: b }), ...answer, stop('stop')]);
    expect((await reasoning('Let me think.', 'Something else entirely.')).evidence.unrecognizedPaths).toEqual([
      'choices[0].delta.reasoning (differs from reasoning_content)',
    ]);
    expect((await reasoning('Let me think.', 'Let me think.')).evidence.unrecognizedPaths).toBeUndefined();
    const encrypted = await chat([choice({ reasoning: 'Hm.', reasoning_details: [{ type: 'reasoning.encrypted', data: 'gAAA' }] }), ...answer, stop('stop')]);
    expect(encrypted.evidence.unrecognizedPaths).toBeUndefined();
  });

  it('a token count that is present but not a count is unrecognised; null and timings are not', async () => {
    const usage = (u: Record<string, unknown>) => chat([...answer, stop('stop'), { choices: [], usage: u }]);
    expect((await usage({ completion_tokens: '4000', prompt_tokens: 5 })).evidence.unrecognizedPaths).toEqual(['usage.completion_tokens ("4000")']);
    expect((await usage({ completion_tokens: -5 })).evidence.unrecognizedPaths).toEqual(['usage.completion_tokens (-5)']);
    expect((await usage({ completion_tokens: 3, completion_tokens_details: { reasoning_tokens: 1.5 } })).evidence.unrecognizedPaths).toEqual([
      'usage.completion_tokens_details.reasoning_tokens (1.5)',
    ]);
    const honest = await usage({ completion_tokens: 4, prompt_tokens: 5, prompt_tokens_details: null, time_to_first_token: 0.118, queue_time: 0.01 });
    expect(honest.evidence.unrecognizedPaths).toBeUndefined();
    expect(honest.outputTokensReported).toBe(4);
  });

  it('anthropic-messages: a stop stated in message_start counts, and an output count that is text is unrecognised', async () => {
    const ev = (list: Array<Record<string, unknown>>) => list.map((o) => `event: ${String(o.type)}\ndata: ${JSON.stringify(o)}\n\n`).join('');
    const body = (startStop: unknown, outputTokens: unknown) =>
      ev([
        {
          type: 'message_start',
          message: { id: 'm', type: 'message', role: 'assistant', content: [], stop_reason: startStop, usage: { input_tokens: 3, output_tokens: 1 } },
        },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello there.' } },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: outputTokens } },
        { type: 'message_stop' },
      ]);
    expect((await parseWholeBody('anthropic-messages', body('refusal', 3))).outcome).toBe('error');
    const ok = await parseWholeBody('anthropic-messages', body(null, 3));
    expect(ok.outcome).toBe('success');
    expect(ok.evidence.unrecognizedPaths).toBeUndefined();
    expect((await parseWholeBody('anthropic-messages', body(null, '900'))).evidence.unrecognizedPaths).toEqual(['message_delta.usage.output_tokens ("900")']);
  });
});

describe('a length finish far short of the budget, inline reasoning counted as streamed (decision 313)', () => {
  const withBudget = async (body: string, maxOutputTokens: number) => {
    async function* chunks() {
      yield Buffer.from(body, 'utf8');
    }
    const parsed = await parseStream('openai-chat', chunks(), () => 10);
    return buildProbeResult(parsed, { protocol: 'openai-chat', httpStatus: 200, ttfbMs: 0, connectMs: null, abort: null, maxOutputTokens });
  };
  const lengthAfter = (reported: number) =>
    sse([
      choice({ content: 'Hello there, friend.' }),
      { choices: [{ index: 0, delta: {}, finish_reason: 'length' }] },
      { choices: [], usage: { completion_tokens: reported, prompt_tokens: 5 } },
    ]);

  it('is unknown_finish below half the budget, believed from half up (the provider’s count, hidden reasoning included)', async () => {
    const short = await withBudget(lengthAfter(3), 512);
    expect(short.evidence.unknownFinishReason).toBe('length after 3 of 512 tokens');
    expect(short.notRankableReasons).toContain('unknown_finish');
    expect((await withBudget(lengthAfter(255), 512)).evidence.unknownFinishReason).toBe('length after 255 of 512 tokens');
    expect((await withBudget(lengthAfter(256), 512)).evidence.unknownFinishReason).toBeUndefined();
    expect((await withBudget(lengthAfter(512), 512)).finishReason).toBe('length');
    // a stop finish says nothing of the budget
    const stopped = sse([choice({ content: 'Hello there, friend.' }), { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }]);
    expect((await withBudget(stopped, 512)).evidence.unknownFinishReason).toBeUndefined();
  });

  it('reasoning written inline as <think> is streamed: a reasoning count beside it is not hidden', async () => {
    const pieces = ['<think>', 'The user wants a greeting.', '</think>', '\n\nHello there, friend.'];
    const body = (usage: Record<string, unknown>) =>
      sse([...pieces.map((p) => choice({ content: p })), { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }, { choices: [], usage }]);
    const plain = await withBudget(body({ prompt_tokens: 5 }), 512);
    const total = plain.outputTokensO200k;
    const r = await withBudget(body({ completion_tokens: total, prompt_tokens: 5, reasoning_tokens: 8 }), 512);
    expect(r.evidence.reasoningTokensHidden).toBe(0);
    expect(r.flags.tokenCountMismatch).toBe(false);
    // without the tags, the same count is hidden reasoning (decision 065)
    const hidden = await withBudget(
      sse([
        choice({ content: 'Hello there, friend.' }),
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
        { choices: [], usage: { completion_tokens: 13, reasoning_tokens: 8, prompt_tokens: 5 } },
      ]),
      512,
    );
    expect(hidden.evidence.reasoningTokensHidden).toBe(8);
  });
});

describe('the attacker’s second pass (decision 313)', () => {
  const answer = ['Hello', ' there,', ' friend.'].map((w) => choice({ content: w }));
  const end = (extra: Record<string, unknown> = {}) => ({ choices: [{ index: 0, delta: {}, finish_reason: 'stop', ...extra }] });
  const chat = (objects: unknown[]) => parseWholeBody('openai-chat', sse(objects));

  it('openai-chat: vLLM stop_reason naming a failure fails; choice error false is no error; extra_content text other than a signature is unrecognised; opt-in figures are known', async () => {
    expect((await chat([...answer, end({ stop_reason: 'abort' })])).outcome).toBe('error');
    expect((await chat([...answer, end({ stop_reason: null })])).outcome).toBe('success');
    const noError = await chat([...answer, end({ error: false })]);
    expect(noError.outcome).toBe('success');
    expect(
      (await chat([choice({ content: 'Hi', extra_content: { google: { thought_signature: 'c2ln', hidden: 'more words' } } }), end()])).evidence
        .unrecognizedPaths,
    ).toEqual(['choices[0].delta.extra_content.google.hidden']);
    for (const extra of [{ perf_metrics: { 'server-time-to-first-token': '0.1' } }, { openrouter_metadata: { provider: 'X' } }])
      expect((await chat([...answer, { ...end(), ...extra }])).evidence.unrecognizedPaths).toBeUndefined();
  });

  it('anthropic: model_context_window_exceeded is a length finish not judged against the output budget', async () => {
    const ev = (list: Array<Record<string, unknown>>) => list.map((o) => `event: ${String(o.type)}\ndata: ${JSON.stringify(o)}\n\n`).join('');
    const body = (stop: string) =>
      ev([
        { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 3, output_tokens: 1 } } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello there.' } },
        { type: 'message_delta', delta: { stop_reason: stop }, usage: { output_tokens: 3 } },
        { type: 'message_stop' },
      ]);
    const withBudget = async (b: string) => {
      async function* chunks() {
        yield Buffer.from(b, 'utf8');
      }
      const parsed = await parseStream('anthropic-messages', chunks(), () => 10);
      return buildProbeResult(parsed, { protocol: 'anthropic-messages', httpStatus: 200, ttfbMs: 0, connectMs: null, abort: null, maxOutputTokens: 512 });
    };
    expect((await withBudget(body('model_context_window_exceeded'))).evidence.unknownFinishReason).toBeUndefined();
    expect((await withBudget(body('max_tokens'))).evidence.unknownFinishReason).toBe('max_tokens after 3 of 512 tokens');
  });

  it('gemini: a finishMessage naming a failure fails beside STOP; a second candidate’s own finish is unrecognised', async () => {
    const body = (last: Record<string, unknown>) =>
      [{ candidates: [{ content: { parts: [{ text: 'Hello' }], role: 'model' }, index: 0 }] }, last].map((o) => `data: ${JSON.stringify(o)}\n\n`).join('');
    const stopWith = (extra: Record<string, unknown>, more: unknown[] = []) => ({
      candidates: [{ content: { parts: [{ text: ' there.' }], role: 'model' }, finishReason: 'STOP', index: 0, ...extra }, ...more],
    });
    expect((await parseWholeBody('gemini-stream', body(stopWith({ finishMessage: 'Internal error encountered.' })))).outcome).toBe('error');
    expect((await parseWholeBody('gemini-stream', body(stopWith({ finishMessage: 'Model generated a complete answer.' })))).outcome).toBe('success');
    expect((await parseWholeBody('gemini-stream', body(stopWith({}, [{ finishReason: 'SAFETY', index: 1 }])))).evidence.unrecognizedPaths).toEqual([
      'candidates[1]',
    ]);
  });
});
