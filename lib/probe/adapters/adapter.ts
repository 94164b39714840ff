/**
 * The one interface every wire protocol implements. Provider quirks live behind it; the rest of
 * the probe sees only `WireEvent`s (what one event meant) stamped with their completion time.
 */
import type { Protocol, ServiceTierDeclaration } from '../types';
import type { ConversationMessage } from './conversation';
import type { StructuredOutputRequest } from './structured-output';

/** One generated-text fragment of a tool call, keyed by the call's position in its stream. */
export interface ToolCallDelta {
  /** Stable key of the call within the stream (OpenAI `index`, Anthropic/Bedrock block index, Gemini part order). */
  key: string;
  /** Call id when this fragment carries it (first fragment, usually). */
  id?: string | null;
  /** Function name when this fragment carries it. */
  name?: string | null;
  /** Argument text carried by this fragment; '' when the fragment only opens the call. */
  argumentsDelta: string;
}

/** An error the provider reported inside a 2xx stream. */
export interface InStreamError {
  /** `rate_limited` when the error names throttling or rate limiting, else `stream_error`. */
  kind: 'stream_error' | 'rate_limited';
  message: string;
}

/**
 * The answer came in the protocol's refusal channel (OpenAI chat `delta.refusal`, Responses
 * `response.refusal.delta`): the model declined the benign probe prompt, as a content filter
 * would (decision 307, like `content_filter` in decision 190). The text is kept as a diagnostic.
 */
export const REFUSAL_ERROR: InStreamError = { kind: 'stream_error', message: 'the model refused: the answer came as refusal text' };

/**
 * What one wire event (SSE event, Bedrock frame, Gemini array element) meant, protocol-free.
 * Every field is optional; an empty object is an event that carried nothing we measure (comment,
 * ping, role-only chunk, filter annotation...).
 */
export interface WireEvent {
  /** Answer text carried by this event, as sent (may be cumulative for C10-style servers; see `cumulativeText`). */
  answer?: string;
  /** Reasoning/thinking text carried by this event. */
  reasoning?: string;
  /** Tool-call fragments carried by this event. */
  toolCalls?: ToolCallDelta[];
  /**
   * Provider-reported output token count. The adapter resolves the provider's semantics (single
   * source, cumulative → latest value) and the accumulator keeps the LAST value given.
   */
  outputTokensReported?: number;
  /**
   * The count above is provisional (Anthropic's message_start, running usage before the finish):
   * it becomes the reported output only if the stream later completes.
   */
  outputTokensProvisional?: boolean;
  /**
   * Reasoning tokens the provider counted (inside `outputTokensReported` as the adapter reports it)
   * but did NOT stream, tokens: the provider's whole reasoning count when no reasoning text had
   * been streamed in this stream when the count arrived, 0 when reasoning text was streamed (those
   * tokens were received and are counted from their text; a streamed summary is not subtracted).
   * Given with every usage report that carries a reasoning count (OpenAI/xAI
   * `completion_tokens_details.reasoning_tokens`, Gemini `thoughtsTokenCount`, Anthropic
   * `output_tokens_details.thinking_tokens`); the accumulator keeps the last value. Decision 065.
   */
  reasoningTokensHidden?: number;
  /**
   * Input tokens the provider served from its prompt cache, from this event's usage report
   * (./cached-input.ts: `prompt_tokens_details.cached_tokens`, `cache_read_input_tokens`,
   * `cachedContentTokenCount`, ...); the accumulator keeps the last value. Issue 25.
   */
  cachedInputTokens?: number;
  /** Input tokens written to the prompt cache (Anthropic `cache_creation_input_tokens`, Bedrock `cacheWriteInputTokens`), last value. */
  cacheWriteInputTokens?: number;
  /**
   * Input (prompt) tokens of the request in all, cached ones included, from this event's usage
   * report (./cached-input.ts: `prompt_tokens`, Responses `input_tokens`, Anthropic the sum of
   * `input_tokens` and its two cache counts, ...); the accumulator keeps the last value. Decision 290.
   */
  inputTokensReported?: number;
  /**
   * The service tier the provider says served the request (OpenAI Chat chunk `service_tier`,
   * Responses `response.service_tier`, Anthropic `usage.service_tier`), as spelled, at most 40
   * characters; the accumulator keeps the last value. Evidence against the declared tier (decision 293).
   */
  servedServiceTier?: string;
  /** The provider's own reasoning count from the same usage report (evidence only), tokens. */
  reasoningTokensReported?: number;
  /**
   * The stream carried reasoning blocks WITHOUT their text (Anthropic `redacted_thinking`, a
   * thinking block with only a signature, Bedrock `reasoningContent.redactedContent`): reasoning
   * was generated and is in the output count but was withheld, whether or not a count says how much.
   */
  reasoningWithheld?: boolean;
  /**
   * This event's text previews a block (Anthropic content_block_start holding text): it counts,
   * at this event's time, unless a later event names the same key in `replacesPreview`.
   */
  previewKey?: string;
  /**
   * This event repeats the text of the preview `previewKey` named (the block's first delta
   * repeating what its start held): the preview's text is withdrawn, counted once (issue 22).
   */
  replacesPreview?: string;
  /** A break in the protocol's own event numbering (`gap 4→6`, `repeat 7`, `backwards 9→8`): evidence, decision 192. */
  sequenceIssue?: string;
  /** A keep-alive (empty event, ping, trailing noise after completion): never extends any time. */
  keepAlive?: boolean;
  /** Raw finish/stop reason as the provider spelled it (normalised later). */
  finishReason?: string;
  /** The stream said it completed normally (finish reason, messageStop): success if a clean end follows. */
  complete?: boolean;
  /** The stream's terminal marker ([DONE], message_stop, Bedrock metadata after messageStop): stop reading. */
  terminal?: boolean;
  /** Error reported inside the 2xx stream, or an event that cannot be parsed. */
  error?: InStreamError;
  /** Provider-reported figures kept beside our measurements (e.g. SambaNova timings, Bedrock latencyMs). */
  providerMetrics?: Record<string, number>;
  /**
   * JSON paths of non-empty values this event carried in fields (or event types) the adapter does
   * not recognise, e.g. `choices[0].delta.output_text`. Raises flags.unrecognizedShape.
   */
  unrecognizedPaths?: string[];
}

