// The precompute job rebuilds only the answers whose inputs changed and writes a snapshot row only
// for an answer whose content changed (issue 24, decision 300), on real Postgres: counted rows of
// snapshots and precomputed_answers, and the job's own counts of answers rebuilt and written.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { seedCatalog } from '@/db/seed';
import { endpoints, measurements, models, workloads } from '@/db/schema';
import { rebuildRollups } from '@/db/queries/rollups';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { getLeaderboardAnswerWithBody, syncAnswers } from '@/server/leaderboard';
import { runRollupJob } from './rollup-measurements';
import { PROGRESS_LAG_RUNS } from '@/db/queries/rollup-progress';
import { resetPrecomputeState, runPrecomputeAnswersJob } from './precompute-answers';
import { DAY_MS as DAY, HOUR_MS as HOUR, MINUTE_MS as MIN } from '@/lib/stats/time-units';

const NOW = new Date('2026-11-29T12:31:00Z').getTime();
const MODELS = ['llama-4-maverick', 'tokenpace-reference'];
const WORKLOADS = ['prose-1k', 'code-1k', 'cache-cold-2k', 'cache-warm-2k'];
let t: TestDatabase;
const wl: Record<string, number> = {};
const epsOf: Record<string, number[]> = {};
let n = 0;

function row(endpointId: number, workload: string, at: number): typeof measurements.$inferInsert {
  const i = n++;
  return {
    jobKey: `pi:${i}`,
    endpointId,
    workloadId: wl[workload]!,
    measuredAt: new Date(at),
    workerRegion: i % 3 === 0 ? 'eu-west' : 'us-east',
    workerVersion: 'test',
    outcome: 'success',
    ttftMs: 100 + ((i * 37) % 400),
    ttfatMs: 120 + ((i * 37) % 400),
    e2eMs: 1000 + ((i * 71) % 3000),
    outputTokensPerSecond: 100 * ((endpointId % 7) + 1) + (i % 50),
    outputTokensPerSecondO200k: 95 * ((endpointId % 7) + 1) + (i % 50),
    contentChunks: 100,
    rankable: true,
    notRankableReasons: [],
  };
}

const count = async (table: 'snapshots' | 'precomputed_answers') => Number((await t.db.execute(sql`select count(*)::int as n from ${sql.raw(table)}`))[0]!.n);
const storedRows = async () =>
  new Map(
    (
      (await t.db.execute(sql`select key, snapshot_id, as_of from precomputed_answers`)) as unknown as Array<{
        key: string;
        snapshot_id: string;
        as_of: string;
      }>
    ).map((r) => [r.key, `${r.snapshot_id}@${new Date(r.as_of).toISOString()}`]),
  );
/** The rollup job, then the precompute job, as of `at` (the worker's minute). */
const minute = async (at: number) => {
  await runRollupJob(t.db, new Date(at));
  return runPrecomputeAnswersJob(t.db, new Date(at));
};

beforeAll(async () => {
  t = await createTestDatabase();
  await seedCatalog(t.db, {
    workloads: WORKLOADS.map((slug) => ({ slug, category: 'prose', inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true })),
    lookupEnv: () => 'x',
    referencePort: 3999,
  });
  for (const w of await t.db.select({ id: workloads.id, slug: workloads.slug }).from(workloads)) wl[w.slug] = w.id;
  // Only the two models are precomputed (the others' endpoints are not probed, decision 223).
  await t.db.execute(
    sql`update endpoints set status = 'inactive' where model_id not in (select id from models where slug in ('llama-4-maverick', 'tokenpace-reference'))`,
  );
  for (const m of MODELS) {
    const list = await t.db.select({ id: endpoints.id }).from(endpoints).innerJoin(models, eq(models.id, endpoints.modelId)).where(eq(models.slug, m));
    epsOf[m] = list.map((e) => e.id).slice(0, 2);
  }
  const rows: Array<typeof measurements.$inferInsert> = [];
  for (const ids of Object.values(epsOf))
    for (const id of ids) for (const w of WORKLOADS) for (let at = NOW - 8 * DAY + id * 7_000; at <= NOW - MIN; at += 47 * MIN) rows.push(row(id, w, at));
  for (let i = 0; i < rows.length; i += 500) await t.db.insert(measurements).values(rows.slice(i, i + 500));
  for (const g of ['hour', 'day'] as const)
    await rebuildRollups(t.db, { granularity: g, from: new Date(NOW - 9 * DAY), to: new Date(NOW + HOUR), wallNow: new Date(NOW) });
  // The rollup job in steady state: a fresh database's first PROGRESS_LAG_RUNS runs scan every id (decision 319).
  for (let i = 0; i < PROGRESS_LAG_RUNS; i++) await runRollupJob(t.db, new Date(NOW));
  resetPrecomputeState();
}, 240_000);

