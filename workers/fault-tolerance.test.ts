/**
 * Fault tests with real processes and a real PostgreSQL of this file's own (so it can be stopped):
 * 1. kill -9 of a worker in the middle of a stream: the supervisor of pg-boss fails the dead
 *    worker's job once its job heartbeat stops, the retry (same job id) re-runs the slot in another
 *    worker, and every slot ends with exactly one measurement: nothing lost, nothing duplicated.
 * 2. Postgres stopped and started again: while it is down the API answers 503 JSON (not 500); once
 *    it is back, route handlers and the worker (heartbeat and probes) recover by themselves.
 * Deadlines are generous (a loaded 2-core machine) and every wait polls for a state.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { openDb, type DbHandle } from '@/db/client';
import { startEmbeddedPostgres, type EmbeddedServer } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { seedCatalog } from '@/db/seed';
import { endpoints } from '@/db/schema';
import { startTestPostgres } from '@/db/test-support/start-test-postgres';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { getEnv } from '@/lib/env';
import { streamChatWords } from '@/lib/probe/test-support/chat-stream';
import { scheduleProbesQueueName } from '@/lib/queues';
import { spawnWorker } from './test-support/spawn-worker';
import { stopChildren } from './test-support/stop-children';

// Route handlers call next/server's connection(), which needs Next's request scope.
vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let pg: EmbeddedServer;
let dataDir: string;
let url: string;
let h: DbHandle;
let server: http.Server;
/** While true, new streams trickle forever (until the client goes away): a probe stays mid-stream. */
let slow = true;
let openStreams = 0;
const workers: ChildProcess[] = [];

function startStreamingServer(): Promise<number> {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const trickle = slow;
      openStreams += 1;
      streamChatWords(res, {
        word: (i) => (trickle || i < 5 ? ` word${i}` : null),
        intervalMs: trickle ? 100 : 5,
        usage: { completionTokens: 5 },
        onClose: () => (openStreams -= 1),
      });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function startWorker(): ChildProcess {
  const child = spawnWorker(url, { args: ['--heartbeat-seconds', '1', '--supervise-seconds', '2'] });
  // Structured logs on stdout: show warnings and errors only.
  child.stdout?.on('data', (d) => {
    for (const line of String(d).split('\n')) if (/"level":"(warn|error|fatal)"/.test(line)) process.stderr.write(`[worker ${child.pid}] ${line}\n`);
  });
  workers.push(child);
  return child;
}

async function rows<T>(q: ReturnType<typeof sql>): Promise<T[]> {
  return (await h.db.execute(q)) as unknown as T[];
}

beforeAll(async () => {
  const started = await startTestPostgres({ prefix: 'tokenpace-fault-pg-', portBase: 25000, portSpan: 1500 });
  pg = started.server;
  dataDir = started.dataDir;
  const u = new URL(pg.url);
  u.pathname = '/tokenpace_fault';
  url = u.toString();
  const admin = openDb(pg.url, 1);
  await admin.sql.unsafe('create database tokenpace_fault');
  await admin.close();
  await migrateDatabase(url);
  h = openDb(url, 3);
  const port = await startStreamingServer();
  await seedCatalog(h.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: port });
});

