/**
 * OpenAI Chat Completions streaming (`POST {base}/chat/completions`, SSE), spoken by OpenAI,
 * Azure OpenAI, Groq, SambaNova, OpenRouter, Together, Fireworks and by the open serving engines
 * (vLLM, SGLang, TensorRT-LLM `trtllm-serve`, NVIDIA NIM).
 *
 * Quirks handled here (case ids refer to lib/probe/test-support/cases):
 * - framing (comments, `data:` without space, CRLF, multi-line data, consecutive-line events,
 *   `error:` fields, bare JSON bodies, HTML): ../framing/sse-framer.ts and ./sse-messages.ts;
 * - role-only chunks, `content: ""`/null, empty `choices` (Azure prompt filter), choices without
 *   `delta` (Azure async filter annotations) carry no tokens (C06, C07, C08);
 * - text in every shape (decision 061): `content` as a string or typed parts (F02, T32), the first
 *   reasoning field with text among `reasoning_content`, `reasoning`, `reasoning_details` (C08,
 *   F10, T31), `refusal`, `message` without `delta`, Completions `text`; any other field holding
 *   text is recorded as an unrecognised path (T33);
 * - cumulative servers that repeat all text so far in each chunk (C10): flagged via
 *   `cumulativeText`, resolved by the accumulator after the stream;
 * - tool calls keyed by index (a new id without a name on a known index is the same call, S27),
 *   by id without index (F03), continuations without either (T45);
 * - usage from exactly one source: top-level `usage` (running usage in every chunk → last value,
 *   provisional until the finish, T46), else the choice's `usage` (Moonshot, S13), `x_groq.usage`
 *   only as fallback (C11, C12, C14); usage anywhere else is unrecognised (S15, decision 191); reasoning
 *   tokens counted outside completion_tokens added where total_tokens shows it (F04, T47); the
 *   reasoning count reported as hidden when no reasoning text was streamed (decision 065, T56-T58);
 * - in-band errors: `error` objects (C15), `{"object":"error"}` (T48), `finish_reason: "error"`
 *   (T39), `event: error`;
 * - success by `[DONE]`, or by a non-null finish_reason followed by a clean close (C17); noise after
 *   the finish never fails it (T41).
 */
import { CLEAN_FINISHES, classifyFinish, namesFailure } from '../finish-reasons';
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
import { isTokenCountKey, listUnknownUsagePaths, listUnreadableCounts, listUsageText } from './usage-places';

/** Per-stream state of the OpenAI decoder. */
interface ChatDecoderState {
  /** a top-level `usage` was seen: `x_groq.usage` is then ignored (one source only) */
  topLevelUsageSeen: boolean;
  /** a finish_reason was seen */
  complete: boolean;
  /** tool-call key by call id, for fragments without `index` */
  toolKeyById: Map<string, string>;
  /** call id by `index`, to notice a new call reusing an index */
  toolIdByIndex: Map<number, string>;
  /** current call key by `index` */
  toolKeyByIndex: Map<number, string>;
  /** the id a call was opened with, by key */
  toolIdByKey: Map<string, string>;
  /** the most recently opened call's key (continuations without index or id) */
  lastToolKey: string | null;
  toolCount: number;
  /** reasoning text has been streamed (a later reasoning count is then not hidden, decision 065) */
  reasoningStreamed: boolean;
  /** the answer and reasoning the deltas said so far, concatenated, and each channel's last piece (a cumulative server's whole text) */
  said: { answer: string; reasoning: string; lastAnswer: string; lastReasoning: string };
}

/** Delta (and choice.message) keys read here; anything else holding text is recorded as unrecognised. */
const DELTA_KEYS = new Set([
  'role',
  'content',
  'reasoning_content',
  'reasoning',
  'reasoning_details',
  'tool_calls',
  'function_call',
  'refusal',
  'annotations',
  'name',
  'tool_call_id',
  'id',
  'type',
  'index',
  'extra_content',
]);
/** Choice keys read here or known to carry no generated text. */
const CHOICE_KEYS = new Set([
  'index',
  'usage',
  'delta',
  'message',
  'text',
  'finish_reason',
  'native_finish_reason',
  'stop_reason',
  'matched_stop',
  'logprobs',
  'content_filter_results',
  'content_filter_result',
  'content_filter_offsets',
  'error',
  'finish_details',
  'seed',
]);
/**
 * Top-level keys of a chunk that carry no generated text. Any other top-level key holding text,
 * beside `choices` or without them, is recorded as unrecognised (decision 310): the text a stream
 * carries where the probe does not look is text it would not count.
 */
const CHUNK_META_KEYS = new Set([
  'id',
  'object',
  'created',
  'created_at',
  'model',
  'system_fingerprint',
  'service_tier',
  'provider',
  'usage',
  'x_groq',
  'error',
  'choices',
  'type',
  // Azure's prompt filter verdicts (C06), OpenAI's stream `obfuscation` padding
  'prompt_filter_results',
  'obfuscation',
  // Perplexity and xAI search references
  'citations',
  'search_results',
  'images',
  'related_questions',
  // NVIDIA NIM extensions, vLLM prompt details asked for by the client, Cerebras timings
  'nvext',
  'prompt_logprobs',
  'prompt_token_ids',
  'kv_transfer_params',
  'time_info',
  'request_id',
  // opt-in figures: Fireworks `perf_metrics` (perf_metrics_in_response), OpenRouter's experimental metadata header
  'perf_metrics',
  'openrouter_metadata',
  // read by topLevelFailure: a failure when they say one, metadata when they say a clean word
  'status',
  'state',
  'errors',
]);

