/**
 * Turns what a stream delivered into a ProbeResult: outcome and error kind, o200k token counts
 * (counted here, after the stream ended), timeline and every derived metric.
 *
 * Metric definitions and their sources:
 * - TTFT: request start → completion of the first token-bearing event on any channel (answer,
 *   reasoning, tool arguments); role-only/empty chunks do not count (NVIDIA AIPerf / GenAI-Perf
 *   "TTFT on any token channel"; Artificial Analysis "time to first token").
 * - TTFAT: the same for the first answer or tool-call token (Artificial Analysis "time to first
 *   answer token", reasoning excluded).
 * - Output speed (TPS/user): (N − tokens in the first content event) ÷ (lastTokenMs − ttftMs)
 *   (Artificial Analysis "output speed", measured after the first chunk; equals 1/TPOT of vLLM /
 *   SGLang bench_serving when tokens arrive one per chunk). On the o200k basis N and the first
 *   event's tokens are o200k counts. On the reported basis N = the provider's completion count and
 *   the first event's share is scaled: N_rep × (firstEventO200k ÷ totalO200k), because providers
 *   report no per-event counts and their tokenizer splits the first event in the same proportion
 *   to within a token or two.
 * - Visible basis (decision 065): where the provider reports reasoning it did not stream (OpenAI
 *   o-series `reasoning_tokens`, Gemini `thoughtsTokenCount` without thought parts), N_rep is the
 *   provider's count LESS those hidden tokens. They were generated before the first streamed token
 *   (inside TTFT), not in the streamed window, so counting them there would inflate the speed; the
 *   agreement check (TOKEN_COUNT_MISMATCH_RATIO) compares the same visible count with o200k.
 * - TPOT: (E2E − TTFT) ÷ (N − 1), N on the same basis as outputTokensPerSecond (vLLM / SGLang
 *   bench_serving `tpot`).
 * - E2E: request start → end of stream (terminal marker, or clean close) (bench_serving `latency`).
 */
import { getAdapter } from './adapters/registry';
import { judgeFinishes, NO_FINISH_STATED } from './finish-reasons';
import type { StreamParseResult } from './parse-stream';
import { creditedHiddenTokens, judgeDelivery } from './plausible-delivery';
import { listDegenerateRules } from './plausible-output';
import { listNotRankableReasons } from './rankability';
import { resolveStreamTexts } from './stream-accumulator';
import { countO200kTokens } from '../tokens/o200k';
import type { ErrorKind, ProbeEvidence, ProbeResult, Protocol, TimelineEntry, TokenChannel } from './types';

/**
 * True when the answer was delivered rather than streamed (reason `buffered_stream`): most tokens in
 * the last event, or every token event at one instant. Rule `whole_answer` of the plausible-delivery
 * model (./plausible-delivery.ts, decision 170), which replaced the fixed 64-tokens-per-read rule:
 * the other ways a delivery cannot be generation are judged there on the stream's own rates and gaps.
 */
export function isBulkDelivery(timeline: readonly TimelineEntry[]): boolean {
  return judgeDelivery(timeline).wholeAnswer;
}

/** A reported count further than this fraction from the o200k count raises tokenCountMismatch. */
export const TOKEN_COUNT_MISMATCH_RATIO = 0.25;

/** How a probe ended from the caller's side, when it did not simply read to the end. */
export interface ProbeAbort {
  kind: 'timeout' | 'cancelled';
  message: string;
}

/** Context of {@link buildProbeResult} besides the parsed stream. */
export interface ProbeResultContext {
  protocol: Protocol;
  httpStatus: number | null;
  ttfbMs: number | null;
  connectMs: number | null;
  /** set when a deadline or the caller aborted the request */
  abort: ProbeAbort | null;
  retryAfterMs?: number | null;
  /**
   * Size of the prompt sent, tokens (an estimate is fine): the prefill allowance of the
   * hold-then-burst rule (./plausible-delivery.ts). Omitted: 0, no allowance.
   */
  inputTokens?: number;
  /**
   * The output limit the request set (max_tokens and its equivalents): hidden reasoning is
   * credited in the hold rule only up to it, less the visible output (decision 307). Omitted: no cap.
   */
  maxOutputTokens?: number;
  /**
   * Whether the request declared a tool (a tool-call workload, ./adapters/structured-output.ts, or
   * a conversation with tool results). False: a tool call is text the request did not ask for,
   * so unrecognised (decision 318). Omitted: not judged (tests of the decoders alone).
   */
  toolsDeclared?: boolean;
}

/**
 * A ProbeResult for a probe that failed before any stream was parsed (invalid URL, blocked, HTTP
 * status, connection failure, an HTML page). All measurements empty except e2eMs, the end of a
 * failed response's body when it was read to its end.
 */
