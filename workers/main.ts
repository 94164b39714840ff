/**
 * Worker process entry: `npm run worker` (started by `tokenpace start`; run more of these on other
 * machines against the same DATABASE_URL to scale out). Registers schedules (data in ./schedule.ts)
 * and works the probe queue of this worker's region and the rollup queue. Kept separate from the
 * web process so page rendering never disturbs probe timing.
 */
import os from 'node:os';
import { listenForDataChanges } from '@/db/cache-invalidation';
import { openDb } from '@/db/client';
import { getEnv } from '@/lib/env';
import { warmUpProbeCore, warmUpProbePath } from '@/lib/probe/warm-up';
import { createLoopDelayMonitor } from '@/lib/probe/loop-delay-monitor';
import { createGuardedFetch } from '@/lib/security/ssrf-guard';
import { parseEncryptionKey } from '@/lib/security/secrets';
import { isDatabaseUnavailableError } from '@/lib/observability/database-errors';
import { createLogger } from '@/lib/observability/logger';
import { createWorkerMetrics } from '@/lib/observability/metrics';
import { createBoss } from './boss';
import { createEndpointLock } from './endpoint-lock';
import { observeTask } from './observe';
import { runScheduledProbe } from './scheduled-probe';
import { startHeartbeat } from './heartbeat';
import { LEGACY_SCHEDULE_PROBES_QUEUE, RETENTION_QUEUE, ROLLUP_QUEUE, probeQueueName, scheduleProbesPayloadSchema, scheduleProbesQueueName } from './queues';
import { SCHEDULES } from './schedule';
import { runRetentionJob } from './tasks/apply-retention';
import { runRollupJob } from './tasks/rollup-measurements';
import { registerSweepWork } from './tasks/run-sweep';
import { scheduleProbes } from './tasks/schedule-probes';
import { runWriteDumpJob, WRITE_DUMP_QUEUE } from './tasks/write-dump';
import { PRECOMPUTE_ANSWERS_QUEUE, registerPrecomputeWork } from './tasks/precompute-answers';
import { slotMinutesForCron } from '@/lib/probe/cadence';
import { createPromptBuilder } from '@/lib/probe/prompt-builder';
import { getWorkerVersion } from './version';

const DEADLINES = { ttftMs: 30_000, idleMs: 15_000, totalMs: 120_000, maxBytes: 8 * 1024 * 1024 };
/** pg-boss job heartbeat of probe jobs (s, pg-boss minimum 10): a killed worker's probe is failed and retried after this. */
const PROBE_JOB_HEARTBEAT_SECONDS = 10;
/** pg-boss expiry of a probe job (s): a whole probe (totalMs) plus a minute for the prompt, the writes and the endpoint lock. */
const PROBE_JOB_EXPIRE_SECONDS = DEADLINES.totalMs / 1000 + 60;
/**
 * Longest wait for an endpoint's probe lock (s, workers/endpoint-lock.ts): what the job's expiry
 * leaves after a whole probe and 15 s for prompt and writes (45 s), so a job that waited still
 * finishes before pg-boss would expire it. Past it the job fails and pg-boss retries it (retryLimit 1).
 */
const ENDPOINT_LOCK_WAIT_SECONDS = PROBE_JOB_EXPIRE_SECONDS - DEADLINES.totalMs / 1000 - 15;
const log = createLogger('worker');

/**
 * Timing knobs from the command line (tests shorten them): `--heartbeat-seconds N` (worker row,
 * default 15), `--supervise-seconds N` (pg-boss supervisor pass, default 10) and
 * `--endpoint-lock-wait-seconds N` (bound of the wait for an endpoint's probe lock, default 45).
 */
function readTimingArgs(argv: string[]): { heartbeatSeconds: number; superviseSeconds: number; endpointLockWaitSeconds: number } {
  const num = (flag: string, fallback: number) => {
    const i = argv.indexOf(flag);
    if (i < 0) return fallback;
    const v = Number(argv[i + 1]);
    if (!Number.isFinite(v) || v < 1 || v > 3600) throw new Error(`${flag}: expected seconds between 1 and 3600 (got "${argv[i + 1]}")`);
    return v;
  };
  return {
    heartbeatSeconds: num('--heartbeat-seconds', 15),
    superviseSeconds: num('--supervise-seconds', 10),
    endpointLockWaitSeconds: num('--endpoint-lock-wait-seconds', ENDPOINT_LOCK_WAIT_SECONDS),
  };
}

