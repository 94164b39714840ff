/**
 * Google Gemini `streamGenerateContent` (Gemini API and Vertex AI).
 *
 * Request: `POST {base}/models/{model}:streamGenerateContent?alt=sse` (SSE form). Responses are
 * decoded in BOTH forms Google serves, chosen by the first non-blank byte of the body: SSE
 * (`data: {...}`) or, without `alt=sse`, one streamed JSON array `[{...},{...}]` whose elements
 * are framed incrementally (../framing/json-array-framer.ts) so each is timed when its closing
 * brace arrives.
 *
 * Each element is a GenerateContentResponse: parts with non-empty `text` are answer tokens, or
 * reasoning when `thought: true`; `functionCall` parts are whole tool calls (arguments =
 * JSON of `args`) or, streamed in pieces (`partialArgs`, `willContinue`), one call assembled from
 * its pieces (readFunctionCall). `finishReason` (STOP, MAX_TOKENS, SAFETY...) marks completion, followed by a
 * clean end. `usageMetadata` is cumulative: output = candidatesTokenCount + thoughtsTokenCount
 * (thinking tokens are output, as everywhere in Tokenpace), last value wins; thoughtsTokenCount is
 * hidden reasoning when no thought part was streamed (decision 065); a count present in another
 * form than a non-negative integer is unrecognised (`usageMetadata.candidatesTokenCount`). An
 * `error` object (RESOURCE_EXHAUSTED → rate_limited) is an in-stream error. A filter's verdict
 * stated beside the candidates (`promptFeedback.blockReason`, a SafetyRating `blocked: true`)
 * fails the probe whatever finishReason says (statedFilter); `finishMessage` is kept as metadata.
 *
 * Auth: `x-goog-api-key` for the Gemini API; `Authorization: Bearer` (an OAuth access token) for
 * Vertex AI hosts (`*aiplatform.googleapis.com`).
 */
import { createJsonArrayFramer } from '../framing/json-array-framer';
import type { InStreamError, ProtocolAdapter, StreamDecoder, ToolCallDelta, WireEvent, WireEventSink } from './adapter';
import { joinUrl } from './join-url';
import { collectText, emptyText, hasText } from './content-parts';
import { classifyInStreamError, isRecord, nonEmptyString, tryParseJson } from './normalize';
import { createSseDecoder, withRepeatedKey } from './sse-messages';
import { repeatedKeyPath } from './repeated-keys';
import { addCachedInput } from './cached-input';
import { structuredOutputFields } from './structured-output';
import { conversationFields } from './conversation';
import { serviceTierFields } from '../service-tier';
import { listUnknownUsagePaths, listUsageText } from './usage-places';
import { classifyFinish, namesFailure } from '../finish-reasons';

/** Part keys read here or known to carry no generated text. */
const PART_KEYS = new Set([
  'text',
  'thought',
  'thoughtSignature',
  'functionCall',
  'functionResponse',
  'inlineData',
  'fileData',
  'executableCode',
  'codeExecutionResult',
  'videoMetadata',
  'partMetadata',
  'mediaResolution',
]);
/**
 * GenerateContentResponse keys read here or known to carry no generated text (Gemini API and
 * Vertex AI references); text under any other key is recorded as unrecognised (decision 310).
 */
const RESPONSE_KEYS = new Set(['candidates', 'usageMetadata', 'modelVersion', 'responseId', 'promptFeedback', 'createTime', 'error', 'modelStatus']);
/** Candidate keys read here or known to carry no generated text (safety, citations, grounding, logprobs). */
const CANDIDATE_KEYS = new Set([
  'content',
  'finishReason',
  'finishMessage',
  'index',
  'safetyRatings',
  'citationMetadata',
  'groundingMetadata',
  'groundingAttributions',
  'urlContextMetadata',
  'urlRetrievalMetadata',
  'avgLogprobs',
  'logprobsResult',
  'tokenCount',
]);
/** ModelStatus keys (Gemini API reference, GenerateContentResponse.modelStatus) holding no text: a stage word and a time. */
const MODEL_STATUS_KEYS = new Set(['modelStage', 'retirementTime']);
/**
 * ModelStage values (Gemini API reference, ModelStage) of a model on its way out or not yet
 * stable: the stages a lifecycle notice in `modelStatus.message` is written for.
 */
