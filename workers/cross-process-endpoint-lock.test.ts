/**
 * One probe per endpoint at a time ACROSS worker processes (workers/endpoint-lock.ts, decision 141),
 * with two real `workers/main.ts` processes on one embedded Postgres and a real local HTTP server
 * that records, per endpoint, how many streams are open at every instant.
 *
 * The probe jobs are sent WITHOUT a pg-boss group: that is the worst case of the race the lock
 * exists for (two processes fetching jobs of one endpoint group at the same instant), made
 * certain instead of rare. Only the advisory lock keeps the two processes apart then (each
 * process's in-process chain only orders its own jobs).
 * 1. Jobs of two endpoints in both processes: never two open streams of one endpoint, while the
 *    two endpoints do stream at the same time.
 * 2. kill -9 of the process holding an endpoint's lock mid-stream: the other process (another
 *    region's worker), waiting for that lock, gets it (Postgres drops a dead session's locks) and probes.
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { eq, inArray, sql } from 'drizzle-orm';
import { PgBoss } from 'pg-boss';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { seedCatalog } from '@/db/seed';
import { endpoints, measurements, probeSlots, workloads } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { streamChatWords } from '@/lib/probe/test-support/chat-stream';
import { buildProbeJobKey, probeQueueName } from './queues';
import { spawnWorker } from './test-support/spawn-worker';
import { stopChildren } from './test-support/stop-children';

const REGION = 'local';
let t: TestDatabase;
let server: http.Server;
let boss: PgBoss;
let endpointA = 0;
let endpointB = 0;
let workloadId = 0;
const workers: ChildProcess[] = [];

/** Per endpoint ('a' | 'b'): streams open now, the most ever open at once, requests seen. */
const streams = {
  open: { a: 0, b: 0 },
  maxOpen: { a: 0, b: 0 },
  requests: { a: 0, b: 0 },
  /** Most endpoints with a stream open at the same instant. */
  maxEndpointsAtOnce: 0,
};
/** When true, the next stream of endpoint a trickles a word every 100 ms until its client goes away. */
let holdNextA = false;

