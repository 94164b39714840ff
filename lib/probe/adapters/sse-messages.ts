/**
 * What one SSE message means before any protocol looks at its JSON: a keep-alive, the `[DONE]`
 * sentinel, a JSON object for the adapter, or an error the server put outside `data:` lines
 * (an `error:` field, a bare JSON error body, an HTML error page). Shared by every SSE adapter so
 * errors are found wherever the server puts them (issue 9 item 4).
 */
import { createSseFramer, type SseFramer, type SseMessage } from '../framing/sse-framer';
import type { WireEvent, WireEventSink } from './adapter';
import { classifyInStreamError, isRecord, looksLikeHtml, summarizeErrorText, tryParseJson } from './normalize';
import { namesFailure } from '../finish-reasons';
import { repeatedKeyPath } from './repeated-keys';

/** The meaning of one SSE message. */
export type DecodedSseMessage =
  /** an empty event or an empty non-standard field: carries nothing, extends nothing */
  | { kind: 'keepalive' }
  /** the `[DONE]` sentinel (OpenAI's terminal marker; a trailing sentinel elsewhere) */
  | { kind: 'done' }
  /**
   * a JSON object to interpret; `event` is the SSE event name, `unframed` when it came without
   * `data:`, `repeatedKey` the evidence path of a key its text repeats (./repeated-keys.ts)
   */
  | { kind: 'json'; value: Record<string, unknown>; event: string | undefined; unframed: boolean; repeatedKey: string | null }
  /**
   * a complete WireEvent (errors, unknown fields). `unparsable` marks bodies that are merely not
   * JSON: after the stream declared completion they are trailing noise, not a failure.
   */
  | { kind: 'wire'; wire: WireEvent; unparsable?: boolean };

/**
 * True when an SSE event name says a failure: `error`, or any name with a failure word
 * (FAILURE_WORD of ../finish-reasons: error, failed, abort, exception, cancelled, timeout...),
 * case-insensitive. Names of the Responses API (`response.failed`, `response.incomplete`) are
 * left to its adapter, which reads their data for the failure's kind.
 */
export function namesFailedEvent(event: string | undefined): boolean {
  if (event === undefined) return false;
  const name = event.trim().toLowerCase();
  return name === 'error' || (!name.startsWith('response.') && namesFailure(name));
}

/** Decodes one framed SSE message (see ../framing/sse-framer.ts). Pure. */
export function decodeSseMessage(message: SseMessage): DecodedSseMessage {
  const data = message.data.trim();
  if (message.framing === 'field') {
    const name = (message.field ?? '').toLowerCase();
    if (name === 'error') {
      const summary = data === '' ? 'error field without a message' : summarizeErrorText(data);
      return { kind: 'wire', wire: { error: classifyInStreamError(data, `in-stream error field: ${summary}`) } };
    }
    if (data === '') return { kind: 'keepalive' };
    return { kind: 'wire', wire: { unrecognizedPaths: [`sse:${message.field}`] } };
  }
  if (message.framing === 'data' && namesFailedEvent(message.event)) {
    // `event: error` (or another event named for a failure: `stream_error`, `Error`,
    // `generation_failed`), whatever its data (JSON, text, numbers or nothing): an error the
    // server reported (decision 313).
    const summary = data === '' ? 'error event without a message' : summarizeErrorText(data);
    return { kind: 'wire', wire: { error: classifyInStreamError(data, `in-stream error event: ${summary}`) } };
  }
  if (data === '') return { kind: 'keepalive' };
  if (data === '[DONE]') return { kind: 'done' };
  let parsed = tryParseJson(data);
  // A body wrapped in a one-element array (Google's error bodies: `[{"error": {...}}]`).
  if (Array.isArray(parsed) && parsed.length === 1 && isRecord(parsed[0])) parsed = parsed[0];
  if (isRecord(parsed))
    return { kind: 'json', value: parsed, event: message.event, unframed: message.framing === 'unframed', repeatedKey: repeatedKeyPath(data) };
  if (message.framing === 'unframed') {
    if (looksLikeHtml(data)) {
      const summary = summarizeErrorText(data);
      return { kind: 'wire', wire: { error: classifyInStreamError(summary, `HTML instead of an event stream: ${summary.replace(/^HTML page: /, '')}`) } };
    }
    return { kind: 'wire', wire: { error: { kind: 'stream_error', message: `text outside SSE framing: ${data.slice(0, 160)}` } }, unparsable: true };
  }
  return { kind: 'wire', wire: { error: { kind: 'stream_error', message: `unparsable event data: ${data.slice(0, 120)}` } }, unparsable: true };
}

/**
 * `event` with `repeatedKey` (the evidence path of a key the event's JSON repeats) among its
 * unrecognised paths: what the event said is ambiguous (RFC 8259 §4, decision 318).
 */
export function withRepeatedKey(event: WireEvent, repeatedKey: string | null): WireEvent {
  if (repeatedKey === null) return event;
  event.unrecognizedPaths = [...(event.unrecognizedPaths ?? []), repeatedKey];
  return event;
}

/**
 * The SSE decoder of every SSE adapter: keep-alives and server-reported errors go to `sink` as they
 * are (decodeSseMessage); a body that is merely not JSON after the stream declared completion
 * (`isComplete()`) is trailing noise and ignored; `[DONE]` ends the stream when `doneIsTerminal`
 * (OpenAI's marker) and is ignored otherwise; each JSON object becomes the WireEvent `onJson` makes (a repeated key
 * recorded as unrecognised, decision 318).
 */
export function createSseDecoder(
  sink: WireEventSink,
  opts: {
    doneIsTerminal: boolean;
    isComplete: () => boolean;
    onJson: (value: Record<string, unknown>, message: SseMessage) => WireEvent;
  },
): SseFramer {
  return createSseFramer((message, atMs) => {
    const decoded = decodeSseMessage(message);
    switch (decoded.kind) {
      case 'keepalive':
        return sink({ keepAlive: true }, atMs);
      case 'done':
        return sink(opts.doneIsTerminal ? { terminal: true } : {}, atMs);
      case 'wire':
        return sink(decoded.unparsable && opts.isComplete() ? {} : decoded.wire, atMs);
      case 'json':
        return sink(withRepeatedKey(opts.onJson(decoded.value, message), decoded.repeatedKey), atMs);
    }
  });
}