async function main(): Promise<void> {
  const env = getEnv();
  if (!env.DATABASE_URL) throw new Error('DATABASE_URL is required for the worker (tokenpace start sets it)');
  const region = env.TOKENPACE_WORKER_REGION;
  if (!/^[a-z0-9][a-z0-9-]*$/.test(region)) throw new Error(`TOKENPACE_WORKER_REGION: use lower-case letters, digits and '-' (got "${region}")`);
  const timing = readTimingArgs(process.argv.slice(2));
  const workerId = `${os.hostname()}:${process.pid}`;
  const startedAt = new Date();
  const metrics = createWorkerMetrics({ workerId, region });
  const { db, sql: client, close } = openDb(env.DATABASE_URL, 12);
  // Another worker's rollup changes the data under this worker's window caches (the precompute job
  // reads them): drop them on its NOTIFY, as web instances do (db/cache-invalidation).
  listenForDataChanges(db, client);
  const boss = createBoss(env.DATABASE_URL, { schedule: true, supervise: true, superviseSeconds: timing.superviseSeconds });
  let stopping = false;
  // During shutdown Postgres may stop first (Ctrl-C reaches the whole process group): stay quiet then.
  // While Postgres restarts, pg-boss reports each failed poll: one line per kind of trouble is enough.
  let lastBossError = '';
  boss.on('error', (err) => {
    if (stopping) return;
    const unavailable = isDatabaseUnavailableError(err);
    const key = unavailable ? 'unavailable' : err.message;
    if (key !== lastBossError) log.error({ err: err.message, databaseUnavailable: unavailable }, 'pg-boss error');
    lastBossError = key;
  });
  // A connection dropped by a Postgres restart can surface as a rejection nobody awaits: the worker
  // keeps going and reconnects; anything else is a bug, and crash-only is the honest answer.
  process.on('unhandledRejection', (reason) => {
    if (stopping || isDatabaseUnavailableError(reason)) return;
    log.fatal({ err: reason instanceof Error ? reason.stack : String(reason) }, 'unhandled rejection');
    process.exit(1);
  });
  await boss.start();

  const probeQueue = probeQueueName(region);
  const scheduleQueue = scheduleProbesQueueName(region);
  // Policy `short`: at most one firing waits. A region whose workers are all gone keeps one waiting
  // firing (what /api/health reports), not a pile; a live worker always schedules the current slot.
  await boss.createQueue(scheduleQueue, { policy: 'short', notify: true });
  await boss.createQueue(ROLLUP_QUEUE, { policy: 'singleton' });
  await boss.createQueue(RETENTION_QUEUE, { policy: 'singleton' });
  await boss.createQueue(WRITE_DUMP_QUEUE, { policy: 'singleton' });
  await boss.createQueue(PRECOMPUTE_ANSWERS_QUEUE, { policy: 'stately' });
  await boss.createQueue(probeQueue, { policy: 'standard', notify: true, heartbeatSeconds: PROBE_JOB_HEARTBEAT_SECONDS });
  // Queues made before job heartbeats existed get them too: a killed worker's probe job is then
  // failed by the supervisor within seconds and retried (same job id, so the slot claim lets the
  // retry run and the unique job_key keeps one measurement), instead of waiting out its expiry.
  await boss.updateQueue(probeQueue, { heartbeatSeconds: PROBE_JOB_HEARTBEAT_SECONDS });
  for (const s of SCHEDULES) {
    const cron = s.cron({ probeCron: env.TOKENPACE_PROBE_CRON });
    await boss.schedule(s.queue(region), cron, s.perRegion ? { region } : {});
  }
  // Schedules of the old shared queue (one per region, keyed by region) fire into a queue that no
  // worker of this version works: remove them all, whichever region made them (decision 250).
  if (await boss.getQueue(LEGACY_SCHEDULE_PROBES_QUEUE)) {
    for (const legacy of await boss.getSchedules(LEGACY_SCHEDULE_PROBES_QUEUE)) await boss.unschedule(LEGACY_SCHEDULE_PROBES_QUEUE, legacy.key);
  }

  // JIT-warm the parser, token counter and timing paths so the first real probes are not late.
  await warmUpProbeCore();
  // ...and the HTTP side (fetch, body write, read stamps) on a throw-away loopback server (decision 150).
  await warmUpProbePath();
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
    monitorLoopDelay: () => createLoopDelayMonitor(),
    deadlines: DEADLINES,
    now: () => new Date(),
    // Long prompts (~10k/~100k tokens) are built on a thread: building them here would stall the loop under other probes.
    promptBuilder: createPromptBuilder((reason) => console.error(`[worker] prompt thread unavailable, building prompts in-process: ${reason}`)),
  };

  await boss.work(scheduleQueue, observeTask(metrics, 'schedule-probes', async (jobs) => {
    let last: Awaited<ReturnType<typeof scheduleProbes>> | undefined;
    for (const job of jobs) {
      const payload = scheduleProbesPayloadSchema.parse(job.data);
      // This queue is this region's alone: another region's payload here is a bug, not a firing to drop.
      if (payload.region !== region) throw new Error(`schedule job for region "${payload.region}" in the queue of region "${region}"`);
      const r = await scheduleProbes(db, boss, {
        region,
        now: payload.slotStart ? new Date(payload.slotStart) : new Date(),
        expireInSeconds: PROBE_JOB_EXPIRE_SECONDS,
        slotMinutes: slotMinutesForCron(env.TOKENPACE_PROBE_CRON),
        fidelityFraction: env.TOKENPACE_FIDELITY_FRACTION,
      });
      if (r.enqueued > 0) log.info({ enqueued: r.enqueued, targets: r.targets, region }, 'scheduled probes');
      last = r;
    }
    return last; // the job's output in pgboss.job: what this firing enqueued
  }));
  // notifyPollingIntervalSeconds: a finished probe does not NOTIFY, so the next job of the same
  // endpoint group (group concurrency 1) waits for the backstop poll; pg-boss's default of 30 s
  // let a calibration endpoint with 16 probes per slot fall behind (issue 14's grid).
  // One probe per endpoint at a time, in this process and across every worker on this database
  // (workers/endpoint-lock.ts says why groupConcurrency is not enough; decision 141). Its own
  // connection, outside the pool: it holds session advisory locks for whole probes.
  const endpointLock = createEndpointLock({
    url: env.DATABASE_URL,
    waitMs: timing.endpointLockWaitSeconds * 1000,
    onBusy: (endpointId) => log.info({ endpointId }, 'endpoint busy in another worker: waiting for its probe lock'),
    onReleaseProblem: (endpointId, problem) => log.warn({ endpointId, problem }, 'endpoint probe lock release'),
  });
  await boss.work(probeQueue, { localConcurrency: 8, batchSize: 1, groupConcurrency: 1, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 }, async (jobs) => {
    // batchSize 1: the one result becomes the job's output in pgboss.job (e.g. skipped: endpoint-sweeping).
    let last: Awaited<ReturnType<typeof runScheduledProbe>> | undefined;
    for (const job of jobs) last = await runScheduledProbe({ ctx, endpointLock, metrics, log }, job);
    return last;
  });
  await boss.work(ROLLUP_QUEUE, observeTask(metrics, 'rollup', async () => {
    await runRollupJob(db, new Date());
    // Rollups advanced (or late data landed): recompute the most-read answers once (decision 120).
    await boss.send(PRECOMPUTE_ANSWERS_QUEUE, {});
  }));
  await registerPrecomputeWork(boss, db, metrics);
  await boss.work(RETENTION_QUEUE, observeTask(metrics, 'retention', async () => {
    const r = await runRetentionJob(db, new Date(), env.TOKENPACE_RAW_RETENTION_DAYS ?? null);
    if (r.days.length > 0) log.info({ deleted: r.deleted, days: r.days }, 'retention applied');
  }));
  await boss.work(WRITE_DUMP_QUEUE, observeTask(metrics, 'write-dump', async () => {
    const r = await runWriteDumpJob(db, new Date());
    if (r.created) log.info({ dumpId: r.dump.id, from: r.dump.fromAt.toISOString(), rows: r.dump.rows, bytes: r.dump.bytes, sha256: r.dump.sha256 }, 'weekly dump written');
  }));

  // Concurrency sweeps: opt-in per endpoint, one at a time per endpoint (workers/tasks/run-sweep.ts).
  // A sweep holds the same endpoint lock for its whole run; probes of that endpoint step aside
  // meanwhile (decision 142). Same lock instance: one lock connection per process, and the
  // in-process layer keeps this process's probes and sweeps of one endpoint apart.
  await registerSweepWork(boss, { ...ctx, workerRegion: region, endpointLock });

  // Probe once right away so a fresh start shows data without waiting for the next cron minute.
  await boss.send(scheduleQueue, { region });
  // The last complete week's dump (a no-op when it exists), so the first start publishes one.
  await boss.send(WRITE_DUMP_QUEUE, {});
  const heartbeat = startHeartbeat(
    db,
    { workerId, pid: process.pid, host: os.hostname(), region, version: ctx.workerVersion, startedAt },
    { intervalMs: timing.heartbeatSeconds * 1000, metrics: metrics.toJson, log },
  );
  await heartbeat.beat();
  log.info({ workerId, region, version: ctx.workerVersion }, 'worker ready');

  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    // Postgres may already be going down with us (Ctrl-C reaches the whole process group); a
    // dropped connection while stopping is expected, not a crash worth a stack trace.
    const quietExit = () => process.exit(0);
    process.on('uncaughtException', quietExit);
    process.on('unhandledRejection', quietExit);
    await boss.stop({ graceful: true, timeout: 10_000 });
    await endpointLock.close();
    await heartbeat.stop();
    await ctx.promptBuilder.close();
    await close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  log.fatal({ err: err instanceof Error ? err.message : String(err) }, 'worker failed to start');
  process.exit(1);
});