/** Top-level `status` / `state` words that say a generation is going or went well (decision 313). */
const CLEAN_STATUSES = new Set([
  'completed',
  'complete',
  'in_progress',
  'running',
  'streaming',
  'generating',
  'queued',
  'success',
  'succeeded',
  'ok',
  'done',
  'finished',
]);

/**
 * Reads the text of a delta (or a non-streamed `message`) in every shape in use: `content` as a
 * string or a list of typed parts (Mistral magistral `thinking` parts, F02), `refusal`, and the
 * first reasoning field that holds text among `reasoning_content` (DeepSeek, vLLM, xAI),
 * `reasoning` (OpenRouter, Ollama, newer vLLM) and `reasoning_details` (OpenRouter, MiniMax): a
 * server sending several of them repeats the same text, so only one is read.
 */
function readDelta(delta: Record<string, unknown>, path: string, event: WireEvent, unrecognized: string[]): void {
  const text = emptyText();
  collectText(delta.content, 'answer', `${path}.content`, text);
  collectText(delta.refusal, 'answer', `${path}.refusal`, text);
  // A refusal is a failure, like a filter's finish (decision 307); its text stays a diagnostic.
  if (hasText(delta.refusal)) event.error ??= REFUSAL_ERROR;
  let reasoningKey: string | undefined;
  for (const key of ['reasoning_content', 'reasoning', 'reasoning_details'] as const) {
    if (!hasText(delta[key])) continue;
    if (reasoningKey === undefined) {
      collectText(delta[key], 'reasoning', `${path}.${key}`, text);
      reasoningKey = key;
    } else if (saysOtherText(delta[key], text.reasoning)) {
      // A second reasoning field saying other words than the first: one of them is not read (decision 313).
      unrecognized.push(`${path}.${key} (differs from ${reasoningKey})`);
    }
  }
  // The same text as answer and as reasoning in one delta is one output given twice: counted once,
  // and the shape is not one we know (a server that means both would never say the same words).
  if (text.answer.trim() !== '' && text.answer.trim() === text.reasoning.trim()) {
    unrecognized.push(`${path}.reasoning (same text as content)`);
    text.reasoning = '';
  }
  if (text.answer !== '') event.answer = (event.answer ?? '') + text.answer;
  if (text.reasoning !== '') event.reasoning = (event.reasoning ?? '') + text.reasoning;
  unrecognized.push(...text.unrecognizedPaths);
  // A refusal as a typed content part (`{"type":"refusal","refusal":...}`) is the same refusal.
  if (text.refused) event.error ??= REFUSAL_ERROR;
  // Gemini's OpenAI-compatible `extra_content` carries thought signatures, not text (decision 313).
  if (isRecord(delta.extra_content)) {
    for (const [vendor, fields] of Object.entries(delta.extra_content)) {
      if (!isRecord(fields)) {
        if (hasText(fields)) unrecognized.push(`${path}.extra_content.${vendor}`);
        continue;
      }
      for (const [k, v] of Object.entries(fields)) if (k !== 'thought_signature' && hasText(v)) unrecognized.push(`${path}.extra_content.${vendor}.${k}`);
    }
  }
  for (const [key, value] of Object.entries(delta)) {
    if (!DELTA_KEYS.has(key) && hasText(value) && !repeatsText(value, [text.answer, text.reasoning])) unrecognized.push(`${path}.${key}`);
  }
}

/** What the stream has said: the deltas before this chunk and this chunk's own text, as whole texts a copy may repeat. */
interface SaidTexts {
  answers: string[];
  reasonings: string[];
}

/**
 * The texts a whole-text copy in this chunk may equal: everything said so far (before plus this
 * chunk's event), this chunk's own text (a Completions `text` beside its delta), or the last piece
 * (a cumulative server's whole text, C10).
 */
function said(before: ChatDecoderState['said'], event: WireEvent): SaidTexts {
  const answer = event.answer ?? '';
  const reasoning = event.reasoning ?? '';
  return {
    answers: [before.answer + answer, answer, answer !== '' ? answer : before.lastAnswer],
    reasonings: [before.reasoning + reasoning, reasoning, reasoning !== '' ? reasoning : before.lastReasoning],
  };
}

/**
 * True when a whole-text object (a final `message`, a `text` beside the delta) says other text
 * than the deltas: the stream gives two outputs and which one was generated is unknown (decision
 * 318; OpenAI Chat Completions streams only `delta`, so a `message` is a server's own copy). A
 * channel it leaves empty is no claim; whitespace at the ends is not compared.
 */
function wholeDiffers(whole: WireEvent, texts: SaidTexts): boolean {
  const differs = (text: string | undefined, candidates: string[]) =>
    text !== undefined && text.trim() !== '' && !candidates.some((c) => c === text || c.trim() === text.trim());
  return differs(whole.answer, texts.answers) || differs(whole.reasoning, texts.reasonings);
}

