import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearLeaderboardAnswers, flushSnapshots, getLeaderboardAnswer } from '@/server/leaderboard';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';
import { seedCatalog } from '../seed';
import { endpoints, measurements, workloads } from '../schema';
import { eq } from 'drizzle-orm';
import { getSnapshot } from './snapshots';
import { insertMeasurement } from './measurements';
import { rebuildRollups } from './rollups';
import { listEndpointHistory } from './history';

/** |got − want| ≤ 0.1 % of want (the published promise; the sketch's relative accuracy is 0.05 %). */
function expectWithinPromise(got: number | undefined, want: number) {
  expect(got).toBeDefined();
  expect(Math.abs(got! - want)).toBeLessThanOrEqual(0.001 * Math.abs(want) + 1e-9);
}

async function rollUp() {
  await rebuildRollups(t.db, { granularity: 'hour', from: new Date(NOW.getTime() - 10 * 86400_000), to: new Date(NOW.getTime() + 86400_000) });
  await rebuildRollups(t.db, { granularity: 'day', from: new Date(NOW.getTime() - 10 * 86400_000), to: new Date(NOW.getTime() + 86400_000) });
  clearLeaderboardAnswers(t.db);
}

const WL = [{ slug: 'prose-1k', category: 'prose' as const, inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true }];
const NOW = new Date('2026-11-29T12:00:00Z');

let t: TestDatabase;
let groqId: number;
let sambaId: number;
let workloadId: number;

async function add(endpointId: number, i: number, speed: number | null, extra: Partial<typeof measurements.$inferInsert> = {}) {
  await insertMeasurement(t.db, {
    jobKey: `test:${endpointId}:${i}`,
    endpointId,
    workloadId,
    measuredAt: new Date(NOW.getTime() - (i + 1) * 60_000),
    workerRegion: 'local',
    workerVersion: 'test',
    outcome: speed === null ? 'error' : 'success',
    errorKind: speed === null ? 'timeout' : null,
    rankable: speed !== null,
    notRankableReasons: speed === null ? ['failed'] : [],
    ttftMs: speed === null ? null : 200 + i,
    e2eMs: speed === null ? null : 1000 + i,
    outputTokensPerSecond: speed,
    outputTokensPerSecondO200k: speed === null ? null : speed * 0.9,
    contentChunks: speed === null ? 0 : 100,
    ...extra,
  });
}

