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
 * 2. Otherwise the moment this loop receives the chunk from the web stream (Node's bundled fetch
 *    in tests), which is the same macrotask as the read, a few microtasks later.
 * Either way parsing happens after the stamp, so parsing cost and parse lag never enter a
 * measurement; `maxParseLagMs` reports how far parsing fell behind (a load indicator).
 */
import { createStreamParser, type ParseStreamOptions, type StreamParseResult, type StreamParserEnd } from './parse-stream';
import { cancelParse, requestParse, type ParseWork } from './parse-scheduler';
import type { Protocol, ProbeRecorder } from './types';

/** Read stamps published for this request (see RequestTiming.readEnds / readStamps). */
export interface ReadStamps {
  /** body byte count after each read */
  readEnds: number[];
  /** performance.now() of each read */
  readStamps: number[];
}

/** Inputs of {@link readAndParse}. */
export interface StampedReadOptions extends ParseStreamOptions {
  protocol: Protocol;
  body: ReadableStream<Uint8Array>;
  /** aborting it ends reading with a read error (deadline, caller) */
  signal: AbortSignal;
  /** converts a performance.now() value to ms since request start */
  toMs: (performanceNow: number) => number;
  /** the request's read stamps, or null when they cannot be used (content-encoded body) */
  stamps: ReadStamps | null;
  recorder?: ProbeRecorder;
}

/** What {@link readAndParse} returns: the parse plus how the read path fared. */
export interface StampedReadResult extends StreamParseResult {
  /** largest delay between a read's arrival and its parsing, ms */
  maxParseLagMs: number;
  /** where the arrival times came from */
  stampSource: 'socket' | 'reader';
}

/**
 * Live handle of a running read: `flush()` parses everything read so far synchronously (a deadline
 * check calls it first, so a token that arrived but is not parsed yet is never missed).
 */
export interface StampedRead {
  flush(): void;
  result: Promise<StampedReadResult>;
}

/** Starts reading `options.body`; see the module comment. Never rejects. */
export function readAndParse(options: StampedReadOptions): StampedRead {
  const { body, signal, toMs, stamps, recorder } = options;
  const parser = createStreamParser(options.protocol, options);
  const pieces: Uint8Array[] = [];
  const times: number[] = [];
  let next = 0;
  let readerDone: StreamParserEnd | null = null;
  let maxParseLagMs = 0;
  let useStamps: boolean | null = stamps === null ? false : null;
  let settle: (r: StampedReadResult) => void = () => {};
  const result = new Promise<StampedReadResult>((resolve) => (settle = resolve));
  let settled = false;
  const reader = body.getReader();

  const finishIfDone = () => {
    if (settled || next < pieces.length || readerDone === null) return;
    settled = true;
    cancelParse(work);
    settle({ ...parser.finish(readerDone), maxParseLagMs, stampSource: useStamps ? 'socket' : 'reader' });
  };

  const parsePending = (untilMs: number): boolean => {
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
          break;
        }
        const chunk = next.value;
        if (chunk.length === 0) continue;
        const end = offset + chunk.length;
        // Decide once, at the first bytes: socket stamps exist for them, or this fetch has none.
        if (useStamps === null) useStamps = stamps!.readEnds.length > 0 && stamps!.readEnds[stamps!.readEnds.length - 1]! >= end;
        if (useStamps) {
          const ends = stamps!.readEnds;
          const at = stamps!.readStamps;
          while (stampIndex < ends.length && ends[stampIndex]! <= offset) stampIndex++;
          let pos = offset;
          while (pos < end) {
            if (stampIndex >= ends.length) {
              // Bytes without a stamp (should not happen: stamps are published before the stream
              // gets the bytes); the reader's own time is then the honest upper bound.
              queue(chunk.subarray(pos - offset), toMs(readerNow));
              break;
            }
            const cut = Math.min(ends[stampIndex]!, end);
            queue(pos === offset && cut === end ? chunk : chunk.subarray(pos - offset, cut - offset), toMs(at[stampIndex]!));
            if (ends[stampIndex]! <= end) stampIndex++;
            pos = cut;
          }
        } else {
          queue(chunk, toMs(readerNow));
        }
        recorder?.onBytes(chunk, times[times.length - 1]!);
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
    if (next < pieces.length) requestParse(work);
    else finishIfDone();
  })();

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