/** True when `value` holds readable text (encrypted parts hold none) other than `text`. */
function saysOtherText(value: unknown, text: string): boolean {
  const other = emptyText();
  collectText(value, 'reasoning', '', other);
  const said = (other.answer + other.reasoning).trim();
  return said !== '' && said !== text.trim();
}

/**
 * True when every text in `value` together is one of `texts` (non-empty): a field that only
 * repeats what a known field of the same event said (a gateway's `thinking_blocks` beside
 * `reasoning_content`, a `text` beside `content`) is the same output given twice, counted once
 * and not unrecognised (issue 22, decision 191).
 */
function repeatsText(value: unknown, texts: string[]): boolean {
  const collected = emptyText();
  collectText(value, 'answer', '', collected);
  const all = collected.answer + collected.reasoning;
  return all !== '' && texts.some((t) => t !== '' && (t === all || t.trim() === all.trim()));
}

/**
 * Tool-call fragments. The key of a fragment: its `index`, unless that index already belongs to
 * a call with a different id (a server numbering every call 0); without `index`, its `id` (a new
 * id opens a new call, F03); without either, the most recently opened call (a continuation).
 */
function readToolCalls(delta: Record<string, unknown>, state: ChatDecoderState): ToolCallDelta[] {
  const calls: ToolCallDelta[] = [];
  const fragments: unknown[] = Array.isArray(delta.tool_calls) ? [...delta.tool_calls] : [];
  if (isRecord(delta.function_call)) fragments.push({ ...delta.function_call, legacy: true });
  for (const call of fragments) {
    if (!isRecord(call)) continue;
    const fn = isRecord(call.function) ? call.function : call.legacy === true ? call : {};
    const id = nonEmptyString(call.id);
    const newKey = () => `call-${state.toolCount++}`;
    let key: string;
    if (call.legacy === true) key = 'function_call';
    else if (id !== undefined && state.toolKeyById.has(id)) key = state.toolKeyById.get(id)!;
    else if (typeof call.index === 'number') {
      const knownId = state.toolIdByIndex.get(call.index);
      const knownKey = state.toolKeyByIndex.get(call.index);
      // The index identifies the call. Only a fragment that opens a call (a new id AND a function
      // name) on an index that already has one is a new call (servers that number every call 0);
      // a new id without a name is a later fragment of the same call (issue 22).
      const opensNew = id !== undefined && knownId !== undefined && knownId !== id && nonEmptyString(fn.name) !== undefined;
      key = knownKey !== undefined && !opensNew ? knownKey : newKey();
      state.toolKeyByIndex.set(call.index, key);
      if (id !== undefined && (opensNew || knownId === undefined)) state.toolIdByIndex.set(call.index, id);
    } else if (id !== undefined) key = newKey();
    else key = state.lastToolKey ?? newKey();
    if (id !== undefined && !state.toolKeyById.has(id)) state.toolKeyById.set(id, key);
    // Report the id of the fragment that opened the call; a later fragment's other id is not a new identity.
    if (id !== undefined && state.toolIdByKey.has(key) && state.toolIdByKey.get(key) !== id) {
      calls.push({ key, name: nonEmptyString(fn.name) ?? null, argumentsDelta: argumentsOf(fn.arguments) });
      state.lastToolKey = key;
      continue;
    }
    if (id !== undefined && !state.toolIdByKey.has(key)) state.toolIdByKey.set(key, id);
    state.lastToolKey = key;
    calls.push({ key, id: id ?? null, name: nonEmptyString(fn.name) ?? null, argumentsDelta: argumentsOf(fn.arguments) });
  }
  return calls;
}

/** Tool-call fragment keys (Chat Completions `ChoiceDeltaToolCall`: index, id, type, function). */
const TOOL_CALL_KEYS = new Set(['index', 'id', 'type', 'function']);
/** Function keys read (`ChoiceDeltaToolCallFunction`: name, arguments; the legacy `function_call` alike). */
const FUNCTION_KEYS = new Set(['name', 'arguments']);

/**
 * Paths of text in a delta's tool calls under keys the Chat Completions reference does not give
 * them (`function.output`, a call's `result`): the probe reads only the name and the arguments,
 * so text elsewhere is text it would drop (decision 318).
 */
function toolCallTextPaths(delta: Record<string, unknown>, path: string): string[] {
  const out: string[] = [];
  const readFunction = (fn: unknown, at: string) => {
    if (!isRecord(fn)) {
      if (hasText(fn)) out.push(at);
      return;
    }
    for (const [k, v] of Object.entries(fn)) if (!FUNCTION_KEYS.has(k) && hasText(v)) out.push(`${at}.${k}`);
  };
  if (Array.isArray(delta.tool_calls)) {
    delta.tool_calls.forEach((call, i) => {
      if (!isRecord(call)) return;
      for (const [k, v] of Object.entries(call)) if (!TOOL_CALL_KEYS.has(k) && hasText(v)) out.push(`${path}.tool_calls[${i}].${k}`);
      if (call.function !== undefined && call.function !== null) readFunction(call.function, `${path}.tool_calls[${i}].function`);
    });
  }
  if (delta.function_call !== undefined && delta.function_call !== null) readFunction(delta.function_call, `${path}.function_call`);
  return out;
}