export function buildFailedProbeResult(
  errorKind: ErrorKind,
  errorMessage: string,
  extra: Partial<Pick<ProbeResult, 'httpStatus' | 'ttfbMs' | 'retryAfterMs' | 'connectMs' | 'bytesReceived' | 'e2eMs'>> = {},
): ProbeResult {
  return {
    outcome: 'error',
    errorKind,
    errorMessage,
    httpStatus: extra.httpStatus ?? null,
    retryAfterMs: extra.retryAfterMs ?? null,
    connectMs: extra.connectMs ?? null,
    ttfbMs: extra.ttfbMs ?? null,
    ttftMs: null,
    ttfatMs: null,
    lastTokenMs: null,
    e2eMs: extra.e2eMs ?? null,
    outputTokensReported: null,
    reasoningTokensHidden: null,
    cachedInputTokens: null,
    cacheWriteInputTokens: null,
    inputTokensReported: null,
    outputTokensO200k: 0,
    outputTokensPerSecond: null,
    outputTokensPerSecondO200k: null,
    tpotMs: null,
    contentChunks: 0,
    finishReason: null,
    finishReasonRaw: null,
    answerText: '',
    reasoningText: '',
    toolCalls: [],
    timeline: [],
    bytesReceived: extra.bytesReceived ?? 0,
    flags: { tokenCountMismatch: false, buffered: false, unrecognizedShape: false },
    rankable: false,
    notRankableReasons: ['failed'],
    evidence: {},
    providerMetrics: {},
  };
}

/**
 * A `length` finish with fewer output tokens than this share of the request's budget is not
 * believed (decision 313): the model did not run out of room. Half is a margin chosen, not
 * measured: it leaves room for a model tokenizer that counts differently from o200k when the
 * provider reports no count.
 */
export const LENGTH_FINISH_MIN_SHARE = 0.5;

/**
 * Builds the ProbeResult of a stream that was read (fully or not). Pure apart from tokenizing;
 * never throws. Speeds and TPOT are only given for successful probes; failed probes keep their
 * partial text, timeline and times as diagnostics.
 */
