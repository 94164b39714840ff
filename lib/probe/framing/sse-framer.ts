/**
 * Server-Sent Events framing for the probe: bytes → events, each stamped with the arrival time of
 * the read that completed it.
 *
 * Decision 063 (replaces the eventsource-parser framer): a line parser of our own, because the
 * streams servers really send break the SSE format in ways the spec parser silently drops, and the
 * probe must report what the server evidently meant (issue 9):
 * - the spec part: UTF-8 decoded with a streaming TextDecoder (a character split across reads is
 *   never corrupted), a leading BOM dropped, lines ended by CR, LF or CRLF (a CR and its LF in
 *   different reads count once), `field:value` with one optional space, comments (`:`) dropped,
 *   `data` lines joined with "\n", an event dispatched by the blank line that ends it;
 * - non-standard fields (`error: {...}` of llama.cpp, case F01) are dispatched at once as
 *   `framing: 'field'` messages instead of being ignored;
 * - text outside SSE framing (a bare JSON error body, case F06; NDJSON lines; an HTML error page)
 *   is dispatched as `framing: 'unframed'`: a JSON value as soon as its text parses, other text at
 *   the next field line or the end of the body;
 * - events written on consecutive lines without the blank line between them: when a `data:` line
 *   arrives while the pending event's data is already a complete JSON value (or `[DONE]`), or an
 *   `event:` line arrives after data, the pending event is dispatched first, stamped with the
 *   arrival of its own last line. A JSON value spread over several `data:` lines (case C05B) never
 *   parses alone, so it stays one event.
 * Final event without its blank line at EOF: dispatched on a CLEAN end of body (the server
 * evidently meant it); on a reset or a deadline nothing is flushed, so a cut stream never looks
 * complete.
 */

/** One dispatched SSE message. */
export interface SseMessage {
  /**
   * - `data`: an ordinary event (data lines joined with "\n", possibly empty: a keep-alive)
   * - `field`: a non-standard field line (`error: ...`); `field` holds its name, `data` its value
   * - `unframed`: text outside SSE framing (a JSON value or other text), in `data`
   */
  framing: 'data' | 'field' | 'unframed';
  /** the `event:` name, when one was given */
  event: string | undefined;
  data: string;
  /** the non-standard field's name (framing `field`) */
  field?: string;
  id?: string;
}

/** Callback for one complete SSE message; `atMs` = arrival time of the read that completed it. */
export type SseEventHandler = (message: SseMessage, atMs: number) => void;

/** Incremental SSE framer: `push` bytes as they arrive, `end` on a clean end of body. */
export interface SseFramer {
  push(bytes: Uint8Array, atMs: number): void;
  end(atMs: number): void;
}

/** A field name as servers write them; anything else on a line is not SSE framing. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** Unframed text kept at most this long before it is dispatched as is. */
const MAX_UNFRAMED_CHARS = 64 * 1024;

