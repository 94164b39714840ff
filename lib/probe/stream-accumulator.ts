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
  /** some event carried reasoning blocks without their text (WireEvent.reasoningWithheld) */
  reasoningWithheld: boolean;
  /** ms since request start of the last event that was not a keep-alive (comments never count) */
  lastDataEventMs: number | null;
  finishReasonRaw: string | null;
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
}

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
    reasoningWithheld: false,
    lastDataEventMs: null,
    finishReasonRaw: null,
    complete: false,
    terminal: false,
    terminalAtMs: null,
    error: null,
    providerMetrics: {},
    generatedChars: 0,
    unrecognizedPaths: [],
  };
  const toolsByKey = new Map<string, AccumulatedToolCall>();

  const accept = (event: WireEvent, atMs: number) => {
    if (state.terminal) return; // bytes after [DONE] / message_stop in the same read
    let toolArgs = '';
    for (const delta of event.toolCalls ?? []) {
      let call = toolsByKey.get(delta.key);
      if (!call) {
        call = { key: delta.key, id: null, name: null, arguments: '' };
        toolsByKey.set(delta.key, call);
        state.toolCalls.push(call);
      }
      if (delta.id) call.id = delta.id;
      if (delta.name) call.name = delta.name;
      call.arguments += delta.argumentsDelta;
      toolArgs += delta.argumentsDelta;
    }
    const answer = event.answer ?? '';
    const reasoning = event.reasoning ?? '';
    if (answer !== '' || reasoning !== '' || toolArgs !== '') {
      state.events.push({ atMs, answer, reasoning, toolArgs });
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
    if (event.reasoningWithheld) state.reasoningWithheld = true;
    if (event.finishReason !== undefined) state.finishReasonRaw = event.finishReason;
    if (event.complete) state.complete = true;
    if (event.error && !state.error) state.error = event.error;
    if (event.providerMetrics) Object.assign(state.providerMetrics, event.providerMetrics);
    for (const path of event.unrecognizedPaths ?? []) {
      if (state.unrecognizedPaths.length < MAX_UNRECOGNIZED_PATHS && !state.unrecognizedPaths.includes(path)) state.unrecognizedPaths.push(path);
    }
    if (event.terminal) {
      state.terminal = true;
      state.terminalAtMs = atMs;
    }
  };
  return { state, accept };
}

/**
 * Resolves cumulative channels (case C10: every chunk repeats the whole text so far).
 * A channel is cumulative when it has at least two non-empty pieces, every piece starts with the
 * previous one, and at least one is strictly longer; each event then keeps only its new suffix.
 * Deciding after the stream (not at the second chunk) means one coincidence cannot flip a normal
 * delta stream. Returns new event objects; events left with no text are dropped (they carried no
 * new token). Pure.
 */
export function resolveEventTexts(events: RecordedEvent[], mayBeCumulative: boolean): RecordedEvent[] {
  if (!mayBeCumulative) return events;
  const cumulativeAnswer = isCumulative(events.map((e) => e.answer));
  const cumulativeReasoning = isCumulative(events.map((e) => e.reasoning));
  if (!cumulativeAnswer && !cumulativeReasoning) return events;
  let prevAnswer = '';
  let prevReasoning = '';
  const out: RecordedEvent[] = [];
  for (const e of events) {
    let answer = e.answer;
    let reasoning = e.reasoning;
    if (cumulativeAnswer && answer !== '') {
      const full = answer;
      answer = full.slice(prevAnswer.length);
      prevAnswer = full;
    }
    if (cumulativeReasoning && reasoning !== '') {
      const full = reasoning;
      reasoning = full.slice(prevReasoning.length);
      prevReasoning = full;
    }
    if (answer !== '' || reasoning !== '' || e.toolArgs !== '') out.push({ ...e, answer, reasoning });
  }
  return out;
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
