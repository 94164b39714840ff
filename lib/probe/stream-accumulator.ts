/**
 * Collects the protocol-free `WireEvent`s of one stream: token-bearing events with their raw
 * texts and completion times, tool calls, the reported usage (last value), finish reason,
 * completion/terminal markers and the first in-stream error. No tokenizing happens here: texts are
 * stored during the stream and counted after it ended (keeps the hot path cheap and timing honest).
 */
import type { InStreamError, WireEvent } from './adapters/adapter';

/** One token-bearing event as received (texts raw: possibly cumulative, see resolveEventTexts). */
export interface RecordedEvent {
  /** ms since request start when the event's last byte arrived */
  atMs: number;
  answer: string;
  reasoning: string;
  /** concatenated tool-argument fragments carried by this event */
  toolArgs: string;
  /** the same fragments per call (key of AccumulatedToolCall), in order; resolved per call after the stream */
  toolPieces: Array<{ key: string; text: string }>;
  /**
   * The event arrived after the stream's completion signal (a finish reason, messageStop): text
   * there contradicts the finish unless it only resends what was said (resolved after the stream,
   * ./build-probe-result.ts → `sequence_broken`).
   */
  afterFinish?: true;
}

/** A tool call being assembled, in the order calls were opened. */
export interface AccumulatedToolCall {
  key: string;
  id: string | null;
  name: string | null;
  arguments: string;
}

/** The state of one stream's accumulation. */
export interface StreamAccumulation {
  events: RecordedEvent[];
  toolCalls: AccumulatedToolCall[];
  outputTokensReported: number | null;
  /** the last count given was provisional (see WireEvent.outputTokensProvisional) */
  outputTokensProvisional: boolean;
  /** reasoning tokens counted but not streamed (WireEvent.reasoningTokensHidden), last value; null when none given */
  reasoningTokensHidden: number | null;
  /** the provider's reasoning count of the same report (WireEvent.reasoningTokensReported), last value; null when none */
  reasoningTokensReported: number | null;
  /** input tokens served from the prompt cache (WireEvent.cachedInputTokens), last value; null when never reported */
  cachedInputTokens: number | null;
  /** input tokens written to the prompt cache (WireEvent.cacheWriteInputTokens), last value; null when never reported */
  cacheWriteInputTokens: number | null;
  /** input (prompt) tokens the provider reported (WireEvent.inputTokensReported), last value; null when never reported */
  inputTokensReported: number | null;
  /** the service tier the provider said served the request (WireEvent.servedServiceTier), last value; null when never said */
  servedServiceTier: string | null;
  /** some event carried reasoning blocks without their text (WireEvent.reasoningWithheld) */
  reasoningWithheld: boolean;
  /** ms since request start of the last event that was not a keep-alive (comments never count) */
  lastDataEventMs: number | null;
  finishReasonRaw: string | null;
  /** every distinct finish word the stream stated, first-seen order, at most MAX_FINISHES (decision 313) */
  finishReasonsSeen: string[];
  /** a completion signal (finish reason, messageStop) was seen */
  complete: boolean;
  /** the terminal marker was seen; later events are ignored */
  terminal: boolean;
  /** ms since request start of the terminal marker */
  terminalAtMs: number | null;
  /** the first error reported inside the stream */
  error: InStreamError | null;
  providerMetrics: Record<string, number>;
  /** characters of generated text so far (for live progress only) */
  generatedChars: number;
  /** JSON paths of unrecognised non-empty values, each once, first-seen order, at most MAX_UNRECOGNIZED_PATHS */
  unrecognizedPaths: string[];
  /** breaks in the protocol's event numbering (WireEvent.sequenceIssue), at most MAX_UNRECOGNIZED_PATHS */
  sequenceIssues: string[];
}

/** At most this many distinct finish words are kept per stream (a stream stating more is judged on these). */
export const MAX_FINISHES = 8;

/** At most this many distinct unrecognised paths are kept per stream (evidence, not a dump). */
export const MAX_UNRECOGNIZED_PATHS = 20;

/** An accumulator: `accept` is the WireEventSink given to a decoder. */
export interface StreamAccumulator {
  state: StreamAccumulation;
  accept(event: WireEvent, atMs: number): void;
}

/**
 * Creates an accumulator. `onTokenEvent(atMs)` is called for every token-bearing event as it
 * completes (probeEndpoint uses it for its TTFT and idle deadlines).
 */