export function buildProbeResult(parsed: StreamParseResult, context: ProbeResultContext): ProbeResult {
  const adapter = getAdapter(context.protocol);
  const { events, toolArguments } = resolveStreamTexts(parsed.events, adapter.cumulativeText);

  // Counting happens only now, after the stream: never on the hot path.
  const timeline: TimelineEntry[] = events.map((e) => ({
    atMs: e.atMs,
    tokens: countO200kTokens(e.answer) + countO200kTokens(e.reasoning) + countO200kTokens(e.toolArgs),
    channel: channelOf(e),
  }));
  const answerText = events.map((e) => e.answer).join('');
  const reasoningText = events.map((e) => e.reasoning).join('');
  const toolCalls = parsed.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: toolArguments.get(c.key) ?? '' }));
  const outputTokensO200k = countO200kTokens(answerText) + countO200kTokens(reasoningText) + toolCalls.reduce((n, c) => n + countO200kTokens(c.arguments), 0);

  const first = timeline[0];
  const last = timeline[timeline.length - 1];
  const firstAnswer = timeline.find((t) => t.channel !== 'reasoning');
  const ttftMs = first?.atMs ?? null;
  const lastTokenMs = last?.atMs ?? null;
  // A provisional count (Anthropic message_start, running usage) is never the output of a stream
  // that did not complete.
  const declaredComplete = parsed.complete || parsed.terminal;
  const reported = parsed.outputTokensProvisional && !declaredComplete ? null : parsed.outputTokensReported;
  // Reasoning the provider counted but did not stream belongs to the count it came with.
  const reasoningTokensHidden = reported !== null ? parsed.reasoningTokensHidden : null;
  // The provider's count of what was streamed: the basis of speed, TPOT and the agreement check.
  const visibleReported = reported !== null ? reported - (reasoningTokensHidden ?? 0) : null;
  // A stream that declared completion ends at its last data event: comments, keep-alives and a
  // late close never extend E2E (F05).
  const completedAtMs = declaredComplete ? (parsed.lastDataEventMs ?? parsed.endMs) : parsed.endMs;

  // Outcome: an error the provider reported wins; then the caller's abort; then how the body ended.
  let errorKind: ErrorKind | null = null;
  let errorMessage: string | null = null;
  let e2eMs: number | null = null;
  const cleanEnd = parsed.endReason === 'eof' || parsed.endReason === 'terminal';
  // A stated finish is evidence (decision 190): a failure-named or filtered one fails the probe
  // even when usage and the terminal marker follow; an unknown one leaves it unrankable.
  const { finishRaw, finish, finishesDisagree } = judgeFinishes(
    context.protocol,
    parsed.finishReasonsSeen,
    parsed.finishReasonRaw,
    parsed.toolCalls.length > 0,
  );
  if (parsed.error) {
    errorKind = parsed.error.kind;
    errorMessage = parsed.error.message;
    if (cleanEnd && !context.abort) e2eMs = parsed.endMs;
  } else if (finish.verdict === 'failed' && (cleanEnd || parsed.complete || parsed.terminal)) {
    errorKind = finish.errorKind;
    errorMessage = finish.message;
    if (cleanEnd && !context.abort) e2eMs = completedAtMs;
    else if (context.abort?.kind === 'timeout') e2eMs = parsed.lastDataEventMs ?? parsed.lastByteMs;
  } else if (context.abort) {
    if (context.abort.kind === 'timeout' && parsed.complete) {
      // The answer said it was complete (finish reason / messageStop) but the server never closed:
      // the measurement is whole; E2E is its last data event (not a later keep-alive byte).
      e2eMs = parsed.lastDataEventMs ?? parsed.lastByteMs;
      if (timeline.length === 0) {
        errorKind = 'empty';
        errorMessage = 'the stream declared completion without generated tokens';
      }
    } else {
      errorKind = context.abort.kind;
      errorMessage = context.abort.message;
    }
  } else if (parsed.endReason === 'max_bytes') {
    errorKind = 'stream_error';
    errorMessage = `response body exceeded the byte cap (${parsed.bytesReceived} bytes read)`;
  } else if (parsed.endReason === 'read_error') {
    errorKind = 'stream_error';
    errorMessage = `stream cut before its terminal marker: ${describeError(parsed.readError)}`;
  } else if (!parsed.terminal && !parsed.complete) {
    errorKind = 'stream_error';
    errorMessage =
      timeline.length === 0 && parsed.bytesReceived > 0
        ? `no stream events in the body: ${parsed.bodyHead.slice(0, 200)}`
        : 'stream ended before its terminal marker';
    e2eMs = parsed.endMs;
  } else if (timeline.length === 0) {
    errorKind = 'empty';
    errorMessage = 'the stream ended cleanly without generated tokens';
    e2eMs = completedAtMs;
  } else {
    e2eMs = completedAtMs;
  }
  const success = errorKind === null;

  const firstEventTokens = first?.tokens ?? 0;
  const spanMs = ttftMs !== null && lastTokenMs !== null ? lastTokenMs - ttftMs : 0;
  const speedO200k = success && spanMs > 0 && outputTokensO200k > firstEventTokens ? ((outputTokensO200k - firstEventTokens) * 1000) / spanMs : null;
  let speedReported: number | null = null;
  if (success && visibleReported !== null && spanMs > 0 && outputTokensO200k > 0) {
    const after = visibleReported - (visibleReported * firstEventTokens) / outputTokensO200k;
    speedReported = after > 0 ? (after * 1000) / spanMs : null;
  }
  const basisN = visibleReported ?? outputTokensO200k;
  // No span between first and last token (all arrived at once): no pace to measure, so no TPOT
  // (it would read 0 ms per token).
  const tpotMs = success && e2eMs !== null && ttftMs !== null && basisN > 1 && spanMs > 0 ? (e2eMs - ttftMs) / (basisN - 1) : null;

  const eventTokenSum = timeline.reduce((n, t) => n + t.tokens, 0);
  const tokenCountMismatch =
    visibleReported !== null &&
    (outputTokensO200k === 0 ? visibleReported !== 0 : Math.abs(visibleReported - outputTokensO200k) > TOKEN_COUNT_MISMATCH_RATIO * outputTokensO200k);
  // Reasoning the provider counted but did not stream was generated during the wait before the
  // first token (decision 065): it explains that much of the hold at the stream's own rate.
  // Only as much of it as the request's budget left after the visible output (decision 307).
  const hiddenCredit = creditedHiddenTokens(reasoningTokensHidden ?? 0, context.maxOutputTokens ?? null, visibleReported ?? outputTokensO200k);
  const delivery = judgeDelivery(timeline, context.inputTokens ?? 0, hiddenCredit);
  const buffered = eventTokenSum >= 2 && delivery.wholeAnswer;
  const unrecognizedPaths = [...parsed.unrecognizedPaths];
  // A tool call the request did not ask for (no tool declared): its name and arguments are text
  // no tool-less request generates (OpenAI, Anthropic, Gemini and Bedrock call only declared tools),
  // counted nowhere the workload looks, so not vouched for (decision 318).
  if (context.toolsDeclared === false && toolCalls.some((c) => c.arguments !== '' || (c.name ?? '') !== ''))
    unrecognizedPaths.push('tool_calls (the request declared no tool)');
  const flags = { tokenCountMismatch, buffered, unrecognizedShape: unrecognizedPaths.length > 0 };
  const evidence: ProbeEvidence = {};
  if (unrecognizedPaths.length > 0) evidence.unrecognizedPaths = unrecognizedPaths;
  if (reported !== null && parsed.reasoningTokensReported !== null) evidence.reasoningTokensReported = parsed.reasoningTokensReported;
  if (reasoningTokensHidden !== null) evidence.reasoningTokensHidden = reasoningTokensHidden;
  if (parsed.reasoningWithheld) evidence.reasoningWithheld = true;
  if (parsed.servedServiceTier !== null) evidence.servedServiceTier = parsed.servedServiceTier;
  // Text the stream sent after it said it had finished (and that is not a resend of what it said):
  // the stream contradicts itself, so its count and span are not the answer's (decision 303).
  const sequenceIssues = [...parsed.sequenceIssues];
  if (events.some((e) => e.afterFinish)) sequenceIssues.push('content after the finish');
  if (finishesDisagree) sequenceIssues.push(`finishes that disagree: ${parsed.finishReasonsSeen.join(' then ').slice(0, 100)}`);
  if (sequenceIssues.length > 0) evidence.sequenceIssues = sequenceIssues;
  if (finish.verdict === 'unknown' && finishRaw !== null) evidence.unknownFinishReason = finishRaw.slice(0, 100);
  // Every protocol probed states how a generation ended (finish_reason, stop_reason, finishReason,
  // stopReason, a response status): a stream that ends without one says nothing of whether the
  // answer is whole, so its figure is not vouched for (decision 313).
  else if (finish.verdict === 'none' && success) evidence.unknownFinishReason = NO_FINISH_STATED;
  else if (success && finish.verdict === 'clean' && finish.finishReason === 'length' && finishRaw !== null && !/context/i.test(finishRaw)) {
    // A length finish says the budget ran out (a full context window is another matter); far short of it (the provider's own count, hidden
    // reasoning included, else o200k) the stream says something untrue of itself (decision 313).
    const budget = context.maxOutputTokens ?? null;
    const used = reported ?? outputTokensO200k;
    if (budget !== null && used < LENGTH_FINISH_MIN_SHARE * budget)
      evidence.unknownFinishReason = `${finishRaw.slice(0, 40)} after ${used} of ${budget} tokens`;
  }
  if (success && !buffered && delivery.evidence) evidence.delivery = delivery.evidence;
  if (success) {
    // Every channel together (decision 307): a copy from reasoning to answer, or into tool
    // arguments, is a copy.
    const degenerate = listDegenerateRules(
      // Not trimmed: whitespace padding after a short answer ("OK" and 300 blank events) is text
      // the count includes, so the symbol rule judges it (decision 307).
      [answerText, reasoningText, ...toolCalls.map((c) => c.arguments)].filter((t) => t !== '').join('\n'),
      events.map((e) => `${e.answer}${e.reasoning}${e.toolArgs}`),
      { toolCalls: toolCalls.length },
    );
    if (degenerate.length > 0) evidence.degenerate = degenerate;
  }
  const notRankableReasons = listNotRankableReasons({ outcome: success ? 'success' : 'error', flags, evidence });

  return {
    outcome: success ? 'success' : 'error',
    errorKind,
    errorMessage,
    httpStatus: context.httpStatus,
    retryAfterMs: context.retryAfterMs ?? null,
    connectMs: context.connectMs,
    ttfbMs: context.ttfbMs,
    ttftMs,
    ttfatMs: firstAnswer?.atMs ?? null,
    lastTokenMs,
    e2eMs,
    outputTokensReported: reported,
    reasoningTokensHidden,
    cachedInputTokens: parsed.cachedInputTokens,
    cacheWriteInputTokens: parsed.cacheWriteInputTokens,
    inputTokensReported: parsed.inputTokensReported,
    outputTokensO200k,
    outputTokensPerSecond: reported !== null ? speedReported : speedO200k,
    outputTokensPerSecondO200k: speedO200k,
    tpotMs,
    contentChunks: timeline.length,
    finishReason: success && finish.verdict === 'clean' ? finish.finishReason : null,
    finishReasonRaw: finishRaw,
    answerText,
    reasoningText,
    toolCalls,
    timeline,
    bytesReceived: parsed.bytesReceived,
    flags,
    rankable: notRankableReasons.length === 0,
    notRankableReasons,
    evidence,
    providerMetrics: parsed.providerMetrics,
  };
}

function channelOf(e: { answer: string; toolArgs: string }): TokenChannel {
  if (e.answer !== '') return 'answer';
  if (e.toolArgs !== '') return 'tool';
  return 'reasoning';
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    const causeText = cause instanceof Error ? ` (${cause.message})` : '';
    return `${error.message}${causeText}`.slice(0, 200);
  }
  return String(error).slice(0, 200);
}
