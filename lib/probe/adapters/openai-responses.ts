/**
 * The OpenAI Responses API, streamed (`POST {base}/responses` with `stream: true`), spoken by
 * OpenAI, Azure OpenAI's v1 API, the Open Responses spec, and the `/v1/responses` of vLLM, Ollama,
 * LiteLLM, DeepSeek and others (decision 192). SSE with `event:` lines; every data object has a
 * `type` equal to the event name and an increasing `sequence_number`; there is no `[DONE]`.
 *
 * Mapping onto WireEvents (event names checked against OpenAI's streaming reference, the Open
 * Responses spec and vLLM's serving_responses):
 * - answer: `response.output_text.delta` (`delta`), `response.refusal.delta`;
 * - reasoning: `response.reasoning_text.delta`, `response.reasoning_summary_text.delta`, and the
 *   older vLLM `response.reasoning.delta` (string delta, or `{content}`);
 * - tool calls: `response.output_item.added` with a `function_call` item opens a call (key
 *   `output_index`/`item_id`, id = `call_id`, name), `response.function_call_arguments.delta`
 *   carries its argument text; also `response.custom_tool_call_input.delta`;
 * - the `.done` events (`output_text.done`, `reasoning_text.done`, `function_call_arguments.done`,
 *   `content_part.done`, `output_item.done`) and the final response's `output` repeat what was
 *   streamed and are not counted, except when an item's text never came as deltas (then its
 *   `.done` text counts once, when it arrives);
 * - finish: `response.completed` (status completed → stop, tool_calls with function calls),
 *   `response.incomplete` (its `incomplete_details.reason`: max_output_tokens → length,
 *   content_filter → failure, others unknown), both terminal; `response.failed` and `error` are
 *   in-stream errors (rate limits named as such → rate_limited);
 * - usage: `response.usage` of the terminal event: `output_tokens` (reasoning inside it),
 *   `output_tokens_details.reasoning_tokens` (hidden when no reasoning text was streamed, decision
 *   065), `input_tokens_details.cached_tokens` kept as a provider figure; usage anywhere else is
 *   unrecognised (decision 191);
 * - `sequence_number`: a gap, repeat or step backwards is evidence (`sequence_broken`);
 * - lifecycle events without text (`response.created`, `in_progress`, `queued`,
 *   `content_part.added`, `output_text.annotation.added`, tool progress events) carry no tokens;
 *   an unknown event type carrying text is recorded as `event:<type>`.
 */
import { REFUSAL_ERROR, type InStreamError, type ProtocolAdapter, type ToolCallDelta, type WireEvent } from './adapter';
import { collectText, emptyText, hasText } from './content-parts';
import { joinUrl, pathEndsWith } from './join-url';
import { classifyInStreamError, countValue, isRecord, nonEmptyString, summarizeErrorText } from './normalize';
import { createSseDecoder } from './sse-messages';
import { addCachedInput } from './cached-input';
import { servedTierOf } from './served-tier';
import { structuredOutputFields } from './structured-output';
import { conversationFields } from './conversation';
import { serviceTierFields } from '../service-tier';
import { listUnknownUsagePaths, listUsageText } from './usage-places';
import { classifyFinish, judgeFinishes } from '../finish-reasons';

/** Events that carry no generated text of their own (lifecycle, progress, annotations). */
const SILENT_EVENTS = new Set([
  'response.created',
  'response.in_progress',
  'response.queued',
  'response.content_part.added',
  'response.content_part.done',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_part.done',
  'response.output_text.annotation.added',
  'response.output_item.done',
  'response.web_search_call.in_progress',
  'response.web_search_call.searching',
  'response.web_search_call.completed',
  'response.file_search_call.in_progress',
  'response.file_search_call.searching',
  'response.file_search_call.completed',
  'response.code_interpreter_call.in_progress',
  'response.code_interpreter_call.interpreting',
  'response.code_interpreter_call.completed',
  'response.mcp_call.in_progress',
  'response.mcp_call.completed',
  'response.mcp_call.failed',
  'response.mcp_list_tools.in_progress',
  'response.mcp_list_tools.completed',
  'response.mcp_list_tools.failed',
  'response.image_generation_call.in_progress',
  'response.image_generation_call.generating',
  'response.image_generation_call.completed',
  'response.image_generation_call.partial_image',
  'keepalive',
]);

