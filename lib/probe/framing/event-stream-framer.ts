/**
 * AWS event-stream (application/vnd.amazon.eventstream) framing for Bedrock ConverseStream.
 * A frame is: 4-byte total length, 4-byte headers length, 4-byte prelude CRC32, headers, payload,
 * 4-byte message CRC32. Frames may be split across reads (even inside the 12-byte prelude) and
 * several may share one read, so we buffer by length and hand each whole frame to
 * @smithy/eventstream-codec, which checks both CRCs.
 */
import { EventStreamCodec, type Message } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

/** Largest frame we accept (AWS limits event-stream messages to 16 MiB). */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;
const MIN_FRAME_BYTES = 16;

/** Handlers for decoded frames and framing errors. */
export interface EventStreamHandlers {
  /** A complete, CRC-checked frame; `atMs` = arrival of the read holding its last byte. */
  onMessage(message: Message, atMs: number): void;
  /** A corrupt frame (bad length, CRC mismatch) or trailing partial frame at end of body. */
  onError(message: string, atMs: number): void;
}

/** Incremental event-stream framer. */
export interface EventStreamFramer {
  push(bytes: Uint8Array, atMs: number): void;
  end(atMs: number): void;
}

/** Creates a framer; after a framing error it ignores further bytes (the stream is unusable). */
export function createEventStreamFramer(handlers: EventStreamHandlers): EventStreamFramer {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  let buffer: Uint8Array = new Uint8Array(0);
  let failed = false;
  let lastByteMs = 0;

  const append = (bytes: Uint8Array) => {
    if (buffer.length === 0) {
      buffer = bytes;
      return;
    }
    const merged = new Uint8Array(buffer.length + bytes.length);
    merged.set(buffer, 0);
    merged.set(bytes, buffer.length);
    buffer = merged;
  };

  return {
    push(bytes, atMs) {
      if (failed || bytes.length === 0) return;
      lastByteMs = atMs;
      append(bytes);
      while (buffer.length >= 4) {
        const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
        const total = view.getUint32(0, false);
        if (total < MIN_FRAME_BYTES || total > MAX_FRAME_BYTES) {
          failed = true;
          handlers.onError(`event-stream frame with impossible length ${total}`, atMs);
          return;
        }
        if (buffer.length < total) return;
        const frame = buffer.subarray(0, total);
        buffer = buffer.subarray(total);
        let message: Message;
        try {
          message = codec.decode(frame);
        } catch (error) {
          failed = true;
          handlers.onError(`corrupt event-stream frame: ${(error as Error).message}`, atMs);
          return;
        }
        handlers.onMessage(message, atMs);
      }
    },
    end() {
      if (!failed && buffer.length > 0) {
        handlers.onError(`body ended inside an event-stream frame (${buffer.length} bytes left)`, lastByteMs);
      }
    },
  };
}
