// The order the answers rely on (decisions 211 and 319): a probe's row is written within the write
// lag, the next per-minute rollup run folds it in, and only then may a window seal (cached for good).
import { describe, expect, it } from 'vitest';
import { SEALED_AFTER_MS } from '@/lib/stats/window-stats';
import { MEASUREMENT_WRITE_LAG_MS, PROBE_DEADLINES, PROBE_JOB_EXPIRE_SECONDS } from './probe-deadlines';

describe('probe deadlines, write lag and sealing', () => {
  it('the write lag covers a whole probe and is the probe job expiry', () => {
    expect(MEASUREMENT_WRITE_LAG_MS).toBe(PROBE_JOB_EXPIRE_SECONDS * 1000);
    expect(MEASUREMENT_WRITE_LAG_MS).toBeGreaterThan(PROBE_DEADLINES.totalMs);
    expect(PROBE_DEADLINES.ttftMs).toBeLessThanOrEqual(PROBE_DEADLINES.totalMs);
  });

  it('a window seals only after its last probe is written and a rollup run (1 min) has folded it in', () => {
    expect(SEALED_AFTER_MS).toBeGreaterThanOrEqual(MEASUREMENT_WRITE_LAG_MS + 60_000);
  });
});