/** Answer-text delta events. */
const ANSWER_DELTAS = new Set(['response.output_text.delta', 'response.refusal.delta']);
/** Reasoning-text delta events. */
const REASONING_DELTAS = new Set([
  'response.reasoning_text.delta',
  'response.reasoning_summary_text.delta',
  'response.reasoning.delta',
  'response.reasoning_summary.delta',
]);
/** Tool-argument delta events. */
const TOOL_DELTAS = new Set([
  'response.function_call_arguments.delta',
  'response.custom_tool_call_input.delta',
  'response.mcp_call_arguments.delta',
  'response.code_interpreter_call_code.delta',
]);
/** `.done` events whose text repeats the deltas of their item: channel and text key. */
const DONE_EVENTS: Record<string, { channel: 'answer' | 'reasoning' | 'tool'; key: string }> = {
  'response.output_text.done': { channel: 'answer', key: 'text' },
  'response.refusal.done': { channel: 'answer', key: 'refusal' },
  'response.reasoning_text.done': { channel: 'reasoning', key: 'text' },
  'response.reasoning_summary_text.done': { channel: 'reasoning', key: 'text' },
  'response.function_call_arguments.done': { channel: 'tool', key: 'arguments' },
  'response.custom_tool_call_input.done': { channel: 'tool', key: 'input' },
  'response.mcp_call_arguments.done': { channel: 'tool', key: 'arguments' },
  'response.code_interpreter_call_code.done': { channel: 'tool', key: 'code' },
};
/** Keys of a delta event that carry no generated text. */
const EVENT_META_KEYS = new Set([
  'type',
  'sequence_number',
  'item_id',
  'output_index',
  'content_index',
  'summary_index',
  'logprobs',
  'obfuscation',
  'response',
  'item',
  'part',
  'annotation',
  'annotation_index',
  'name',
  'call_id',
  'id',
]);
/** Output item types that open a tool call. */
const TOOL_ITEMS = new Set(['function_call', 'custom_tool_call', 'mcp_call', 'code_interpreter_call']);

/** Per-stream state of the Responses decoder. */
interface ResponsesDecoderState {
  lastSequence: number | null;
  complete: boolean;
  reasoningStreamed: boolean;
  /** tool-call key by item id and by output index */
  toolKeyByItem: Map<string, string>;
  toolKeyByIndex: Map<number, string>;
  toolCount: number;
  /** items (by item id + content/summary index) that received delta text: their `.done` text is a repeat */
  streamedParts: Set<string>;
  /** whether any text at all was streamed (a terminal response's output then only repeats it) */
  anyStreamed: boolean;
  /** the pieces of text each part (partKey) or tool call (`tool:<key>`) received, to check its `.done` text */
  pieces: Map<string, string[]>;
  /** the first output item a `.done` event or the final output stated `incomplete`, as a path */
  incompleteItem: string | null;
}

/** Appends a piece of text to what `key` received. */
function addPiece(state: ResponsesDecoderState, key: string, text: string): void {
  const list = state.pieces.get(key);
  if (list) list.push(text);
  else state.pieces.set(key, [text]);
}

/**
 * Whether a `.done` event's text is the text its deltas carried (OpenAI Responses streaming events:
 * `response.output_text.done` "contains the final text", `content_part.done` the finished part):
 * their concatenation, or the last piece of cumulative deltas (C10-style servers, every piece
 * starting with the one before). Undefined when nothing was received for the part.
 */
function doneMatchesDeltas(state: ResponsesDecoderState, key: string, done: string): boolean | undefined {
  const list = state.pieces.get(key);
  if (!list) return undefined;
  if (list.join('') === done) return true;
  const cumulative = list.every((piece, i) => i === 0 || piece.startsWith(list[i - 1]!));
  return cumulative && list[list.length - 1] === done;
}

