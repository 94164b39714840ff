/**
 * Warm against cold (issue 25 item 1, decision 260) over real HTTP, real Postgres and the one
 * statistics engine: the worker's prompt-cache probe sends the cold prompt, then the warm one with
 * the same ≥ 1,024-token prefix, to a reference server whose prefix cache has a known truth (miss
 * TTFT, hit TTFT, hit share, block size); the leaderboard answer recovers warm TTFT, the cached
 * tokens and the hit share within 5 % of that truth, and the cold requests show no hits.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { measurements, workloads } from '@/db/schema';
import { type TestDatabase } from '@/db/test-support/test-database';
import { rollUpStoredMeasurements } from '@/db/test-support/roll-up-stored';
import { listWindowStatsFromRaw } from '@/server/window-stats';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { CACHE_SHARED_PREFIX_TOKENS } from '@/lib/probe/workloads';
import { CACHE_WARM_SUFFIX } from './probe-endpoint';
import { probeTaskContext } from './test-support/probe-task-context';
import { useReferenceTaskSuite } from './test-support/reference-task-suite';
import { runLocalProbe, decemberSlot } from './test-support/run-local-probe';

/** The configured truth. */
// long enough that a loaded machine's few ms of scheduling stay far inside 5 %
const COLD_TTFT_MS = 1500;
const WARM_TTFT_MS = 500;
const HIT_SHARE = 0.75;
const BLOCK_TOKENS = 128;
/** whole shared blocks: ⌊1,900 ÷ 128⌋ × 128 = 1,792 */
const CACHED_TOKENS = Math.floor(CACHE_SHARED_PREFIX_TOKENS / BLOCK_TOKENS) * BLOCK_TOKENS;
const PAIRS = 8;

let t: TestDatabase;
let endpointId = 0;

// The figures are TTFT truths far above any stamp lateness; quiet evidence keeps rankability off this machine's load.
const fetches = useReferenceTaskSuite(
  {
    // 64 tokens at 200 tokens/s after a ~2k-token prompt: a 1.5 s TTFT is a plausible prefill (decision 170).
    tps: 200,
    ttftMs: COLD_TTFT_MS,
    tokensPerChunk: 2,
    outputTokens: 64,
    prefixCache: { hitTtftMs: WARM_TTFT_MS, hitShare: HIT_SHARE, blockTokens: BLOCK_TOKENS },
  },
  (s) => {
    ({ t } = s);
    endpointId = s.calibrationId;
  },
);

describe('prompt cache: warm against cold (worker task, reference server, real Postgres)', () => {
  it('each job writes a cold and a warm measurement; the engine recovers warm TTFT, cached tokens and hit share within 5 %', async () => {
    const [cold] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'cache-cold-2k'));
    const [warm] = await t.db.select({ id: workloads.id, scheduled: workloads.scheduled }).from(workloads).where(eq(workloads.slug, 'cache-warm-2k'));
    expect(warm!.scheduled).toBe(false);
    const ctx = probeTaskContext(t.db, {}, fetches);
    for (let i = 0; i < PAIRS; i++) {
      const slotStart = decemberSlot(6, i);
      const { jobKey, result: r } = await runLocalProbe(ctx, { endpointId, workloadId: cold!.id, slotStart, fidelity: i === 0 });
      expect(r).toMatchObject({ status: 'recorded', outcome: 'success' });
      const [c] = await t.db.select().from(measurements).where(eq(measurements.jobKey, jobKey));
      const [w] = await t.db
        .select()
        .from(measurements)
        .where(eq(measurements.jobKey, `${jobKey}${CACHE_WARM_SUFFIX}`));
      expect(c!.workloadId).toBe(cold!.id);
      expect(w!.workloadId).toBe(warm!.id);
      expect(c!.cachedInputTokens).toBe(0);
      expect(c!.fidelityCheck).toBeNull();
      expect(w!.promptHash).not.toBe(c!.promptHash);
      expect([0, CACHED_TOKENS]).toContain(w!.cachedInputTokens);
      expect(w!.notRankableReasons).toEqual([]);
    }

    const asOf = new Date(Date.now() + 61_000);
    const answer = async (workload: string) => {
      const a = await getLeaderboardAnswer(t.db, leaderboardQuerySchema.parse({ model: 'tokenpace-reference', workload }), asOf);
      return a.entries.find((e) => e.endpoint.id === endpointId)!;
    };
    const coldEntry = await answer('cache-cold-2k');
    const warmEntry = await answer('cache-warm-2k');
    const within5 = (got: number | undefined, truth: number) => expect(Math.abs(got! - truth)).toBeLessThanOrEqual(truth * 0.05);

    expect(warmEntry.samples).toBe(PAIRS);
    // 6 of 8 warm requests are hits (hitShare 0.75): the median is a hit's TTFT.
    within5(warmEntry.ttftMs?.p50, WARM_TTFT_MS);
    within5(warmEntry.cachedInputTokens?.p50, CACHED_TOKENS);
    expect(warmEntry.cacheHit?.n).toBe(PAIRS);
    within5(warmEntry.cacheHit?.share, HIT_SHARE);
    expect(warmEntry.cacheHit!.interval.low).toBeLessThan(HIT_SHARE);
    expect(warmEntry.cacheHit!.interval.high).toBeGreaterThan(HIT_SHARE);

    within5(coldEntry.ttftMs?.p50, COLD_TTFT_MS);
    expect(coldEntry.cacheHit).toMatchObject({ share: 0, n: PAIRS });
    expect(coldEntry.cachedInputTokens?.p95).toBe(0);

    // The one engine: the published figures equal the raw-only reference implementation's.
    const [rawWarm] = (
      await listWindowStatsFromRaw(t.db, {
        modelSlug: 'tokenpace-reference',
        workloadSlug: 'cache-warm-2k',
        windowHours: 72,
        asOf,
        basis: 'reported',
        region: null,
      })
    ).filter((r) => r.endpoint.id === endpointId);
    expect(rawWarm!.cacheHit).toEqual(warmEntry.cacheHit);
    expect(Math.abs(rawWarm!.cachedInputTokens!.p50 - warmEntry.cachedInputTokens!.p50)).toBeLessThanOrEqual(CACHED_TOKENS * 0.001);

    // Rolled up as the rollup job does (hours, partials, days), read in the next hour (past midnight UTC when run at 23:xx): the same figures.
    const now = Date.now();
    await rollUpStoredMeasurements(t.db, new Date(now + 2 * 3_600_000));
    const later = new Date(Math.floor(now / 3_600_000) * 3_600_000 + 3_600_000 + 5 * 60_000);
    const rolled = (
      await getLeaderboardAnswer(t.db, leaderboardQuerySchema.parse({ model: 'tokenpace-reference', workload: 'cache-warm-2k' }), later)
    ).entries.find((e) => e.endpoint.id === endpointId)!;
    expect(rolled.cacheHit).toEqual(warmEntry.cacheHit);
    expect(rolled.cachedInputTokens).toEqual(warmEntry.cachedInputTokens);
    expect(rolled.ttftMs).toEqual(warmEntry.ttftMs);
  }, 180_000);
});
