/**
 * The validity rule of a sweep level (decision 288) at the edge of both of its thresholds, and end
 * to end: a level whose streams the probe could not vouch for is marked, with the count.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LOOP_DELAY_P99_MS } from '../probe/loop-delay-monitor';
import { fixedLoopDelay } from '../probe/test-support/fixed-loop-delay';
import { injectLateness, restoreLateness } from '../probe/test-support/injected-lateness';
import { startReferenceServer, type ReferenceServer } from '../reference-server/reference-server';
import { referenceRequest } from '../reference-server/test-support/reference-request';
import { createGuardedFetch } from '../security/ssrf-guard';
import { isLevelTimingValid, MAX_TIMING_UNCERTAIN_SHARE, runSweep } from './run-sweep';

describe('isLevelTimingValid', () => {
  it.each([
    ['no uncertain stream, quiet loop', 0, 0, 20, true],
    ['loop p99 at the limit', MAX_LOOP_DELAY_P99_MS, 0, 20, true],
    ['loop p99 just over', MAX_LOOP_DELAY_P99_MS + 0.001, 0, 20, false],
    ['uncertain share at the limit (2 of 20)', 0, 2, 20, true],
    ['uncertain share just over (3 of 20)', 0, 3, 20, false],
    ['1 of 10 is the limit', 0, 1, 10, true],
    ['1 of 9 is over', 0, 1, 9, false],
    ['every stream uncertain', 0, 5, 5, false],
    ['no measured success: nothing to distrust', 0, 0, 0, true],
  ])('%s', (_name, p99, uncertain, successes, valid) => {
    expect(isLevelTimingValid(p99, uncertain, successes)).toBe(valid);
  });
  it('the share is 10 %', () => expect(MAX_TIMING_UNCERTAIN_SHARE).toBe(0.1));
});

describe('a sweep level the probe cannot vouch for (real reference server)', () => {
  let server: ReferenceServer | null = null;
  const guarded = createGuardedFetch({ allowPrivate: true });
  afterEach(async () => {
    restoreLateness();
    await server?.close();
    server = null;
  });

  it.each([
    ['every stamp provably on time: valid', 'quiet', true],
    ['no run-queue evidence (every stream timing_uncertain): marked invalid, with the count', 'unknown', false],
  ] as const)(
    '%s',
    async (_name, lateness, valid) => {
      server = await startReferenceServer({ port: 0, tps: 1000, ttftMs: 2, outputTokens: 16 });
      injectLateness(lateness);
      // The loop's delay is fixed at 1 ms: only the streams' own bounds decide (a loaded machine's real
      // loop p99 can pass 50 ms by itself).
      const sweep = await runSweep({
        request: referenceRequest(server.url, 16, guarded),
        concurrencyLevels: [2],
        durationMs: 300,
        warmUpMs: 0,
        monitorLoopDelay: fixedLoopDelay(1),
      });
      const [level] = sweep.levels;
      expect(level!.successes).toBeGreaterThan(0);
      expect(level!.valid, JSON.stringify({ p99: level!.loopDelayP99Ms, u: level!.timingUncertainStreams, m: level!.streams.measured })).toBe(valid);
      expect(level!.timingUncertainStreams).toBe(valid ? 0 : level!.streams.measured);
    },
    30_000,
  );
});