/** A count the Responses API states as an integer: a non-negative integer (a string, negative or fraction is not one). */
function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * The finish word of a terminal response, judged by the worst thing it states (OpenAI Responses
 * API, the Response object): `status` and `incomplete_details` must agree, and when they do not
 * (`status: "completed"` with `incomplete_details: {reason: "content_filter"}`, or the event
 * `response.incomplete` with `status: "completed"`) the worse one counts: a filter or failure over
 * an unknown word over a clean one, and `length` (max_output_tokens) over `stop`. An
 * `incomplete_details` that is neither null nor empty states incompleteness. A reason that is not
 * a string cannot be read: `incomplete` (unknown) and an unrecognised path.
 */
function terminalFinish(type: string, response: Record<string, unknown>, unrecognized: string[]): string {
  const details = response.incomplete_details;
  const detailsStated = details != null && !(isRecord(details) && Object.keys(details).length === 0);
  const reasonValue = isRecord(details) ? details.reason : undefined;
  const reason = nonEmptyString(reasonValue);
  if (detailsStated && reason === undefined && (!isRecord(details) || (reasonValue !== undefined && reasonValue !== null)))
    unrecognized.push(`${type}.response.incomplete_details${isRecord(details) ? '.reason' : ''}`);
  const status = nonEmptyString(response.status);
  const incomplete = type === 'response.incomplete' || status === 'incomplete' || detailsStated;
  const words: string[] = [];
  if (incomplete) words.push(reason ?? 'incomplete');
  // `completed` and `incomplete` are represented above; any other status word is judged too.
  if (status !== undefined && status !== 'incomplete' && !(incomplete && status === 'completed')) words.push(status);
  if (words.length === 0) words.push('completed');
  // The shared rule of every finish a stream states (judgeFinishes): the worst, the first among equals.
  return judgeFinishes('openai-responses', words, null, false).finishRaw ?? words[0]!;
}

/** Output items the model generates (their status is the generation's); hosted tools' calls have statuses of their own. */
const GENERATED_ITEMS = new Set(['message', 'reasoning', 'function_call', 'custom_tool_call']);

/**
 * A generated output item's `status` (OpenAI Responses API, output items: `in_progress`,
 * `completed`, `incomplete`): `incomplete` is remembered (it is a clean end only when the response
 * says the output budget ran out, see the terminal event); a failure-named status (`failed`,
 * `cancelled`) is a failure at once; another word cannot be read and is recorded. Hosted tools'
 * call items (`web_search_call` `searching`, ...) are not the model's text and are left alone.
 */
function readItemStatus(item: Record<string, unknown>, path: string, state: ResponsesDecoderState, event: WireEvent, unrecognized: string[]): void {
  if (typeof item.type === 'string' && !GENERATED_ITEMS.has(item.type)) return;
  const status = item.status;
  if (status === undefined || status === null || status === 'completed' || status === 'in_progress') return;
  if (status === 'incomplete') {
    state.incompleteItem ??= path;
    return;
  }
  const word = typeof status === 'string' ? status : '';
  const verdict = classifyFinish('openai-responses', word);
  if (verdict.verdict === 'failed') {
    event.error ??= { kind: verdict.errorKind, message: `${path}.status "${word.slice(0, 60)}": the output item failed` };
  } else unrecognized.push(`${path}.status`);
}

function partKey(data: Record<string, unknown>, channel: string): string {
  return `${channel}:${String(data.item_id ?? data.output_index ?? '')}:${String(data.content_index ?? data.summary_index ?? '')}`;
}

/** The key of the tool call an event belongs to (opening one when it was never announced). */
function toolKeyOf(data: Record<string, unknown>, state: ResponsesDecoderState): { key: string; opened: boolean } {
  const itemId = nonEmptyString(data.item_id);
  const index = typeof data.output_index === 'number' ? data.output_index : undefined;
  const known = (itemId !== undefined ? state.toolKeyByItem.get(itemId) : undefined) ?? (index !== undefined ? state.toolKeyByIndex.get(index) : undefined);
  if (known !== undefined) return { key: known, opened: false };
  const key = `resp-${state.toolCount++}`;
  if (itemId !== undefined) state.toolKeyByItem.set(itemId, key);
  if (index !== undefined) state.toolKeyByIndex.set(index, key);
  return { key, opened: true };
}

