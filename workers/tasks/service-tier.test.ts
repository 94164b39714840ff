/**
 * Service tiers as endpoints (issue 25 item 4, decisions 262-264) over real HTTP, real Postgres and
 * the one engine: an endpoint that declares `service_tier: "priority"` and OpenAI's kind of
 * objective (a share of requests above a TPS/user threshold) is probed through the worker task
 * against a reference server whose priority tier decodes a known share of its streams below the
 * threshold. The tier parameter reaches the server on that endpoint's requests only; each
 * measurement stores its verdict; attainment (share, n, Wilson interval) matches the configured
 * share within 5 %; a second endpoint of the same server without an objective shows no attainment
 * (null, not 0 %).
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { endpoints, measurements, workloads } from '@/db/schema';
import { type TestDatabase } from '@/db/test-support/test-database';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { type ReferenceServer } from '@/lib/reference-server/reference-server';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { listWindowStatsFromRaw } from '@/server/window-stats';
import { rollUpStoredMeasurements } from '@/db/test-support/roll-up-stored';
import { probeTaskContext } from './test-support/probe-task-context';
import { copyCalibrationEndpoint } from './test-support/copy-calibration-endpoint';
import { useReferenceTaskSuite } from './test-support/reference-task-suite';
import { runLocalProbe, decemberSlot } from './test-support/run-local-probe';

const DEFAULT_TPS = 150;
const PRIORITY_TPS = 400;
const SLOW_TPS = 60;
/** configured truth: a quarter of priority streams decode below the threshold */
const SLOW_SHARE = 0.25;
const THRESHOLD_TPS = 200;
const PROBES = 20;

let t: TestDatabase;
let reference: ReferenceServer;
let tierId = 0;
let plainId = 0;

const fetches = useReferenceTaskSuite(
  {
    tps: DEFAULT_TPS,
    ttftMs: 30,
    outputTokens: 64,
    recordWrites: true,
    serviceTiers: { priority: { tps: PRIORITY_TPS, slowShare: SLOW_SHARE, slowTps: SLOW_TPS } },
  },
  async (s) => {
    ({ t, reference } = s);
    tierId = s.calibrationId;
    // The same server, default tier, no objective (copied before the calibration endpoint gets its tier).
    plainId = await copyCalibrationEndpoint(t.db, tierId, '-default-tier');
    await t.db
      .update(endpoints)
      .set({
        serviceTier: { parameter: 'service_tier', value: 'priority' },
        tierObjective: { share: 0.99, minOutputTokensPerSecond: THRESHOLD_TPS, maxTtftMs: null, sourceUrl: 'https://openai.com/api-priority-processing/' },
      })
      .where(eq(endpoints.id, tierId));
  },
);

