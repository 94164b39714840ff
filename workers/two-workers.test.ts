/**
 * Two worker processes on one database never run the same probe slot twice: the scheduler's
 * deterministic job ids collapse duplicate enqueues, and the slot claim table stops duplicate jobs
 * (even ones with different pg-boss ids) from probing. A real local HTTP server counts requests.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnWorker } from './test-support/spawn-worker';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedCatalog } from '@/db/seed';
import { endpoints, workloads } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { isFamilyWorkload } from '@/lib/probe/workloads';
import { streamChatWords } from '@/lib/probe/test-support/chat-stream';
import { buildProbeJobKey, probeQueueName } from './queues';
import { eq } from 'drizzle-orm';

let t: TestDatabase;
let server: http.Server;
let requests = 0;
const workers: ChildProcess[] = [];

/** Minimal OpenAI-compatible stream: role chunk, 5 one-word chunks, usage, [DONE]. */
function startCountingServer(): Promise<number> {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests += 1;
      streamChatWords(res, { word: (i) => (i < 5 ? ` word${i}` : null), intervalMs: 5, usage: { completionTokens: 5 } });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function startWorker(): ChildProcess {
  const child = spawnWorker(t.url);
  workers.push(child);
  return child;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const port = await startCountingServer();
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: port });
});

afterAll(async () => {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.exitCode !== null) return resolve();
          w.once('exit', () => resolve());
          w.kill('SIGTERM');
        }),
    ),
  );
  server?.close();
  await t?.drop();
});

it('runs each probe slot exactly once across two worker processes, even with duplicate jobs', async () => {
  // Pre-enqueue three jobs with DIFFERENT pg-boss ids for one slot: only one may probe.
  const boss = new PgBoss({ connectionString: t.url, schema: 'pgboss', schedule: false, supervise: false });
  await boss.start();
  await boss.createQueue(probeQueueName('local'), { policy: 'standard' });
  const [calibration] = await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.isCalibration, true));
  const [workload] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-100'));
  const slotStart = '2026-01-01T00:00:00.000Z';
  const payload = { endpointId: calibration!.id, workloadId: workload!.id, region: 'local', slotStart };
  const dupKey = buildProbeJobKey(payload);
  for (let i = 0; i < 3; i++) await boss.send(probeQueueName('local'), { ...payload, jobKey: dupKey });
  await boss.stop({ graceful: false });

  startWorker();
  startWorker();
  // the grid: every slot on the calibration endpoint (the prompt-cache pair only at its own phase, lib/probe/cadence)
  const scheduled = SEED_WORKLOADS.filter((w) => w.scheduled && !isFamilyWorkload(w.slug)).length;
  // Wait until both startup ticks and the duplicate jobs are fully processed.
  await expect
    .poll(
      async () => {
        const [pending] = (await t.db.execute(
          sql`select count(*)::int as n from pgboss.job where name like 'probe-%' and state in ('created', 'retry', 'active')`,
        )) as unknown as Array<{ n: number }>;
        const [m] = (await t.db.execute(sql`select count(*)::int as n from measurements`)) as unknown as Array<{ n: number }>;
        return pending!.n === 0 && m!.n >= scheduled + 1;
      },
      { timeout: 45_000, interval: 250 },
    )
    .toBe(true);

  const rows = (await t.db.execute(sql`select job_key, count(*)::int as n from measurements group by job_key`)) as unknown as Array<{
    job_key: string;
    n: number;
  }>;
  const total = rows.reduce((s, r) => s + r.n, 0);
  expect(rows.every((r) => r.n === 1)).toBe(true);
  expect(rows.find((r) => r.job_key === dupKey)?.n).toBe(1);
  // Every measurement came from exactly one HTTP request: no slot was probed twice.
  expect(requests).toBe(total);
  // At least the startup slot of every scheduled workload, plus the duplicated slot.
  expect(total).toBeGreaterThanOrEqual(scheduled + 1);
  const [ok] = (await t.db.execute(
    sql`select count(*)::int as n from measurements where outcome = 'success' and output_tokens_reported = 5`,
  )) as unknown as Array<{ n: number }>;
  expect(ok!.n).toBe(total);
}, 90_000);