export function createStreamAccumulator(onTokenEvent?: (atMs: number) => void): StreamAccumulator {
  const state: StreamAccumulation = {
    events: [],
    toolCalls: [],
    outputTokensReported: null,
    outputTokensProvisional: false,
    reasoningTokensHidden: null,
    reasoningTokensReported: null,
    cachedInputTokens: null,
    cacheWriteInputTokens: null,
    inputTokensReported: null,
    servedServiceTier: null,
    reasoningWithheld: false,
    lastDataEventMs: null,
    finishReasonRaw: null,
    finishReasonsSeen: [],
    complete: false,
    terminal: false,
    terminalAtMs: null,
    error: null,
    providerMetrics: {},
    generatedChars: 0,
    unrecognizedPaths: [],
    sequenceIssues: [],
  };
  const toolsByKey = new Map<string, AccumulatedToolCall>();
  /** recorded events that preview a block (WireEvent.previewKey), by key */
  const previews = new Map<string, RecordedEvent>();

  const accept = (event: WireEvent, atMs: number) => {
    if (state.terminal) return; // bytes after [DONE] / message_stop in the same read
    let toolArgs = '';
    const toolPieces: RecordedEvent['toolPieces'] = [];
    for (const delta of event.toolCalls ?? []) {
      let call = toolsByKey.get(delta.key);
      if (!call) {
        call = { key: delta.key, id: null, name: null, arguments: '' };
        toolsByKey.set(delta.key, call);
        state.toolCalls.push(call);
      }
      // The id the call was opened with stays its id (a later fragment's other id is no new call).
      if (delta.id && call.id === null) call.id = delta.id;
      if (delta.name) call.name = delta.name;
      call.arguments += delta.argumentsDelta;
      toolArgs += delta.argumentsDelta;
      if (delta.argumentsDelta !== '') toolPieces.push({ key: call.key, text: delta.argumentsDelta });
    }
    const answer = event.answer ?? '';
    const reasoning = event.reasoning ?? '';
    if (event.replacesPreview !== undefined) {
      // The text the preview held is repeated by this event: withdraw it (it counts once, here).
      const preview = previews.get(event.replacesPreview);
      previews.delete(event.replacesPreview);
      if (preview) {
        preview.answer = '';
        preview.reasoning = '';
        preview.toolArgs = '';
        preview.toolPieces = [];
      }
    }
    if (answer !== '' || reasoning !== '' || toolArgs !== '') {
      const recorded: RecordedEvent = { atMs, answer, reasoning, toolArgs, toolPieces };
      if (state.complete && !event.complete) recorded.afterFinish = true;
      if (event.previewKey !== undefined) previews.set(event.previewKey, recorded);
      state.events.push(recorded);
      state.generatedChars += answer.length + reasoning.length + toolArgs.length;
      onTokenEvent?.(atMs);
    }
    if (!event.keepAlive) state.lastDataEventMs = atMs;
    if (event.outputTokensReported !== undefined) {
      state.outputTokensReported = event.outputTokensReported;
      state.outputTokensProvisional = event.outputTokensProvisional === true;
    }
    // Reasoning counts come with the usage report they belong to: last value, like the output count.
    if (event.reasoningTokensHidden !== undefined) state.reasoningTokensHidden = event.reasoningTokensHidden;
    if (event.reasoningTokensReported !== undefined) state.reasoningTokensReported = event.reasoningTokensReported;
    if (event.cachedInputTokens !== undefined) state.cachedInputTokens = event.cachedInputTokens;
    if (event.cacheWriteInputTokens !== undefined) state.cacheWriteInputTokens = event.cacheWriteInputTokens;
    if (event.inputTokensReported !== undefined) state.inputTokensReported = event.inputTokensReported;
    if (event.servedServiceTier !== undefined) state.servedServiceTier = event.servedServiceTier;
    if (event.reasoningWithheld) state.reasoningWithheld = true;
    if (event.finishReason !== undefined) {
      state.finishReasonRaw = event.finishReason;
      if (!state.finishReasonsSeen.includes(event.finishReason) && state.finishReasonsSeen.length < MAX_FINISHES)
        state.finishReasonsSeen.push(event.finishReason);
    }
    if (event.complete) state.complete = true;
    if (event.error && !state.error) state.error = event.error;
    if (event.providerMetrics) Object.assign(state.providerMetrics, event.providerMetrics);
    for (const path of event.unrecognizedPaths ?? []) {
      if (state.unrecognizedPaths.length < MAX_UNRECOGNIZED_PATHS && !state.unrecognizedPaths.includes(path)) state.unrecognizedPaths.push(path);
    }
    if (event.sequenceIssue !== undefined && state.sequenceIssues.length < MAX_UNRECOGNIZED_PATHS) state.sequenceIssues.push(event.sequenceIssue);
    if (event.terminal) {
      state.terminal = true;
      state.terminalAtMs = atMs;
    }
  };
  return { state, accept };
}

/**
 * A channel's pieces resolved: each piece's new text (same order as the input) and the channel's
 * whole text. `json`: the channel is one tool call's arguments.
 */
