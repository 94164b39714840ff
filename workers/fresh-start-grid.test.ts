/**
 * Issue 14 "done when", without the web process: a fresh database, the seeded catalog with the
 * calibration reference server (configured like `tokenpace start`), and one real worker process.
 * Within the first minutes the calibration endpoint has successful measurements on every input size
 * of the grid, fidelity pass rate 1 with n > 0 and the median ITL P50/P95 on its leaderboard entry (the same engine
 * the API serves); every endpoint carries a pricing field; the workload list is the grid.
 * Slots are fired through the region's schedule trigger (the job its cron would send, with a slot
 * of its own) as soon as the previous ones are measured, so the test never waits for a cron minute.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnWorker } from './test-support/spawn-worker';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { listEndpoints } from '@/db/queries/catalog';
import { listWorkloadGrid } from '@/db/queries/workloads';
import { seedCatalog } from '@/db/seed';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { CALIBRATION_CONFIG } from '@/lib/catalog/seed-catalog';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { PgBoss } from 'pg-boss';
import { scheduleProbesQueueName } from '@/lib/queues';
import { runRollupJob } from './tasks/rollup-measurements';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let reference: ReferenceServer;
let worker: ChildProcess | null = null;

beforeAll(async () => {
  t = await createTestDatabase();
  reference = await startReferenceServer({
    port: 0,
    tps: CALIBRATION_CONFIG.tps,
    ttftMs: CALIBRATION_CONFIG.ttftMs,
    tokensPerChunk: CALIBRATION_CONFIG.tokensPerChunk,
    outputTokens: CALIBRATION_CONFIG.outputTokens,
  });
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: reference.port });
});

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    await new Promise<void>((resolve) => {
      worker!.once('exit', () => resolve());
      worker!.kill('SIGTERM');
    });
  }
  await reference?.close();
  await t?.drop();
});

it('after a fresh start the calibration endpoint covers ~100/~1k/~10k/~100k inputs with fidelity 1 and median ITL', async () => {
  const started = Date.now();
  worker = spawnWorker(t.url, { label: () => 'worker' });
  const boss = new PgBoss({ connectionString: t.url, schema: 'pgboss', schedule: false, supervise: false });
  await boss.start();
  // Fires the next slot (a past minute of its own) once every probe job so far has finished: what
  // the cron would do each minute, without the minute.
  let slotIndex = 0;
  const fireNextSlotWhenIdle = async () => {
    const [open] = (await t.db.execute(
      sql`select count(*)::int as n from pgboss.job where name in ('probe-local', 'schedule-probes-local') and state in ('created', 'retry', 'active')`,
    )) as unknown as Array<{ n: number }>;
    if (open!.n > 0) return;
    const slotStart = new Date(Date.UTC(2026, 0, 1, 0, slotIndex++)).toISOString();
    await boss.send(scheduleProbesQueueName('local'), { region: 'local', slotStart }, { singletonKey: slotStart });
  };
  await expect
    .poll(async () => (await t.db.execute(sql`select 1 from pgboss.queue where name = 'schedule-probes-local'`)).length, { timeout: 60_000, interval: 250 })
    .toBe(1);
  const sizes = [100, 1_000, 10_000, 100_000];
  await expect
    .poll(
      async () => {
        const rows = (await t.db.execute(sql`
          select w.input_tokens_target as size, count(*)::int as n,
                 (count(*) filter (where m.fidelity_passed))::int as passed, (count(*) filter (where m.fidelity_passed is not null))::int as judged
          from measurements m join workloads w on w.id = m.workload_id join endpoints e on e.id = m.endpoint_id
          where e.is_calibration and m.outcome = 'success' group by 1`)) as unknown as Array<{ size: number; n: number; passed: number; judged: number }>;
        await fireNextSlotWhenIdle();
        return sizes.every((s) => rows.some((r) => Number(r.size) === s && r.n >= 4 && r.judged > 0 && r.passed === r.judged));
      },
      { timeout: 300_000, interval: 2000 },
    )
    .toBe(true);
  // ITL and speed figures need rankable measurements: on a loaded machine some are kept but flagged
  // timing_uncertain (decision 181); fire further slots until each checked workload has one.
  await expect
    .poll(
      async () => {
        const rows = (await t.db.execute(sql`
          select count(distinct m.workload_id)::int as n from measurements m join workloads w on w.id = m.workload_id join endpoints e on e.id = m.endpoint_id
          where e.is_calibration and m.rankable and m.itl_p50_ms is not null and w.slug in ('prose-100', 'prose-1k', 'json-10k', 'math-100k')`)) as unknown as Array<{
          n: number;
        }>;
        if (rows[0]!.n < 4) await fireNextSlotWhenIdle();
        return rows[0]!.n;
      },
      { timeout: 300_000, interval: 2000 },
    )
    .toBe(4);
  // Probes of one endpoint never overlap (workers/endpoint-lock.ts): each calibration probe starts
  // after the previous one's request start + E2E (measured_at is taken before the request starts,
  // so this is a necessary condition of no overlap). Four at a time were seen before the lock.
  const timeline = (await t.db.execute(sql`
    select extract(epoch from m.measured_at) * 1000 as "startMs", coalesce(m.e2e_ms, 0) as "e2eMs"
    from measurements m join endpoints e on e.id = m.endpoint_id where e.is_calibration order by m.measured_at, m.id`)) as unknown as Array<{
    startMs: number;
    e2eMs: number;
  }>;
  expect(timeline.length).toBeGreaterThanOrEqual(16);
  const overlaps = timeline.slice(1).filter((m, i) => Number(m.startMs) < Number(timeline[i]!.startMs) + Number(timeline[i]!.e2eMs) - 1);
  expect(overlaps).toEqual([]);
  const elapsedS = (Date.now() - started) / 1000;
  console.log(`calibration covered every input size of the grid with passing fidelity checks ${elapsedS.toFixed(0)} s after the worker started`);
  expect(elapsedS).toBeLessThan(360);
  const [stalls] = (await t.db.execute(
    sql`select count(*)::int as total, (count(*) filter (where 'timing_uncertain' = any(not_rankable_reasons)))::int as stalled from measurements`,
  )) as unknown as Array<{ total: number; stalled: number }>;
  console.log(`measurements ${stalls!.total}, flagged timing_uncertain ${stalls!.stalled} (machine load)`);

  console.log(`rankable ITL on every checked workload ${((Date.now() - started) / 1000).toFixed(0)} s after the worker started`);
  // What the jobs process does every minute (decision 251; no jobs process runs in this test): roll
  // up, so the answer engine's stored partials cover the new measurements.
  await runRollupJob(t.db, new Date());
  for (const workload of ['prose-100', 'prose-1k', 'json-10k', 'math-100k']) {
    const answer = await getLeaderboardAnswer(t.db, leaderboardQuerySchema.parse({ model: 'tokenpace-reference', workload }), new Date(Date.now() + 61_000));
    const entry = answer.entries.find((e) => e.endpoint.kind === 'calibration')!;
    expect(entry.successes, workload).toBeGreaterThan(0);
    expect(entry.fidelity, workload).toMatchObject({ passRate: 1 });
    expect(entry.fidelity!.n).toBeGreaterThan(0);
    expect(entry.medianItlP50Ms, workload).not.toBeNull();
    expect(entry.medianItlP95Ms, workload).not.toBeNull();
    expect(entry.medianItlP95Ms!).toBeGreaterThanOrEqual(entry.medianItlP50Ms!);
    // 1,000 tokens/s, one token per chunk: ~1 ms per token. On a loaded machine several chunks
    // arrive in one socket read (gap 0), so the median may be 0; the tail still shows the gaps.
    // (and a loaded server writes later than 1 ms apart: that is what it delivered, so no upper check)
    expect(entry.medianItlP50Ms!).toBeGreaterThanOrEqual(0);
    expect(entry.medianItlP95Ms!).toBeGreaterThan(0);
  }
  await boss.stop({ graceful: false });
  for (const e of await listEndpoints(t.db)) expect(e).toHaveProperty('pricing');
  expect((await listWorkloadGrid(t.db)).map((w) => w.slug)).toEqual(SEED_WORKLOADS.map((w) => w.slug));
}, 660_000);
