// The live figures kept minute by minute (decision 217) give the same answer bytes as a cold
// computeLeaderboardAnswer for every live question, minute after minute: across 10-minute and
// hour boundaries (the prefix drops its leading hour and takes the next), a jump of hours, late
// probes (inside the last two hours and far back, which drops a prefix), and an endpoint leaving
// the list.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { randomMeasurement } from '@/db/test-support/random-measurement';
import { seedAllActive } from '@/db/test-support/seed-all-active';
import { endpoints, measurements, models, workloads } from '@/db/schema';
import { rebuildRollups } from '@/db/queries/rollups';
import { recordDataChange } from '@/db/queries/data-changes';
import { rebuildWindowPartials } from '@/db/queries/window-partials';
import { mulberry32 } from '@/lib/stats/random';
import { runRollupJob } from '@/workers/tasks/rollup-measurements';
import { answerContentHash, computeLeaderboardAnswer, leaderboardAnswerOf } from './leaderboard-answers';
import { LiveFigures, type LiveQuestion } from './live-figures';
import { DAY_MS as DAY, HOUR_MS as HOUR, MINUTE_MS as MIN } from '@/lib/stats/time-units';

const NOW = new Date('2026-11-29T12:31:00Z').getTime();
const FIRST = NOW - 8 * DAY;
const MODELS = ['llama-4-maverick', 'tokenpace-reference'];
const WORKLOADS = ['prose-1k', 'code-1k'];
let t: TestDatabase;
const wl: Record<string, number> = {};
const epsOf: Record<string, number[]> = {};
const rand = mulberry32(17);
let n = 0;

function row(endpointId: number, workload: string, at: number): typeof measurements.$inferInsert {
  const i = n++;
  return randomMeasurement({ rand, jobKey: `lf:${i}`, endpointId, workloadId: wl[workload]!, at, i, flaggedShare: 0.04 });
}

async function insert(rows: Array<typeof measurements.$inferInsert>): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await t.db.insert(measurements).values(rows.slice(i, i + 500));
}

/** A minute of probes ending at `at` (every endpoint on prose-1k, one on code-1k). */
async function minuteOfProbes(at: number): Promise<void> {
  const rows = Object.values(epsOf)
    .flat()
    .map((id, k) => row(id, 'prose-1k', at - 50_000 + k * 1000));
  rows.push(row(epsOf[MODELS[0]!]![0]!, 'code-1k', at - 20_000));
  await insert(rows);
}

const questions: LiveQuestion[] = MODELS.flatMap((modelSlug) =>
  WORKLOADS.flatMap((workloadSlug) =>
    [24, 72, 168].flatMap((windowHours) => (['reported', 'o200k'] as const).map((basis) => ({ modelSlug, workloadSlug, windowHours, basis }))),
  ),
);

/** Per live-figures instance, each question's cold content hash at its previous run. */
const previous = new WeakMap<LiveFigures, Map<string, string>>();
/** Questions reported unchanged, over the whole file (some must be, so the check below can fail). */
let unchangedSeen = 0;

/**
 * Every question's bytes from the live figures and from a cold compute; returns how many came from
 * the live figures. A question reported unchanged (decision 300) must have the content of the
 * previous run's cold answer.
 */
async function compare(live: LiveFigures, at: number): Promise<number> {
  const asOf = new Date(at);
  const results = await live.prepare(t.db, questions, asOf);
  const prev = previous.get(live) ?? new Map<string, string>();
  const now = new Map<string, string>();
  let fromLive = 0;
  for (let i = 0; i < questions.length; i++) {
    const q = questions[i]!;
    const input = { model: q.modelSlug, workload: q.workloadSlug, window: q.windowHours, basis: q.basis, region: null };
    const cold = await computeLeaderboardAnswer(t.db, input, asOf);
    const key = JSON.stringify(input);
    const label = `${key} at ${asOf.toISOString()}`;
    now.set(key, answerContentHash(cold.body));
    const r = results[i];
    if (!r) continue;
    fromLive++;
    expect(leaderboardAnswerOf(input, asOf, r.figures(), null).body, label).toBe(cold.body);
    if (!r.changed) {
      unchangedSeen++;
      expect(answerContentHash(cold.body), `unchanged: ${label}`).toBe(prev.get(key));
    }
  }
  previous.set(live, now);
  return fromLive;
}