/** True when `text` is one complete JSON value (or the `[DONE]` sentinel). */
function isCompleteValue(text: string): boolean {
  const t = text.trim();
  if (t === '[DONE]') return true;
  if (t === '' || (t[0] !== '{' && t[0] !== '[')) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates an SSE framer that calls `onEvent` for every complete message (comments are dropped:
 * they carry nothing and must not count as chunks or extend any time).
 */
export function createSseFramer(onEvent: SseEventHandler): SseFramer {
  const decoder = new TextDecoder('utf-8');
  let lastByteMs = 0;
  let started = false;
  let partial = '';
  let afterCr = false;
  // Pending event.
  let eventName: string | undefined;
  let eventId: string | undefined;
  let dataLines: string[] = [];
  let lastLineMs = 0;
  // Pending unframed text.
  let unframed = '';
  let unframedMs = 0;

  const dispatch = (atMs: number) => {
    if (dataLines.length > 0) onEvent({ framing: 'data', event: eventName, data: dataLines.join('\n'), id: eventId }, atMs);
    // `event: error` with no data: the spec drops it, the server evidently reported an error.
    else if (eventName === 'error') onEvent({ framing: 'data', event: eventName, data: '', id: eventId }, atMs);
    dataLines = [];
    eventName = undefined;
  };
  const flushUnframed = () => {
    if (unframed.trim() !== '') onEvent({ framing: 'unframed', event: undefined, data: unframed.trim() }, unframedMs);
    unframed = '';
  };

  const onLine = (line: string, atMs: number) => {
    if (line === '') {
      dispatch(atMs);
      return;
    }
    if (line.startsWith(':')) return; // comment / keep-alive
    // A field indented by mistake (` data: {...}`) is still that field.
    if (line.charCodeAt(0) === 0x20 || line.charCodeAt(0) === 0x09) {
      const trimmed = line.trimStart();
      if (/^(data|event|id|retry):/.test(trimmed)) line = trimmed;
    }
    const colon = line.indexOf(':');
    // `data:` is nearly every line: skip the field-name pattern for it.
    const name = colon === 4 && line.startsWith('data') ? 'data' : colon < 0 ? line : line.slice(0, colon);
    if ((name !== 'data' && !FIELD_NAME.test(name)) || (colon < 0 && unframed !== '')) {
      // Not SSE framing: a bare JSON body, NDJSON, an HTML page...
      if (dataLines.length > 0) dispatch(lastLineMs);
      unframed += (unframed === '' ? '' : '\n') + line;
      unframedMs = atMs;
      const head = unframed.trimStart()[0];
      if ((head === '{' || head === '[') && isCompleteValue(unframed)) flushUnframed();
      else if (unframed.length > MAX_UNFRAMED_CHARS) flushUnframed();
      return;
    }
    if (unframed !== '') flushUnframed();
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (name) {
      case 'data':
        // A new data line after a complete value: the server wrote events without blank lines.
        // (An `event:` name given for the first event does not carry over to the next one.)
        if (dataLines.length > 0 && isCompleteValue(dataLines.join('\n'))) dispatch(lastLineMs);
        dataLines.push(value);
        lastLineMs = atMs;
        return;
      case 'event':
        if (dataLines.length > 0) dispatch(lastLineMs);
        eventName = value;
        return;
      case 'id':
        eventId = value;
        return;
      case 'retry':
        return;
      default:
        if (dataLines.length > 0) dispatch(lastLineMs);
        onEvent({ framing: 'field', event: eventName, field: name, data: value }, atMs);
    }
  };

  const feed = (text: string, atMs: number) => {
    // Fast path (nearly every read): no CR anywhere, so lines end at LF only and indexOf finds them
    // without a per-character loop. Same result as the general loop below.
    if (!afterCr && text.indexOf('\r') === -1) {
      let from = 0;
      let nl: number;
      while ((nl = text.indexOf('\n', from)) !== -1) {
        onLine(partial === '' ? text.slice(from, nl) : partial + text.slice(from, nl), atMs);
        partial = '';
        from = nl + 1;
      }
      if (from < text.length) partial += text.slice(from);
      return;
    }
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 0x0a /* \n */) {
        if (afterCr && i === start && partial === '') {
          afterCr = false;
          start = i + 1;
          continue;
        }
        afterCr = false;
        onLine(partial + text.slice(start, i), atMs);
        partial = '';
        start = i + 1;
      } else if (ch === 0x0d /* \r */) {
        onLine(partial + text.slice(start, i), atMs);
        partial = '';
        start = i + 1;
        afterCr = true;
      } else if (afterCr) {
        afterCr = false;
      }
    }
    if (start < text.length) {
      partial += text.slice(start);
      afterCr = false;
    }
  };

  return {
    push(bytes, atMs) {
      if (bytes.length === 0) return;
      lastByteMs = atMs;
      let text = decoder.decode(bytes, { stream: true });
      if (!started && text !== '') {
        started = true;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (text !== '') feed(text, atMs);
    },
    end() {
      // Anything dispatched now was completed by the last bytes that arrived.
      const tail = decoder.decode();
      if (tail !== '') feed(tail, lastByteMs);
      if (partial !== '') {
        onLine(partial, lastByteMs);
        partial = '';
      }
      if (unframed !== '') flushUnframed();
      dispatch(lastByteMs);
    },
  };
}
