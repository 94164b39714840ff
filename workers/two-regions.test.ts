/**
 * Scale-out across regions on one database: a worker in region `eu` and one in `us` each work only
 * their region's probe queue, both measure the same slots (one measurement per region), and the
 * operations surfaces see both: /api/v1/regions (per-region counts and live workers) and
 * /api/health (live workers with pid, host, region, version, lastHeartbeatAt).
 *
 * Then two web instances (separate processes: app/api/v1/test-support/web-instance.ts, the
 * production route handlers with their own caches and LISTEN) against the same database: per-region
 * and merged leaderboards say which regions they cover, and after late data and a rollup both
 * instances serve the same new snapshot (cross-instance invalidation, server/cache-invalidation).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { DATA_CHANGED_CHANNEL, type DataChange } from '@/server/cache-invalidation';
import { seedCatalog } from '@/db/seed';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { getEnv } from '@/lib/env';
import { streamChatWords } from '@/lib/probe/test-support/chat-stream';
import { PgBoss } from 'pg-boss';
import type { HealthBody } from '@/app/api/health/route';
import { listLiveWorkers, loadHealthFigures } from '@/db/queries/operations';
import { assessHealth, DEFAULT_HEALTH_THRESHOLDS } from '@/lib/observability/health';
import { slotMinutesForCron } from '@/lib/probe/cadence';
import { QUEUES, probeQueueName, scheduleProbesQueueName } from '@/lib/queues';
import { spawnWorker } from './test-support/spawn-worker';
import { stopChildren } from './test-support/stop-children';
import { runRollupJob } from '@/workers/tasks/rollup-measurements';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const ROOT = path.resolve(__dirname, '..');
let t: TestDatabase;
let server: http.Server;
const workers: ChildProcess[] = [];
const webs: ChildProcess[] = [];
/** Data-change notifications seen on the channel (from any process). */
const changes: DataChange[] = [];

function startServer(): Promise<number> {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      streamChatWords(res, { word: (i) => (i < 5 ? ` word${i}` : null), intervalMs: 0, usage: { completionTokens: 5 } });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function startWorker(region: string, role: 'probe' | 'jobs' = 'probe'): ChildProcess {
  const child = spawnWorker(t.url, { region, args: ['--role', role, '--heartbeat-seconds', '1'], stdout: 'ignore', label: () => `worker ${region} ${role}` });
  workers.push(child);
  return child;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const port = await startServer();
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: port });
  await t.sql.listen(DATA_CHANGED_CHANNEL, (text) => changes.push(JSON.parse(text) as DataChange));
});

afterAll(async () => {
  await stopChildren([...workers, ...webs]);
  server?.close();
  await t?.drop();
});

/** Probe measurements of one region and slot (job keys are probe:<endpoint>:<workload>:<region>:<slot>). */
async function measuredInSlot(region: string, slotStart: string): Promise<number> {
  const [r] = (await t.db.execute(sql`select count(*)::int as n from measurements where job_key like ${`probe:%:%:${region}:${slotStart}`}`)) as unknown as [
    { n: number },
  ];
  return r!.n;
}

/** Probe jobs a region's schedule enqueued for one slot (what "every slot" must measure). */
async function enqueuedInSlot(region: string, slotStart: string): Promise<number> {
  const [r] = (await t.db.execute(
    sql`select count(*)::int as n from pgboss.job where name = ${probeQueueName(region)} and data->>'slotStart' = ${slotStart}`,
  )) as unknown as [{ n: number }];
  return r!.n;
}

/**
 * Fires a region's schedule for `slotStart` now, as its cron would (the settable schedule trigger).
 * Keyed by slot: the queue's policy `short` keeps one waiting firing per key, so triggered slots
 * queue up while the cron's keyless firings collapse to one.
 */
async function fireSchedule(boss: PgBoss, region: string, slotStart: string): Promise<void> {
  expect(await boss.send(scheduleProbesQueueName(region), { region, slotStart }, { singletonKey: slotStart })).toBeTruthy();
}

