/**
 * Contracts of the probe core: what a probe is asked to do and what it reports.
 * Terms follow ../docs/methodology and the field's usage (Artificial Analysis, vLLM/SGLang
 * bench_serving, NVIDIA AIPerf). All times are milliseconds since request start, taken from a
 * monotonic clock (performance.now()).
 */

/** Wire protocols the probe speaks; one adapter each in lib/probe/adapters/. */
export const PROTOCOLS = ['openai-chat', 'openai-responses', 'anthropic-messages', 'bedrock-converse-stream', 'gemini-stream'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/**
 * The documented service-tier request parameters (./service-tier.ts has each one's protocols,
 * values and source; decision 262).
 */
export const SERVICE_TIER_PARAMETER_NAMES = [
  'service_tier',
  'speed',
  'serviceTier.type',
  'X-Vertex-AI-LLM-Request-Type',
  'X-Vertex-AI-LLM-Shared-Request-Type',
] as const;
/** One of {@link SERVICE_TIER_PARAMETER_NAMES}. */
export type ServiceTierParameter = (typeof SERVICE_TIER_PARAMETER_NAMES)[number];

/** A declared tier: which documented parameter an endpoint sends, with which value (./service-tier.ts). */
export interface ServiceTierDeclaration {
  parameter: ServiceTierParameter;
  value: string;
}

/**
 * Why a probe failed. Same words in the database, the API and the CLI's JSON `errorKind`.
 * - timeout: a probe deadline (TTFT, idle gap, total) ended the request
 * - rate_limited: HTTP 429 or an in-stream error naming throttling / rate limiting
 * - http_error: any other non-2xx status
 * - stream_error: error inside a 2xx stream, stream cut before its terminal marker, unparsable body, byte cap exceeded
 * - empty: a clean stream with no generated tokens
 * - cancelled: the caller aborted (worker shutdown)
 * - blocked: the SSRF guard refused the address
 * - invalid_url: the URL could not be parsed or has a scheme other than http(s)
 */
export const ERROR_KINDS = ['timeout', 'rate_limited', 'http_error', 'stream_error', 'empty', 'cancelled', 'blocked', 'invalid_url'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/**
 * Why a measurement is kept but left out of every published median, rank, tie band, history and
 * change point. Stable snake_case words: the same in the database (`measurements.not_rankable_reasons`),
 * the API and the CLI's JSON `notRankableReasons`. See docs/decisions/060-rankable-measurements.md.
 * - failed: the probe did not succeed (outcome `error`); its errorKind says how
 * - unrecognized_shape: the stream carried a non-empty value in a field or event the adapter does
 *   not know (paths in `evidence.unrecognizedPaths`): output may have been missed
 * - token_count_mismatch: the provider's output count, less the reasoning tokens it reports as not
 *   streamed (decision 065), and the received text (o200k) disagree by >25 %
 * - buffered_stream: the answer was delivered, not streamed: most tokens in the last event, or all token
 *   events at one instant (./plausible-delivery.ts rule `whole_answer`); no pace to measure
 * - event_loop_stall: (no longer raised; rows before decision 181) the worker's event-loop delay p99 exceeded 50 ms
 * - hidden_reasoning_uncounted: the counts disagree and the stream withheld reasoning (redacted or
 *   undisplayed thinking) without reporting how many tokens it was: the gap is explained, but the
 *   visible token count cannot be known (raised instead of token_count_mismatch; decision 065)
 * - unknown_finish: the stream stated a finish reason that is neither a clean finish of its
 *   protocol nor failure-named (lib/probe/finish-reasons.ts, decision 190); the raw word is kept in
 *   `evidence.unknownFinishReason`
 * - sequence_broken: the protocol numbers its events (Responses API `sequence_number`) and the
 *   numbers had a gap, a repeat or went backwards: events may be missing or reordered (evidence
 *   `sequenceIssues`; decision 192)
 * - timing_uncertain: the measurement's error bound (ProbeResult.timingBound: how late the stamps
 *   defining TTFT and speed may have been taken) is unknown or beyond the published accuracy
 *   (lib/probe/timing-bound TIMING_BOUND_LIMITS; decisions 180, 181). Replaces event_loop_stall,
 *   which old rows keep.
 * - implausible_delivery: the timing could not come from generation (./plausible-delivery.ts, decision
 *   170): a hold before the first token far longer than the stream's own span (hold then burst), or
 *   a first token followed by a gap far above the stream's own per-token pace (clock padding);
 *   which rule in `evidence.delivery`
 * - fidelity_failed: the probe carried a fidelity check (lib/fidelity) and its answer failed it
 *   (added by the worker / CLI, which know the expected answer; decision 171)
 * - degenerate_output: the text is not an answer (./plausible-output.ts): repeated n-grams, mostly
 *   whitespace or punctuation; which rule in `evidence.degenerate`
 * - repeated_answer: the same answer text as a recent measurement of the same endpoint that was
 *   sent a different prompt (added by the worker, which sees the endpoint's recent samples)
 */
export const NOT_RANKABLE_REASONS = [
  'failed',
  'unrecognized_shape',
  'token_count_mismatch',
  'buffered_stream',
  'event_loop_stall',
  'hidden_reasoning_uncounted',
  'unknown_finish',
  'timing_uncertain',
  // Not a probe's finding: an accepted dispute excluded it (decision 232; applied where figures read rows).
  'disputed',
  'sequence_broken',
  'implausible_delivery',
  'fidelity_failed',
  'degenerate_output',
  'repeated_answer',
] as const;
export type NotRankableReason = (typeof NOT_RANKABLE_REASONS)[number];

/**
 * Normalised finish reason (OpenAI words; Anthropic/Bedrock/Gemini words are mapped onto these).
 * A successful probe only ever has a clean one (stop, length, tool_calls) or null; `content_filter`
 * stays in the type for rows stored before decision 190.
 */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | null;

/** Which output channel a token-bearing event carried. */
export type TokenChannel = 'answer' | 'reasoning' | 'tool';

/**
 * One token-bearing event (SSE event, Bedrock frame, Gemini array element) as it arrived.
 * atMs: ms since request start when the event's last byte arrived.
 * tokens: o200k_base token count of the event's generated text (counted after the stream ended).
 */
export interface TimelineEntry {
  atMs: number;
  tokens: number;
  channel: TokenChannel;
}

export interface ToolCall {
  id: string | null;
  name: string | null;
  arguments: string;
}

/** Hard limits of one probe; any one exceeded ends the probe as `timeout` (or `stream_error` for bytes). */
export interface ProbeDeadlines {
  /** request start → first generated token, ms */
  ttftMs: number;
  /** longest allowed gap between generated tokens, ms (keep-alives and empty chunks do not reset it) */
  idleMs: number;
  /** request start → end of stream, ms */
  totalMs: number;
  /** maximum response body bytes */
  maxBytes: number;
}

/**
 * A fetch-compatible function. Production callers pass the SSRF-guarded fetch from
 * lib/security; it throws an error with `kind: 'blocked' | 'invalid_url'` when refusing.
 */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * Observer of the raw response (for `tokenpace probe --record`): status and headers when they
 * arrive, then every body read as it arrived (bytes after content decoding), on the probe's clock
 * (ms since request start).
 */
export interface ProbeRecorder {
  onResponse(status: number, headers: Headers, atMs: number): void;
  onBytes(bytes: Uint8Array, atMs: number): void;
}

/** What to probe and how. */
export interface ProbeRequest {
  protocol: Protocol;
  /** Base URL of the endpoint (e.g. https://api.groq.com/openai/v1); the adapter appends its path. */
  url: string;
  /** API model id as the endpoint names it. */
  model: string;
  /** Plain-text API key, or null. Never logged. */
  apiKey: string | null;
  /** User prompt text sent as one user message. */
  prompt: string;
  /** Output budget (max_tokens). */
  maxOutputTokens: number;
  /** Structured output or a forced tool call in the protocol's own request shape (adapters/structured-output.ts); absent: free text. */
  output?: StructuredOutputRequest | null;
  /** A multi-turn conversation with tool calls and results (adapters/conversation.ts), sent instead of `prompt`; absent: one user message. */
  conversation?: readonly ConversationMessage[] | null;
  /** The endpoint's declared service tier (./service-tier.ts), sent with this request; absent: the default tier. */
  serviceTier?: ServiceTierDeclaration | null;
  deadlines: ProbeDeadlines;
  /** The fetch to use (SSRF-guarded in production). */
  fetch: FetchLike;
  signal?: AbortSignal;
  /** Called at most a few times per second while streaming; for CLI progress lines. */
  onProgress?: (progress: { generatedEvents: number; approxTokens: number; elapsedMs: number }) => void;
  /**
   * AWS credentials for SigV4 signing of Bedrock requests when no API key is given (the worker
   * or CLI reads them from its environment; the probe itself reads no environment).
   */
  awsCredentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string | null; region?: string | null } | null;
  /** Sees the raw response as it arrives (recording a case); never changes the measurement. */
  recorder?: ProbeRecorder;
  /**
   * Headers the operator added for this endpoint (`endpoints.probe_headers`, decision 174), e.g.
   * where a provider's terms ask probes to identify themselves; sent last, over every other header.
   * None by default: a probe sends only what an ordinary SDK client sends.
   */
  extraHeaders?: Record<string, string> | null;
}

/** Quality flags of one probe (stored as measurements.flags jsonb). */
export type ProbeFlags = {
  tokenCountMismatch: boolean;
  buffered: boolean;
  unrecognizedShape: boolean;
};

/**
 * Evidence behind the flags, stored as the measurements.evidence jsonb (decision 061).
 * unrecognizedPaths: JSON paths (with array indexes, e.g. `choices[0].delta.output_text`,
 * `event:response.output_text.delta`) of non-empty values the adapter did not recognise, each once,
 * in first-seen order, at most 20.
 */
export interface ProbeEvidence {
  unrecognizedPaths?: string[];
  /**
   * Hidden reasoning (decision 065), present when the provider reported a reasoning count:
   * that count (tokens, inside outputTokensReported) ...
   */
  reasoningTokensReported?: number;
  /** ... and how many of them were not streamed (ProbeResult.reasoningTokensHidden), tokens. */
  reasoningTokensHidden?: number;
  /** The stream carried reasoning blocks without their text (redacted / undisplayed thinking). */
  reasoningWithheld?: true;
  /** A finish reason that is neither clean nor failure-named, as the provider spelled it (at most 100 characters; decision 190). */
  unknownFinishReason?: string;
  /** Breaks in the protocol's own event numbering, e.g. `gap 4→6`, `repeat 7`, `backwards 9→8` (at most 20; decision 192). */
  sequenceIssues?: string[];
  /** Delivery rules the stream broke, with the ratios behind them (./plausible-delivery.ts). */
  delivery?: DeliveryEvidence;
  /** Degenerate-output rules the text broke (./plausible-output.ts). */
  degenerate?: string[];
  /** SHA-256 hex of the normalised answer + reasoning text (repeated_answer compares these). */
  answerSha256?: string;
  /**
   * The service tier the provider said served the request (OpenAI `service_tier`, Anthropic
   * `usage.service_tier`), as spelled (at most 40 characters); absent when the response named none.
   * Decision 293.
   */
  servedServiceTier?: string;
  /**
   * The endpoint asked for a tier and the response named another (decision 293): what was asked
   * (the declared value) and what served it. Set by the worker, which knows the declaration; such
   * a measurement misses its tier objective.
   */
  serviceTierMismatch?: { asked: string; served: string };
}

/** Evidence of the plausible-delivery rules (./plausible-delivery.ts): each ratio and the rules broken. */
export interface DeliveryEvidence {
  /** rules broken: `hold_then_burst`, `clock_padding` */
  rules: string[];
  /** (TTFT − prefill allowance) ÷ span from first to last token; null when not judged */
  holdRatio: number | null;
  /** first gap per token ÷ the stream's median per-token gap after it; null when not judged */
  paddingRatio: number | null;
  /** arrival of the second token delivery (the real start of output when clock_padding), ms */
  secondDeliveryMs: number | null;
}

/** Everything one probe observed. Success and failure have the same shape; absent values are null. */
export interface ProbeResult {
  outcome: 'success' | 'error';
  errorKind: ErrorKind | null;
  /** Short human-readable reason; never contains the API key. */
  errorMessage: string | null;
  httpStatus: number | null;
  /** From a Retry-After header on 429/503, in ms. */
  retryAfterMs: number | null;
  /** Connection set-up time when measured separately (ms), else null. */
  connectMs: number | null;
  ttfbMs: number | null;
  ttftMs: number | null;
  ttfatMs: number | null;
  lastTokenMs: number | null;
  e2eMs: number | null;
  /**
   * Provider-reported completion tokens, from exactly one source, reasoning included (also reasoning
   * it did not stream); null when none.
   */
  outputTokensReported: number | null;
  /**
   * Reasoning tokens inside outputTokensReported that the provider generated but did not stream
   * (OpenAI/xAI `reasoning_tokens`, Gemini `thoughtsTokenCount` with no reasoning text received):
   * generated before the first streamed token, so inside TTFT and outside the streamed window.
   * 0 when reasoning text was streamed (a streamed summary is not subtracted); null when the
   * provider reported no reasoning count or no final output count. Decision 065.
   */
  reasoningTokensHidden: number | null;
  /**
   * Input tokens the provider reported serving from its prompt cache (lib/probe/adapters/cached-input.ts:
   * `prompt_tokens_details.cached_tokens`, Anthropic `cache_read_input_tokens`, Gemini
   * `cachedContentTokenCount`, Responses `input_tokens_details.cached_tokens`, Bedrock
   * `cacheReadInputTokens`), tokens; null (or absent) when the stream reported none. Issue 25.
   */
  cachedInputTokens?: number | null;
  /** Input tokens the provider reported writing to its prompt cache (Anthropic, Bedrock), tokens; null when none reported. */
  cacheWriteInputTokens?: number | null;
  /**
   * Input (prompt) tokens the provider reported for the request, cached ones included
   * (lib/probe/adapters/cached-input.ts: Chat `prompt_tokens`, Responses `input_tokens`, Anthropic
   * and Bedrock the input count plus both cache counts, Gemini `promptTokenCount`), tokens; null (or
   * absent) when the stream reported none. The denominator of the cached share (decision 290).
   */
  inputTokensReported?: number | null;
  /** o200k_base count of all generated text (answer + reasoning + tool arguments). */
  outputTokensO200k: number;
  /**
   * Output speed (TPS/user) on the reported VISIBLE basis (outputTokensReported − reasoningTokensHidden:
   * only tokens that were streamed, over the streamed window), falling back to o200k when none reported.
   */
  outputTokensPerSecond: number | null;
  /** Output speed on the o200k basis. */
  outputTokensPerSecondO200k: number | null;
  /** (E2E − TTFT) ÷ (N − 1), ms/token. */
  tpotMs: number | null;
  contentChunks: number;
  finishReason: FinishReason;
  answerText: string;
  reasoningText: string;
  toolCalls: ToolCall[];
  timeline: TimelineEntry[];
  bytesReceived: number;
  /**
   * Quality flags: counts (visible basis) disagree by >25 % (tokenCountMismatch); most tokens arrived in the last
   * event (buffered); a non-empty field or event the adapter does not know was seen
   * (unrecognizedShape, paths in evidence.unrecognizedPaths).
   */
  flags: ProbeFlags;
  /**
   * Whether this measurement may enter medians, ranks, tie bands, history and change points.
   * False exactly when notRankableReasons is non-empty.
   */
  rankable: boolean;
  /** Why it is not rankable, in NOT_RANKABLE_REASONS order; [] when rankable. */
  notRankableReasons: NotRankableReason[];
  /** What explains the flags (stored in measurements.evidence). */
  evidence: ProbeEvidence;
  /** The finish/stop reason exactly as the provider spelled it (kept even when the probe failed). */
  finishReasonRaw?: string | null;
  /**
   * Figures the provider reported about itself (SambaNova time_to_first_token, Groq queue_time,
   * Bedrock latencyMs...), kept beside, never instead of, the client-measured ones.
   */
  providerMetrics?: Record<string, number>;
  /**
   * How wrong TTFT, TTFAT, E2E (ms, only ever too high) and output speed (%, either way) may be,
   * from the probe process's own evidence (lib/probe/timing-bound.ts, decision 180); absent for a
   * probe that failed before any stream was read.
   */
  timingBound?: TimingBound;
}

/** A structured-output request: the schema the answer (or the forced call's arguments) must follow. */
export interface StructuredOutputRequest {
  kind: 'json_schema' | 'tool_call';
  /** schema / function name, [a-zA-Z0-9_-]{1,64} */
  name: string;
  /** one-line description of the function (tool_call) */
  description: string;
  /** JSON Schema of an object (the subset every protocol accepts: type, properties, required, additionalProperties) */
  schema: Record<string, unknown>;
}

/** What the bound was computed from, stored in measurements.evidence.timing (ms unless named). */
export interface TimingBoundEvidence {
  /** request-start stamp → end of the synchronous write after it */
  startSlackMs: number | null;
  /**
   * The request-start stamp on the epoch clock (performance.timeOrigin + the stamp, ms with µs
   * resolution; the clock another process on this host reads too): lines this
   * measurement up with an outside log, e.g. a provider's or the reference server's write log. Null
   * when the fetch reported no request start (not undici). Optional: rows stored before it lack it.
   */
  requestStartEpochMs?: number | null;
  /** lateness bounds of the defining stamps; null when unknown (no evidence on this platform) */
  firstTokenLatenessMs: number | null;
  firstAnswerLatenessMs: number | null;
  lastTokenLatenessMs: number | null;
  endLatenessMs: number | null;
  /**
   * The largest lateness bound of any token stamp in the timeline; null when any is unknown (or no
   * token). Any inter-token gap (ITL, TPOT) may be off by at most this, either way.
   */
  maxTokenLatenessMs?: number | null;
  /** this thread's run-queue wait over the probe (schedstat), ms; null when unknown */
  runQueueMs: number | null;
  /**
   * the kernel's network-processing threads' (ksoftirqd/N, napi/…) run-queue wait over the probe,
   * summed, ms; absent where they are not visible (decision 308)
   */
  netWaitMs?: number | null;
  /** GC pause time of this thread during the probe, ms */
  gcPauseMs: number | null;
  /** token events that arrived in the same read as the first / last token event */
  firstReadEvents: number;
  lastReadEvents: number;
}

/** ± bounds of one measurement's figures; a null figure bound means unknown (or no such figure). */
export interface TimingBound {
  /** TTFT may be this much too high, ms */
  ttftMs: number | null;
  ttfatMs: number | null;
  e2eMs: number | null;
  /** output speed may be off by this much either way, % */
  speedPct: number | null;
  evidence: TimingBoundEvidence;
}

/** One message of a protocol-free conversation. */
export type ConversationMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; toolCall: { id: string; name: string; arguments: string } }
  | { role: 'tool'; callId: string; name: string; result: string };
