/**
 * Server-Sent Events framing for the probe.
 *
 * Decision (see STACK.md "Streams"): bytes are decoded with a streaming UTF-8 TextDecoder (exactly
 * what TextDecoderStream does, so a character split across reads is never corrupted) and fed as
 * strings to eventsource-parser 4's `createParser` (the parser EventSourceParserStream wraps). We
 * call the parser synchronously instead of piping through the two web streams so that every event
 * is stamped with the arrival time of the read that completed it, with no queue in between; the
 * parsing itself (CR / LF / CRLF, a CR and its LF in different reads, `data:` without a space,
 * multi-line `data`, comments) is the library's.
 *
 * Final event without the blank line at EOF: the SSE spec drops it; servers that do this (last
 * `data: [DONE]` or a final chunk without "\n\n") evidently meant it as an event, so on a CLEAN end
 * of body we dispatch it, stamped with the arrival time of its last byte. On a reset or a deadline
 * nothing is flushed: a cut stream must not look complete.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** Callback for one complete SSE event; `atMs` = arrival time of the read that completed it. */
export type SseEventHandler = (message: EventSourceMessage, atMs: number) => void;

/** Incremental SSE framer: `push` bytes as they arrive, `end` on a clean end of body. */
export interface SseFramer {
  push(bytes: Uint8Array, atMs: number): void;
  end(atMs: number): void;
}

/**
 * Creates an SSE framer that calls `onEvent` for every complete event (comments are dropped:
 * they carry nothing and must not count as chunks).
 */
export function createSseFramer(onEvent: SseEventHandler): SseFramer {
  let currentMs = 0;
  let lastByteMs = 0;
  const decoder = new TextDecoder('utf-8');
  const parser = createParser({
    onEvent: (message) => onEvent(message, currentMs),
    // A comment handler keeps the parser from discarding comment lines early; we ignore them.
    onComment: () => {},
  });
  return {
    push(bytes, atMs) {
      if (bytes.length === 0) return;
      currentMs = atMs;
      lastByteMs = atMs;
      const text = decoder.decode(bytes, { stream: true });
      if (text !== '') parser.feed(text);
    },
    end() {
      // Any event dispatched now was completed by the last bytes that arrived.
      currentMs = lastByteMs;
      const tail = decoder.decode();
      if (tail !== '') parser.feed(tail);
      // Two line feeds end an unterminated last line and then the event. After a trailing CR the
      // first LF is swallowed as its CRLF partner, and the second still ends the event; after a
      // properly terminated stream they are just blank lines, which dispatch nothing.
      parser.feed('\n\n');
    },
  };
}
