/**
 * The probe's read path (decision 150): read a response body as fast as it arrives, give every
 * byte the arrival time of the socket read that delivered it, and leave parsing to the
 * process-wide parse scheduler (./parse-scheduler.ts).
 *
 * Arrival times come, in order of preference, from:
 * 1. undici's `bodyChunkReceived` stamps (./request-timing.ts), taken inside the socket's data
 *    callback before the bytes enter fetch's web stream. A web-stream chunk that holds several
 *    reads is cut at their boundaries, each part with its own stamp. Used when the fetch is the
 *    undici package (the SSRF-guarded fetch of workers and CLI) and the body is not
 *    content-encoded (the probe asks for `identity`; compressed bytes would not line up).
 * 2. For a content-encoded body (a server that ignored `identity`): the decoded bytes do not line
 *    up with the socket's, but every decoded chunk was produced from reads that had already arrived,
 *    so the latest stamp published when the reader gets the chunk is an upper bound on its arrival
 *    (never earlier than the truth), and a tighter one than the reader's clock: decoding (zlib
 *    on the thread pool, a cold decoder's first use) sits between the read and the reader.
 * 3. Otherwise the moment this loop receives the chunk from the web stream (Node's bundled fetch
 *    in tests), which is the same macrotask as the read, a few microtasks later.
 * Either way parsing happens after the stamp, so parsing cost and parse lag never enter a
 * measurement; `maxParseLagMs` reports how far parsing fell behind (a load indicator).
 */
import { createStreamParser, type ParseStreamOptions, type StreamParseResult, type StreamParserEnd } from './parse-stream';
import { cancelParse, requestParse, type ParseWork } from './parse-scheduler';
import { checkpointNow } from './stamp-lateness';
import type { Protocol, ProbeRecorder } from './types';

/** Read stamps published for this request (see RequestTiming.readEnds / readStamps). */
export interface ReadStamps {
  /** body byte count after each read */
  readEnds: number[];
  /** performance.now() of each read */
  readStamps: number[];
  /**
   * When present, every stamp taken on the reader's clock (no socket stamp, end of body) gets its
   * lateness bound recorded here (performance.now() → ms; ./stamp-lateness.ts, decision 180).
   */
  readerLateness?: Map<number, number>;
}

/** Inputs of {@link readAndParse}. */
export interface StampedReadOptions extends ParseStreamOptions {
  protocol: Protocol;
  body: ReadableStream<Uint8Array>;
  /** aborting it ends reading with a read error (deadline, caller) */
  signal: AbortSignal;
  /** converts a performance.now() value to ms since request start */
  toMs: (performanceNow: number) => number;
  /** the request's read stamps, or null when this fetch publishes none */
  stamps: ReadStamps | null;
  /**
   * False when the body is content-encoded: its decoded bytes do not line up with the stamped
   * socket bytes, and each chunk gets the latest stamp so far instead (module comment). Default true.
   */
  bytesAlign?: boolean;
  recorder?: ProbeRecorder;
}

/** What {@link readAndParse} returns: the parse plus how the read path fared. */
export interface StampedReadResult extends StreamParseResult {
  /** largest delay between a read's arrival and its parsing, ms */
  maxParseLagMs: number;
  /**
   * where the arrival times came from: `socket` (each byte's own read), `socket-latest` (a
   * content-encoded body: the latest read before the decoded chunk, an upper bound), `reader`
   */
  stampSource: 'socket' | 'socket-latest' | 'reader';
}

/**
 * Live handle of a running read: `flush()` parses everything read so far synchronously (a deadline
 * check calls it first, so a token that arrived but is not parsed yet is never missed).
 */
export interface StampedRead {
  flush(): void;
  result: Promise<StampedReadResult>;
}

/**
 * Starts reading `options.body`; see the module comment. Endpoint failures are results; `result`
 * rejects only when parsing itself throws (a defect, or a throwing `onRead`/`onTokenEvent`
 * callback such as a caller's onProgress) or the recorder throws: the read is then cancelled and
 * the error surfaces,
 * instead of the stream's parsing being dropped by the scheduler while the probe waits for a
 * deadline, or the throw escaping from a deadline's flush.
 */