/** A delta's text: a string as sent; vLLM's early `{content}` object read as text. */
function deltaText(delta: unknown, channel: 'answer' | 'reasoning'): string {
  if (typeof delta === 'string') return delta;
  const text = emptyText();
  collectText(delta, channel, 'delta', text);
  return text.answer + text.reasoning;
}

/** The final response's usage onto `event` (decision 065 for the reasoning count). */
function readUsage(response: Record<string, unknown>, event: WireEvent, state: ResponsesDecoderState, unrecognized: string[], type: string): void {
  // the tier that served it sits beside usage in the terminal response (decision 293)
  const servedTier = servedTierOf(response.service_tier);
  if (servedTier !== undefined) event.servedServiceTier = servedTier;
  const usage = isRecord(response.usage) ? response.usage : undefined;
  if (!usage) return;
  // The counts are integers (the Response object's usage): one present in another form ("9999",
  // -5, 1.5) cannot be read, so the output count is unknown, recorded, never a number (decision 061).
  const details = isRecord(usage.output_tokens_details) ? usage.output_tokens_details : {};
  const unreadable: string[] = [];
  // Text anywhere in the usage report is not read (decision 318); the two counts below judge their own form.
  unrecognized.push(...listUsageText(usage, `${type}.response.usage`, (k) => k === 'output_tokens' || k === 'reasoning_tokens'));
  if (usage.output_tokens != null && !isTokenCount(usage.output_tokens)) unreadable.push(`${type}.response.usage.output_tokens`);
  if (details.reasoning_tokens != null && !isTokenCount(details.reasoning_tokens))
    unreadable.push(`${type}.response.usage.output_tokens_details.reasoning_tokens`);
  if (unreadable.length > 0) {
    unrecognized.push(...unreadable);
    return;
  }
  const output = countValue(usage.output_tokens) ?? countValue(usage.completion_tokens);
  if (output === undefined) return;
  event.outputTokensReported = output;
  const reasoning = countValue(details.reasoning_tokens);
  const metrics: Record<string, number> = {};
  if (reasoning !== undefined) {
    event.reasoningTokensReported = reasoning;
    event.reasoningTokensHidden = state.reasoningStreamed ? 0 : reasoning;
    metrics.reasoningTokens = reasoning;
  }
  const input = countValue(usage.input_tokens);
  if (input !== undefined) metrics.input_tokens = input;
  const cached = isRecord(usage.input_tokens_details) ? countValue(usage.input_tokens_details.cached_tokens) : undefined;
  if (cached !== undefined) metrics.cached_tokens = cached;
  addCachedInput('openai-responses', usage, event);
  if (Object.keys(metrics).length > 0) event.providerMetrics = metrics;
}

/**
 * Text of a terminal response's `output` when nothing was streamed (a server that answers a
 * stream request with lifecycle events and one whole response): counted once, as one event.
 */
function readWholeOutput(response: Record<string, unknown>, event: WireEvent, state: ResponsesDecoderState, unrecognized: string[], type: string): void {
  if (!Array.isArray(response.output)) return;
  // Every item's status counts, streamed or not (a final message `incomplete` is no whole answer).
  response.output.forEach((item, i) => {
    if (isRecord(item)) readItemStatus(item, `${type}.response.output[${i}]`, state, event, unrecognized);
  });
  if (state.anyStreamed) return;
  const text = emptyText();
  const calls: ToolCallDelta[] = [];
  response.output.forEach((item, i) => {
    if (!isRecord(item)) return;
    const path = `response.output[${i}]`;
    if (item.type === 'message') collectText(item.content, 'answer', `${path}.content`, text);
    else if (item.type === 'reasoning') {
      collectText(item.content, 'reasoning', `${path}.content`, text);
      if (text.reasoning === '') collectText(item.summary, 'reasoning', `${path}.summary`, text);
    } else if (TOOL_ITEMS.has(String(item.type))) {
      const args = typeof item.arguments === 'string' ? item.arguments : typeof item.input === 'string' ? item.input : '';
      calls.push({
        key: `resp-${state.toolCount++}`,
        id: nonEmptyString(item.call_id) ?? nonEmptyString(item.id) ?? null,
        name: nonEmptyString(item.name) ?? null,
        argumentsDelta: args,
      });
    } else if (hasText(item) && !['web_search_call', 'file_search_call', 'image_generation_call', 'mcp_list_tools'].includes(String(item.type))) {
      text.unrecognizedPaths.push(`${path}(type=${String(item.type)})`);
    }
  });
  if (text.answer !== '') event.answer = text.answer;
  if (text.reasoning !== '') event.reasoning = text.reasoning;
  if (calls.length > 0) event.toolCalls = calls;
  if (text.unrecognizedPaths.length > 0) event.unrecognizedPaths = [...(event.unrecognizedPaths ?? []), ...text.unrecognizedPaths];
}