const LIFECYCLE_STAGES = new Set(['UNSTABLE_EXPERIMENTAL', 'EXPERIMENTAL', 'PREVIEW', 'LEGACY', 'DEPRECATED', 'RETIRED']);
/** Longest `modelStatus.message` read as a lifecycle notice (a sentence or two); a longer one is text beside the answer. */
export const LIFECYCLE_NOTICE_MAX_CHARS = 300;

/** A `modelStatus` whose message is a notice about the model's lifecycle: a lifecycle stage and a short string message. */
function isLifecycleNotice(status: Record<string, unknown>): boolean {
  return (
    typeof status.modelStage === 'string' &&
    LIFECYCLE_STAGES.has(status.modelStage) &&
    typeof status.message === 'string' &&
    status.message.length <= LIFECYCLE_NOTICE_MAX_CHARS
  );
}
/** Content keys read here. */
const CONTENT_KEYS = new Set(['parts', 'role']);

/** FunctionCall keys read here. */
const FUNCTION_CALL_KEYS = new Set(['name', 'id', 'args', 'partialArgs', 'willContinue']);
/** PartialArg keys read here. */
const PARTIAL_ARG_KEYS = new Set(['jsonPath', 'stringValue', 'numberValue', 'boolValue', 'nullValue', 'willContinue']);

/** A function call whose arguments are still streaming (`willContinue: true`, Vertex streamFunctionCallArguments). */
interface OpenFunctionCall {
  key: string;
  /** the arguments assembled so far */
  args: Record<string, unknown>;
  /** the jsonPath whose string value continues in the next PartialArg (its willContinue was true) */
  continuingPath: string | null;
}

/** Per-stream state of the Gemini decoder. */
interface GeminiDecoderState {
  /** the call whose arguments are still streaming, null when none */
  openCall: OpenFunctionCall | null;
  toolCount: number;
  complete: boolean;
  /** thought parts with text have been streamed (thoughtsTokenCount is then not hidden, decision 065) */
  reasoningStreamed: boolean;
}

/**
 * Segments of an RFC 9535 JSON path in the forms PartialArg uses (`$.a.b[0]`, `$['a b']`), or null
 * when the path has another form (then recorded as unrecognised).
 */
function parseJsonPath(path: string): Array<string | number> | null {
  if (!path.startsWith('$')) return null;
  const segments: Array<string | number> = [];
  const pattern = /\.([A-Za-z_][\w-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  let at = 1;
  while (at < path.length) {
    pattern.lastIndex = at;
    const m = pattern.exec(path);
    if (!m) return null;
    segments.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (m[3] ?? m[4])!));
    at = pattern.lastIndex;
  }
  return segments.length > 0 ? segments : null;
}

/** Sets `value` at `segments` inside `root`, creating objects and arrays on the way. */
function setAtPath(root: Record<string, unknown>, segments: Array<string | number>, value: (previous: unknown) => unknown): void {
  let node: Record<string | number, unknown> = root;
  segments.forEach((segment, i) => {
    if (i === segments.length - 1) {
      node[segment] = value(node[segment]);
      return;
    }
    const next = node[segment];
    if (typeof next !== 'object' || next === null) node[segment] = typeof segments[i + 1] === 'number' ? [] : {};
    node = node[segment] as Record<string | number, unknown>;
  });
}