afterAll(async () => {
  resetPrecomputeState();
  await t?.drop();
});

describe('precompute job: only changed answers (decision 300)', () => {
  it('a minute without new data rebuilds and writes nothing; a new measurement rebuilds only its boards', async () => {
    const first = await minute(NOW);
    const answers = MODELS.length * WORKLOADS.length * 3 * 2;
    expect(first.answers).toBe(answers);
    expect(first.computed).toBe(answers);
    expect(first.written).toBe(answers);
    expect(await count('snapshots')).toBe(answers);
    expect(await count('precomputed_answers')).toBe(answers);
    const stored = await storedRows();

    // The next minute and one across the 10-minute edge (12:40), no new probe: nothing rebuilt, no row written.
    for (const at of [NOW + MIN, NOW + 11 * MIN]) {
      const r = await minute(at);
      expect(r).toMatchObject({ answers, computed: 0, written: 0 });
      expect(await count('snapshots')).toBe(answers);
      expect(await storedRows()).toEqual(stored);
    }
    // The web serves the stored bytes for the live minute: same snapshot, its own asOf (12:31), fresh for 12:42.
    await syncAnswers(t.db);
    const q = leaderboardQuerySchema.parse({ model: MODELS[1], workload: 'code-1k' });
    const served = await getLeaderboardAnswerWithBody(t.db, q, new Date(NOW + 11 * MIN + 20_000));
    expect(served.source).toBe('precomputed');
    expect(`${served.snapshotId}@${served.answer.asOf}`).toBe(stored.get('leaderboard|tokenpace-reference|code-1k|72h|o200k|*'));
    expect(served.asOf.getTime()).toBe(NOW + 11 * MIN);

    // One probe of one endpoint on code-1k: its model's code-1k boards only (3 windows × 2 bases).
    await t.db.insert(measurements).values(row(epsOf[MODELS[0]!]![0]!, 'code-1k', NOW + 11 * MIN + 30_000));
    const changed = await minute(NOW + 12 * MIN);
    expect(changed).toMatchObject({ answers, computed: 6, written: 6 });
    expect(await count('snapshots')).toBe(answers + 6);
    const after = await storedRows();
    const moved = [...after.keys()].filter((k) => after.get(k) !== stored.get(k)).sort();
    expect(moved).toEqual(['24h', '72h', '168h'].flatMap((w) => ['o200k', 'reported'].map((b) => `leaderboard|llama-4-maverick|code-1k|${w}|${b}|*`)).sort());
    // The row's id is followed for three runs (a late commit would still be found): rebuilt, not rewritten.
    for (const at of [NOW + 13 * MIN, NOW + 14 * MIN]) expect(await minute(at)).toMatchObject({ computed: 6, written: 0 });
    expect(await minute(NOW + 15 * MIN)).toMatchObject({ computed: 0, written: 0 });
    expect(await count('snapshots')).toBe(answers + 6);
    // A probe of the warm prompt-cache workload: its boards and the two that carry its column (prose-1k, cache-cold-2k), of that model only.
    await t.db.insert(measurements).values(row(epsOf[MODELS[0]!]![1]!, 'cache-warm-2k', NOW + 15 * MIN + 10_000));
    const warm = await minute(NOW + 16 * MIN);
    expect(warm).toMatchObject({ answers, computed: 18 });
    expect(warm.written).toBeGreaterThanOrEqual(6);
    expect(await count('snapshots')).toBe(answers + 6 + warm.written);
    for (const at of [NOW + 17 * MIN, NOW + 18 * MIN, NOW + 19 * MIN]) expect((await minute(at)).written).toBe(0);

    // A process restart (nothing kept in memory): every answer rebuilt once, none rewritten.
    const snapshots = await count('snapshots');
    resetPrecomputeState();
    expect(await minute(NOW + 20 * MIN)).toMatchObject({ answers, computed: answers, written: 0 });
    expect(await count('snapshots')).toBe(snapshots);

    // The hour moves (every window starts an hour later): every answer is new.
    expect(await minute(NOW + 30 * MIN)).toMatchObject({ answers, computed: answers, written: answers });
    expect(await count('snapshots')).toBe(snapshots + answers);

    // A model no longer listed: its stored answers go (they would otherwise stay current).
    await t.db.update(models).set({ listed: false }).where(eq(models.slug, MODELS[1]!));
    expect(await minute(NOW + 31 * MIN)).toMatchObject({ answers: answers / 2, written: 0 });
    expect(await count('precomputed_answers')).toBe(answers / 2);
  }, 240_000);
});
