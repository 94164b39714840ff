/**
 * Event-loop delay tracker for probe validity. A timer that should fire every `intervalMs` records
 * how late it fired; a probe asks for the worst lateness seen while it ran. Late timers mean the
 * process could not read sockets on time, so measured gaps would be inflated: such measurements
 * are kept but marked invalid (DESIGN.md §3). Timestamps come from performance.now().
 */
export interface LoopDelayTracker {
  /** Starts a window; `end()` returns the worst lateness (ms) observed during it. */
  begin(): { end(): number };
  stop(): void;
}

export function createLoopDelayTracker(intervalMs = 10): LoopDelayTracker {
  const open = new Set<{ worst: number }>();
  let expected = performance.now() + intervalMs;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = Math.max(0, now - expected);
    expected = now + intervalMs;
    for (const w of open) if (late > w.worst) w.worst = late;
  }, intervalMs);
  timer.unref();
  return {
    begin() {
      const w = { worst: 0 };
      open.add(w);
      return {
        end() {
          open.delete(w);
          return w.worst;
        },
      };
    },
    stop() {
      clearInterval(timer);
    },
  };
}