it('regions scale out independently: eu and us measure every slot; after eu is killed, us keeps measuring and health names eu', async () => {
  const eu = startWorker('eu');
  const us = startWorker('us');
  // Rollups, answers and dumps run in a process of their own (the jobs role); it probes nothing.
  const jobs = startWorker('eu', 'jobs');
  const boss = new PgBoss({ connectionString: t.url, schema: 'pgboss', schedule: false, supervise: false });
  try {
    await expect
      .poll(async () => (await listLiveWorkers(t.db, new Date(), 10_000)).map((w) => `${w.region}:${w.role}`).sort(), { timeout: 60_000, interval: 250 })
      .toEqual(['eu:jobs', 'eu:probe', 'us:probe']);
    await boss.start();
    // Two slots fired for both regions while both run, as their crons would fire them.
    const slots = ['2026-01-01T00:00:00.000Z', '2026-01-01T00:01:00.000Z'];
    for (const slot of slots) for (const region of ['eu', 'us']) await fireSchedule(boss, region, slot);
    await expect
      .poll(
        async () => {
          const out: Record<string, string> = {};
          for (const slot of slots)
            for (const region of ['eu', 'us']) out[`${region} ${slot}`] = `${await measuredInSlot(region, slot)}/${await enqueuedInSlot(region, slot)}`;
          return Object.values(out).every((v) => v === out[`eu ${slots[0]}`] && !v.startsWith('0/') && v.split('/')[0] === v.split('/')[1])
            ? 'every slot measured in both regions'
            : out;
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBe('every slot measured in both regions');
    // Each region's probe jobs were taken by that region's worker only.
    const claims = (await t.db.execute(sql`select split_part(job_key, ':', 4) as region, worker_id from probe_slots group by 1, 2`)) as unknown as Array<{
      region: string;
      worker_id: string;
    }>;
    for (const c of claims) expect(c.worker_id.endsWith(`:${c.region === 'eu' ? eu.pid : us.pid}`)).toBe(true);
    // A slot probed from both regions has one measurement per region, never two in one.
    const [dups] = (await t.db.execute(
      sql`select count(*)::int as n from (select job_key from measurements group by job_key having count(*) > 1) d`,
    )) as unknown as [{ n: number }];
    expect(dups!.n).toBe(0);

    process.env.DATABASE_URL = t.url;
    getEnv(true);
    const regionsRoute = await import('@/app/api/v1/regions/route');
    const health = await import('@/app/api/health/route');
    const regions = (await (await regionsRoute.GET(new Request('http://localhost:3000/api/v1/regions'))).json()) as {
      items: Array<{ region: string; liveWorkers: number }>;
    };
    expect(regions.items.filter((r) => r.liveWorkers > 0).map((r) => r.region)).toEqual(['eu', 'us']);
    const body = (await (await health.GET()).json()) as HealthBody;
    expect(body.workers.map((w) => `${w.region}:${w.role}:${w.pid}`).sort()).toEqual([`eu:jobs:${jobs.pid}`, `eu:probe:${eu.pid}`, `us:probe:${us.pid}`]);
    expect(body.status).toBe('ok');
    // The jobs process took no probe (every claim above came from a probe process of the region).
    expect(claims.some((c) => c.worker_id.endsWith(`:${jobs.pid}`))).toBe(false);
    for (const w of body.workers) expect(Date.parse(w.lastHeartbeatAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(body.regions.map((r) => [r.region, r.state, r.liveWorkers])).toEqual([
      ['eu', 'ok', 1],
      ['us', 'ok', 1],
    ]);
    expect(body.stalledRegions).toEqual([]);

    // eu dies (no clean shutdown). Its cron keeps firing; us's firings keep being measured.
    eu.kill('SIGKILL');
    await new Promise((r) => eu.once('exit', r));
    const later = ['2026-01-01T00:02:00.000Z', '2026-01-01T00:03:00.000Z'];
    for (const slot of later) for (const region of ['eu', 'us']) await fireSchedule(boss, region, slot);
    // Two cron-like (keyless) firings of eu: one waits, the rest are dropped (no pile-up). eu's real
    // cron may already have fired at a minute boundary since the kill (a slow run crosses one), so
    // the first may be the one dropped: what holds at any hour is one waiting keyless firing.
    await boss.send(scheduleProbesQueueName('eu'), { region: 'eu' });
    expect(await boss.send(scheduleProbesQueueName('eu'), { region: 'eu' })).toBeNull();
    const [keyless] = (await t.db.execute(
      sql`select count(*)::int as n from pgboss.job where name = ${scheduleProbesQueueName('eu')} and state = 'created' and singleton_key is null`,
    )) as unknown as [{ n: number }];
    expect(keyless!.n).toBe(1);
    const perSlot = await enqueuedInSlot('us', slots[0]!);
    await expect
      .poll(async () => [await measuredInSlot('us', later[0]!), await measuredInSlot('us', later[1]!)], { timeout: 120_000, interval: 500 })
      .toEqual([perSlot, perSlot]);
    expect([await measuredInSlot('eu', later[0]!), await enqueuedInSlot('eu', later[0]!)]).toEqual([0, 0]);

    // Health names eu: its firing waits unclaimed (policy short: one waits, the rest are dropped).
    // Shortened grace and liveness so the test need not wait the published 2 min (same rules, same loader).
    const thresholds = { ...DEFAULT_HEALTH_THRESHOLDS, scheduleClaimGraceSeconds: 3 };
    await expect
      .poll(
        async () => {
          const now = new Date();
          const f = await loadHealthFigures(t.db, now, 5_000);
          const v = assessHealth({
            now,
            queues: f.queues,
            liveWorkers: f.workers.length,
            liveJobsWorkers: f.workers.filter((w) => w.role === 'jobs').length,
            schedules: f.schedules,
            slotMinutes: slotMinutesForCron,
            probeQueueName,
            thresholds,
          });
          return {
            status: v.status,
            stalled: v.stalledRegions,
            reasons: v.regions.map((r) => `${r.region}:${r.reasons.join('+') || 'ok'}:${r.liveWorkers}`),
            problems: v.problems,
          };
        },
        { timeout: 30_000, interval: 500 },
      )
      .toEqual({ status: 'degraded', stalled: ['eu'], reasons: ['eu:schedule-unclaimed:0', 'us:ok:1'], problems: ['region eu: schedule-unclaimed'] });
    const [waiting] = (await t.db.execute(
      sql`select count(*)::int as n from pgboss.job where name = ${scheduleProbesQueueName('eu')} and state = 'created'`,
    )) as unknown as [{ n: number }];
    expect(waiting!.n).toBe(later.length + 1);
    // The route itself lists both regions with their figures (its verdict uses the published 2 min grace).
    const after = (await (await health.GET()).json()) as HealthBody;
    const euHealth = after.regions.find((r) => r.region === 'eu')!;
    expect(euHealth.waitingSeconds).toBeGreaterThan(3);
    expect(after.regions.find((r) => r.region === 'us')).toMatchObject({ state: 'ok', waitingSeconds: 0 });
  } finally {
    await boss.stop({ graceful: false }).catch(() => {});
  }
}, 240_000);

/** Starts one web instance process; resolves with its base URL once it listens. */
function startWeb(name: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'app/api/v1/test-support/web-instance.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: t.url, TOKENPACE_SECRET_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  webs.push(child);
  child.stderr?.on('data', (d) => process.stderr.write(`[web ${name}] ${d}`));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += String(d);
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`web ${name} exited (${code}) before listening`)));
  });
}

