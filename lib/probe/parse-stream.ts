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

/** How an incrementally fed stream ended, for {@link StreamParser.finish}. */
export type StreamParserEnd =
  /** clean end of body, noticed at `atMs` */
  | { kind: 'eof'; atMs: number }
  /** reading failed (reset, deadline, caller abort) */
  | { kind: 'read_error'; error: unknown };

/**
 * The synchronous, incremental form of {@link parseStream}: feed reads with `push` in arrival
 * order, each with the time it ARRIVED (not the time it is parsed), then `finish` once. Parsing
 * may therefore run later than the reads (probeEndpoint parses off the read path, decision 150):
 * every time in the result comes from the `atMs` given with the bytes.
 */
export interface StreamParser {
  /** The accumulation so far (live view). */
  readonly state: StreamAccumulation;
  /**
   * Why the parser stopped taking bytes: 'terminal' (terminal marker seen) or 'max_bytes' (the cap
   * was crossed); null while it still takes bytes. Bytes pushed after it stopped are ignored.
   */
  readonly stoppedBy: 'terminal' | 'max_bytes' | null;
  /** Feeds one read. Returns false once the parser stopped taking bytes. */
  push(chunk: Uint8Array, atMs: number): boolean;
  /**
   * Ends the parse and returns the result. On a clean EOF the framer is flushed (a final event
   * without its blank line counts, stamped with the last read) and endMs = `end.atMs`; after a
   * terminal marker endMs is its time; on a read error nothing is flushed and endMs is null.
   * Call once.
   */
  finish(end: StreamParserEnd): StreamParseResult;
}

/**
 * Creates an incremental parser for `protocol` (see {@link StreamParser}). `options.onRead` is
 * called after each pushed read; `options.onTokenEvent` at each token-bearing event.
 */
export function createStreamParser(protocol: Protocol, options: ParseStreamOptions = {}): StreamParser {
  const adapter = getAdapter(protocol);
  const accumulator = createStreamAccumulator(options.onTokenEvent);
  const decoder = adapter.createDecoder(accumulator.accept);
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const headBytes: Uint8Array[] = [];
  let headLength = 0;
  let bytesReceived = 0;
  let lastByteMs: number | null = null;
  let stoppedBy: 'terminal' | 'max_bytes' | null = null;
  let finished: StreamParseResult | null = null;

  const push = (chunk: Uint8Array, atMs: number): boolean => {
    if (stoppedBy) return false;
    if (chunk.length === 0) return true;
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
      stoppedBy = 'max_bytes';
      return false;
    }
    decoder.push(chunk, atMs);
    options.onRead?.(accumulator.state, atMs);
    if (accumulator.state.terminal) {
      stoppedBy = 'terminal';
      return false;
    }
    return true;
  };

  const finish = (end: StreamParserEnd): StreamParseResult => {
    if (finished) return finished;
    let endReason: StreamEndReason;
    let readError: unknown = null;
    let endMs: number | null = null;
    if (stoppedBy === 'terminal') {
      endReason = 'terminal';
      endMs = accumulator.state.terminalAtMs;
    } else if (stoppedBy === 'max_bytes') {
      endReason = 'max_bytes';
    } else if (end.kind === 'eof') {
      endReason = 'eof';
      decoder.end(lastByteMs ?? end.atMs);
      endMs = end.atMs;
    } else {
      endReason = 'read_error';
      readError = end.error;
    }
    const bodyHead = new TextDecoder().decode(concat(headBytes));
    finished = { ...accumulator.state, endReason, readError, bytesReceived, lastByteMs, endMs, bodyHead };
    return finished;
  };

  return {
    get state() {
      return accumulator.state;
    },
    get stoppedBy() {
      return stoppedBy;
    },
    push,
    finish,
  };
}

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
  const parser = createStreamParser(protocol, options);
  try {
    for await (const chunk of chunks) {
      if (!parser.push(chunk, clock())) break;
    }
    return parser.finish({ kind: 'eof', atMs: clock() });
  } catch (error) {
    return parser.finish({ kind: 'read_error', error });
  }
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
