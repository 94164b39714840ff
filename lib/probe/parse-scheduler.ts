/**
 * Parsing off the read path (decision 150): one process-wide scheduler that runs the probes'
 * parsing in short slices between event-loop turns, so that a socket read is never kept waiting
 * behind the parsing of other streams.
 *
 * Why: a probe's timestamps are taken when a read arrives (./request-timing.ts). With hundreds of
 * concurrent streams, parsing (UTF-8, SSE framing, JSON, the adapter) costs several µs per event;
 * done inside each read's callback it keeps the loop busy so that later reads are noticed late.
 * Here reads only queue their bytes; parsing runs in `setImmediate` callbacks (the loop's check
 * phase, after the poll phase that delivers reads) of at most SLICE_MS each. When the process has
 * CPU to spare a read is parsed in the same loop turn; when it has not, parsing lags behind while
 * reads keep their true arrival times, and the lag is recorded (`maxParseLagMs`).
 */

/** Longest a parse slice runs before the loop gets back to reads, ms. */
export const SLICE_MS = 2;

/** One stream's pending work, registered with {@link requestParse}. */
export interface ParseWork {
  /**
   * Parses pending reads until `untilMs` (performance.now()) has passed or nothing is left.
   * Returns true when work remains.
   */
  runUntil(untilMs: number): boolean;
}

const queue = new Set<ParseWork>();
let scheduled = false;

/** Queues `work` to be run in the next slices (idempotent while it is queued). */
export function requestParse(work: ParseWork): void {
  queue.add(work);
  if (!scheduled) {
    scheduled = true;
    setImmediate(drain);
  }
}

/**
 * Runs `task` in a later slice, counted against the slice budget like parsing (a probe's end-of-
 * stream work: tokenizing and building its result). Many streams of a sweep end in the same
 * moment; run back to back, their ends would hold the loop for tens of ms while other streams'
 * reads wait. Resolves with the task's value, rejects with its error.
 */
export function runInSlice<T>(task: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    requestParse({
      runUntil: () => {
        try {
          resolve(task());
        } catch (error) {
          reject(error as Error);
        }
        return false;
      },
    });
  });
}

/** Drops `work` from the queue (a stream that was finished synchronously). */
export function cancelParse(work: ParseWork): void {
  queue.delete(work);
}

function drain(): void {
  scheduled = false;
  const untilMs = performance.now() + SLICE_MS;
  // Round-robin over a snapshot: each stream parses what it has, those with more go to the back.
  for (const work of [...queue]) {
    queue.delete(work);
    let more: boolean;
    try {
      more = work.runUntil(untilMs);
    } catch {
      more = false; // a parser never throws; a defect here must not stop every other stream
    }
    if (more) queue.add(work);
    if (performance.now() >= untilMs) break;
  }
  if (queue.size > 0 && !scheduled) {
    scheduled = true;
    setImmediate(drain);
  }
}