describe('service tier objective attainment (worker task, reference server, real Postgres)', () => {
  it('sends the tier to its endpoint only, and recovers the configured share of requests meeting the objective', async () => {
    const ctx = probeTaskContext(t.db, {}, fetches);
    const [w] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-1k'));
    const probe = async (endpointId: number, i: number) => {
      const slotStart = decemberSlot(8, i);
      const { result: r } = await runLocalProbe(ctx, { endpointId, workloadId: w!.id, slotStart });
      expect(r).toMatchObject({ status: 'recorded', outcome: 'success' });
    };
    for (let i = 0; i < PROBES; i++) await probe(tierId, i);
    for (let i = 0; i < 4; i++) await probe(plainId, i);

    // The parameter went out with the tier endpoint's requests and with no other.
    const log = reference.writeLog();
    expect(log.filter((r) => r.serviceTier === 'priority').length).toBeGreaterThanOrEqual(PROBES);
    expect(log.filter((r) => r.serviceTier !== 'priority').length).toBeGreaterThanOrEqual(4);

    const rows = await t.db
      .select({
        endpointId: measurements.endpointId,
        met: measurements.tierObjectiveMet,
        rankable: measurements.rankable,
        speed: measurements.outputTokensPerSecond,
        evidence: measurements.evidence,
      })
      .from(measurements);
    const tierRows = rows.filter((r) => r.endpointId === tierId);
    // the response named the tier that served it (decision 293): the asked one, so no mismatch
    for (const r of tierRows) expect(r.evidence).toMatchObject({ servedServiceTier: 'priority' });
    expect(tierRows.some((r) => 'serviceTierMismatch' in (r.evidence ?? {}))).toBe(false);
    // a request that asked for no tier is answered without one
    expect(rows.filter((r) => r.endpointId === plainId).some((r) => 'servedServiceTier' in (r.evidence ?? {}))).toBe(false);
    // every stored verdict agrees with its own speed against the threshold
    for (const r of tierRows) expect(r.met).toBe(r.speed! > THRESHOLD_TPS ? 1 : 0);
    expect(rows.filter((r) => r.endpointId === plainId).every((r) => r.met === null)).toBe(true);

    const answer = await getLeaderboardAnswer(
      t.db,
      leaderboardQuerySchema.parse({ model: 'tokenpace-reference', workload: 'prose-1k', basis: 'reported' }),
      new Date(Date.now() + 61_000),
    );
    const tierEntry = answer.entries.find((e) => e.endpoint.id === tierId)!;
    const plainEntry = answer.entries.find((e) => e.endpoint.id === plainId)!;
    const rankable = tierRows.filter((r) => r.rankable);
    const att = tierEntry.tierObjectiveAttainment!;
    // n = the rankable measurements judged; the share their verdicts give, exactly
    expect(att.n).toBe(rankable.length);
    expect(att.n).toBeGreaterThanOrEqual(PROBES - 2);
    expect(att.share).toBeCloseTo(rankable.filter((r) => r.met === 1).length / rankable.length, 12);
    // the configured truth: 1 − SLOW_SHARE of the tier's streams above the threshold
    expect(Math.abs(att.share - (1 - SLOW_SHARE))).toBeLessThanOrEqual(0.05);
    expect(att.interval.low).toBeLessThanOrEqual(1 - SLOW_SHARE);
    expect(att.interval.high).toBeGreaterThanOrEqual(1 - SLOW_SHARE);
    // the declaration travels with the entry
    expect(tierEntry.endpoint.serviceTier).toEqual({ parameter: 'service_tier', value: 'priority' });
    expect(tierEntry.endpoint.tierObjective).toMatchObject({ share: 0.99, minOutputTokensPerSecond: THRESHOLD_TPS });
    // no objective: no attainment at all (not 0 %), though it has rankable samples
    expect(plainEntry.samples).toBeGreaterThan(0);
    expect(plainEntry.tierObjectiveAttainment).toBeNull();
    expect(plainEntry.endpoint.tierObjective).toBeNull();

    // The one engine: the raw-only reference implementation gives the same attainment ...
    const [raw] = (
      await listWindowStatsFromRaw(t.db, {
        modelSlug: 'tokenpace-reference',
        workloadSlug: 'prose-1k',
        windowHours: 72,
        asOf: new Date(answer.asOf),
        basis: 'reported',
        region: null,
      })
    ).filter((r) => r.endpoint.id === tierId);
    expect(raw!.tierObjectiveAttainment).toEqual(att);
    // ... and so do the rollups and window partials, built as the rollup job builds them, read in the next hour (24 h, 72 h, 7 d alike).
    const now = Date.now();
    await rollUpStoredMeasurements(t.db, new Date(now + 2 * 3_600_000));
    const later = new Date(Math.floor(now / 3_600_000) * 3_600_000 + 3_600_000 + 5 * 60_000);
    for (const window of ['24h', '72h', '7d']) {
      const rolled = (
        await getLeaderboardAnswer(t.db, leaderboardQuerySchema.parse({ model: 'tokenpace-reference', workload: 'prose-1k', basis: 'reported', window }), later)
      ).entries;
      expect(rolled.find((e) => e.endpoint.id === tierId)!.tierObjectiveAttainment, window).toEqual(att);
      expect(rolled.find((e) => e.endpoint.id === plainId)!.tierObjectiveAttainment, window).toBeNull();
    }
  }, 180_000);

  it('a request served at another tier than it asked for misses the objective, however fast, with the evidence (decision 293)', async () => {
    // flex is not a tier of this server: it answers service_tier "default" at its default rate
    const [cal] = await t.db.select().from(endpoints).where(eq(endpoints.id, plainId));
    const { id: _id, slug, ...rest } = cal!;
    void _id;
    const [flex] = await t.db
      .insert(endpoints)
      .values({
        ...rest,
        slug: `${slug}-flex`,
        serviceTier: { parameter: 'service_tier', value: 'flex' },
        // the default rate (150 tokens/s) is above this threshold: only the tier can miss it
        tierObjective: { share: 0.9, minOutputTokensPerSecond: DEFAULT_TPS / 3, maxTtftMs: null, sourceUrl: 'https://openai.com/api-priority-processing/' },
      })
      .returning({ id: endpoints.id });
    const ctx = probeTaskContext(t.db, {}, fetches);
    const [w] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-1k'));
    for (let i = 0; i < 3; i++) {
      const { result: r } = await runLocalProbe(ctx, { endpointId: flex!.id, workloadId: w!.id, slotStart: decemberSlot(9, i) });
      expect(r).toMatchObject({ status: 'recorded', outcome: 'success' });
    }
    const rows = await t.db
      .select({ met: measurements.tierObjectiveMet, speed: measurements.outputTokensPerSecond, evidence: measurements.evidence })
      .from(measurements)
      .where(eq(measurements.endpointId, flex!.id));
    expect(rows.length).toBe(3);
    for (const r of rows) {
      expect(r.speed!).toBeGreaterThan(DEFAULT_TPS / 3);
      expect(r.evidence).toMatchObject({ servedServiceTier: 'default', serviceTierMismatch: { asked: 'flex', served: 'default' } });
      expect(r.met).toBe(0);
    }
  }, 60_000);
});
