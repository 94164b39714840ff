/**
 * A failure stated anywhere the protocol states one is a failure, and a value the adapter cannot
 * read is unknown, recorded as an unrecognised path, never a number (decisions 061, 190, 307).
 * Each attack shape sits beside the honest shape the provider documents, which stays rankable:
 * - Gemini API, GenerateContentResponse: `promptFeedback.blockReason`, SafetyRating `blocked`,
 *   `finishMessage`, `modelStatus`, UsageMetadata int32 counts;
 * - OpenAI Responses streaming events: the terminal response's `status` and `incomplete_details`,
 *   output items' `status`, the `.done` events repeating the deltas, `type` equal to the SSE event
 *   name, `usage.output_tokens`;
 * - Bedrock ConverseStream: `messageStop.additionalModelResponseFields`, ContentBlockStart members,
 *   `metadata.usage.outputTokens`, `metadata.trace.guardrail`.
 */
import { describe, expect, it } from 'vitest';
import { buildProbeResult } from '../build-probe-result';
import { LIFECYCLE_NOTICE_MAX_CHARS } from './gemini-stream';
import { parseStream } from '../parse-stream';
import type { ProbeResult, Protocol } from '../types';
import { bedrockFrame } from '../test-support/case-wire';

/** Parses `events`, one read each, 40 ms apart (a paced stream, so no buffered_stream). */
async function parse(protocol: Protocol, events: Array<string | Uint8Array>): Promise<ProbeResult> {
  async function* chunks() {
    for (const e of events) yield typeof e === 'string' ? Buffer.from(e, 'utf8') : e;
  }
  let now = 60;
  const parsed = await parseStream(protocol, chunks(), () => (now += 40));
  return buildProbeResult(parsed, { protocol, httpStatus: 200, ttfbMs: 0, connectMs: null, abort: null });
}

const FILTERED = "the provider's content filter ended the generation";
/** The answer, in small pieces (a paced stream: no piece is most of the answer). */
const PIECES = ['Hello', ' there', ', my', ' friend', '.'];
const ANSWER = PIECES.join('');
/** The answer's o200k count, as the providers report it. */
const COUNT = 6;

/** An honest success: rankable, nothing recorded. */
function expectHonest(r: ProbeResult, label: string): void {
  expect(r.outcome, label).toBe('success');
  expect(r.notRankableReasons, label).toEqual([]);
  expect(r.rankable, label).toBe(true);
  expect(r.evidence.unrecognizedPaths, label).toBeUndefined();
}

/** A stated failure: an error, never rankable. */
function expectFailed(r: ProbeResult, message: string, label: string): void {
  expect(r.outcome, label).toBe('error');
  expect(r.errorKind, label).toBe('stream_error');
  expect(r.errorMessage, label).toBe(message);
  expect(r.rankable, label).toBe(false);
  expect(r.notRankableReasons, label).toEqual(['failed']);
}

/** A success whose shape was not understood: unrankable with exactly these paths. */
function expectUnrecognized(r: ProbeResult, paths: string[], label: string): void {
  expect(r.evidence.unrecognizedPaths, label).toEqual(paths);
  expect(r.rankable, label).toBe(false);
  expect(r.notRankableReasons, label).toEqual(['unrecognized_shape']);
}