function responseError(error: unknown, fallback: string): InStreamError {
  if (!isRecord(error)) return classifyInStreamError(fallback, `in-stream error: ${fallback}`);
  const description = `${String(error.code ?? '')} ${String(error.type ?? '')} ${String(error.message ?? '')}`.trim();
  return classifyInStreamError(description, `in-stream error: ${summarizeErrorText(JSON.stringify({ error }))}`);
}

function interpretEvent(type: string, data: Record<string, unknown>, state: ResponsesDecoderState): WireEvent {
  const event: WireEvent = {};
  const unrecognized: string[] = [];
  // Usage only in the terminal response (decision 191).
  unrecognized.push(...listUnknownUsagePaths(data, (p) => p === 'response.usage').map((p) => `${type}.${p}`));

  if (ANSWER_DELTAS.has(type) || REASONING_DELTAS.has(type)) {
    const channel = ANSWER_DELTAS.has(type) ? 'answer' : 'reasoning';
    const text = deltaText(data.delta, channel);
    // A number or flag as the delta is not text the probe can count (decision 313).
    if (typeof data.delta === 'number' || typeof data.delta === 'boolean') unrecognized.push(`${type}.delta (${typeof data.delta})`);
    // A refusal is a failure, like a filter's finish (decision 307); its text stays a diagnostic.
    if (type === 'response.refusal.delta' && text.trim() !== '') event.error = REFUSAL_ERROR;
    if (text !== '') {
      event[channel] = text;
      state.streamedParts.add(partKey(data, channel));
      addPiece(state, partKey(data, channel), text);
      state.anyStreamed = true;
      if (channel === 'reasoning') state.reasoningStreamed = true;
    }
    for (const [key, value] of Object.entries(data)) if (!EVENT_META_KEYS.has(key) && key !== 'delta' && hasText(value)) unrecognized.push(`${type}.${key}`);
  } else if (TOOL_DELTAS.has(type)) {
    const { key, opened } = toolKeyOf(data, state);
    const text = typeof data.delta === 'string' ? data.delta : '';
    if (text !== '' || opened) event.toolCalls = [{ key, argumentsDelta: text, ...(opened ? { id: null, name: null } : {}) }];
    if (text !== '') {
      state.streamedParts.add(`tool:${key}`);
      addPiece(state, `tool:${key}`, text);
      state.anyStreamed = true;
    }
  } else if (type in DONE_EVENTS) {
    // A repeat of the deltas, unless the item's text never came as deltas.
    const { channel, key } = DONE_EVENTS[type]!;
    const text = typeof data[key] === 'string' ? (data[key] as string) : '';
    const pieceKey = channel === 'tool' ? `tool:${toolKeyOf(data, state).key}` : partKey(data, channel);
    // A `.done` text that differs from its deltas (longer, other words) says the deltas were not the
    // answer: which text the user got is unknown, so it is recorded (decision 061).
    if (text !== '' && doneMatchesDeltas(state, pieceKey, text) === false) unrecognized.push(`${type}.${key} (differs from the deltas)`);
    if (channel === 'tool') {
      const callKey = pieceKey.slice('tool:'.length);
      if (text !== '' && !state.streamedParts.has(pieceKey)) {
        event.toolCalls = [{ key: callKey, argumentsDelta: text }];
        state.streamedParts.add(pieceKey);
        addPiece(state, pieceKey, text);
        state.anyStreamed = true;
      }
    } else if (text !== '' && !state.streamedParts.has(pieceKey)) {
      if (type === 'response.refusal.done' && text.trim() !== '') event.error = REFUSAL_ERROR;
      event[channel] = text;
      state.streamedParts.add(pieceKey);
      addPiece(state, pieceKey, text);
      state.anyStreamed = true;
      if (channel === 'reasoning') state.reasoningStreamed = true;
    }
  } else if (type === 'response.content_part.done' || type === 'response.reasoning_summary_part.done') {
    // The finished part repeats its text; one that differs from what the part received is recorded.
    const part = isRecord(data.part) ? data.part : {};
    const channel = type === 'response.reasoning_summary_part.done' || part.type === 'reasoning_text' ? 'reasoning' : 'answer';
    const textKey = part.type === 'refusal' ? 'refusal' : 'text';
    const text = typeof part[textKey] === 'string' ? (part[textKey] as string) : '';
    const matches = text === '' ? true : doneMatchesDeltas(state, partKey(data, channel), text);
    if (matches === false) unrecognized.push(`${type}.part.${textKey} (differs from the deltas)`);
    // A finished part whose text never came as deltas, in a stream whose text did: that text is
    // counted nowhere (the terminal output is then a repeat), so it is recorded (decision 313).
    else if (matches === undefined && state.anyStreamed) unrecognized.push(`${type}.part.${textKey} (never streamed)`);
  } else if (type === 'response.output_item.done') {
    if (isRecord(data.item)) readItemStatus(data.item, `${type}.item`, state, event, unrecognized);
  } else if (type === 'response.output_item.added') {
    const item = isRecord(data.item) ? data.item : {};
    if (TOOL_ITEMS.has(String(item.type))) {
      const itemId = nonEmptyString(item.id) ?? nonEmptyString(data.item_id);
      const { key } = toolKeyOf({ item_id: itemId, output_index: data.output_index }, state);
      const args = typeof item.arguments === 'string' ? item.arguments : '';
      event.toolCalls = [{ key, id: nonEmptyString(item.call_id) ?? itemId ?? null, name: nonEmptyString(item.name) ?? null, argumentsDelta: args }];
      if (args !== '') {
        state.streamedParts.add(`tool:${key}`);
        addPiece(state, `tool:${key}`, args);
        state.anyStreamed = true;
      }
    }
  } else if (type === 'response.completed' || type === 'response.incomplete') {
    const response = isRecord(data.response) ? data.response : {};
    readWholeOutput(response, event, state, unrecognized, type);
    readUsage(response, event, state, unrecognized, type);
    event.finishReason = terminalFinish(type, response, unrecognized);
    // An output item stated incomplete is a whole answer only when the response says the output
    // budget ran out (length); beside a clean stop it contradicts the status, so the generation
    // failed (a failed or unknown finish is already judged by itself).
    const verdict = classifyFinish('openai-responses', event.finishReason);
    if (state.incompleteItem !== null && verdict.verdict === 'clean' && verdict.finishReason !== 'length')
      event.error ??= { kind: 'stream_error', message: `${state.incompleteItem}.status "incomplete" but the response ended "${event.finishReason}"` };
    // A terminal response that states an error (any non-null `error`, whatever its status) failed
    // (decision 307): `completed` with `error: {code: "server_error"}` is no clean end.
    if (response.error != null && response.error !== false && response.error !== '' && !(isRecord(response.error) && Object.keys(response.error).length === 0))
      event.error = responseError(response.error, 'response error');
    event.complete = true;
    event.terminal = true;
    state.complete = true;
  } else if (type === 'response.failed' || type === 'response.cancelled') {
    const response = isRecord(data.response) ? data.response : {};
    readUsage(response, event, state, unrecognized, type);
    event.error = responseError(response.error, type === 'response.cancelled' ? 'response cancelled' : 'response failed');
    event.terminal = true;
  } else if (type === 'error') {
    event.error = responseError(isRecord(data.error) ? data.error : data, 'error event');
  } else if (!SILENT_EVENTS.has(type)) {
    // An event type this adapter does not know: recorded when it carries text.
    const rest = Object.fromEntries(Object.entries(data).filter(([k]) => !EVENT_META_KEYS.has(k)));
    if (hasText(rest)) unrecognized.push(`event:${type}`);
  }
  if (unrecognized.length > 0) event.unrecognizedPaths = [...(event.unrecognizedPaths ?? []), ...unrecognized];
  return event;
}