afterAll(async () => {
  await stopChildren(workers);
  server?.close();
  await h?.close();
  await pg?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

it('a worker killed mid-stream loses no slot and duplicates none: the slot is re-run by another worker', async () => {
  const a = startWorker();
  // Wait for A to hold a stream open.
  await expect.poll(() => openStreams, { timeout: 60_000, interval: 100 }).toBeGreaterThan(0);
  const aId = `${os.hostname()}:${a.pid}`;
  const [held] = await rows<{ job_key: string }>(sql`
    select s.job_key from probe_slots s left join measurements m on m.job_key = s.job_key
    where s.worker_id = ${aId} and m.id is null`);
  expect(held?.job_key).toBeTruthy();
  a.kill('SIGKILL');
  await new Promise((r) => a.once('exit', r));
  slow = false; // the re-run (and every later probe) completes quickly
  const b = startWorker();
  const bId = `${os.hostname()}:${b.pid}`;

  // The killed slot is measured in the end (by B, after pg-boss failed A's job on its missing heartbeat).
  await expect
    .poll(
      async () => {
        const [done] = await rows<{ n: number }>(sql`select count(*)::int as n from measurements where job_key = ${held!.job_key}`);
        return done!.n;
      },
      { timeout: 120_000, interval: 500 },
    )
    .toBe(1);

  // Every finished probe job has exactly one measurement, and no slot has two (nothing lost, nothing duplicated).
  const perSlot = await rows<{ job_key: string; state: string; measurements: number }>(sql`
    select j.data->>'jobKey' as job_key, j.state::text as state,
      (select count(*)::int from measurements m where m.job_key = j.data->>'jobKey') as measurements
    from pgboss.job j where j.name = 'probe-local'`);
  const finished = perSlot.filter((s) => s.state === 'completed');
  expect(finished.length).toBeGreaterThanOrEqual(1);
  expect(finished.filter((s) => s.measurements !== 1)).toEqual([]);
  expect(perSlot.filter((s) => s.measurements > 1)).toEqual([]);
  // The killed slot was failed by its missing job heartbeat and retried under the same job id, by B.
  const [claim] = await rows<{ worker_id: string }>(sql`select worker_id from probe_slots where job_key = ${held!.job_key}`);
  expect(claim!.worker_id).toBe(bId);
  const [job] = await rows<{ state: string; retry_count: number }>(
    sql`select state, retry_count from pgboss.job where name = 'probe-local' and data->>'jobKey' = ${held!.job_key}`,
  );
  expect(job).toMatchObject({ state: 'completed', retry_count: 1 });
  const [m] = await rows<{ outcome: string }>(sql`select outcome from measurements where job_key = ${held!.job_key}`);
  expect(m!.outcome).toBe('success');
}, 240_000);

it('Postgres stopped and started: 503 JSON while down, route handlers and the worker recover by themselves', async () => {
  process.env.DATABASE_URL = url;
  process.env.TOKENPACE_PUBLIC_RATE_LIMIT_PER_MINUTE = '0';
  getEnv(true);
  const health = await import('@/app/api/health/route');
  const endpointsRoute = await import('@/app/api/v1/endpoints/route');
  const callEndpoints = () => endpointsRoute.GET(new Request('http://localhost:3000/api/v1/endpoints'));
  expect((await health.GET()).status).toBe(200);
  expect((await callEndpoints()).status).toBe(200);
  const live = workers.filter((w) => w.exitCode === null && w.signalCode === null);
  expect(live.length).toBeGreaterThan(0);

  await pg.stop();
  const downHealth = await health.GET();
  expect(downHealth.status).toBe(503);
  expect(await downHealth.json()).toMatchObject({ ok: false, status: 'unavailable', database: { state: 'down' } });
  const down = await callEndpoints();
  expect(down.status).toBe(503);
  expect(down.headers.get('content-type')).toContain('application/json');
  expect(await down.json()).toMatchObject({ error: { code: 'unavailable' } });

  pg = await startEmbeddedPostgres({ dataDir, port: pg.port, database: 'tokenpace_fault', durability: 'test' });
  const back = Date.now();
  // Within 10 s of the return: the API answers again and a worker heartbeat lands.
  await expect.poll(async () => (await callEndpoints()).status, { timeout: 10_000, interval: 200 }).toBe(200);
  await expect
    .poll(
      async () => {
        const [r] = await rows<{ at: Date | null }>(sql`select max(last_heartbeat_at) as at from worker_heartbeats`);
        return r?.at ? new Date(r.at).getTime() > back : false;
      },
      { timeout: 10_000, interval: 200 },
    )
    .toBe(true);
  // And the worker still works its queues: a newly enqueued probe slot is measured.
  const before = (await rows<{ n: number }>(sql`select count(*)::int as n from measurements`))[0]!.n;
  const [calibration] = await h.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.isCalibration, true));
  expect(calibration).toBeTruthy();
  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: url, schema: 'pgboss', schedule: false, supervise: false });
  await boss.start();
  // The region's schedule trigger with a slot of its own (never scheduled before): no wait for a cron minute.
  await boss.send(scheduleProbesQueueName('local'), { region: 'local', slotStart: '2026-01-01T00:00:00.000Z' });
  await boss.stop({ graceful: false });
  await expect
    .poll(async () => (await rows<{ n: number }>(sql`select count(*)::int as n from measurements`))[0]!.n, { timeout: 60_000, interval: 500 })
    .toBeGreaterThan(before);
  expect(live.every((w) => w.exitCode === null && w.signalCode === null)).toBe(true); // recovered, not restarted
}, 180_000);