beforeAll(async () => {
  t = await createTestDatabase();
  await seedAllActive(t.db, { 'prose-1k': 'prose', 'code-1k': 'code' });
  for (const w of await t.db.select({ id: workloads.id, slug: workloads.slug }).from(workloads)) wl[w.slug] = w.id;
  for (const m of MODELS) {
    const list = await t.db.select({ id: endpoints.id }).from(endpoints).innerJoin(models, eq(models.id, endpoints.modelId)).where(eq(models.slug, m));
    epsOf[m] = list.map((e) => e.id).slice(0, 3);
  }
  const rows: Array<typeof measurements.$inferInsert> = [];
  for (const ids of Object.values(epsOf)) {
    for (const id of ids) {
      for (let at = FIRST + id * 7_000; at <= NOW - MIN; at += 29 * MIN + 17_000) rows.push(row(id, 'prose-1k', at));
      for (let at = FIRST + id * 11_000; at <= NOW - MIN; at += 97 * MIN + 5_000) rows.push(row(id, 'code-1k', at));
    }
  }
  await insert(rows);
  for (const g of ['hour', 'day'] as const)
    await rebuildRollups(t.db, { granularity: g, from: new Date(FIRST - DAY), to: new Date(NOW + HOUR), wallNow: new Date(NOW) });
  await runRollupJob(t.db, new Date(NOW));
}, 240_000);

afterAll(async () => {
  await t?.close();
});

/** A new LiveFigures that has answered once at `at`, after a minute of probes at `at` and the rollup job's run. */
async function liveAfterMinute(at: number): Promise<LiveFigures> {
  const live = new LiveFigures();
  await minuteOfProbes(at);
  await runRollupJob(t.db, new Date(at));
  await compare(live, at);
  return live;
}

describe('live figures (decision 217)', () => {
  it('equal a cold answer byte for byte, minute after minute, across 10-minute and hour boundaries and a jump of hours', async () => {
    const live = new LiveFigures();
    let at = NOW;
    expect(await compare(live, at)).toBe(questions.length);
    // 12:31 → 13:13 in steps of 3 minutes: the 12:40, 12:50, 13:00 and 13:10 boundaries.
    for (let k = 0; k < 14; k++) {
      at += 3 * MIN;
      await minuteOfProbes(at);
      await runRollupJob(t.db, new Date(at));
      expect(await compare(live, at)).toBe(questions.length);
    }
    // The larger partials that completed meanwhile (12:00–13:00, …) were built when they completed: as a full rebuild has them.
    const complete = async () =>
      (
        (await t.db.execute(sql`
          select span_minutes, workload_id, model_id, region_key, bucket_start, encode(body, 'base64') as body from window_partials
          where bucket_start + span_minutes * interval '1 minute' <= (select to_at from window_partial_coverage where id = 1)`)) as unknown as object[]
      )
        .map((r) => JSON.stringify(r))
        .sort();
    const kept = await complete();
    await rebuildWindowPartials(t.db, { from: new Date(FIRST - DAY), to: new Date(at), wallNow: new Date(at) });
    expect(await complete()).toEqual(kept);
    // The worker was away for 3 hours: the prefixes move on by three hours at once.
    at += 3 * HOUR;
    await minuteOfProbes(at);
    for (let i = 0; i < 3; i++) await runRollupJob(t.db, new Date(at + i * 1000));
    expect(await compare(live, at)).toBe(questions.length);
    // One model's code-1k took no probe in these minutes: its windows were reported unchanged (and checked above).
    expect(unchangedSeen).toBeGreaterThan(0);
  }, 240_000);

  it('folds in late probes: inside the last two hours (read every run) and days back (the prefix is rebuilt)', async () => {
    let at = NOW + 6 * HOUR;
    const live = await liveAfterMinute(at);
    at += MIN;
    const late = epsOf[MODELS[0]!]!.map((id) => row(id, 'prose-1k', at - 80 * MIN));
    await insert(late);
    await runRollupJob(t.db, new Date(at));
    expect(await compare(live, at)).toBe(questions.length);
    // Days back: outside the job's two hours, rebuilt as a backfill or import would (its data change reaches into the prefix).
    at += MIN;
    const old = [row(epsOf[MODELS[1]!]![0]!, 'prose-1k', at - 2 * DAY), row(epsOf[MODELS[1]!]![0]!, 'code-1k', at - 2 * DAY - 5 * HOUR)];
    await insert(old);
    for (const g of ['hour', 'day'] as const)
      await rebuildRollups(t.db, { granularity: g, from: new Date(at - 3 * DAY), to: new Date(at - DAY), wallNow: new Date(at) });
    await recordDataChange(t.db, { source: 'test', from: new Date(at - 3 * DAY), to: new Date(at - DAY) });
    await runRollupJob(t.db, new Date(at));
    expect(await compare(live, at)).toBe(questions.length);
  }, 240_000);

  it('follows an endpoint leaving the list', async () => {
    const at = NOW + 7 * HOUR;
    const live = await liveAfterMinute(at);
    await t.db.execute(sql`update endpoints set status = 'pending' where id = ${epsOf[MODELS[0]!]![2]!}`);
    expect(await compare(live, at + MIN)).toBe(questions.length);
  }, 240_000);
});
