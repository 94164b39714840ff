/**
 * A second upper bound on how late a read stamp may be, from the order of reads on one socket
 * (decision 183). It complements the sleep bound of ./stamp-lateness.ts, which on a busy machine
 * grows without limit: a thread that is preempted between reads never provably sleeps, so "since
 * the last sleep" covers the whole stream (speed bounds of 50-90 % under three busy loops).
 *
 * The argument. libuv reads a socket into a 64 KiB buffer and stops after a short read: a read that
 * returned fewer bytes than it asked for took everything the kernel held at that moment (POSIX
 * recv on a stream socket; libuv `uv__read` sets UV_HANDLE_READ_PARTIAL and returns). So every byte
 * of the *next* read of that socket arrived after the previous read's recv. That recv ran inside
 * the previous read's callback, which began after the last checkpoint the thread took before that
 * callback (the thread runs one callback at a time). With
 *
 *   F(k) = the last checkpoint of this thread taken before read callback k began,
 *
 * a stamp S in read k + 1 is late by at most S − F(k), whatever the scheduler did in between: the
 * true arrival lies in (F(k), S]. The bound is used only when it is smaller than the sleep bound.
 *
 * Where the argument does not hold, the bound is not used or the stamp is unknown:
 * - Read k was not provably short: more than {@link SHORT_READ_BODY_BYTES} body bytes were stamped
 *   in it (TLS and HTTP framing add a few per cent; headers are at most undici's 16 KiB limit).
 * - The HTTP parser paused after a read (the consumer fell 16 KiB behind, undici's body
 *   highWaterMark): later bytes are then parsed from Node's buffer, not from a fresh recv, and
 *   neither this bound nor the sleep bound knows when they arrived. From then on every stamp of
 *   that request is unknown (Infinity): unknown is never a number (decision 180).
 * - No platform evidence (the sleep bound is unknown): the stamp stays unknown, as before.
 * - The parser's state cannot be seen (not undici's HTTP/1 client): only the sleep bound is used.
 *
 * "Callback" is detected as a synchronous run: the first checkpoint after a microtask boundary
 * starts a new run (Node drains ticks and microtasks after each native callback, so two reads are
 * never one run; if they were, F would only be earlier, which keeps the bound an upper bound).
 */

/** Body bytes stamped in one read above which that read is not provably short. */
export const SHORT_READ_BODY_BYTES = 16 * 1024;

/** One synchronous run of this thread: its serial and F, the last checkpoint before it (ms). */
export interface CheckpointRun {
  serial: number;
  floorMs: number;
}

/** Per-request state of the drain bound (one per tracked request). */
export interface DrainState {
  serial: number;
  floorMs: number;
  bytes: number;
  /** F and byte count of the request's previous read; null before its second read */
  prevFloorMs: number | null;
  prevBytes: number;
  /** the parser paused: no later stamp of this request has a known bound */
  broken: boolean;
  /** the parser's state cannot be seen (another HTTP client): the drain bound is not used */
  noDrain: boolean;
}

/** A fresh state (before the response's first read). */
export function newDrainState(): DrainState {
  return { serial: -1, floorMs: Number.NEGATIVE_INFINITY, bytes: 0, prevFloorMs: null, prevBytes: 0, broken: false, noDrain: false };
}

/**
 * Notes that `bytes` body bytes were stamped at `nowMs` in `run` and returns the stamp's lateness
 * bound, ms: min(sleep bound, S − F(previous read)) when the previous read was provably short,
 * the sleep bound otherwise, Infinity once the request's parser paused or when the sleep bound is
 * unknown. Returns whether this stamp began a new read (`newRead`), so the caller can check the
 * parser at that read's end. Mutates `state`. Pure otherwise.
 */
export function drainLateness(
  state: DrainState,
  run: CheckpointRun,
  nowMs: number,
  bytes: number,
  sleepBoundMs: number,
): { latenessMs: number; newRead: boolean } {
  const newRead = run.serial !== state.serial;
  if (newRead) {
    if (state.serial !== -1) {
      state.prevFloorMs = state.floorMs;
      state.prevBytes = state.bytes;
    }
    state.serial = run.serial;
    state.floorMs = run.floorMs;
    state.bytes = 0;
  }
  state.bytes += bytes;
  if (state.broken || !Number.isFinite(sleepBoundMs)) return { latenessMs: Number.POSITIVE_INFINITY, newRead };
  const shortBefore = !state.noDrain && state.prevFloorMs !== null && Number.isFinite(state.prevFloorMs) && state.prevBytes <= SHORT_READ_BODY_BYTES;
  const drain = shortBefore ? Math.max(0, nowMs - state.prevFloorMs!) : Number.POSITIVE_INFINITY;
  return { latenessMs: Math.min(sleepBoundMs, drain), newRead };
}