/**
 * One `functionCall` part as a tool-call fragment. A whole call (`args`) opens a call of its own;
 * a call streamed in pieces (Vertex `streamFunctionCallArguments`: `partialArgs` of
 * `{jsonPath, stringValue|numberValue|boolValue|nullValue, willContinue}`, the call's
 * `willContinue: true` until its last part) stays one call, its later parts (no name) continuing
 * it. Each fragment carries the arguments assembled so far as JSON: the stream core takes a
 * complete JSON value following another as its replacement, counting only what changed.
 */
function readFunctionCall(call: Record<string, unknown>, path: string, state: GeminiDecoderState, unrecognized: string[]): ToolCallDelta | null {
  for (const [key, value] of Object.entries(call)) {
    if (!FUNCTION_CALL_KEYS.has(key) && hasText(value)) unrecognized.push(`${path}.${key}`);
  }
  const partial = Array.isArray(call.partialArgs) ? call.partialArgs : null;
  const name = nonEmptyString(call.name);
  // A part naming a function opens a new call; a nameless part continues the open one.
  let open = state.openCall;
  if (open === null || name !== undefined) {
    open = { key: `gemini-${state.toolCount++}`, args: {}, continuingPath: null };
  }
  let argumentsDelta = '';
  if (partial !== null) {
    partial.forEach((arg, i) => {
      if (!isRecord(arg)) return;
      const argPath = `${path}.partialArgs[${i}]`;
      for (const [key, value] of Object.entries(arg)) {
        if (!PARTIAL_ARG_KEYS.has(key) && hasText(value)) unrecognized.push(`${argPath}.${key}`);
      }
      const jsonPath = typeof arg.jsonPath === 'string' ? arg.jsonPath : '';
      const segments = parseJsonPath(jsonPath);
      if (segments === null) {
        if (hasText(arg)) unrecognized.push(`${argPath}.jsonPath`);
        return;
      }
      const continues = open.continuingPath === jsonPath;
      if (typeof arg.stringValue === 'string') {
        const text = arg.stringValue;
        setAtPath(open.args, segments, (previous) => (continues && typeof previous === 'string' ? previous + text : text));
      } else if (typeof arg.numberValue === 'number') setAtPath(open.args, segments, () => arg.numberValue);
      else if (typeof arg.boolValue === 'boolean') setAtPath(open.args, segments, () => arg.boolValue);
      else if (arg.nullValue !== undefined) setAtPath(open.args, segments, () => null);
      open.continuingPath = arg.willContinue === true ? jsonPath : null;
    });
    argumentsDelta = Object.keys(open.args).length > 0 ? JSON.stringify(open.args) : '';
  } else if (isRecord(call.args)) {
    open.args = { ...call.args };
    argumentsDelta = JSON.stringify(call.args);
  } else if (name !== undefined && call.willContinue !== true) {
    argumentsDelta = '{}';
  }
  state.openCall = call.willContinue === true ? open : null;
  return { key: open.key, id: nonEmptyString(call.id) ?? null, name: name ?? null, argumentsDelta };
}