/** Checks `sequence_number` against the last one seen: a gap, repeat or step back is evidence. */
function checkSequence(data: Record<string, unknown>, state: ResponsesDecoderState): string | undefined {
  const n = data.sequence_number;
  if (typeof n !== 'number' || !Number.isInteger(n)) return undefined;
  const last = state.lastSequence;
  state.lastSequence = last === null ? n : Math.max(last, n);
  if (last === null || n === last + 1) return undefined;
  if (n === last) return `repeat ${n}`;
  return n < last ? `backwards ${last}→${n}` : `gap ${last}→${n}`;
}

/** Adapter for the OpenAI Responses API (stream: true). */
export const openAiResponsesAdapter: ProtocolAdapter = {
  protocol: 'openai-responses',
  cumulativeText: true,
  buildRequest(input) {
    // The base names the API root (".../v1"); a full ".../responses" URL is accepted as is.
    const url = pathEndsWith(input.url, '/responses') ? input.url : joinUrl(input.url, 'responses');
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
    if (input.apiKey) {
      headers.authorization = `Bearer ${input.apiKey}`;
      // Azure key auth reads `api-key` (its v1 API serves /openai/v1/responses without api-version).
      if (new URL(url).hostname.endsWith('.azure.com')) headers['api-key'] = input.apiKey;
    }
    const tier = input.serviceTier ? serviceTierFields('openai-responses', input.serviceTier) : null;
    if (tier) Object.assign(headers, tier.headers);
    const body = {
      model: input.model,
      input: input.prompt,
      ...(input.conversation ? conversationFields('openai-responses', input.conversation) : {}),
      stream: true,
      max_output_tokens: input.maxOutputTokens,
      ...tier?.body,
      ...(input.output ? structuredOutputFields('openai-responses', input.output) : {}),
    };
    return { url, init: { method: 'POST', headers, body: JSON.stringify(body) } };
  },
  createDecoder(sink) {
    const state: ResponsesDecoderState = {
      lastSequence: null,
      complete: false,
      reasoningStreamed: false,
      toolKeyByItem: new Map(),
      toolKeyByIndex: new Map(),
      toolCount: 0,
      streamedParts: new Set(),
      anyStreamed: false,
      pieces: new Map(),
      incompleteItem: null,
    };
    return createSseDecoder(sink, {
      // There is no [DONE] in this protocol: one sent anyway after completion is trailing noise.
      doneIsTerminal: false,
      isComplete: () => state.complete,
      onJson: (value, message) => {
        const type = typeof value.type === 'string' && value.type !== '' ? value.type : (message.event ?? (value.error !== undefined ? 'error' : ''));
        const sequenceIssue = checkSequence(value, state);
        const event = interpretEvent(type, value, state);
        if (sequenceIssue !== undefined) event.sequenceIssue = sequenceIssue;
        // Every data object's `type` equals its SSE event name (OpenAI Responses streaming events):
        // an event named otherwise (`event: response.failed` over a response.completed) says two
        // things, and which one is true is unknown (decision 061).
        const dataType = typeof value.type === 'string' && value.type !== '' ? value.type : undefined;
        if (message.event !== undefined && message.event !== '' && dataType !== undefined && message.event !== dataType)
          event.unrecognizedPaths = [...(event.unrecognizedPaths ?? []), `event:${message.event.slice(0, 60)} (data type ${dataType.slice(0, 60)})`];
        return event;
      },
    });
  },
};