interface Board {
  snapshotId: string;
  region: string | null;
  regions: string[];
  merged: boolean;
  entries: Array<{ endpoint: { id: number }; n: number }>;
}

async function board(baseUrl: string, params: Record<string, string>): Promise<Board> {
  const res = await fetch(`${baseUrl}/api/v1/leaderboard?${new URLSearchParams(params).toString()}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Board;
}

it('two web instances: per-region and merged boards say which regions; both serve the same snapshot after a rollup change', async () => {
  const [a, b] = await Promise.all([startWeb('a'), startWeb('b')]);
  const [subject] = (await t.db.execute(sql`
    select mo.slug as model, w.slug as workload from measurements m
    join endpoints e on e.id = m.endpoint_id join models mo on mo.id = e.model_id join workloads w on w.id = m.workload_id
    group by 1, 2 order by count(distinct m.worker_region) desc, count(*) desc limit 1`)) as unknown as Array<{ model: string; workload: string }>;
  const q = { model: subject!.model, workload: subject!.workload, window: '24h' };

  // Pinned to an instant after both regions measured: per-region boards are parts of the merged one.
  const [{ last }] = (await t.db.execute(sql`select max(measured_at)::text as last from measurements`)) as unknown as [{ last: string }];
  const at = new Date(Date.parse(last) + 1000).toISOString();
  const [eu, us, merged] = await Promise.all([board(a, { ...q, at, region: 'eu' }), board(b, { ...q, at, region: 'us' }), board(a, { ...q, at })]);
  expect([eu.region, eu.regions, eu.merged]).toEqual(['eu', ['eu'], false]);
  expect([us.region, us.regions, us.merged]).toEqual(['us', ['us'], false]);
  expect([merged.region, merged.regions, merged.merged]).toEqual([null, ['eu', 'us'], true]);
  expect(eu.snapshotId).not.toBe(us.snapshotId);
  const nOf = (bd: Board) => new Map(bd.entries.map((e) => [e.endpoint.id, e.n]));
  const [nEu, nUs] = [nOf(eu), nOf(us)];
  for (const e of merged.entries) expect(e.n).toBe((nEu.get(e.endpoint.id) ?? 0) + (nUs.get(e.endpoint.id) ?? 0));
  expect(merged.entries.some((e) => e.n > 0)).toBe(true);
  // The same question answers the same snapshot on either instance.
  expect((await board(b, { ...q, at })).snapshotId).toBe(merged.snapshotId);

  // A sealed question (as of 20 min ago): instance A computes and caches it until invalidated.
  const sealedAt = new Date(Date.now() - 20 * 60_000).toISOString();
  const sealed = { ...q, at: sealedAt, region: 'eu' };
  const before = await board(a, sealed);
  expect((await board(a, sealed)).snapshotId).toBe(before.snapshotId);
  // Late data for that window (a copy of an eu measurement, measured 1 min before it), then a rollup
  // run, which sends NOTIFY tokenpace_data_changed.
  const cols = (
    (await t.db.execute(sql`
    select column_name from information_schema.columns
    where table_name = 'measurements' and table_schema = current_schema() and column_default is null and is_identity = 'NO' and is_generated = 'NEVER' and column_name not in ('measured_at', 'job_key')`)) as unknown as [
      { column_name: string },
    ]
  )
    .map((c) => `"${c.column_name}"`)
    .join(', ');
  const lateAt = new Date(Date.parse(sealedAt) - 60_000).toISOString();
  await t.db.execute(
    sql.raw(`
    insert into measurements (${cols}, measured_at, job_key)
    select ${cols}, '${lateAt}'::timestamptz, 'late-data-test' from measurements
    where worker_region = 'eu' and outcome = 'success'
      and workload_id = (select id from workloads where slug = '${q.workload}')
      and endpoint_id in (select e.id from endpoints e join models mo on mo.id = e.model_id where mo.slug = '${q.model}')
    limit 1`),
  );
  await runRollupJob(t.db, new Date());
  const [{ n: lateRows }] = (await t.db.execute(sql`select count(*)::int as n from measurements where job_key = 'late-data-test'`)) as unknown as [
    { n: number },
  ];
  expect(lateRows).toBe(1);
  // Both instances: the same, new snapshot (A's cached answer was dropped by the NOTIFY).
  await expect
    .poll(
      async () => {
        const [x, y] = await Promise.all([board(a, sealed), board(b, sealed)]);
        return { sameOnBoth: x.snapshotId === y.snapshotId, aChanged: x.snapshotId !== before.snapshotId, bChanged: y.snapshotId !== before.snapshotId };
      },
      { timeout: 30_000, interval: 250 },
    )
    .toEqual({ sameOnBoth: true, aChanged: true, bChanged: true });
  expect((await board(a, sealed)).entries.some((e) => e.n > 0)).toBe(true);

  // The jobs process's rollups notify every other process too: fire its schedule now (the settable
  // trigger: the job its cron would send) instead of waiting for a cron minute.
  const jobsPid = workers.find((w) => w.spawnargs.includes('jobs'))!.pid;
  const boss = new PgBoss({ connectionString: t.url, schema: 'pgboss', schedule: false, supervise: false });
  await boss.start();
  try {
    await boss.send(QUEUES.rollupMeasurements, {});
    await expect.poll(() => changes.some((c) => c.source === 'rollup' && c.pid === jobsPid), { timeout: 30_000, interval: 200 }).toBe(true);
  } finally {
    await boss.stop({ graceful: false });
  }
}, 180_000);