/** A fragment's argument text: a string as sent, an object as its JSON. */
function argumentsOf(args: unknown): string {
  return typeof args === 'string' ? args : isRecord(args) && Object.keys(args).length > 0 ? JSON.stringify(args) : '';
}

/**
 * Reasoning tokens a provider counts outside `completion_tokens` (xAI): added when `total_tokens`
 * shows them apart (prompt + completion + reasoning = total, and prompt + completion ≠ total).
 * OpenAI counts them inside completion_tokens (prompt + completion = total): nothing added.
 */
function outputCount(usage: Record<string, unknown>): number | undefined {
  // Gateways relaying the Responses/Messages APIs name the fields output_tokens / input_tokens.
  const completion = countValue(usage.completion_tokens) ?? countValue(usage.output_tokens);
  if (completion === undefined) return undefined;
  const details = isRecord(usage.completion_tokens_details)
    ? usage.completion_tokens_details
    : isRecord(usage.output_tokens_details)
      ? usage.output_tokens_details
      : {};
  const reasoning = countValue(details.reasoning_tokens) ?? countValue(usage.reasoning_tokens);
  const prompt = countValue(usage.prompt_tokens) ?? countValue(usage.input_tokens);
  const total = countValue(usage.total_tokens);
  if (reasoning && prompt !== undefined && total !== undefined && prompt + completion !== total && prompt + completion + reasoning === total) {
    return completion + reasoning;
  }
  return completion;
}

/**
 * The usage's reasoning count (`completion_tokens_details.reasoning_tokens`, or the Responses-style
 * `output_tokens_details`, or a top-level `reasoning_tokens`) onto `event`: as reported, and as
 * hidden when no reasoning text was streamed before it (OpenAI o-series / gpt-5 and xAI grok-4
 * stream none; DeepSeek, vLLM, SGLang, grok-3-mini stream it as `reasoning_content`, and those
 * tokens are visible: nothing hidden). Both counts are inside `outputCount` (xAI's are added
 * there). Decision 065. Returns the reasoning count, undefined when the usage has none.
 */
function readReasoningCount(usage: Record<string, unknown>, event: WireEvent, state: ChatDecoderState): number | undefined {
  const details = isRecord(usage.completion_tokens_details)
    ? usage.completion_tokens_details
    : isRecord(usage.output_tokens_details)
      ? usage.output_tokens_details
      : {};
  const reasoning = countValue(details.reasoning_tokens) ?? countValue(usage.reasoning_tokens);
  if (reasoning === undefined) return undefined;
  event.reasoningTokensReported = reasoning;
  event.reasoningTokensHidden = state.reasoningStreamed ? 0 : reasoning;
  return reasoning;
}

