/**
 * Cache lifetime (issue 25 item 1, decision 268) over real HTTP, real Postgres and the one engine:
 * the worker sends the series (seed, then the same secret prefix after gaps of 2, 5 and 15 minutes,
 * each its own job) to a reference server whose prefix cache forgets a block TTL_MS after its
 * last use. The worker's clock and the cache's clock are one controllable clock, so minutes pass
 * without waiting. The engine's hit share per gap gives the lifetime: the longest gap still hit is
 * 5 minutes, the next gap (15) misses, so the configured 6-minute TTL lies in [5, 15). TTFT medians
 * are held to what the server delivered (its delivery report), not to its configuration: on a
 * loaded machine it is late (decision 286).
 * A check without a successful predecessor, or a worker without a secret, sends nothing.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { measurements, workloads } from '@/db/schema';
import { type TestDatabase } from '@/db/test-support/test-database';
import { rollUpStoredMeasurements } from '@/db/test-support/roll-up-stored';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import type { DeliveredEvidence } from '@/lib/reference-server/delivery-report';
import { CACHE_LIFETIME_WORKLOADS } from '@/lib/probe/workloads';
import { measureCacheLifetime } from '@/lib/stats/cache-lifetime';
import { percentile } from '@/lib/stats/percentiles';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { runProbeJob } from './probe-endpoint';
import { probeTaskContext } from './test-support/probe-task-context';
import { useReferenceTaskSuite } from './test-support/reference-task-suite';
import { runLocalProbe } from './test-support/run-local-probe';

const TTL_MS = 6 * 60_000;
const COLD_TTFT_MS = 800;
const HIT_TTFT_MS = 200;
const SERIES = 3;

let t: TestDatabase;
let endpointId = 0;
/** the one clock of the worker and the cache, epoch ms */
let clock = 0;

const fetches = useReferenceTaskSuite(
  { tps: 250, ttftMs: COLD_TTFT_MS, tokensPerChunk: 2, outputTokens: 48, prefixCache: { hitTtftMs: HIT_TTFT_MS, ttlMs: TTL_MS, now: () => clock } },
  (s) => {
    ({ t } = s);
    endpointId = s.calibrationId;
  },
);