describe('gemini-stream (Gemini API, GenerateContentResponse)', () => {
  /** One chunk per piece, the last with `finish` and usage; `first` and `candidate` patch the first chunk. */
  const gemini = (first: Record<string, unknown> = {}, candidate: Record<string, unknown> = {}, usage: Record<string, unknown> = {}, finish = 'STOP') =>
    PIECES.map((text, i) =>
      i === 0
        ? { candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0, ...candidate }], ...first }
        : i < PIECES.length - 1
          ? { candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0 }] }
          : {
              candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: finish, index: 0 }],
              usageMetadata: { promptTokenCount: 5, candidatesTokenCount: COUNT, totalTokenCount: 5 + COUNT, ...usage },
            },
    ).map((o) => `data: ${JSON.stringify(o)}\n\n`);
  const negligible = [
    { category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' },
    { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'NEGLIGIBLE', blocked: false },
  ];

  it('promptFeedback.blockReason beside candidates is a filter failure; promptFeedback with only NEGLIGIBLE ratings is not', async () => {
    // blockReason: "the prompt was blocked" (any value); the candidates after it answer nothing.
    for (const reason of ['SAFETY', 'OTHER', 'PROHIBITED_CONTENT']) {
      const r = await parse('gemini-stream', gemini({ promptFeedback: { blockReason: reason } }));
      expectFailed(r, `promptFeedback.blockReason "${reason}": ${FILTERED}`, reason);
    }
    expectHonest(await parse('gemini-stream', gemini({ promptFeedback: { safetyRatings: negligible } })), 'prompt feedback ratings');
  });

  it('a SafetyRating with blocked: true is a filter failure; NEGLIGIBLE ratings with blocked absent or false are not', async () => {
    const blocked = [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'MEDIUM', blocked: true }];
    const r = await parse('gemini-stream', gemini({}, { safetyRatings: [...negligible, ...blocked] }));
    expectFailed(r, `candidates[0].safetyRatings[2].blocked (HARM_CATEGORY_DANGEROUS_CONTENT): ${FILTERED}`, 'candidate');
    const prompt = await parse('gemini-stream', gemini({ promptFeedback: { safetyRatings: blocked } }));
    expectFailed(prompt, `promptFeedback.safetyRatings[0].blocked (HARM_CATEGORY_DANGEROUS_CONTENT): ${FILTERED}`, 'prompt');
    expectHonest(await parse('gemini-stream', gemini({}, { safetyRatings: negligible })), 'negligible');
    // a `blocked` that is no boolean cannot be read
    const odd = await parse('gemini-stream', gemini({}, { safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'LOW', blocked: 'true' }] }));
    expectUnrecognized(odd, ['candidates[0].safetyRatings[0].blocked'], 'blocked as text');
  });

  it('a SAFETY finish with a blocked rating is judged by its finish (one failure, the finish’s message)', async () => {
    const body = gemini({}, {}, {}, 'SAFETY');
    const last = JSON.parse(body[body.length - 1]!.slice('data: '.length)) as { candidates: Array<Record<string, unknown>> };
    last.candidates[0]!.safetyRatings = [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'HIGH', blocked: true }];
    const r = await parse('gemini-stream', [...body.slice(0, -1), `data: ${JSON.stringify(last)}\n\n`]);
    expectFailed(r, `finish "SAFETY": ${FILTERED}`, 'SAFETY');
  });

  it('finishMessage is metadata beside a clean finish', async () => {
    expectHonest(await parse('gemini-stream', gemini({}, { finishMessage: 'Model generated a complete answer.' })), 'finishMessage');
  });

  it('modelStatus is known in its documented shape only; its message is text the probe does not read, or a failure it states (decision 318)', async () => {
    const documented = { modelStage: 'DEPRECATED', retirementTime: '2027-01-01T00:00:00Z' };
    expectHonest(await parse('gemini-stream', gemini({ modelStatus: documented })), 'documented');
    expectHonest(await parse('gemini-stream', gemini({ modelStatus: { ...documented, message: '' } })), 'empty message');
    // a lifecycle notice beside a lifecycle stage is about the model, not this generation, even when it names a failure
    const notice = 'This model will be retired on 2027-01-01; requests after that date will fail.';
    expectHonest(await parse('gemini-stream', gemini({ modelStatus: { ...documented, message: notice } })), 'a notice');
    const edge = 'x'.repeat(LIFECYCLE_NOTICE_MAX_CHARS);
    expectHonest(await parse('gemini-stream', gemini({ modelStatus: { ...documented, message: edge } })), 'a notice at the length bound');
    expectUnrecognized(
      await parse('gemini-stream', gemini({ modelStatus: { ...documented, message: `${edge}x` } })),
      ['modelStatus.message'],
      'a notice one character over the bound',
    );
    // the same notice beside a stable stage, or with no stage, is text beside the answer
    for (const status of [{ modelStage: 'STABLE' }, {}, { modelStage: 'deprecated' }])
      expectUnrecognized(
        await parse('gemini-stream', gemini({ modelStatus: { ...status, message: 'This model will be retired.' } })),
        ['modelStatus.message'],
        `a notice beside ${JSON.stringify(status)}`,
      );
    expectFailed(
      await parse('gemini-stream', gemini({ modelStatus: { modelStage: 'STABLE', message: 'Generation failed: the model is overloaded.' } })),
      'modelStatus.message: Generation failed: the model is overloaded.',
      'failure',
    );
    expectUnrecognized(await parse('gemini-stream', gemini({ modelStatus: { ...documented, text: 'the rest of the answer' } })), ['modelStatus.text'], 'text');
    expectUnrecognized(await parse('gemini-stream', gemini({ modelStatus: 'the rest of the answer' })), ['modelStatus'], 'string');
  });

  it('output counts that are not non-negative integers are unrecognised, never a number; integer counts are read', async () => {
    for (const key of ['candidatesTokenCount', 'thoughtsTokenCount']) {
      for (const value of ['9999', -5, 1.5]) {
        const r = await parse('gemini-stream', gemini({}, {}, { [key]: value }));
        expectUnrecognized(r, [`usageMetadata.${key}`], `${key} ${JSON.stringify(value)}`);
        expect(r.outputTokensReported, `${key} ${JSON.stringify(value)}`).toBeNull();
      }
    }
    const ok = await parse('gemini-stream', gemini({}, {}, { candidatesTokenCount: COUNT, thoughtsTokenCount: 0 }));
    expectHonest(ok, 'integers');
    expect(ok.outputTokensReported).toBe(COUNT);
  });
});