/** Interprets one OpenAI chunk object; `state` keeps the usage source and tool-call keys across chunks. */
function interpretChunk(chunk: Record<string, unknown>, state: ChatDecoderState): WireEvent {
  const event: WireEvent = {};
  const unrecognized: string[] = [];
  if (chunk.error != null && chunk.error !== false) {
    event.error = inBandError(chunk.error);
  } else if (chunk.object === 'error' || chunk.type === 'error') {
    // vLLM / SGLang write in-stream failures as {"object":"error","message":...,"code":...}.
    event.error = inBandError({ message: chunk.message ?? chunk.detail, type: chunk.type === 'error' ? undefined : chunk.type, code: chunk.code });
  }
  // A failure stated beside the choices (`errors: [...]`, `status: "failed"`): a failure wherever it is said.
  if (!event.error) {
    const failure = topLevelFailure(chunk);
    if (failure) event.error = failure;
  }
  if (Array.isArray(chunk.choices)) {
    for (const key of ERROR_PART_KEYS) {
      const v = chunk[key];
      if ((typeof v === 'number' && key.includes('code')) || hasText(v)) unrecognized.push(key);
    }
  }
  const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
  // n = 1 is what the probe asks for; take choice index 0 wherever it sits.
  const position = choices.findIndex((c) => isRecord(c) && (c.index === 0 || c.index === undefined));
  const at = position >= 0 ? position : 0;
  const choice = choices[at];
  // A second choice claiming index 0 with text: which one is the answer is unknown (never dropped silently).
  choices.forEach((c, i) => {
    if (i === at || !isRecord(c) || !hasText(c)) return;
    // Another choice with text or a finish: the probe asks for one (n = 1), so which one is the
    // answer is unknown (never dropped silently).
    unrecognized.push(c.index === 0 || c.index === undefined ? `choices[${i}] (a second choice 0)` : `choices[${i}] (another choice)`);
  });
  if (!event.error) {
    const filtered = filteredByContentFilter(chunk, isRecord(choice) ? choice : undefined);
    if (filtered) event.error = filtered;
  }
  unrecognized.push(...unknownStatusPaths(chunk));
  if (isRecord(choice)) {
    const path = `choices[${at}]`;
    // `message` (a whole non-streamed answer) reads like a delta; `text` is the Completions shape.
    // (`message` only when there is no `delta`: a final chunk carrying both would count twice.)
    const saidBefore = { ...state.said };
    for (const key of ['delta', 'message'] as const) {
      const delta = choice[key];
      if (!isRecord(delta)) continue;
      if (key === 'message' && isRecord(choice.delta)) {
        // A whole message beside the delta is not read (it would count twice), so it must say what the deltas said.
        const whole: WireEvent = {};
        readDelta(delta, `${path}.${key}`, whole, []);
        if (wholeDiffers(whole, said(saidBefore, event))) unrecognized.push(`${path}.message (differs from the deltas)`);
        continue;
      }
      // A whole message after deltas (a server's final non-streamed copy) is read, but only what the deltas said is a copy.
      if (key === 'message' && (saidBefore.answer !== '' || saidBefore.reasoning !== '')) {
        const whole: WireEvent = {};
        readDelta(delta, `${path}.${key}`, whole, []);
        if (wholeDiffers(whole, said(saidBefore, {}))) unrecognized.push(`${path}.message (differs from the deltas)`);
        // The same text again is a copy, counted once (even after a single delta), unless it carries tool calls to read.
        else if (!Array.isArray(delta.tool_calls) && delta.function_call === undefined && (whole.answer ?? '') + (whole.reasoning ?? '') !== '') continue;
      }
      readDelta(delta, `${path}.${key}`, event, unrecognized);
      if (event.reasoning !== undefined && event.reasoning !== '') state.reasoningStreamed = true;
      // Reasoning written inline in the answer as `<think>…</think>` (Perplexity sonar-reasoning,
      // MiniMax without a reasoning split) was streamed: its count is visible, not hidden (decision 065).
      if (!state.reasoningStreamed && event.answer !== undefined && /<think>/i.test(event.answer)) state.reasoningStreamed = true;
      unrecognized.push(...toolCallTextPaths(delta, `${path}.${key}`));
      const calls = readToolCalls(delta, state);
      if (calls.length > 0) event.toolCalls = [...(event.toolCalls ?? []), ...calls];
    }
    // Completions-style `text` only without a delta: Together sends both, with the same text.
    if (typeof choice.text === 'string' && choice.text !== '' && !isRecord(choice.delta) && !isRecord(choice.message)) {
      event.answer = (event.answer ?? '') + choice.text;
    } else if (typeof choice.text === 'string' && choice.text !== '' && wholeDiffers({ answer: choice.text }, said(saidBefore, event))) {
      // Beside a delta the text is not read, so it must be the delta's text (or the whole text so far).
      unrecognized.push(`${path}.text (differs from the deltas)`);
    }
    if (event.answer !== undefined && event.answer !== '') {
      state.said.answer += event.answer;
      state.said.lastAnswer = event.answer;
    }
    if (event.reasoning !== undefined && event.reasoning !== '') {
      state.said.reasoning += event.reasoning;
      state.said.lastReasoning = event.reasoning;
    }
    for (const [key, value] of Object.entries(choice)) {
      if (!CHOICE_KEYS.has(key) && hasText(value) && !repeatsText(value, [event.answer ?? '', event.reasoning ?? ''])) unrecognized.push(`${path}.${key}`);
    }
    if (choice.error != null && choice.error !== false && !event.error) event.error = inBandError(choice.error);
    if (isRecord(choice.delta) && choice.delta.error != null && choice.delta.error !== false && !event.error) event.error = inBandError(choice.delta.error);
    // A failure stated in the finish fields beside finish_reason (decision 307): a gateway's
    // upstream word (`native_finish_reason: "content_filter"` beside "stop"), `finish_details.type`.
    if (!event.error) {
      const failure = sideFinishFailure(choice);
      if (failure) event.error = failure;
    }
    const native = choice.native_finish_reason;
    if (typeof native === 'string' && native.trim() !== '' && !isKnownFinishWord(native))
      unrecognized.push(`${path}.native_finish_reason (${native.slice(0, 40)})`);
    // A finish_reason that is not a string (an object, an array) is a finish of unknown meaning:
    // recorded as its JSON, so it is `unknown_finish` (decision 307), never silently no finish.
    const rawFinish = choice.finish_reason;
    const finish =
      rawFinish !== null && rawFinish !== undefined && typeof rawFinish !== 'string' ? JSON.stringify(rawFinish).slice(0, 100) : nonEmptyString(rawFinish);
    if (finish === 'error') {
      // OpenRouter and others end a failed generation with finish_reason "error".
      if (!event.error)
        event.error = classifyInStreamError(
          String(choice.native_finish_reason ?? ''),
          `finish_reason "error"${choice.native_finish_reason ? ` (${String(choice.native_finish_reason)})` : ''}`,
        );
    } else if (finish !== undefined) {
      event.finishReason = finish;
      event.complete = true;
      state.complete = true;
    }
  } else if (!Array.isArray(chunk.choices) && !event.error) {
    // A chunk shape without `choices` (and not an error): any text in it is unrecognised; a typed
    // event of another API (`{"type":"response.output_text.delta",...}`) is recorded by its type.
    const texts = Object.entries(chunk).filter(([key, value]) => !CHUNK_META_KEYS.has(key) && hasText(value));
    if (texts.length > 0 && typeof chunk.type === 'string' && chunk.type !== '') unrecognized.push(`event:${chunk.type}`);
    else for (const [key] of texts) unrecognized.push(key);
  }
  // Usage where the servers of the field put it: top level (OpenAI, vLLM, SGLang, Groq's
  // include_usage chunk, SambaNova), inside the choice (Moonshot/Kimi, some gateways), then
  // `x_groq.usage` as fallback. One source per chunk, in that order (decision 191).
  const choiceUsage = isRecord(choice) && isRecord(choice.usage) ? choice.usage : undefined;
  const usage =
    isRecord(chunk.usage) && outputCount(chunk.usage) !== undefined
      ? chunk.usage
      : choiceUsage && outputCount(choiceUsage) !== undefined
        ? choiceUsage
        : isRecord(chunk.usage)
          ? chunk.usage
          : undefined;
  const usageCount = usage ? outputCount(usage) : undefined;
  unrecognized.push(...listUnknownUsagePaths(chunk, (p) => p === 'usage' || p === 'x_groq.usage' || /^choices\[\d+\]\.usage$/.test(p)));
  if (isRecord(chunk.usage)) unrecognized.push(...listUnreadableCounts(chunk.usage, 'usage'), ...listUsageText(chunk.usage, 'usage', isTokenCountKey));
  if (choiceUsage)
    unrecognized.push(...listUnreadableCounts(choiceUsage, `choices[${at}].usage`), ...listUsageText(choiceUsage, `choices[${at}].usage`, isTokenCountKey));
  if (isRecord(chunk.x_groq) && isRecord(chunk.x_groq.usage))
    unrecognized.push(...listUnreadableCounts(chunk.x_groq.usage, 'x_groq.usage'), ...listUsageText(chunk.x_groq.usage, 'x_groq.usage', isTokenCountKey));
  const servedTier = servedTierOf(chunk.service_tier);
  if (servedTier !== undefined) event.servedServiceTier = servedTier;
  if (usage && usageCount !== undefined) {
    state.topLevelUsageSeen = true;
    event.outputTokensReported = usageCount;
    // Running usage before the finish is provisional: a stream cut after it has no final count.
    if (!state.complete) event.outputTokensProvisional = true;
    const metrics = numericFields(usage, ['completion_tokens', 'prompt_tokens', 'total_tokens']);
    const reasoning = readReasoningCount(usage, event, state);
    addCachedInput('openai-chat', usage, event);
    if (metrics || reasoning !== undefined) event.providerMetrics = { ...metrics, ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}) };
  } else if (!state.topLevelUsageSeen && isRecord(chunk.x_groq) && isRecord(chunk.x_groq.usage)) {
    const groqCount = outputCount(chunk.x_groq.usage);
    if (groqCount !== undefined) {
      event.outputTokensReported = groqCount;
      if (!state.complete) event.outputTokensProvisional = true;
      readReasoningCount(chunk.x_groq.usage, event, state);
    }
    const metrics = numericFields(chunk.x_groq.usage, ['completion_tokens', 'prompt_tokens', 'total_tokens']);
    if (metrics) event.providerMetrics = metrics;
  }
  if (Array.isArray(chunk.choices) && !event.error) {
    // Text beside the choices under a key no server is known to use: not counted, so not rankable
    // (unless it only repeats what the choice said, like a gateway's top-level copy of the text).
    const said = [event.answer ?? '', event.reasoning ?? ''];
    for (const [key, value] of Object.entries(chunk)) {
      if (CHUNK_META_KEYS.has(key) || (ERROR_PART_KEYS as readonly string[]).includes(key)) continue;
      if (hasText(value) && !repeatsText(value, said)) unrecognized.push(key);
    }
  }
  if (isRecord(choice) && choice.logprobs != null) {
    const mismatch = logprobsMismatch(choice.logprobs, event.answer ?? '', event.reasoning ?? '');
    if (mismatch !== undefined) unrecognized.push(`choices[${at}].logprobs${mismatch}`);
  }
  if (unrecognized.length > 0) event.unrecognizedPaths = unrecognized;
  return event;
}

