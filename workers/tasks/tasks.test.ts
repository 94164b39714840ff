/**
 * Tasks as data (workers/task.ts, decision 252): the list says which role runs what; queue names
 * come from lib/queues.ts, each queue is created once and no cron is scheduled outside the list;
 * drainOnce runs what is queued now through the same handlers, so a fired schedule is measured and
 * a rollup recomputes the answers without waiting for a cron minute (real Postgres, a real local
 * HTTP server, the real guarded fetch and endpoint lock).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '@/db/seed';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { isFamilyWorkload } from '@/lib/probe/workloads';
import { getEnv } from '@/lib/env';
import { createLogger } from '@/lib/observability/logger';
import { createWorkerMetrics } from '@/lib/observability/metrics';
import { listDueWorkloadSlugs } from '@/lib/probe/cadence';
import { streamChatWords } from '@/lib/probe/test-support/chat-stream';
import { PROBE_QUEUE_PREFIX, QUEUES, SCHEDULE_PROBES_QUEUE_PREFIX, scheduleProbesQueueName } from '@/lib/queues';
import { createEndpointLock, type EndpointLock } from '../endpoint-lock';
import { drainOnce, startTasks } from '../run-tasks';
import type { ProbeRoleDeps, TaskDeps } from '../task';
import { JOBS_TASKS, PROBE_TASKS, TASKS } from './index';
import { closeFetches, probeTaskContext } from './test-support/probe-task-context';

const ROOT = path.resolve(__dirname, '../..');

describe('the task list', () => {
  it('gives each role its tasks: probes and sweeps in the probe role, the heavy bookkeeping in the jobs role', () => {
    expect(PROBE_TASKS.map((t) => t.task)).toEqual(['schedule-probes', 'probe', 'run-sweep']);
    expect(JOBS_TASKS.map((t) => t.task).sort()).toEqual(['dispatch-sweeps', 'ensure-partitions', 'precompute-answers', 'retention', 'rollup', 'write-dump']);
  });

  it('names every queue once, from lib/queues.ts, for any region', () => {
    for (const region of ['local', 'eu', 'us-east-1']) {
      const names = TASKS.map((t) => t.queue(region));
      expect(new Set(names).size).toBe(names.length);
      const known = new Set<string>(Object.values(QUEUES));
      for (const n of names) expect(known.has(n) || n === `${PROBE_QUEUE_PREFIX}${region}` || n === `${SCHEDULE_PROBES_QUEUE_PREFIX}${region}`, n).toBe(true);
    }
  });

  it('production code creates queues and schedules crons only in workers/run-tasks.ts, and spells no queue name outside lib/queues.ts', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (!['node_modules', 'test-support', 'test-fixtures'].includes(e.name) && !e.name.startsWith('.')) walk(p);
        } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) files.push(p);
      }
    };
    for (const d of ['app', 'cli', 'db', 'lib', 'workers']) walk(path.join(ROOT, d));
    const offenders: string[] = [];
    const spelled = [...Object.values(QUEUES)].map((q) => `'${q}'`);
    for (const f of files) {
      const rel = path.relative(ROOT, f);
      const text = fs.readFileSync(f, 'utf8');
      if (rel !== 'workers/run-tasks.ts' && /\.(createQueue|schedule)\(/.test(text)) offenders.push(`${rel}: createQueue/schedule`);
      // A task's metric label may equal its queue's name (`task: 'write-dump'`); any other spelling is a second home.
      const code = text.replace(/\btask: '[a-z-]+'/g, '');
      if (rel !== 'lib/queues.ts') for (const q of spelled) if (code.includes(q)) offenders.push(`${rel}: ${q}`);
    }
    expect(offenders).toEqual([]);
  });
});

describe('drainOnce', () => {
  let t: TestDatabase;
  let boss: PgBoss;
  let server: http.Server;
  let requests = 0;
  let endpointLock: EndpointLock;
  const fetches: Parameters<typeof closeFetches>[0] = [];

  beforeAll(async () => {
    t = await createTestDatabase();
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests += 1;
        streamChatWords(res, { word: (i) => (i < 5 ? ` word${i}` : null), intervalMs: 0, usage: { completionTokens: 5 } });
      });
    });
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
    await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: port });
    boss = new PgBoss({ connectionString: t.url, schema: 'pgboss', schedule: false, supervise: false });
    await boss.start();
    endpointLock = createEndpointLock({ url: t.url, waitMs: 30_000 });
  }, 120_000);

  afterAll(async () => {
    await boss?.stop({ graceful: false });
    await endpointLock?.close();
    await closeFetches(fetches);
    server?.close();
    await t?.drop();
  });

  function deps(region: string): { base: TaskDeps; probe: ProbeRoleDeps } {
    const env = { ...getEnv(true), TOKENPACE_PROBE_CRON: '* * * * *' };
    const log = createLogger('worker', { level: 'silent' });
    const base: TaskDeps = { db: t.db, boss, region, env, log, metrics: createWorkerMetrics({ workerId: 'test', region }), now: () => new Date() };
    const probe = probeTaskContext(t.db, {}, fetches);
    return { base, probe: { ...base, probe, endpointLock, sweep: { ...probe, workerRegion: region, endpointLock }, probeJobExpireSeconds: 180 } };
  }

  it('runs a fired schedule and every probe it enqueued, then stops: one measurement and one request per probe job', async () => {
    const { probe } = deps('local');
    await startTasks(boss, PROBE_TASKS, probe, { work: false }); // queues + the at-start firing, no handlers
    const slot = '2026-02-01T10:00:00.000Z';
    await boss.send(scheduleProbesQueueName('local'), { region: 'local', slotStart: slot }, { singletonKey: slot });
    const report = await drainOnce(boss, PROBE_TASKS, probe);
    const [jobs] = (await t.db.execute(sql`select count(*)::int as n from pgboss.job where name = 'probe-local' and state = 'completed'`)) as unknown as Array<{
      n: number;
    }>;
    const [m] = (await t.db.execute(
      sql`select count(*)::int as n, (count(*) filter (where job_key like ${`%:${slot}`}))::int as slot, (count(*) filter (where job_key like '%:warm'))::int as warm from measurements`,
    )) as unknown as Array<{ n: number; slot: number; warm: number }>;
    // Two firings (the at-start one for the current slot, the triggered one), each slot measured in full.
    expect(report[scheduleProbesQueueName('local')]).toEqual({ completed: 2, failed: 0 });
    expect(report['probe-local']).toEqual({ completed: jobs!.n, failed: 0 });
    // The calibration endpoint runs every scheduled workload of the grid every slot; the prompt-cache
    // pair only at its own phase (lib/probe/cadence), its job writing a second (warm) measurement.
    const [cal] = (await t.db.execute(sql`select id, context_window_tokens from endpoints where is_calibration`)) as unknown as Array<{
      id: number;
      context_window_tokens: number | null;
    }>;
    const due = listDueWorkloadSlugs({ id: cal!.id, isCalibration: true, contextWindowTokens: cal!.context_window_tokens }, new Date(slot));
    expect(due.length).toBeGreaterThanOrEqual(SEED_WORKLOADS.filter((w) => w.scheduled && !isFamilyWorkload(w.slug)).length);
    expect(m!.slot).toBe(due.length);
    expect(m!.n).toBe(jobs!.n + m!.warm);
    expect(requests).toBe(jobs!.n + m!.warm);
    // Nothing left: a second drain runs nothing.
    expect(await drainOnce(boss, PROBE_TASKS, probe)).toEqual({});
  }, 120_000);

  it('a rollup fired now rolls up and its precompute runs in the same drain (the answers exist)', async () => {
    const { base } = deps('local');
    await startTasks(boss, JOBS_TASKS, base, { work: false });
    await boss.send(QUEUES.rollupMeasurements, {});
    const report = await drainOnce(boss, JOBS_TASKS, base);
    expect(report[QUEUES.rollupMeasurements]).toEqual({ completed: 1, failed: 0 });
    expect(report[QUEUES.precomputeAnswers]).toEqual({ completed: 1, failed: 0 });
    expect(report[QUEUES.writeDump]).toEqual({ completed: 1, failed: 0 }); // the at-start dump
    const [rollups] = (await t.db.execute(sql`select count(*)::int as n from measurement_rollups where granularity = 'hour'`)) as unknown as Array<{
      n: number;
    }>;
    expect(rollups!.n).toBeGreaterThan(0);
    const [answers] = (await t.db.execute(sql`select count(*)::int as n from precomputed_answers`)) as unknown as Array<{ n: number }>;
    expect(answers!.n).toBeGreaterThan(0);
  }, 120_000);

  it('a failing job is failed with its message, not lost, and the drain goes on', async () => {
    const { probe } = deps('local');
    // A firing for another region in this region's queue is a bug: the job fails (it is not dropped).
    await boss.send(scheduleProbesQueueName('local'), { region: 'eu' }, { singletonKey: 'wrong-region', retryLimit: 0 });
    const report = await drainOnce(boss, PROBE_TASKS, probe);
    expect(report[scheduleProbesQueueName('local')]).toEqual({ completed: 0, failed: 1 });
    const [job] = (await t.db.execute(
      sql`select state::text as state, output->>'message' as message from pgboss.job where name = ${scheduleProbesQueueName('local')} and singleton_key = 'wrong-region'`,
    )) as unknown as Array<{ state: string; message: string }>;
    expect(job).toEqual({ state: 'failed', message: 'schedule job for region "eu" in the queue of region "local"' });
  }, 60_000);
});
