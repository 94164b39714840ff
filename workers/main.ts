/**
 * Worker process entry: `npm run worker` (started by `tokenpace start`; run more of these on other
 * machines against the same DATABASE_URL to scale out). Registers schedules (data in ./schedule.ts)
 * and works the probe queue of this worker's region and the rollup queue. Kept separate from the
 * web process so page rendering never disturbs probe timing.
 */
import os from 'node:os';
import { openDb } from '@/db/client';
import { getEnv } from '@/lib/env';
import { warmUpProbeCore } from '@/lib/probe/warm-up';
import { createGuardedFetch } from '@/lib/security/ssrf-guard';
import { parseEncryptionKey } from '@/lib/security/secrets';
import { createBoss } from './boss';
import { createLoopDelayTracker } from './loop-delay';
import { RETENTION_QUEUE, ROLLUP_QUEUE, SCHEDULE_PROBES_QUEUE, probeJobPayloadSchema, probeQueueName, scheduleProbesPayloadSchema } from './queues';
import { SCHEDULES } from './schedule';
import { runProbeJob } from './tasks/probe-endpoint';
import { runRetentionJob } from './tasks/apply-retention';
import { runRollupJob } from './tasks/rollup-measurements';
import { registerSweepWork } from './tasks/run-sweep';
import { scheduleProbes } from './tasks/schedule-probes';
import { slotMinutesForCron } from '@/lib/probe/cadence';
import { getWorkerVersion } from './version';

const DEADLINES = { ttftMs: 30_000, idleMs: 15_000, totalMs: 120_000, maxBytes: 8 * 1024 * 1024 };

async function main(): Promise<void> {
  const env = getEnv();
  if (!env.DATABASE_URL) throw new Error('DATABASE_URL is required for the worker (tokenpace start sets it)');
  const region = env.TOKENPACE_WORKER_REGION;
  if (!/^[a-z0-9][a-z0-9-]*$/.test(region)) throw new Error(`TOKENPACE_WORKER_REGION: use lower-case letters, digits and '-' (got "${region}")`);
  const workerId = `${os.hostname()}:${process.pid}`;
  const { db, close } = openDb(env.DATABASE_URL, 12);
  const boss = createBoss(env.DATABASE_URL, { schedule: true, supervise: true });
  let stopping = false;
  // During shutdown Postgres may stop first (Ctrl-C reaches the whole process group): stay quiet then.
  boss.on('error', (err) => {
    if (!stopping) console.error(`[worker] pg-boss error: ${err.message}`);
  });
  await boss.start();

  const probeQueue = probeQueueName(region);
  await boss.createQueue(SCHEDULE_PROBES_QUEUE, { policy: 'standard' });
  await boss.createQueue(ROLLUP_QUEUE, { policy: 'singleton' });
  await boss.createQueue(RETENTION_QUEUE, { policy: 'singleton' });
  await boss.createQueue(probeQueue, { policy: 'standard', notify: true });
  for (const s of SCHEDULES) {
    const cron = s.cron({ probeCron: env.TOKENPACE_PROBE_CRON });
    if (s.perRegion) await boss.schedule(s.queue, cron, { region }, { key: region });
    else await boss.schedule(s.queue, cron, {});
  }

  // JIT-warm the parser, token counter and timing paths so the first real probes are not late.
  await warmUpProbeCore();
  const loopDelay = createLoopDelayTracker();
  const secretKey = env.TOKENPACE_SECRET_KEY ? parseEncryptionKey(env.TOKENPACE_SECRET_KEY) : null;
  // One guarded fetch per trust level, reused by every probe (each owns a pooled undici Agent).
  const publicFetch = createGuardedFetch({ allowPrivate: env.TOKENPACE_ALLOW_PRIVATE });
  const privateFetch = createGuardedFetch({ allowPrivate: true });
  const ctx = {
    db,
    workerId,
    workerVersion: getWorkerVersion(),
    createFetch: ({ allowPrivate }: { allowPrivate: boolean }) => (allowPrivate ? privateFetch : publicFetch),
    secretKey,
    loopDelay,
    maxLoopDelayMs: 50,
    deadlines: DEADLINES,
    now: () => new Date(),
  };

  await boss.work(SCHEDULE_PROBES_QUEUE, async (jobs) => {
    for (const job of jobs) {
      const payload = scheduleProbesPayloadSchema.parse(job.data);
      if (payload.region !== region) continue; // another region's firing; its own workers handle it
      const r = await scheduleProbes(db, boss, {
        region,
        now: new Date(),
        expireInSeconds: DEADLINES.totalMs / 1000 + 60,
        slotMinutes: slotMinutesForCron(env.TOKENPACE_PROBE_CRON),
        fidelityFraction: env.TOKENPACE_FIDELITY_FRACTION,
      });
      if (r.enqueued > 0) console.log(`[worker] scheduled ${r.enqueued} probes (${r.targets} targets) in ${region}`);
    }
  });
  await boss.work(probeQueue, { localConcurrency: 8, batchSize: 1, groupConcurrency: 1 }, async (jobs) => {
    for (const job of jobs) {
      const payload = probeJobPayloadSchema.parse(job.data);
      const r = await runProbeJob(ctx, job.id, payload, job.signal);
      if (r.status === 'recorded' && r.outcome === 'error') console.log(`[worker] ${payload.jobKey}: ${r.errorKind}`);
    }
  });
  await boss.work(ROLLUP_QUEUE, async () => {
    await runRollupJob(db, new Date());
  });
  await boss.work(RETENTION_QUEUE, async () => {
    const r = await runRetentionJob(db, new Date(), env.TOKENPACE_RAW_RETENTION_DAYS ?? null);
    if (r.days.length > 0) console.log(`[worker] retention: deleted ${r.deleted} raw measurements of ${r.days.join(', ')}`);
  });

  // Concurrency sweeps: opt-in per endpoint, one at a time per endpoint (workers/tasks/run-sweep.ts).
  await registerSweepWork(boss, { ...ctx, workerRegion: region });

  // Probe once right away so a fresh start shows data without waiting for the next cron minute.
  await boss.send(SCHEDULE_PROBES_QUEUE, { region });
  console.log(`[worker] ${workerId} ready (region ${region}, version ${ctx.workerVersion})`);

  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    // Postgres may already be going down with us (Ctrl-C reaches the whole process group); a
    // dropped connection while stopping is expected, not a crash worth a stack trace.
    const quietExit = () => process.exit(0);
    process.on('uncaughtException', quietExit);
    process.on('unhandledRejection', quietExit);
    await boss.stop({ graceful: true, timeout: 10_000 });
    loopDelay.stop();
    await close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  console.error(`[worker] fatal: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