export function readAndParse(options: StampedReadOptions): StampedRead {
  const { body, signal, toMs, stamps, recorder } = options;
  const bytesAlign = options.bytesAlign ?? true;
  const parser = createStreamParser(options.protocol, options);
  const pieces: Uint8Array[] = [];
  const times: number[] = [];
  let next = 0;
  let readerDone: StreamParserEnd | null = null;
  let maxParseLagMs = 0;
  let useStamps: boolean | null = stamps === null ? false : null;
  let settle: (r: StampedReadResult) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const result = new Promise<StampedReadResult>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  let settled = false;
  const reader = body.getReader();

  const finishIfDone = () => {
    if (settled || next < pieces.length || readerDone === null) return;
    settled = true;
    cancelParse(work);
    settle({ ...parser.finish(readerDone), maxParseLagMs, stampSource: !useStamps ? 'reader' : bytesAlign ? 'socket' : 'socket-latest' });
  };

  const parsePending = (untilMs: number): boolean => {
    if (settled) return false;
    try {
      return parseSlice(untilMs);
    } catch (error) {
      settled = true;
      cancelParse(work);
      reader.cancel().catch(() => {});
      fail(error);
      return false;
    }
  };
  const parseSlice = (untilMs: number): boolean => {
    let count = 0;
    while (next < pieces.length) {
      const chunk = pieces[next]!;
      const atMs = times[next]!;
      pieces[next] = EMPTY; // release the bytes as soon as they are parsed
      next++;
      const lag = toMs(performance.now()) - atMs;
      if (lag > maxParseLagMs) maxParseLagMs = lag;
      if (!parser.push(chunk, atMs)) {
        // Terminal marker or byte cap: read no further (the cancel settles the pending read).
        next = pieces.length;
        reader.cancel().catch(() => {});
        break;
      }
      if ((++count & 7) === 0 && performance.now() >= untilMs) break;
    }
    finishIfDone();
    return !settled && next < pieces.length;
  };
  const work: ParseWork = { runUntil: parsePending };

  const onAbort = () => {
    reader.cancel(signal.reason).catch(() => {});
  };
  signal.addEventListener('abort', onAbort, { once: true });

  let observerError: { error: unknown } | null = null;
  void (async () => {
    let offset = 0; // body bytes read so far
    let stampIndex = 0;
    try {
      while (true) {
        if (signal.aborted) throw signal.reason ?? new Error('aborted');
        const next = await reader.read();
        const readerNow = performance.now();
        if (signal.aborted) throw signal.reason ?? new Error('aborted');
        if (next.done) {
          readerDone = { kind: 'eof', atMs: toMs(readerNow) };
          noteReaderStamp(readerNow);
          break;
        }
        const chunk = next.value;
        if (chunk.length === 0) continue;
        const end = offset + chunk.length;
        // Decide once, at the first bytes: socket stamps exist for them, or this fetch has none.
        if (useStamps === null) {
          const ends = stamps!.readEnds;
          useStamps = ends.length > 0 && (!bytesAlign || ends[ends.length - 1]! >= end);
        }
        if (useStamps && !bytesAlign) {
          const at = stamps!.readStamps;
          queue(chunk, toMs(Math.min(readerNow, at[at.length - 1] ?? readerNow)));
        } else if (useStamps) {
          const ends = stamps!.readEnds;
          const at = stamps!.readStamps;
          while (stampIndex < ends.length && ends[stampIndex]! <= offset) stampIndex++;
          let pos = offset;
          while (pos < end) {
            if (stampIndex >= ends.length) {
              // Bytes without a stamp (should not happen: stamps are published before the stream
              // gets the bytes); the reader's own time is then the honest upper bound.
              queue(chunk.subarray(pos - offset), toMs(readerNow));
              noteReaderStamp(readerNow);
              break;
            }
            const cut = Math.min(ends[stampIndex]!, end);
            queue(pos === offset && cut === end ? chunk : chunk.subarray(pos - offset, cut - offset), toMs(at[stampIndex]!));
            if (ends[stampIndex]! <= end) stampIndex++;
            pos = cut;
          }
        } else {
          queue(chunk, toMs(readerNow));
          noteReaderStamp(readerNow);
        }
        if (recorder) {
          try {
            recorder.onBytes(chunk, times[times.length - 1]!);
          } catch (error) {
            // The recorder's failure (a full disk) is ours, not the endpoint cutting its stream.
            observerError = { error };
            throw error;
          }
        }
        offset = end;
        requestParse(work);
      }
    } catch (error) {
      readerDone = { kind: 'read_error', error };
    } finally {
      signal.removeEventListener('abort', onAbort);
      reader.cancel().catch(() => {});
    }
    // What is left is parsed in the scheduler's slices like the rest: many streams end together,
    // and parsing all their backlogs at once would hold up the reads of those still running.
    if (observerError && !settled) {
      settled = true;
      cancelParse(work);
      fail(observerError.error);
    } else if (next < pieces.length) requestParse(work);
    else parsePending(Number.POSITIVE_INFINITY);
  })();

  function noteReaderStamp(now: number): void {
    const log = stamps?.readerLateness;
    if (log && !log.has(now)) log.set(now, checkpointNow(now));
  }

  function queue(chunk: Uint8Array, atMs: number): void {
    pieces.push(chunk);
    times.push(atMs);
  }

  return {
    flush: () => {
      parsePending(Number.POSITIVE_INFINITY);
    },
    result,
  };
}

const EMPTY = new Uint8Array(0);