/**
 * What is wrong with a choice's `logprobs`, or undefined when nothing is. The tokens a logprobs
 * block lists (`content[].token`, `refusal[].token`, or the Completions-style `tokens` list) are
 * the tokens of this chunk's text (OpenAI Chat Completions reference, `logprobs.content`): when
 * they say something else than the delta, the stream gives two outputs and which one was
 * generated is unknown (decision 310). Alternatives (`top_logprobs`) and byte lists are not output.
 * Text anywhere else inside the block is a field the probe does not know.
 */
function logprobsMismatch(logprobs: unknown, answer: string, reasoning: string): string | undefined {
  if (!isRecord(logprobs)) return hasText(logprobs) ? '' : undefined;
  const tokens: string[] = [];
  for (const [key, value] of Object.entries(logprobs)) {
    if (key === 'top_logprobs' || key === 'token_logprobs' || key === 'text_offset') continue;
    if ((key === 'content' || key === 'refusal') && Array.isArray(value)) {
      for (const item of value) {
        if (!isRecord(item)) {
          if (hasText(item)) return `.${key}`;
          continue;
        }
        if (typeof item.token === 'string') tokens.push(item.token);
        for (const [k, v] of Object.entries(item)) if (k !== 'token' && k !== 'top_logprobs' && k !== 'bytes' && hasText(v)) return `.${key}[].${k}`;
      }
    } else if (key === 'tokens' && Array.isArray(value) && value.every((t) => typeof t === 'string')) {
      tokens.push(...(value as string[]));
    } else if (hasText(value)) return `.${key}`;
  }
  const listed = tokens.join('');
  if (listed === '') return undefined;
  const said = [answer, reasoning, reasoning + answer, answer + reasoning];
  return said.includes(listed) ? undefined : ' (tokens differ from the text)';
}

