/**
 * Collects the garbage of start-up once, before the first timed request. In a cold
 * `tokenpace probe` process, 4 of 8 measurements met a 3.8-11.7 ms GC pause inside the stream (the
 * heap left by module loading and warm-up, ./warm-up.ts), and none of 8 after one full collection
 * (decision 185).
 */

/**
 * One full garbage collection now, when the process was started with `--expose-gc` (the launcher
 * does that for `tokenpace probe` and the probe worker, bin/tokenpace.mjs and cli/start-command.ts):
 * the heap that module loading and warm-up left behind is collected before the first timed request
 * instead of during it. Returns whether it collected. Call it only while no stream is being timed
 * (a full collection stops the thread for a few ms); never per probe in a worker.
 */
export function settleHeap(gc: unknown = (globalThis as { gc?: unknown }).gc): boolean {
  if (typeof gc !== 'function') return false;
  (gc as () => void)();
  return true;
}