/** A count the Gemini API states as an int32: a non-negative integer (a string, negative or fraction is not one). */
function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * A filter's verdict stated outside `finishReason` (Gemini API reference, GenerateContentResponse):
 * `promptFeedback.blockReason` (any value: the prompt was blocked, so what follows is no answer to
 * it) and a SafetyRating with `blocked: true` (on the candidate or on the prompt feedback: "the
 * content was blocked because of this rating"). Either is a filter failure, like finishReason
 * SAFETY (decision 190), whatever finishReason the candidate states beside it: a failure stated
 * anywhere the protocol states one is a failure. A `blocked` that is not a boolean cannot be read
 * and is recorded as unrecognised. Returns the failure, or undefined.
 */
function statedFilter(response: Record<string, unknown>, candidate: Record<string, unknown> | undefined, unrecognized: string[]): InStreamError | undefined {
  let failure: InStreamError | undefined;
  const filtered = (what: string): InStreamError => ({ kind: 'stream_error', message: `${what}: the provider's content filter ended the generation` });
  const feedback = isRecord(response.promptFeedback) ? response.promptFeedback : undefined;
  const blockReason = nonEmptyString(feedback?.blockReason);
  if (blockReason !== undefined) failure = filtered(`promptFeedback.blockReason "${blockReason.slice(0, 60)}"`);
  const ratings: Array<[string, unknown]> = [
    ['candidates[0].safetyRatings', candidate?.safetyRatings],
    ['promptFeedback.safetyRatings', feedback?.safetyRatings],
  ];
  for (const [path, list] of ratings) {
    if (!Array.isArray(list)) continue;
    list.forEach((rating, i) => {
      if (!isRecord(rating) || rating.blocked === undefined || rating.blocked === null || rating.blocked === false) return;
      if (rating.blocked !== true) {
        unrecognized.push(`${path}[${i}].blocked`);
        return;
      }
      const category = nonEmptyString(rating.category);
      failure ??= filtered(`${path}[${i}].blocked${category !== undefined ? ` (${category.slice(0, 60)})` : ''}`);
    });
  }
  return failure;
}

function interpretResponse(response: Record<string, unknown>, state: GeminiDecoderState): WireEvent {
  const event: WireEvent = {};
  const unrecognized: string[] = [];
  if (isRecord(response.error)) {
    const e = response.error;
    const description = `${String(e.status ?? '')} ${String(e.code ?? '')} ${String(e.message ?? '')}`.trim();
    event.error = classifyInStreamError(description, `in-stream error: ${description}`);
  }
  const candidates = Array.isArray(response.candidates) ? response.candidates : [];
  const candidate = candidates[0];
  if (isRecord(candidate)) {
    const content = isRecord(candidate.content) ? candidate.content : {};
    const parts = Array.isArray(content.parts) ? content.parts : [];
    let answer = '';
    let reasoning = '';
    parts.forEach((part, i) => {
      if (!isRecord(part)) return;
      const path = `candidates[0].content.parts[${i}]`;
      const text = emptyText();
      // Thought parts (`thought: true`) are reasoning; `text` may also come as typed parts.
      collectText(part.text, part.thought === true ? 'reasoning' : 'answer', `${path}.text`, text);
      // Code the model wrote for the code-execution tool is generated answer text.
      if (isRecord(part.executableCode)) collectText(part.executableCode.code, 'answer', `${path}.executableCode.code`, text);
      answer += text.answer;
      reasoning += text.reasoning;
      unrecognized.push(...text.unrecognizedPaths);
      if (isRecord(part.functionCall)) {
        const delta = readFunctionCall(part.functionCall, `${path}.functionCall`, state, unrecognized);
        if (delta) (event.toolCalls ??= []).push(delta);
      }
      for (const [key, value] of Object.entries(part)) {
        if (!PART_KEYS.has(key) && hasText(value)) unrecognized.push(`${path}.${key}`);
      }
    });
    for (const [key, value] of Object.entries(content)) {
      if (!CONTENT_KEYS.has(key) && hasText(value)) unrecognized.push(`candidates[0].content.${key}`);
    }
    for (const [key, value] of Object.entries(candidate)) {
      if (!CANDIDATE_KEYS.has(key) && hasText(value)) unrecognized.push(`candidates[0].${key}`);
    }
    if (answer !== '') event.answer = answer;
    if (reasoning !== '') {
      event.reasoning = reasoning;
      state.reasoningStreamed = true;
    }
    const finish = nonEmptyString(candidate.finishReason);
    // finishMessage explains the finish; one naming a failure beside a clean finish is a failure said (decision 313).
    const finishMessage = nonEmptyString(candidate.finishMessage);
    if (finishMessage !== undefined && !event.error && namesFailure(finishMessage.toLowerCase()))
      event.error = { kind: 'stream_error', message: `finishMessage: ${finishMessage.slice(0, 120)}` };
    if (finish !== undefined) {
      event.finishReason = finish;
      event.complete = true;
      state.complete = true;
    }
  } else if (isRecord(response.promptFeedback) && nonEmptyString(response.promptFeedback.blockReason)) {
    // A blocked prompt: no candidates, a clean (empty) answer.
    event.finishReason = 'SAFETY';
    event.complete = true;
    state.complete = true;
  }
  // A filter's verdict beside the candidates fails the probe even when their finish is clean (a
  // finish that already names a failure is judged by itself, decision 190).
  const filter = statedFilter(response, isRecord(candidate) ? candidate : undefined, unrecognized);
  if (filter !== undefined && !event.error && classifyFinish('gemini-stream', event.finishReason).verdict !== 'failed') event.error = filter;
  // modelStatus (Gemini API reference) is a notice about the model: known only in its documented shape.
  // Its `message` ("a message explaining the model status"): beside a lifecycle stage (LEGACY,
  // DEPRECATED, RETIRED…) a short notice about the model, not this generation, so read as nothing
  // (a deprecated model's answers stay rankable); otherwise text beside the answer: naming a
  // failure it fails the probe, as finishMessage does; other words are text the probe does not
  // read, so unrecognised (decision 318).
  if (isRecord(response.modelStatus)) {
    const status = response.modelStatus;
    const message = isLifecycleNotice(status) ? undefined : nonEmptyString(status.message);
    // prose: punctuation after a word ("failed:") ends it like a space
    if (message !== undefined && namesFailure(message.toLowerCase().replace(/[^\p{L}\p{N}_\s-]/gu, ' ')))
      event.error ??= { kind: 'stream_error', message: `modelStatus.message: ${message.slice(0, 120)}` };
    else if (message !== undefined) unrecognized.push('modelStatus.message');
    for (const [key, value] of Object.entries(status))
      if (key !== 'message' && !MODEL_STATUS_KEYS.has(key) && hasText(value)) unrecognized.push(`modelStatus.${key}`);
  } else if (hasText(response.modelStatus)) unrecognized.push('modelStatus');
  if (isRecord(response.usageMetadata)) {
    const u = response.usageMetadata;
    addCachedInput('gemini-stream', u, event);
    // The output counts are int32s (UsageMetadata): a value in another form ("9999", -5, 1.5)
    // cannot be read, so the count is unknown: recorded, never a number (decision 061).
    const unreadable = (['candidatesTokenCount', 'thoughtsTokenCount'] as const).filter((k) => u[k] !== undefined && u[k] !== null && !isTokenCount(u[k]));
    for (const key of unreadable) unrecognized.push(`usageMetadata.${key}`);
    unrecognized.push(...listUsageText(u, 'usageMetadata', (k) => (unreadable as string[]).includes(k)));
    const candidatesCount = isTokenCount(u.candidatesTokenCount) ? u.candidatesTokenCount : undefined;
    const thoughts = isTokenCount(u.thoughtsTokenCount) ? u.thoughtsTokenCount : undefined;
    if (unreadable.length === 0 && (candidatesCount !== undefined || thoughts !== undefined)) {
      event.outputTokensReported = (candidatesCount ?? 0) + (thoughts ?? 0);
      // Thinking tokens are billed and counted but Gemini streams at most a summary of them, and
      // nothing without includeThoughts: then all of thoughtsTokenCount is hidden (decision 065).
      // With thought parts streamed, the count is not subtracted: a summary stays a mismatch.
      if (thoughts !== undefined) {
        event.providerMetrics = { reasoningTokens: thoughts };
        event.reasoningTokensReported = thoughts;
        event.reasoningTokensHidden = state.reasoningStreamed ? 0 : thoughts;
      }
      // Cumulative usage before the finish is provisional: a cut stream has no final count.
      if (!state.complete) event.outputTokensProvisional = true;
    }
  }
  // Usage anywhere but usageMetadata is recorded (decision 191).
  unrecognized.push(...listUnknownUsagePaths(response, (p) => p === 'usageMetadata'));
  // Text beside the candidates, or in a second candidate (the probe asks for one), is not read (decision 310).
  if (!event.error) {
    for (const [key, value] of Object.entries(response)) if (!RESPONSE_KEYS.has(key) && hasText(value)) unrecognized.push(key);
    candidates.forEach((c, i) => {
      // text or a finish of its own: the probe asks for one candidate (decision 313)
      if (i > 0 && isRecord(c) && (hasText(c.content) || hasText(c.finishReason))) unrecognized.push(`candidates[${i}]`);
    });
  }
  if (unrecognized.length > 0) event.unrecognizedPaths = unrecognized;
  return event;
}

/** Chooses SSE or JSON-array framing from the first non-blank byte, then delegates. */
function createGeminiDecoder(sink: WireEventSink): StreamDecoder {
  const state: GeminiDecoderState = { openCall: null, toolCount: 0, complete: false, reasoningStreamed: false };
  const handleJson = (text: string, atMs: number) => {
    const parsed = tryParseJson(text);
    if (!isRecord(parsed)) {
      return sink({ error: { kind: 'stream_error', message: `unparsable response element: ${text.slice(0, 120)}` } }, atMs);
    }
    sink(withRepeatedKey(interpretResponse(parsed, state), repeatedKeyPath(text)), atMs);
  };
  let inner: StreamDecoder | null = null;
  const pending: Array<[Uint8Array, number]> = [];
  const choose = (byte: number): StreamDecoder => {
    if (byte === 0x5b /* [ */ || byte === 0x7b /* { */) {
      return createJsonArrayFramer({
        onElement: handleJson,
        onArrayEnd: (atMs) => sink({ terminal: true }, atMs),
        onError: (message, atMs) => sink({ error: { kind: 'stream_error', message } }, atMs),
      });
    }
    return createSseDecoder(sink, {
      // `[DONE]` is not Gemini's terminal marker: a trailing sentinel never fails the stream.
      doneIsTerminal: false,
      isComplete: () => state.complete,
      onJson: (value) => interpretResponse(value, state),
    });
  };
  return {
    push(bytes, atMs) {
      if (inner) return inner.push(bytes, atMs);
      pending.push([bytes, atMs]);
      // Skip blank bytes (whitespace, BOM) until the first meaningful one decides the form.
      for (const [chunk] of pending) {
        for (const b of chunk) {
          if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0xef || b === 0xbb || b === 0xbf) continue;
          inner = choose(b);
          for (const [c, t] of pending.splice(0)) inner.push(c, t);
          return;
        }
      }
    },
    end(atMs) {
      inner?.end(atMs);
    },
  };
}