function resolveChannel(pieces: string[], json: boolean): { fresh: string[]; whole: string } {
  if (isCumulative(pieces)) {
    let prev = '';
    const fresh = pieces.map((piece) => {
      if (piece === '') return '';
      const added = piece.slice(prev.length);
      prev = piece;
      return added;
    });
    return { fresh, whole: prev };
  }
  // Not cumulative as a whole: still, a piece that repeats (or repeats and extends) all the text so
  // far is a resend, not new text: a trailing whole-message event, a final chunk repeating the whole
  // arguments. Recognised only when a coincidence is impossible: after at least two earlier pieces
  // (text), or when the arguments so far are already a complete JSON value (tool calls). Arguments
  // resent whole as a new complete JSON value replace the earlier value (two JSON values in a row
  // are never one call's arguments); only the text past their common prefix is new.
  let acc = '';
  let earlier = 0;
  const fresh = pieces.map((piece) => {
    if (piece === '') return '';
    const accWhole = json && acc !== '' && isCompleteJson(acc);
    const repeat = acc !== '' && piece.startsWith(acc) && (earlier >= 2 || accWhole);
    earlier++;
    if (repeat) {
      const added = piece.slice(acc.length);
      acc = piece;
      return added;
    }
    if (accWhole && isCompleteJson(piece)) {
      let common = 0;
      while (common < acc.length && common < piece.length && acc[common] === piece[common]) common++;
      acc = piece;
      return piece.slice(common);
    }
    acc += piece;
    return piece;
  });
  return { fresh, whole: acc };
}

/**
 * True when `text` parses as one complete JSON object or array (tool-call arguments that are
 * already whole). Scalars do not count: argument deltas such as `1` then `2` are pieces of `12`.
 */
function isCompleteJson(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/**
 * Resolves text sent more than once, on every channel (answer, reasoning, and each tool call's
 * arguments separately; issue 22):
 * - cumulative channels (case C10: every event repeats the whole text so far): a channel is
 *   cumulative when it has at least two non-empty pieces, every piece starts with the previous
 *   one, and at least one is strictly longer; each event then keeps only its new suffix. Deciding
 *   after the stream (not at the second chunk) means one coincidence cannot flip a delta stream;
 * - repeats in a delta stream: a piece starting with the whole channel text so far (after two
 *   earlier pieces, or after arguments that are already complete JSON) keeps only what it adds.
 * Returns new event objects (events left with no text are dropped: they carried no new token) and
 * each tool call's resolved arguments by call key. `mayBeCumulative` false turns both rules off. Pure.
 */
export function resolveStreamTexts(events: RecordedEvent[], mayBeCumulative: boolean): { events: RecordedEvent[]; toolArguments: Map<string, string> } {
  const toolArguments = new Map<string, string>();
  if (!mayBeCumulative) {
    for (const e of events) for (const p of e.toolPieces) toolArguments.set(p.key, (toolArguments.get(p.key) ?? '') + p.text);
    return { events, toolArguments };
  }
  const answers = resolveChannel(
    events.map((e) => e.answer),
    false,
  ).fresh;
  const reasonings = resolveChannel(
    events.map((e) => e.reasoning),
    false,
  ).fresh;
  // Tool pieces per call key, resolved per call.
  const byKey = new Map<string, string[]>();
  for (const e of events) for (const p of e.toolPieces) byKey.set(p.key, [...(byKey.get(p.key) ?? []), p.text]);
  const resolvedByKey = new Map<string, string[]>();
  for (const [key, pieces] of byKey) {
    const resolved = resolveChannel(pieces, true);
    resolvedByKey.set(key, resolved.fresh);
    toolArguments.set(key, resolved.whole);
  }
  const cursor = new Map<string, number>();
  const out: RecordedEvent[] = [];
  events.forEach((e, i) => {
    const toolPieces = e.toolPieces.map((p) => {
      const at = cursor.get(p.key) ?? 0;
      cursor.set(p.key, at + 1);
      return { key: p.key, text: resolvedByKey.get(p.key)![at]! };
    });
    const toolArgs = toolPieces.map((p) => p.text).join('');
    const answer = answers[i]!;
    const reasoning = reasonings[i]!;
    if (answer !== '' || reasoning !== '' || toolArgs !== '')
      out.push({ ...e, answer, reasoning, toolArgs, toolPieces: toolPieces.filter((p) => p.text !== '') });
  });
  return { events: out, toolArguments };
}

function isCumulative(pieces: string[]): boolean {
  const texts = pieces.filter((p) => p !== '');
  if (texts.length < 2) return false;
  let grew = false;
  for (let i = 1; i < texts.length; i++) {
    if (!texts[i]!.startsWith(texts[i - 1]!)) return false;
    if (texts[i]!.length > texts[i - 1]!.length) grew = true;
  }
  return grew;
}