function startRecordingServer(): Promise<number> {
  server = http.createServer((req, res) => {
    const key: 'a' | 'b' = req.url?.startsWith('/b/') ? 'b' : 'a';
    req.resume();
    req.on('end', () => {
      const hold = key === 'a' && holdNextA;
      if (hold) holdNextA = false;
      streams.requests[key] += 1;
      streams.open[key] += 1;
      streams.maxOpen[key] = Math.max(streams.maxOpen[key], streams.open[key]);
      streams.maxEndpointsAtOnce = Math.max(streams.maxEndpointsAtOnce, (streams.open.a > 0 ? 1 : 0) + (streams.open.b > 0 ? 1 : 0));
      // ~400 ms per stream: long enough that overlapping probes would surely be seen.
      streamChatWords(res, {
        word: (i) => (hold || i < 8 ? ` word${i}` : null),
        intervalMs: hold ? 100 : 50,
        usage: { completionTokens: 8 },
        onClose: () => (streams.open[key] -= 1),
      });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

interface Worker {
  child: ChildProcess;
  /** workers/main.ts's worker id (probe_slots.worker_id). */
  workerId: string;
  /** Structured log lines so far. */
  lines: string[];
}

function startWorker(region = REGION, extraArgs: string[] = []): Worker {
  const child = spawnWorker(t.url, { region, args: ['--heartbeat-seconds', '1', '--supervise-seconds', '2', ...extraArgs] });
  const w: Worker = { child, workerId: `${os.hostname()}:${child.pid}`, lines: [] };
  child.stdout?.on('data', (d) => {
    for (const line of String(d).split('\n')) {
      if (!line) continue;
      w.lines.push(line);
      if (/"level":"(warn|error|fatal)"/.test(line)) process.stderr.write(`[worker ${child.pid}] ${line}\n`);
    }
  });
  workers.push(child);
  return w;
}

async function waitForLog(w: Worker, msg: string, timeout = 60_000): Promise<void> {
  await expect.poll(() => w.lines.some((l) => l.includes(`"msg":"${msg}`)), { timeout, interval: 100 }).toBe(true);
}

let slotCounter = 0;
/**
 * Sends one probe job of `endpointId` for a slot of its own, without a pg-boss group, with the
 * scheduler's retry options (retryLimit 1; `retryDelay` s, 5 by default). Returns its job key.
 */
async function sendProbe(endpointId: number, region = REGION, retryDelay = 5): Promise<string> {
  const slotStart = new Date(Date.UTC(2026, 0, 1, 0, slotCounter++)).toISOString();
  const payload = { endpointId, workloadId, region, slotStart };
  const jobKey = buildProbeJobKey(payload);
  await boss.send(probeQueueName(region), { ...payload, jobKey }, { retryLimit: 1, retryDelay, expireInSeconds: 180 });
  return jobKey;
}

/** Waits until `w` logged `msg` or endpoint a got more than `requestsA` requests, whichever comes first. */
async function waitForLogOrRequest(w: Worker, msg: string, requestsA: number): Promise<void> {
  await expect.poll(() => w.lines.some((l) => l.includes(`"msg":"${msg}`)) || streams.requests.a > requestsA, { timeout: 30_000, interval: 50 }).toBe(true);
}

async function measuredKeys(keys: string[]): Promise<number> {
  const rows = await t.db.select({ jobKey: measurements.jobKey }).from(measurements).where(inArray(measurements.jobKey, keys));
  return rows.length;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const port = await startRecordingServer();
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: port });
  const [a] = await t.db.select().from(endpoints).where(eq(endpoints.isCalibration, true));
  endpointA = a!.id;
  const { id: _id, slug: _slug, createdAt: _c, updatedAt: _u, ...copy } = a!;
  const [b] = await t.db
    .insert(endpoints)
    .values({ ...copy, slug: 'lock-test-b', baseUrl: `http://127.0.0.1:${port}/b/v1` })
    .returning({ id: endpoints.id });
  endpointB = b!.id;
  // No scheduled probes: only the jobs this file sends run (the probe task does not look at status).
  await t.db.update(endpoints).set({ status: 'paused' });
  const [wl] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-100'));
  workloadId = wl!.id;
  boss = new PgBoss({ connectionString: t.url, schema: 'pgboss', schedule: false, supervise: false });
  boss.on('error', () => {});
  await boss.start();
}, 60_000);

// Every worker a test started is stopped when it ends, passed or failed: one left running would
// take the next test's jobs (a failed first test once made the next two fail).
afterEach(async () => {
  await stopChildren(workers);
});

afterAll(async () => {
  await stopChildren(workers);
  await boss?.stop({ graceful: false });
  server?.close();
  await t?.drop();
});

it('two worker processes never stream one endpoint twice at once, and stream two endpoints in parallel', async () => {
  const one = startWorker();
  const two = startWorker();
  try {
    await Promise.all([waitForLog(one, 'worker ready'), waitForLog(two, 'worker ready')]);

    const keysA: string[] = [];
    const keysB: string[] = [];
    for (let i = 0; i < 6; i++) {
      keysA.push(await sendProbe(endpointA));
      keysB.push(await sendProbe(endpointB));
    }
    await expect.poll(() => measuredKeys([...keysA, ...keysB]), { timeout: 60_000, interval: 200 }).toBe(12);
    // Both processes must have probed endpoint a, or the test did not exercise two processes on one
    // endpoint. pg-boss may hand one process every job of a round (it happened once on the
    // DATABASE_URL path): more rounds of a's jobs until each process has taken one (bounded).
    const workersOfA = async () =>
      new Set((await t.db.select({ workerId: probeSlots.workerId }).from(probeSlots).where(inArray(probeSlots.jobKey, keysA))).map((r) => r.workerId));
    for (let round = 0; round < 10 && (await workersOfA()).size < 2; round++) {
      for (let i = 0; i < 2; i++) keysA.push(await sendProbe(endpointA));
      await expect.poll(() => measuredKeys(keysA), { timeout: 60_000, interval: 200 }).toBe(keysA.length);
    }

    console.log(`[cross-process lock] streams: ${JSON.stringify(streams)}`);
    expect(streams.requests).toEqual({ a: keysA.length, b: keysB.length });
    // The property under test: at no instant two open streams of one endpoint.
    expect(streams.maxOpen).toEqual({ a: 1, b: 1 });
    // ...while different endpoints did stream at the same time.
    expect(streams.maxEndpointsAtOnce).toBe(2);
    expect(await workersOfA()).toEqual(new Set([one.workerId, two.workerId]));
    // The waits stayed out of the measurements: every probe read the server's own pace.
    const ok = (await t.db.execute(
      sql`select count(*)::int as n from measurements where outcome = 'success' and output_tokens_reported = 8`,
    )) as unknown as Array<{ n: number }>;
    expect(ok[0]!.n).toBe(keysA.length + keysB.length);
  } finally {
    // stopped whatever failed above: a process left running would take the next test's jobs
    await stopChildren([one.child, two.child]);
  }
}, 150_000);

/**
 * A worker that will hold endpoint a's lock: the server holds the next stream of a open, the
 * open-stream high-water mark of a starts again, and the worker is ready. Returns it and the
 * request counts before.
 */
async function startHolderOfA(): Promise<{ before: typeof streams.requests; holder: Worker }> {
  const before = { ...streams.requests };
  streams.maxOpen.a = 0;
  holdNextA = true;
  const holder = startWorker();
  await waitForLog(holder, 'worker ready');
  return { before, holder };
}

it('kill -9 of the process holding an endpoint lock lets the waiting process take it and probe', async () => {
  const { before, holder } = await startHolderOfA();
  const held = await sendProbe(endpointA);
  // The holder is mid-stream on endpoint a (and holds its advisory lock).
  await expect.poll(() => streams.open.a, { timeout: 30_000, interval: 50 }).toBe(1);

  // The waiter works another region's queue, so its job cannot land in the holder's process
  // (whose in-process chain would queue it there). The lock is per endpoint whatever the region:
  // every region's probes share the endpoint's capacity.
  const waiter = startWorker('second');
  await waitForLog(waiter, 'worker ready');
  const waiting = await sendProbe(endpointA, 'second');
  // The waiter fetched its job and is kept out while the holder streams (without the lock it
  // would stream at once: the request count says so before the log ever could).
  await waitForLogOrRequest(waiter, 'endpoint busy in another worker', before.a + 1);
  await new Promise((r) => setTimeout(r, 1_000));
  expect(streams.requests.a).toBe(before.a + 1);
  expect(streams.maxOpen.a).toBe(1);
  expect(waiter.lines.some((l) => l.includes('"msg":"endpoint busy in another worker'))).toBe(true);

  const killedAt = performance.now();
  holder.child.kill('SIGKILL');
  await expect.poll(() => streams.requests.a, { timeout: 15_000, interval: 20 }).toBe(before.a + 2);
  const takeOverMs = performance.now() - killedAt;
  console.log(`[cross-process lock] kill -9 to the waiter's request: ${takeOverMs.toFixed(0)} ms`);
  expect(streams.maxOpen.a).toBe(1);

  await expect.poll(() => measuredKeys([waiting]), { timeout: 30_000, interval: 200 }).toBe(1);
  const [slot] = await t.db.select({ workerId: probeSlots.workerId }).from(probeSlots).where(eq(probeSlots.jobKey, waiting));
  expect(slot!.workerId).toBe(waiter.workerId);
  const [m] = await t.db
    .select({ outcome: measurements.outcome, tokens: measurements.outputTokensReported })
    .from(measurements)
    .where(eq(measurements.jobKey, waiting));
  expect(m).toEqual({ outcome: 'success', tokens: 8 });
  // The holder died before writing: its slot has no measurement (pg-boss retries it in its region, decision 092).
  expect(await measuredKeys([held])).toBe(0);
  await stopChildren([waiter.child]);
}, 150_000);

it('a job that cannot get the lock within the bound fails for pg-boss to retry, then stays failed: never probed twice at once, never dropped silently', async () => {
  const { before, holder } = await startHolderOfA();
  await sendProbe(endpointA);
  await expect.poll(() => streams.open.a, { timeout: 30_000, interval: 50 }).toBe(1);

  const waiter = startWorker('third', ['--endpoint-lock-wait-seconds', '1']);
  await waitForLog(waiter, 'worker ready');
  const jobKey = await sendProbe(endpointA, 'third', 1);
  const jobState = async () => {
    const rows = (await t.db.execute(
      sql`select state, retry_count::int as "retryCount", output->>'message' as message from pgboss.job where name = ${probeQueueName('third')} and data->>'jobKey' = ${jobKey}`,
    )) as unknown as Array<{ state: string; retryCount: number; message: string | null }>;
    return rows[0];
  };
  // Two attempts (the first and pg-boss's one retry), each giving up after ~1 s: the job ends failed, with the reason.
  await expect.poll(async () => (await jobState())?.state, { timeout: 60_000, interval: 200 }).toBe('failed');
  const job = await jobState();
  expect(job?.retryCount).toBe(1);
  expect(job?.message).toMatch(new RegExp(`^endpoint ${endpointA} still busy after waiting \\d+ ms for its probe lock$`));
  const warnings = waiter.lines.filter((l) => l.includes('"msg":"endpoint still busy after the probe lock wait'));
  expect(warnings.map((l) => (JSON.parse(l) as { attempt: number }).attempt)).toEqual([1, 2]);
  // The endpoint was never asked by the waiter: only the holder's stream, and no measurement of the job.
  expect(streams.requests.a).toBe(before.a + 1);
  expect(streams.maxOpen.a).toBe(1);
  expect(await measuredKeys([jobKey])).toBe(0);

  holder.child.kill('SIGKILL');
  await stopChildren([waiter.child]);
}, 150_000);