/** Adapter for Gemini / Vertex AI streamGenerateContent. */
export const geminiStreamAdapter: ProtocolAdapter = {
  protocol: 'gemini-stream',
  cumulativeText: true,
  buildRequest(input) {
    const model = input.model.replace(/^models\//, '');
    const target = new URL(joinUrl(input.url, `models/${model}:streamGenerateContent`));
    target.searchParams.set('alt', 'sse');
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
    if (input.apiKey) {
      if (target.hostname.endsWith('aiplatform.googleapis.com')) headers.authorization = `Bearer ${input.apiKey}`;
      else headers['x-goog-api-key'] = input.apiKey;
    }
    const tier = input.serviceTier ? serviceTierFields('gemini-stream', input.serviceTier) : null;
    if (tier) Object.assign(headers, tier.headers);
    const extra = input.output ? structuredOutputFields('gemini-stream', input.output) : {};
    const body = {
      contents: [{ role: 'user', parts: [{ text: input.prompt }] }],
      ...(input.conversation ? conversationFields('gemini-stream', input.conversation) : {}),
      ...tier?.body,
      ...extra,
      generationConfig: { maxOutputTokens: input.maxOutputTokens, ...(extra.generationConfig as Record<string, unknown> | undefined) },
    };
    return { url: target.toString(), init: { method: 'POST', headers, body: JSON.stringify(body) } };
  },
  createDecoder: createGeminiDecoder,
};
