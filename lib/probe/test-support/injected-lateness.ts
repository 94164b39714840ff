/**
 * Known timing evidence for tests whose verdict must not depend on the machine (decision 180):
 * `injectLateness('quiet')` makes every stamp provably on time (the thread slept up to each one, no
 * run-queue wait, request start 0.05 ms early at most); `'unknown'` gives no run-queue evidence (as on a platform without schedstat),
 * so every successful probe is `timing_uncertain`. `restoreLateness()` returns to the real readings.
 */
import { setThreadClockSource, type ThreadClockReading } from '../stamp-lateness';

export function injectLateness(kind: 'quiet' | 'unknown'): void {
  // A thread that slept up to each stamp sleeps as long as it likes: no timer to oversleep.
  setThreadClockSource(
    (nowMs): ThreadClockReading => ({ nowMs, idleMs: nowMs, runQueueMs: kind === 'quiet' ? 0 : null, maxSleepMs: Number.POSITIVE_INFINITY }),
    kind === 'quiet' ? 0.05 : null,
  );
}

export function restoreLateness(): void {
  setThreadClockSource(null);
}
