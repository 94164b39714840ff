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
 * states no finish at all ends well by its terminal marker, but is unknown_finish too (decision
 * 313: every protocol probed states one), and a stream stating several is judged by the worst
 * (judgeFinishes).
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

/** True when `word` (lower-case) contains a word naming a failure (FAILURE_WORD) or a rate limit. */
export function namesFailure(word: string): boolean {
  return FAILURE_WORD.test(word) || RATE_LIMIT_WORD.test(word);
}

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

/** Recorded as `evidence.unknownFinishReason` when a stream ends without stating any finish (decision 313). */
export const NO_FINISH_STATED = '(no finish stated)';

/** The finish a stream is judged by, the word it was judged on, and whether its clean finishes disagree. */
export interface JudgedFinish {
  finishRaw: string | null;
  finish: FinishVerdict;
  /** two or more clean finishes that normalise differently (`length` then `stop`): which one is true is unknown */
  finishesDisagree: boolean;
}

const VERDICT_WEIGHT: Record<FinishVerdict['verdict'], number> = { failed: 3, unknown: 2, clean: 1, none: 0 };

/**
 * Judges every finish a stream stated, not only its last (decision 313): the worst one counts, a
 * failure or filter over an unknown word over a clean one, and among equals the first. So a later
 * `stop` never erases an earlier `content_filter`, `refusal`, `SAFETY` or `abort` (a client that
 * keeps the last word would show the user a filtered answer as whole). Clean finishes that
 * normalise differently disagree (`length` then `stop`): the stream contradicts itself.
 * `seen`: the distinct words in order (StreamAccumulation.finishReasonsSeen); `last`: the last one
 * stated (used when `seen` is empty, e.g. a hand-built accumulation). Pure.
 */
export function judgeFinishes(protocol: Protocol, seen: readonly string[], last: string | null, hasToolCalls: boolean): JudgedFinish {
  const words = seen.length > 0 ? seen : last !== null ? [last] : [];
  let finishRaw: string | null = null;
  let finish: FinishVerdict = { verdict: 'none' };
  const clean = new Set<string>();
  for (const word of words) {
    const verdict = classifyFinish(protocol, word, { hasToolCalls });
    if (verdict.verdict === 'clean') clean.add(verdict.finishReason);
    if (VERDICT_WEIGHT[verdict.verdict] > VERDICT_WEIGHT[finish.verdict]) {
      finish = verdict;
      finishRaw = word;
    }
  }
  return { finishRaw: finishRaw ?? last, finish, finishesDisagree: clean.size > 1 };
}