describe('cache lifetime (worker task, reference server with a TTL, real Postgres)', () => {
  it('each gap is its own job; the engine hit shares give the longest gap still hit, bracketing the configured TTL', async () => {
    const ids = new Map<string, number>();
    /** per workload, the TTFT the server delivered to each request (ms) */
    const deliveredTtftOf = new Map<string, number[]>();
    for (const w of CACHE_LIFETIME_WORKLOADS) {
      const [row] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, w.slug));
      ids.set(w.slug, row!.id);
    }
    const ctx = probeTaskContext(t.db, { secretKey: randomBytes(32), now: () => new Date(clock) }, fetches);
    const run = (slug: string, at: number) => {
      clock = at;
      return runLocalProbe(ctx, { endpointId, workloadId: ids.get(slug)!, slotStart: new Date(at).toISOString() }).then((p) => p.result);
    };
    // a check with no seed before it sends nothing
    const lonely = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 86_400_000;
    expect(await run('cache-lifetime-5m', lonely)).toEqual({ status: 'skipped', reason: 'series-broken' });
    // one series a day, the last one ending 20 minutes ago (all inside the 72 h window)
    const lastSeed = Math.floor(Date.now() / 60_000) * 60_000 - 45 * 60_000;
    for (let s = SERIES - 1; s >= 0; s--) {
      const seed = lastSeed - s * 86_400_000;
      for (const w of CACHE_LIFETIME_WORKLOADS) {
        const r = await run(w.slug, seed + w.seriesOffsetMinutes! * 60_000);
        expect(r, w.slug).toMatchObject({ status: 'recorded', outcome: 'success' });
        const [m] = await t.db
          .select()
          .from(measurements)
          .where(and(eq(measurements.workloadId, ids.get(w.slug)!), eq(measurements.measuredAt, new Date(clock))));
        const series = (m!.evidence as { cacheLifetime: { gapMs: number | null; gapMinutes: number; seedSlot: string } }).cacheLifetime;
        expect(series.seedSlot).toBe(new Date(seed).toISOString());
        expect(series.gapMs).toBe(w.cacheLifetimeGapMinutes === 0 ? null : w.cacheLifetimeGapMinutes! * 60_000);
        expect(m!.notRankableReasons).toEqual([]);
        // 2 and 5 minutes since the last use are within the 6-minute TTL; 15 is not; the seed is cold
        const hit = w.cacheLifetimeGapMinutes === 2 || w.cacheLifetimeGapMinutes === 5;
        expect(m!.cachedInputTokens! > 0, w.slug).toBe(hit);
        // one request's TTFT says hit or miss: a miss is never under the cold TTFT (the server is
        // never early); a hit is, unless the machine delayed it by more than the difference
        expect(m!.ttftMs! < COLD_TTFT_MS, w.slug).toBe(hit);
        // what the server delivered to this request (its delivery report, decision 302): the truth
        // the window medians below are held to, on a loaded machine later than configured
        const delivered = (m!.evidence as { delivered?: DeliveredEvidence }).delivered?.ttftFromWriteMs;
        expect(delivered, w.slug).toBeGreaterThanOrEqual(hit ? HIT_TTFT_MS : COLD_TTFT_MS);
        deliveredTtftOf.set(w.slug, [...(deliveredTtftOf.get(w.slug) ?? []), delivered!]);
      }
    }
    // without the worker's secret the series cannot be keyed: nothing is sent
    const noSecret = probeTaskContext(t.db, { now: () => new Date(clock) }, fetches);
    const at = lastSeed + 86_400_000;
    const key = `probe:${endpointId}:${ids.get('cache-lifetime-seed')}:local:${new Date(at).toISOString()}`;
    expect(
      await runProbeJob(noSecret, `boss-${key}`, {
        endpointId,
        workloadId: ids.get('cache-lifetime-seed')!,
        region: 'local',
        slotStart: new Date(at).toISOString(),
        jobKey: key,
        fidelity: false,
      }),
    ).toEqual({ status: 'skipped', reason: 'no-secret' });

    // the older series are read from rollups (hour and day buckets, window partials: built as the rollup job builds them), as a live board reads them
    const now = Date.now();
    await rollUpStoredMeasurements(t.db, new Date(now + 2 * 3_600_000));
    const asOf = new Date(Math.floor(now / 3_600_000) * 3_600_000 + 3_600_000 + 5 * 60_000);
    const gaps = [];
    for (const w of CACHE_LIFETIME_WORKLOADS) {
      const answer = await getLeaderboardAnswer(t.db, leaderboardQuerySchema.parse({ model: 'tokenpace-reference', workload: w.slug }), asOf);
      const e = answer.entries.find((x) => x.endpoint.id === endpointId)!;
      expect(e.cacheHit?.n, w.slug).toBe(SERIES);
      const ttftTruth = percentile(deliveredTtftOf.get(w.slug)!, 50);
      expect(Math.abs(e.ttftMs!.p50 - ttftTruth), w.slug).toBeLessThanOrEqual(ttftTruth * 0.05);
      if (w.cacheLifetimeGapMinutes! > 0) gaps.push({ gapMinutes: w.cacheLifetimeGapMinutes!, workloadSlug: w.slug, hit: e.cacheHit });
      else expect(e.cacheHit?.share).toBe(0);
    }
    const lifetime = measureCacheLifetime(gaps)!;
    expect(lifetime).toMatchObject({ lifetimeMinutes: 5, nextMissMinutes: 15, atLeast: false });
    expect(lifetime.lifetimeMinutes! * 60_000).toBeLessThanOrEqual(TTL_MS);
    expect(lifetime.nextMissMinutes! * 60_000).toBeGreaterThan(TTL_MS);
  }, 240_000);
});