beforeAll(async () => {
  t = await createTestDatabase();
  await seedCatalog(t.db, { workloads: WL, lookupEnv: (n) => (n === 'GROQ_API_KEY' ? 'x' : null), referencePort: 3999 });
  const eps = await t.db.select({ id: endpoints.id, slug: endpoints.slug, status: endpoints.status }).from(endpoints);
  groqId = eps.find((e) => e.slug === 'groq-llama-4-maverick')!.id;
  sambaId = eps.find((e) => e.slug === 'sambanova-llama-4-maverick')!.id;
  expect(eps.find((e) => e.slug === 'groq-llama-4-maverick')!.status).toBe('active');
  expect(eps.find((e) => e.slug === 'sambanova-llama-4-maverick')!.status).toBe('inactive');
  workloadId = (await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-1k')))[0]!.id;
  // Groq: speeds 300..309 (median 304.5), one timeout. SambaNova: 790..799 (median 794.5).
  for (let i = 0; i < 10; i++) await add(groqId, i, 300 + i);
  await add(groqId, 10, null);
  for (let i = 0; i < 10; i++) await add(sambaId, 100 + i, 790 + i);
  // Outside the 72 h window: must not count.
  await add(groqId, 99, 5000, { measuredAt: new Date(NOW.getTime() - 100 * 3600_000), jobKey: 'old' });
  // Invalid timing: kept, not ranked.
  await add(sambaId, 200, 10, { valid: false, jobKey: 'invalid' });
  await rollUp();
});
afterAll(async () => t?.drop());

describe('leaderboard', () => {
  it('ranks by median TPS/user with percentiles, success rate and n from raw measurements', async () => {
    // the default basis is o200k (decision 175): the o200k speeds are 0.9 × the reported ones here
    const answer = await getLeaderboardAnswer(t.db, leaderboardQuerySchema.parse({}), NOW);
    expect(answer.basis).toBe('o200k');
    const [first, second] = answer.entries;
    expect(first!.endpoint.slug).toBe('sambanova-llama-4-maverick');
    expectWithinPromise(first!.outputTokensPerSecond!.p50, 794.5 * 0.9);
    expectWithinPromise(first!.outputTokensPerSecond!.p25, 792.25 * 0.9);
    expect(first!.n).toBe(11); // 10 valid + 1 invalid-timing success
    expect(first!.samples).toBe(10);
    expect(first!.rank).toBe(1);
    expect(second!.endpoint.slug).toBe('groq-llama-4-maverick');
    expect(second!.n).toBe(11);
    expect(second!.successRate).toBeCloseTo(10 / 11, 12);
    expect(second!.errorKinds).toEqual({ timeout: 1 });
    expect(second!.rank).toBe(2);
    expectWithinPromise(second!.ttftMs!.p50, 204.5);
    expect(first!.outputTokensPerSecondMedianCi!.low).toBeLessThanOrEqual(first!.outputTokensPerSecond!.p50);
    expect(answer.statistics.percentileRelativeAccuracy).toBe(0.0005);
    // endpoints without data are listed unranked
    const unranked = answer.entries.filter((e) => e.rank === null);
    expect(unranked.length).toBeGreaterThan(5);
    expect(unranked.every((e) => e.n === 0 || e.samples < 3)).toBe(true);
  });

  it('uses the provider-reported basis when asked', async () => {
    const answer = await getLeaderboardAnswer(t.db, leaderboardQuerySchema.parse({ basis: 'reported' }), NOW);
    expectWithinPromise(answer.entries[0]!.outputTokensPerSecond!.p50, 794.5);
    expectWithinPromise(answer.entries[0]!.outputTokensPerSecond!.p25, 792.25);
  });

  it('serves the board as it stood at an earlier instant (at=)', async () => {
    const at = new Date(NOW.getTime() - 5.5 * 60_000).toISOString(); // only groq i>=5 exist then
    const answer = await getLeaderboardAnswer(t.db, leaderboardQuerySchema.parse({ at }), NOW);
    const groq = answer.entries.find((e) => e.endpoint.slug === 'groq-llama-4-maverick')!;
    expect(groq.n).toBe(6); // i = 5..10
    expect(answer.asOf).toBe(at);
  });

  it('stores an immutable snapshot that stays byte-identical after new measurements arrive', async () => {
    const q = leaderboardQuerySchema.parse({});
    const first = await getLeaderboardAnswer(t.db, q, NOW);
    await flushSnapshots(t.db); // rows are written off the request path (decision 121)
    const stored = await getSnapshot(t.db, first.snapshotId);
    expect(stored!.body).toBe(JSON.stringify(first));
    await add(groqId, 500, 1200, { measuredAt: new Date(NOW.getTime() + 30_000), jobKey: 'later' });
    await rollUp();
    const again = await getLeaderboardAnswer(t.db, q, NOW);
    expect(JSON.stringify(again)).toBe(stored!.body); // the same instant still answers the same
    const later = await getLeaderboardAnswer(t.db, q, new Date(NOW.getTime() + 60_000));
    expect(later.snapshotId).not.toBe(first.snapshotId);
    expect((await getSnapshot(t.db, first.snapshotId))!.body).toBe(stored!.body);
  });

  it('never writes a measurement twice for one job key', async () => {
    const again = await insertMeasurement(t.db, {
      jobKey: 'test:' + groqId + ':0',
      endpointId: groqId,
      workloadId,
      measuredAt: NOW,
      workerRegion: 'local',
      workerVersion: 'test',
      outcome: 'success',
    });
    expect(again).toBe(false);
  });

  it('history buckets show the raw percentiles of the bucket (within the published 0.1 %)', async () => {
    const series = await listEndpointHistory(t.db, {
      endpointId: sambaId,
      workloadSlug: 'prose-1k',
      granularity: 'hour',
      from: new Date(NOW.getTime() - 4 * 3600_000),
      to: NOW,
      region: 'local',
    });
    // SambaNova's valid samples were taken 101–110 min before 12:00, all in the 10:00 bucket;
    // the invalid-timing one (201 min before) is in the 08:00 bucket and has no valid speed.
    const ten = series.find((s) => s.bucketStart === '2026-11-29T10:00:00.000Z')!;
    expect(ten.count).toBe(10);
    expectWithinPromise(ten.outputTokensPerSecond!.p50, 794.5);
    expectWithinPromise(ten.outputTokensPerSecond!.p5, 790.45);
    expectWithinPromise(ten.outputTokensPerSecond!.p95, 798.55);
    const eight = series.find((s) => s.bucketStart === '2026-11-29T08:00:00.000Z')!;
    expect(eight.count).toBe(1);
    expect(eight.outputTokensPerSecond).toBeNull();
  });
});
