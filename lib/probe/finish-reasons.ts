/**
 * Finish reasons are evidence (issue 22, decision 190). Per protocol, a documented list of the
 * finishes that mean a normal end of generation ("clean"); every other finish the stream states is
 * either failure-named (an error of its kind, even when usage and `[DONE]` follow) or unknown (the
 * measurement is kept, its raw word recorded, and it is not rankable: `unknown_finish`).
 *
 * Clean (normalised to the OpenAI words):
 * - openai-chat: stop, length, tool_calls, function_call; the equivalents engines and gateways
 *   send on this protocol: eos / eos_token / end / stop_sequence / end_turn (TGI, llama.cpp-style
 *   servers, gateways relaying Anthropic words) → stop; max_tokens / model_length (Mistral) /
 *   model_context_window_exceeded → length; tool_use → tool_calls.
 * - openai-responses: status `completed` → stop (tool_calls when the response output function
 *   calls); `incomplete` with reason `max_output_tokens` → length (the adapter reports the reason).
 * - anthropic-messages: end_turn, stop_sequence, pause_turn (the API paused a long turn; what was
 *   generated is whole) → stop; max_tokens, model_context_window_exceeded → length; tool_use → tool_calls.
 * - bedrock-converse-stream: end_turn, stop_sequence → stop; max_tokens,
 *   model_context_window_exceeded → length; tool_use → tool_calls.
 * - gemini-stream: STOP → stop; MAX_TOKENS → length.
 *
 * Content filtering is NOT clean (OpenAI content_filter, Anthropic refusal, Bedrock
 * guardrail_intervened / content_filtered, Gemini SAFETY, RECITATION, BLOCKLIST,
 * PROHIBITED_CONTENT, SPII, LANGUAGE, IMAGE_*; Responses incomplete:content_filter): the
 * provider's filter cut a benign probe prompt's answer short, so the user did not get a generation
 * of the requested length. It is a failure (`stream_error`, message naming the filter), as a user
 * would see it, and never a published speed.
 *
 * Failure-named: any finish whose word names an abort, error, failure, cancellation, timeout,
 * interruption, exception, disconnect, crash or overload (vLLM/SGLang `abort`, gateways'
 * `network_error`, `error`, `cancelled`, ...), Gemini MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL,
 * TOO_MANY_TOOL_CALLS, MISSING_THOUGHT_SIGNATURE, MALFORMED_RESPONSE, DeepSeek
 * insufficient_system_resource; `rate_limited` when it names
 * throttling or a rate limit, else `stream_error`.
 *
 * Unknown: anything else, including Gemini OTHER and FINISH_REASON_UNSPECIFIED. A stream that
 * states no finish at all is judged by its terminal marker alone (unchanged).
 */
import type { ErrorKind, FinishReason, Protocol } from './types';

/** A clean finish, normalised. */
type CleanFinish = Exclude<FinishReason, null | 'content_filter'>;

/** What a stated finish means. */
export type FinishVerdict =
  | { verdict: 'clean'; finishReason: CleanFinish }
  | { verdict: 'failed'; errorKind: Extract<ErrorKind, 'stream_error' | 'rate_limited'>; message: string }
  | { verdict: 'unknown' }
  /** the stream stated no finish reason */
  | { verdict: 'none' };

const CHAT_CLEAN: Record<string, CleanFinish> = {
  stop: 'stop',
  eos: 'stop',
  eos_token: 'stop',
  end: 'stop',
  stop_sequence: 'stop',
  end_turn: 'stop',
  length: 'length',
  max_tokens: 'length',
  model_length: 'length',
  model_context_window_exceeded: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  tool_use: 'tool_calls',
};

/** The clean finishes of each protocol (lower-cased words) and what they normalise to. */
export const CLEAN_FINISHES: Readonly<Record<Protocol, Readonly<Record<string, CleanFinish>>>> = {
  'openai-chat': CHAT_CLEAN,
  'openai-responses': { completed: 'stop', max_output_tokens: 'length' },
  'anthropic-messages': {
    end_turn: 'stop',
    stop_sequence: 'stop',
    pause_turn: 'stop',
    max_tokens: 'length',
    model_context_window_exceeded: 'length',
    tool_use: 'tool_calls',
  },
  'bedrock-converse-stream': { end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', model_context_window_exceeded: 'length', tool_use: 'tool_calls' },
  'gemini-stream': { stop: 'stop', max_tokens: 'length' },
};

/** Finishes meaning the provider's filter ended the generation (any protocol; lower-cased). */
export const FILTERED_FINISHES: ReadonlySet<string> = new Set([
  'content_filter',
  'content_filtered',
  'refusal',
  'guardrail_intervened',
  'safety',
  'recitation',
  'blocklist',
  'prohibited_content',
  'spii',
  'language',
  'image_safety',
  'image_prohibited_content',
  'image_recitation',
]);

/** Failure-named finishes that the pattern below does not catch (lower-cased). */
export const FAILED_FINISHES: ReadonlySet<string> = new Set([
  'malformed_function_call',
  'unexpected_tool_call',
  'too_many_tool_calls',
  'missing_thought_signature',
  'malformed_response',
  'failed',
  // DeepSeek: "the request is interrupted due to insufficient resource of the inference system"
  'insufficient_system_resource',
]);

/** A word (between `_`, `-`, spaces or the ends) naming a failure. */
const FAILURE_WORD =
  /(^|[_\s-])(abort(ed)?|errors?|errored|fail(ed|ure)?|cancel(l)?ed|cancel|timeout|timed[_\s-]?out|interrupt(ed)?|exception|disconnect(ed)?|crash(ed)?|killed|overload(ed)?|network)([_\s-]|$)/;
const RATE_LIMIT_WORD = /rate[\s_-]?limit|throttl|too[\s_-]?many[\s_-]?requests|quota|resource[\s_-]?exhausted/;

/**
 * Classifies the finish a stream stated, for `protocol` (see the module doc for the lists).
 * `hasToolCalls`: the stream opened tool calls (Responses `completed` is then `tool_calls`).
 * Case-insensitive; surrounding spaces ignored. Pure.
 */
export function classifyFinish(protocol: Protocol, raw: string | null | undefined, opts: { hasToolCalls?: boolean } = {}): FinishVerdict {
  if (raw == null || raw.trim() === '') return { verdict: 'none' };
  const word = raw.trim().toLowerCase();
  const clean = CLEAN_FINISHES[protocol][word];
  if (clean !== undefined) {
    return { verdict: 'clean', finishReason: clean === 'stop' && protocol === 'openai-responses' && opts.hasToolCalls ? 'tool_calls' : clean };
  }
  if (FILTERED_FINISHES.has(word)) {
    return { verdict: 'failed', errorKind: 'stream_error', message: `finish "${raw.trim()}": the provider's content filter ended the generation` };
  }
  if (RATE_LIMIT_WORD.test(word))
    return { verdict: 'failed', errorKind: 'rate_limited', message: `finish "${raw.trim()}": the provider reported a rate limit` };
  if (FAILED_FINISHES.has(word) || FAILURE_WORD.test(word)) {
    return { verdict: 'failed', errorKind: 'stream_error', message: `finish "${raw.trim()}" names a failure` };
  }
  return { verdict: 'unknown' };
}