describe('openai-responses (OpenAI Responses streaming events)', () => {
  type Ev = Record<string, unknown>;
  const message = (status: string) => ({
    id: 'msg_1',
    type: 'message',
    status,
    role: 'assistant',
    content: [{ type: 'output_text', text: ANSWER, annotations: [] }],
  });
  /** The documented event sequence of one streamed message; `patch` changes it before framing. */
  const responses = (patch: (events: Ev[]) => void = () => {}, name: (e: Ev) => string = (e) => String(e.type)) => {
    const ids = { item_id: 'msg_1', output_index: 0, content_index: 0 };
    const list: Ev[] = [
      { type: 'response.created', response: { id: 'r', status: 'in_progress', output: [] } },
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
      { type: 'response.content_part.added', ...ids, part: { type: 'output_text', text: '', annotations: [] } },
      ...PIECES.map((delta) => ({ type: 'response.output_text.delta', ...ids, delta })),
      { type: 'response.output_text.done', ...ids, text: ANSWER },
      { type: 'response.content_part.done', ...ids, part: { type: 'output_text', text: ANSWER, annotations: [] } },
      { type: 'response.output_item.done', output_index: 0, item: message('completed') },
      {
        type: 'response.completed',
        response: {
          id: 'r',
          status: 'completed',
          error: null,
          incomplete_details: null,
          output: [message('completed')],
          usage: { input_tokens: 5, output_tokens: COUNT, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 5 + COUNT },
        },
      },
    ];
    patch(list);
    return list.map((e, i) => `event: ${name(e)}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`);
  };
  const terminal = (list: Ev[]) => list[list.length - 1]!.response as Record<string, unknown>;
  /** Index of the first event of `type`. */
  const at = (list: Ev[], type: string) => list.findIndex((e) => e.type === type);

  it('the documented stream is an honest success', async () => {
    const r = await parse('openai-responses', responses());
    expectHonest(r, 'documented');
    expect(r.answerText).toBe(ANSWER);
    expect(r.finishReason).toBe('stop');
  });

  it('response.completed with incomplete_details is judged by the worst it states; incomplete_details null is clean', async () => {
    const withDetails = (details: unknown) => responses((l) => Object.assign(terminal(l), { incomplete_details: details }));
    expectFailed(await parse('openai-responses', withDetails({ reason: 'content_filter' })), `finish "content_filter": ${FILTERED}`, 'content_filter');
    const length = await parse('openai-responses', withDetails({ reason: 'max_output_tokens' }));
    expectHonest(length, 'max_output_tokens');
    expect(length.finishReason).toBe('length');
    const other = await parse('openai-responses', withDetails({ reason: 'something_new' }));
    expect(other.notRankableReasons).toEqual(['unknown_finish']);
    expect(other.evidence.unknownFinishReason).toBe('something_new');
    const unreadable = await parse('openai-responses', withDetails({ reason: 7 }));
    expect(unreadable.evidence.unrecognizedPaths).toEqual(['response.completed.response.incomplete_details.reason']);
    expect(unreadable.notRankableReasons).toEqual(['unrecognized_shape', 'unknown_finish']);
    expectHonest(await parse('openai-responses', withDetails(null)), 'null');
    // the event response.incomplete with status "completed" is incomplete all the same
    const incomplete = await parse(
      'openai-responses',
      responses((l) => {
        l[l.length - 1]!.type = 'response.incomplete';
        Object.assign(terminal(l), { incomplete_details: { reason: 'content_filter' } });
      }),
    );
    expectFailed(incomplete, `finish "content_filter": ${FILTERED}`, 'response.incomplete, status completed');
  });

  it('an output item stated incomplete or failed fails a completed response; completed items, or incomplete at the output budget, do not', async () => {
    const itemDone = (status: string) => responses((l) => Object.assign(l[at(l, 'response.output_item.done')]!, { item: message(status) }));
    expectFailed(
      await parse('openai-responses', itemDone('incomplete')),
      'response.output_item.done.item.status "incomplete" but the response ended "completed"',
      'incomplete item',
    );
    expectFailed(await parse('openai-responses', itemDone('failed')), 'response.output_item.done.item.status "failed": the output item failed', 'failed item');
    expectUnrecognized(await parse('openai-responses', itemDone('halfway')), ['response.output_item.done.item.status'], 'unknown status');
    const finalOutput = await parse(
      'openai-responses',
      responses((l) => Object.assign(terminal(l), { output: [message('incomplete')] })),
    );
    expectFailed(finalOutput, 'response.completed.response.output[0].status "incomplete" but the response ended "completed"', 'final output');
    // the budget ran out: the item is incomplete because the response is, a clean `length`
    const budget = await parse(
      'openai-responses',
      responses((l) => {
        Object.assign(l[at(l, 'response.output_item.done')]!, { item: message('incomplete') });
        l[l.length - 1]!.type = 'response.incomplete';
        Object.assign(terminal(l), { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [message('incomplete')] });
      }),
    );
    expectHonest(budget, 'max_output_tokens');
    expect(budget.finishReason).toBe('length');
    expectHonest(await parse('openai-responses', itemDone('completed')), 'completed item');
    // a hosted tool's call item has statuses of its own (web_search_call `searching`), not the model's
    const search = await parse(
      'openai-responses',
      responses((l) => Object.assign(terminal(l), { output: [{ id: 'ws_1', type: 'web_search_call', status: 'searching' }, message('completed')] })),
    );
    expectHonest(search, 'web_search_call');
  });

  it('a .done text that differs from its deltas is unrecognised; equal text is the normal case', async () => {
    const textDone = await parse(
      'openai-responses',
      responses((l) => Object.assign(l[at(l, 'response.output_text.done')]!, { text: `${ANSWER} And much more.` })),
    );
    expectUnrecognized(textDone, ['response.output_text.done.text (differs from the deltas)'], 'output_text.done');
    const partDone = await parse(
      'openai-responses',
      responses((l) =>
        Object.assign(l[at(l, 'response.content_part.done')]!, { part: { type: 'output_text', text: 'Goodbye there, my friend.', annotations: [] } }),
      ),
    );
    expectUnrecognized(partDone, ['response.content_part.done.part.text (differs from the deltas)'], 'content_part.done');
    // a finished part that never streamed, in a stream whose other part did: its text is counted nowhere
    const unstreamed = await parse(
      'openai-responses',
      responses((l) => {
        const done = at(l, 'response.content_part.done');
        l.splice(done + 1, 0, { ...l[done]!, content_index: 1, part: { type: 'output_text', text: 'A second part nobody streamed.', annotations: [] } });
      }),
    );
    expectUnrecognized(unstreamed, ['response.content_part.done.part.text (never streamed)'], 'unstreamed part');
    // cumulative deltas (every piece repeating the one before) end in the done text: no difference
    const cumulative = await parse(
      'openai-responses',
      responses((l) => {
        const first = at(l, 'response.output_text.delta');
        PIECES.forEach((_, i) => Object.assign(l[first + i]!, { delta: PIECES.slice(0, i + 1).join('') }));
      }),
    );
    expect(cumulative.evidence.unrecognizedPaths).toBeUndefined();
    expect(cumulative.answerText).toBe(ANSWER);
    // tool arguments: the added item's arguments and the deltas together are the done arguments
    const tool = (done: string) =>
      [
        { type: 'response.created', response: { id: 'r', status: 'in_progress', output: [] } },
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { id: 'fc_1', type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"city"', status: 'in_progress' },
        },
        { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: ':"Paris"}' },
        { type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 0, arguments: done },
        { type: 'response.completed', response: { id: 'r', status: 'completed', incomplete_details: null } },
      ].map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`);
    expect((await parse('openai-responses', tool('{"city":"Paris"}'))).evidence.unrecognizedPaths).toBeUndefined();
    expect((await parse('openai-responses', tool('{"city":"Rome"}'))).evidence.unrecognizedPaths).toEqual([
      'response.function_call_arguments.done.arguments (differs from the deltas)',
    ]);
  });

  it('an SSE event name that differs from the data type is unrecognised; equal names are the normal case', async () => {
    const r = await parse(
      'openai-responses',
      responses(undefined, (e) => (e.type === 'response.completed' ? 'response.failed' : String(e.type))),
    );
    expectUnrecognized(r, ['event:response.failed (data type response.completed)'], 'renamed');
    // data without an event line is read by its type, as before
    const bare = responses().map((e) => e.replace(/^event: [^\n]*\n/, ''));
    expectHonest(await parse('openai-responses', bare), 'no event lines');
  });

  it('usage output_tokens that is not a non-negative integer is unrecognised, never a number', async () => {
    for (const value of ['9999', -5, 1.5]) {
      const r = await parse(
        'openai-responses',
        responses((l) => Object.assign(terminal(l), { usage: { input_tokens: 5, output_tokens: value, total_tokens: 5 + COUNT } })),
      );
      expectUnrecognized(r, ['response.completed.response.usage.output_tokens'], JSON.stringify(value));
      expect(r.outputTokensReported, JSON.stringify(value)).toBeNull();
    }
    expect((await parse('openai-responses', responses())).outputTokensReported).toBe(COUNT);
  });
});

describe('bedrock-converse-stream (Bedrock ConverseStream)', () => {
  const frame = bedrockFrame;
  const bedrock = (
    stop: Record<string, unknown> = {},
    metadata: Record<string, unknown> = {},
    usage: Record<string, unknown> = {},
    blocks: Uint8Array[] = [],
  ): Uint8Array[] => [
    frame('messageStart', { role: 'assistant' }),
    ...blocks,
    ...PIECES.map((text) => frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text } })),
    frame('contentBlockStop', { contentBlockIndex: 0 }),
    frame('messageStop', { stopReason: 'end_turn', ...stop }),
    frame('metadata', { usage: { inputTokens: 5, outputTokens: COUNT, totalTokens: 5 + COUNT, ...usage }, metrics: { latencyMs: 90 }, ...metadata }),
  ];

  it('the model’s stop reason in additionalModelResponseFields naming a filter or failure fails; stop_sequence null or a clean word does not', async () => {
    const filtered = await parse('bedrock-converse-stream', bedrock({ additionalModelResponseFields: { stop_reason: 'content_filter' } }));
    expectFailed(filtered, `messageStop.additionalModelResponseFields.stop_reason "content_filter": ${FILTERED}`, 'filter');
    const failed = await parse('bedrock-converse-stream', bedrock({ additionalModelResponseFields: { stopReason: 'error' } }));
    expectFailed(failed, 'messageStop.additionalModelResponseFields.stopReason "error" names a failure', 'error');
    expectHonest(await parse('bedrock-converse-stream', bedrock({ additionalModelResponseFields: { stop_sequence: null } })), 'stop_sequence null');
    expectHonest(
      await parse('bedrock-converse-stream', bedrock({ additionalModelResponseFields: { stop_reason: 'end_turn', stop_sequence: null } })),
      'end_turn',
    );
  });

  it('text in contentBlockStart.start outside toolUse is unrecognised; a toolUse start is read', async () => {
    const text = await parse('bedrock-converse-stream', bedrock({}, {}, {}, [frame('contentBlockStart', { contentBlockIndex: 0, start: { text: 'Hidden' } })]));
    expectUnrecognized(text, ['contentBlockStart.start.text'], 'start.text');
    const tool = await parse('bedrock-converse-stream', [
      frame('messageStart', { role: 'assistant' }),
      frame('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather' } } }),
      frame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"city":"Paris"}' } } }),
      frame('contentBlockStop', { contentBlockIndex: 0 }),
      frame('messageStop', { stopReason: 'tool_use' }),
      frame('metadata', { usage: { inputTokens: 5, outputTokens: 6, totalTokens: 11 }, metrics: { latencyMs: 90 } }),
    ]);
    expect(tool.outcome).toBe('success');
    expect(tool.evidence.unrecognizedPaths).toBeUndefined();
    expect(tool.toolCalls).toEqual([{ id: 'tooluse_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
  });

  it('usage.outputTokens that is not a non-negative integer is unrecognised, never a number', async () => {
    for (const value of ['9999', -5, 1.5]) {
      const r = await parse('bedrock-converse-stream', bedrock({}, {}, { outputTokens: value }));
      expectUnrecognized(r, ['metadata.usage.outputTokens'], JSON.stringify(value));
      expect(r.outputTokensReported, JSON.stringify(value)).toBeNull();
    }
    const ok = await parse('bedrock-converse-stream', bedrock());
    expectHonest(ok, 'integer');
    expect(ok.outputTokensReported).toBe(COUNT);
  });

  it('a guardrail trace that says BLOCKED or INTERVENED fails; one that detected nothing, or only masked, does not', async () => {
    const assessment = (action: string, detected: boolean) => ({ contentPolicy: { filters: [{ type: 'VIOLENCE', confidence: 'HIGH', action, detected }] } });
    const blocked = await parse(
      'bedrock-converse-stream',
      bedrock({}, { trace: { guardrail: { outputAssessments: { gr1: [assessment('BLOCKED', true)] } } } }),
    );
    expectFailed(blocked, `metadata.trace.guardrail.outputAssessments.gr1[0].contentPolicy.filters[0].action "BLOCKED": ${FILTERED}`, 'BLOCKED');
    const intervened = await parse(
      'bedrock-converse-stream',
      bedrock({}, { trace: { guardrail: { action: 'GUARDRAIL_INTERVENED', actionReason: 'Guardrail blocked.' } } }),
    );
    expectFailed(intervened, `metadata.trace.guardrail.action "GUARDRAIL_INTERVENED": ${FILTERED}`, 'GUARDRAIL_INTERVENED');
    const honest = {
      trace: {
        guardrail: {
          actionReason: 'No action.',
          inputAssessment: { gr1: assessment('NONE', false) },
          outputAssessments: {
            gr1: [
              assessment('NONE', true),
              { sensitiveInformationPolicy: { piiEntities: [{ type: 'EMAIL', match: 'a@b.c', action: 'ANONYMIZED', detected: true }] } },
            ],
          },
        },
      },
    };
    expectHonest(await parse('bedrock-converse-stream', bedrock({}, honest)), 'NONE');
    // stopReason guardrail_intervened already says so: judged by the finish, one failure
    const both = await parse(
      'bedrock-converse-stream',
      bedrock({ stopReason: 'guardrail_intervened' }, { trace: { guardrail: { outputAssessments: { gr1: [assessment('BLOCKED', true)] } } } }),
    );
    expectFailed(both, `finish "guardrail_intervened": ${FILTERED}`, 'stopReason and trace');
  });
});