/** Receives decoded events with the time (ms since request start) their last byte arrived. */
export type WireEventSink = (event: WireEvent, atMs: number) => void;

/**
 * Incremental body decoder of one response. Stateful; one per stream.
 * `push` may emit zero or more events synchronously, all stamped with `atMs` (the arrival time of
 * the read that completed them). `end` is called once on a clean end of body and emits what the
 * server evidently meant by any unterminated tail.
 */
export interface StreamDecoder {
  push(bytes: Uint8Array, atMs: number): void;
  end(atMs: number): void;
}

/** AWS credentials for SigV4 signing (Bedrock). Passed in by the caller; the probe reads no env. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | null;
  /** Region; when absent it is taken from a `bedrock-runtime.<region>.amazonaws.com` host. */
  region?: string | null;
}

/** What an adapter needs to build its request. */
export interface AdapterRequestInput {
  url: string;
  model: string;
  apiKey: string | null;
  prompt: string;
  maxOutputTokens: number;
  awsCredentials?: AwsCredentials | null;
  /**
   * A multi-turn conversation with tool calls and results (./conversation.ts, agent turns): sent
   * instead of `prompt` (which then only names the request in records). Absent: one user prompt.
   */
  conversation?: readonly ConversationMessage[] | null;
  /** A structured-output or forced-tool request (./structured-output.ts); absent: free text. */
  output?: StructuredOutputRequest | null;
  /**
   * The endpoint's declared service tier (../service-tier.ts): the documented parameter and value
   * sent with every request to that endpoint, and only to it; absent: the provider's default tier.
   */
  serviceTier?: ServiceTierDeclaration | null;
  /** Wall-clock time for request signing (SigV4); defaults to now. */
  now?: Date;
}

/** A fully built HTTP request. */
export interface BuiltRequest {
  url: string;
  init: { method: string; headers: Record<string, string>; body: string };
}

/** One wire protocol. Registered in ./registry.ts. */
export interface ProtocolAdapter {
  protocol: Protocol;
  /**
   * Whether the answer/reasoning channels may be cumulative (every event repeats the whole text
   * so far, case C10). When true the accumulator detects that pattern after the stream and keeps
   * only each event's new suffix.
   */
  cumulativeText: boolean;
  /** Builds the streaming request. Throws TypeError only for programming errors (bad input types). */
  buildRequest(input: AdapterRequestInput): BuiltRequest;
  /** A fresh decoder for one response body. */
  createDecoder(sink: WireEventSink): StreamDecoder;
}
