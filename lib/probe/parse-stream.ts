/**
 * The parsing layer without HTTP: bytes (any cut into reads) + a clock → a stream accumulation.
 * probeEndpoint feeds it the live response body with the monotonic clock; the split-invariance
 * property test feeds it re-cut fixture bytes with a fake clock.
 */
import { getAdapter } from './adapters/registry';
import { createStreamAccumulator, type StreamAccumulation } from './stream-accumulator';
import type { Protocol } from './types';

/** Why reading stopped. */
export type StreamEndReason =
  /** clean end of body */
  | 'eof'
  /** terminal marker seen ([DONE], message_stop, Bedrock metadata, end of Gemini array); reading stopped there */
  | 'terminal'
  /** the body exceeded maxBytes */
  | 'max_bytes'
  /** reading failed: connection reset, or an abort (deadline, caller) */
  | 'read_error';

/** Result of {@link parseStream}. Times are ms on the given clock. */
export interface StreamParseResult extends StreamAccumulation {
  endReason: StreamEndReason;
  /** the error that ended reading when endReason is 'read_error' */
  readError: unknown;
  bytesReceived: number;
  /** arrival of the last read, null when no byte arrived */
  lastByteMs: number | null;
  /** end of stream: terminal marker or clean EOF time; null when reading failed or was capped */
  endMs: number | null;
  /** first bytes of the body as text (diagnostics for unparsable bodies), at most 512 chars */
  bodyHead: string;
}

/** Options of {@link parseStream}. */
export interface ParseStreamOptions {
  /** Stop with endReason 'max_bytes' once more than this many body bytes arrived. */
  maxBytes?: number;
  /** Called at each token-bearing event (deadline bookkeeping). */
  onTokenEvent?: (atMs: number) => void;
  /** Called after each read with the accumulation so far (progress display). */
  onRead?: (state: StreamAccumulation, atMs: number) => void;
}

const BODY_HEAD_BYTES = 512;

/**
 * Decodes `chunks` with the adapter of `protocol`. `clock()` returns ms since request start and is
 * read once per chunk, at its arrival. Never throws: read failures end as endReason 'read_error'.
 */
export async function parseStream(
  protocol: Protocol,
  chunks: AsyncIterable<Uint8Array>,
  clock: () => number,
  options: ParseStreamOptions = {},
): Promise<StreamParseResult> {
  const adapter = getAdapter(protocol);
  const accumulator = createStreamAccumulator(options.onTokenEvent);
  const decoder = adapter.createDecoder(accumulator.accept);
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const headBytes: Uint8Array[] = [];
  let headLength = 0;
  let bytesReceived = 0;
  let lastByteMs: number | null = null;
  let endReason: StreamEndReason = 'eof';
  let readError: unknown = null;
  let endMs: number | null = null;

  try {
    for await (const chunk of chunks) {
      const atMs = clock();
      if (chunk.length === 0) continue;
      bytesReceived += chunk.length;
      lastByteMs = atMs;
      if (headLength < BODY_HEAD_BYTES) {
        headBytes.push(chunk.subarray(0, BODY_HEAD_BYTES - headLength));
        headLength += Math.min(chunk.length, BODY_HEAD_BYTES - headLength);
      }
      if (bytesReceived > maxBytes) {
        // Parse up to the cap exactly, so where the network cut the reads does not matter.
        const allowed = chunk.length - (bytesReceived - maxBytes);
        if (allowed > 0) decoder.push(chunk.subarray(0, allowed), atMs);
        endReason = 'max_bytes';
        break;
      }
      decoder.push(chunk, atMs);
      options.onRead?.(accumulator.state, atMs);
      if (accumulator.state.terminal) {
        endReason = 'terminal';
        endMs = accumulator.state.terminalAtMs;
        break;
      }
    }
    if (endReason === 'eof') {
      decoder.end(lastByteMs ?? clock());
      endMs = clock();
    }
  } catch (error) {
    endReason = 'read_error';
    readError = error;
  }
  const bodyHead = new TextDecoder().decode(concat(headBytes));
  return { ...accumulator.state, endReason, readError, bytesReceived, lastByteMs, endMs, bodyHead };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