/** Statuses that say a generation failed or did not finish (Responses-style `status`, job APIs' `state`). */
const FAILED_STATUSES = new Set([
  'failed',
  'failure',
  'error',
  'errored',
  'cancelled',
  'canceled',
  'aborted',
  'expired',
  'incomplete',
  'rejected',
  // a generation that did not finish (decision 307)
  'partial',
  'truncated',
  'interrupted',
  'timeout',
  'timed_out',
]);

/**
 * Top-level keys that state an error's parts (`code`, `message`, `detail`): beside the choices they
 * are no metadata any provider sends with a generation, so a value there is unrecognised (decision 307).
 */
const ERROR_PART_KEYS = ['code', 'message', 'detail', 'details', 'error_code', 'error_message'] as const;

/**
 * True when some protocol's documented vocabulary knows `word` as a clean finish, or it names a
 * failure or filter (classifyFinish): a gateway's `native_finish_reason` relays the upstream
 * provider's own word (OpenRouter: Gemini's STOP, Anthropic's end_turn...). A word no protocol
 * knows (Gemini's OTHER, `blocked`) says an end of unknown meaning (decision 313).
 */
function isKnownFinishWord(word: string): boolean {
  const w = word.trim().toLowerCase();
  if (Object.values(CLEAN_FINISHES).some((clean) => clean[w] !== undefined)) return true;
  return classifyFinish('openai-chat', w).verdict === 'failed';
}

/**
 * A failure stated in a choice's other finish fields: `native_finish_reason` (OpenRouter and
 * gateways: the upstream provider's word) or `finish_details.type` (older Azure / OpenAI shapes),
 * when it classifies as a failure or a filter (finish-reasons.ts); undefined otherwise (a clean or
 * unknown upstream word, e.g. Gemini's STOP, is no failure).
 */
function sideFinishFailure(choice: Record<string, unknown>): InStreamError | undefined {
  const details = isRecord(choice.finish_details) ? choice.finish_details.type : undefined;
  for (const [field, value] of [
    ['native_finish_reason', choice.native_finish_reason],
    // vLLM's stop_reason: the stop string or token that ended it; the probe sets none, so a word naming a failure is one
    ['stop_reason', choice.stop_reason],
    ['finish_details.type', details],
  ] as const) {
    if (typeof value !== 'string') continue;
    const verdict = classifyFinish('openai-chat', value);
    if (verdict.verdict === 'failed') return { kind: verdict.errorKind, message: `${field}: ${verdict.message}` };
  }
  return undefined;
}

/**
 * A failure a chunk states at its top level beside its choices: a non-empty `errors` list, or a
 * `status` / `state` naming a failed generation. Undefined otherwise (`status: "completed"` is none).
 */
function topLevelFailure(chunk: Record<string, unknown>): InStreamError | undefined {
  if (Array.isArray(chunk.errors) && chunk.errors.length > 0) return inBandError(chunk.errors[0]);
  // `errors` as an object with anything in it: a failure however it is spelled.
  if (isRecord(chunk.errors) && Object.values(chunk.errors).some((v) => v !== null && v !== undefined && v !== false && v !== ''))
    return inBandError(chunk.errors);
  for (const key of ['status', 'state'] as const) {
    const v = chunk[key];
    if (typeof v === 'string' && (FAILED_STATUSES.has(v.toLowerCase().trim()) || namesFailure(v.toLowerCase())))
      return inBandError({ message: `${key} "${v.slice(0, 40)}"` });
    // A status object naming an error (`{code: 500, message}`) is a failure too.
    if (isRecord(v) && (v.code !== undefined || v.error !== undefined || namesFailure(JSON.stringify(v).toLowerCase())))
      return inBandError({ message: `${key} ${JSON.stringify(v).slice(0, 80)}` });
  }
  // Groq states a failure of its own under `x_groq.error` (groq-python ChatCompletionChunk.x_groq).
  if (isRecord(chunk.x_groq) && chunk.x_groq.error != null && chunk.x_groq.error !== false && chunk.x_groq.error !== '') return inBandError(chunk.x_groq.error);
  return undefined;
}

/**
 * Paths of top-level `status` / `state` values that are neither a failure (topLevelFailure) nor
 * a clean word: what they say is unknown (decision 313).
 */
function unknownStatusPaths(chunk: Record<string, unknown>): string[] {
  const paths: string[] = [];
  for (const key of ['status', 'state'] as const) {
    const v = chunk[key];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && (v === '' || CLEAN_STATUSES.has(v.toLowerCase().trim()))) continue;
    if (typeof v !== 'string' && !hasText(v) && (typeof v !== 'number' || v === 200)) continue;
    paths.push(`${key} (${JSON.stringify(v).slice(0, 40)})`);
  }
  return paths;
}

/**
 * A content filter's verdict that it filtered this generation: Azure's `content_filter_results`
 * on the choice (or `prompt_filter_results` on the chunk) with any category `filtered: true`
 * (Azure OpenAI content filtering reference). The filter then cut or replaced the answer, so it
 * is a failure whatever finish follows.
 */
function filteredByContentFilter(chunk: Record<string, unknown>, choice: Record<string, unknown> | undefined): InStreamError | undefined {
  const verdicts: unknown[] = [choice?.content_filter_results, choice?.content_filter_result];
  if (Array.isArray(chunk.prompt_filter_results)) for (const p of chunk.prompt_filter_results) if (isRecord(p)) verdicts.push(p.content_filter_results);
  for (const verdict of verdicts) {
    if (!isRecord(verdict)) continue;
    for (const [category, result] of Object.entries(verdict)) {
      if (isRecord(result) && result.filtered === true) return { kind: 'stream_error', message: `content filter: ${category} filtered` };
    }
  }
  return undefined;
}

/** An in-band error object or string (OpenRouter C15, gateways) as an InStreamError. */
function inBandError(error: unknown): InStreamError {
  const description = typeof error === 'string' ? error : JSON.stringify(error);
  const summary = typeof error === 'string' ? error : summarizeErrorText(JSON.stringify({ error }));
  return classifyInStreamError(description, `in-stream error: ${summary}`);
}

/** Provider timing figures next to usage counts (SambaNova time_to_first_token, Groq queue_time...). */
function numericFields(source: Record<string, unknown>, skip: string[]): Record<string, number> | undefined {
  let out: Record<string, number> | undefined;
  for (const [key, value] of Object.entries(source)) {
    if (skip.includes(key) || typeof value !== 'number' || !Number.isFinite(value)) continue;
    (out ??= {})[key] = value;
  }
  return out;
}

function isAzureHost(url: string): boolean {
  return new URL(url).hostname.endsWith('.azure.com');
}

/**
 * Azure endpoints refuse requests without `api-version`. When the catalog URL has none we add
 * the GA version of the API the host serves: Azure AI model inference (`.../models`) or Azure
 * OpenAI (`*.openai.azure.com`). A version already in the URL is kept.
 */
function azureApiVersion(url: string): string {
  const u = new URL(url);
  if (!u.hostname.endsWith('.azure.com') || u.searchParams.has('api-version')) return url;
  u.searchParams.set('api-version', u.pathname.startsWith('/models/') ? '2024-05-01-preview' : '2024-10-21');
  return u.toString();
}

/** Adapter for OpenAI-compatible Chat Completions streams. */
export const openAiChatAdapter: ProtocolAdapter = {
  protocol: 'openai-chat',
  cumulativeText: true,
  buildRequest(input) {
    // The base names the API root (".../v1"); a full ".../chat/completions" URL is accepted as is.
    const url = azureApiVersion(pathEndsWith(input.url, '/chat/completions') ? input.url : joinUrl(input.url, 'chat/completions'));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
    };
    if (input.apiKey) {
      headers.authorization = `Bearer ${input.apiKey}`;
      // Azure key auth reads `api-key`; Azure also accepts the bearer form for Entra tokens.
      if (isAzureHost(url)) headers['api-key'] = input.apiKey;
    }
    const tier = input.serviceTier ? serviceTierFields('openai-chat', input.serviceTier) : null;
    if (tier) Object.assign(headers, tier.headers);
    const body = {
      model: input.model,
      messages: [{ role: 'user', content: input.prompt }],
      ...(input.conversation ? conversationFields('openai-chat', input.conversation) : {}),
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: input.maxOutputTokens,
      ...tier?.body,
      ...(input.output ? structuredOutputFields('openai-chat', input.output) : {}),
    };
    return { url, init: { method: 'POST', headers, body: JSON.stringify(body) } };
  },
  createDecoder(sink) {
    const state: ChatDecoderState = {
      topLevelUsageSeen: false,
      complete: false,
      toolKeyById: new Map(),
      toolIdByIndex: new Map(),
      toolKeyByIndex: new Map(),
      toolIdByKey: new Map(),
      lastToolKey: null,
      toolCount: 0,
      reasoningStreamed: false,
      said: { answer: '', reasoning: '', lastAnswer: '', lastReasoning: '' },
    };
    return createSseDecoder(sink, {
      doneIsTerminal: true,
      // A sentinel of the server's own after the answer declared completion (`[END]`) does not
      // fail it; like [DONE] it is the stream's last data event.
      isComplete: () => state.complete,
      onJson: (value, message) => {
        const named = message.event !== undefined && message.event !== '' && message.event !== 'message' && message.event !== 'chunk';
        if (named && !value.choices && !value.error) {
          // An event type the Chat Completions stream does not have, carrying an object without
          // choices: recorded when it carries anything besides its type, text or numbers (as in
          // anthropic-messages.ts, decision 307); a bare one says nothing.
          const rest = Object.entries(value).filter(([k, v]) => k !== 'type' && v !== null && v !== undefined && v !== '');
          if (rest.length > 0) return { unrecognizedPaths: [`event:${message.event}`] };
        }
        const event = interpretChunk(value, state);
        // A chunk under an event name the protocol does not use (`event: failed` over a chunk
        // that says stop): what the name means is unknown, so the chunk is read but not vouched
        // for (decision 313). Failure-named events never get here (sse-messages.ts).
        if (named && value.choices !== undefined) event.unrecognizedPaths = [...(event.unrecognizedPaths ?? []), `event:${message.event}`];
        return event;
      },
    });
  },
};
