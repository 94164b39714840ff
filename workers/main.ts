/**
 * Worker process entry: `npm run worker` (role probe) and `npm run worker:jobs` (role jobs), both
 * started and supervised by `tokenpace start`; run more of either on other machines against the same
 * DATABASE_URL to scale out. `--role probe` times probes and does nothing else (its region's
 * schedule fan-out, probe jobs, sweeps); `--role jobs` runs rollups, answer precompute, retention,
 * dumps and sweep dispatch, so no heavy work shares the probe's clock (docs/decisions/251). Which
 * queues, schedules and handlers a role has is data: workers/tasks/index.ts (decision 252).
 * `--once`: run what is queued now (plus the at-start jobs) and exit (workers/run-tasks.ts drainOnce).
 */
import { raiseProbePriority } from '../lib/probe/probe-priority';
import os from 'node:os';
import { listenForDataChanges } from '@/server/cache-invalidation';
import { openDb } from '@/db/client';
import { getEnv } from '@/lib/env';
import { settleHeap } from '@/lib/probe/settle-heap';
import { warmUpProbeCore, warmUpProbePath } from '@/lib/probe/warm-up';
import { createLoopDelayMonitor } from '@/lib/probe/loop-delay-monitor';
import { createGuardedFetch } from '@/lib/security/ssrf-guard';
import { parseEncryptionKey } from '@/lib/security/secrets';
import { isDatabaseUnavailableError } from '@/lib/observability/database-errors';
import { createLogger } from '@/lib/observability/logger';
import { createWorkerMetrics } from '@/lib/observability/metrics';
import { createPromptBuilder } from '@/lib/probe/prompt-builder';
import { PROBE_DEADLINES, PROBE_JOB_EXPIRE_SECONDS } from '@/lib/probe/probe-deadlines';
import { LEGACY_SCHEDULE_PROBES_QUEUE } from '@/lib/queues';
import { createBoss } from './boss';
import { createEndpointLock } from './endpoint-lock';
import { startHeartbeat } from './heartbeat';
import { drainOnce, startTasks, type DrainReport } from './run-tasks';
import { WORKER_ROLES, type ProbeRoleDeps, type TaskDeps, type WorkerRole } from './task';
import { JOBS_TASKS, PROBE_TASKS } from './tasks/index';
import { getWorkerVersion } from './version';

/**
 * Longest wait for an endpoint's probe lock (s, workers/endpoint-lock.ts): what the job's expiry
 * leaves after a whole probe and 15 s for prompt and writes (45 s), so a job that waited still
 * finishes before pg-boss would expire it. Past it the job fails and pg-boss retries it (retryLimit 1).
 */
const ENDPOINT_LOCK_WAIT_SECONDS = PROBE_JOB_EXPIRE_SECONDS - PROBE_DEADLINES.totalMs / 1000 - 15;
const log = createLogger('worker');

/**
 * Command line: `--role probe|jobs` (default probe), `--once`, and timing knobs (tests shorten
 * them): `--heartbeat-seconds N` (worker row, default 15), `--supervise-seconds N` (pg-boss
 * supervisor pass, default 10) and `--endpoint-lock-wait-seconds N` (bound of the wait for an
 * endpoint's probe lock, default 45).
 */
export function readWorkerArgs(argv: string[]): {
  role: WorkerRole;
  once: boolean;
  heartbeatSeconds: number;
  superviseSeconds: number;
  endpointLockWaitSeconds: number;
} {
  const num = (flag: string, fallback: number) => {
    const i = argv.indexOf(flag);
    if (i < 0) return fallback;
    const v = Number(argv[i + 1]);
    if (!Number.isFinite(v) || v < 1 || v > 3600) throw new Error(`${flag}: expected seconds between 1 and 3600 (got "${argv[i + 1]}")`);
    return v;
  };
  const r = argv.indexOf('--role');
  const role = r < 0 ? 'probe' : argv[r + 1];
  if (!WORKER_ROLES.includes(role as WorkerRole)) throw new Error(`--role: expected one of ${WORKER_ROLES.join(', ')} (got "${role}")`);
  return {
    role: role as WorkerRole,
    once: argv.includes('--once'),
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
  const args = readWorkerArgs(process.argv.slice(2));
  const { role } = args;
  const workerId = `${os.hostname()}:${process.pid}`;
  const startedAt = new Date();
  const metrics = createWorkerMetrics({ workerId, region });
  const { db, sql: client, close } = openDb(env.DATABASE_URL, role === 'probe' ? 12 : 6);
  // The jobs process follows the data version as web instances do (server/cache-invalidation), so
  // whatever it answers from the answer cache (dumps, checks) moves with other processes' changes.
  if (role === 'jobs') listenForDataChanges(db, client);
  const boss = createBoss(env.DATABASE_URL, { schedule: true, supervise: true, superviseSeconds: args.superviseSeconds });
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
  const version = getWorkerVersion();
  const base: TaskDeps = { db, boss, region, env, log, metrics, now: () => new Date() };
  const closers: Array<() => Promise<void>> = [];

  // Each role's tasks from the list (workers/tasks/index.ts); `--once` drains what is queued and exits.
  let report: DrainReport | null = null;
  if (role === 'probe') {
    // Before the probe pool's threads start: they inherit this thread's nice value (decision 184).
    const priority = raiseProbePriority(env.TOKENPACE_PROBE_NICE);
    log.info({ nice: priority.nice, raised: priority.raised, note: priority.note }, 'probe priority');
    // JIT-warm the parser, token counter and timing paths so the first real probes are not late.
    await warmUpProbeCore();
    // ...and the HTTP side (fetch, body write, read stamps) on a throw-away loopback server (decision 150).
    await warmUpProbePath();
    // One full collection of what start-up left, before any probe is timed (decision 185).
    settleHeap();
    const secretKey = env.TOKENPACE_SECRET_KEY ? parseEncryptionKey(env.TOKENPACE_SECRET_KEY) : null;
    // One guarded fetch per trust level, reused by every probe (each owns a pooled undici Agent).
    const publicFetch = createGuardedFetch({ allowPrivate: env.TOKENPACE_ALLOW_PRIVATE });
    const privateFetch = createGuardedFetch({ allowPrivate: true });
    const probe = {
      db,
      workerId,
      workerVersion: version,
      createFetch: ({ allowPrivate }: { allowPrivate: boolean }) => (allowPrivate ? privateFetch : publicFetch),
      secretKey,
      monitorLoopDelay: () => createLoopDelayMonitor(),
      deadlines: PROBE_DEADLINES,
      now: () => new Date(),
      // Long prompts (~10k/~100k tokens) are built on a thread: building them here would stall the loop under other probes.
      promptBuilder: createPromptBuilder((reason) => console.error(`[worker] prompt thread unavailable, building prompts in-process: ${reason}`)),
    };
    // One probe per endpoint at a time, in this process and across every worker on this database
    // (workers/endpoint-lock.ts says why groupConcurrency is not enough; decision 141). Its own
    // connection, outside the pool: it holds session advisory locks for whole probes. Sweeps hold
    // the same lock (decision 142): one lock connection per process.
    const endpointLock = createEndpointLock({
      url: env.DATABASE_URL,
      waitMs: args.endpointLockWaitSeconds * 1000,
      onBusy: (endpointId) => log.info({ endpointId }, 'endpoint busy in another worker: waiting for its probe lock'),
      onReleaseProblem: (endpointId, problem) => log.warn({ endpointId, problem }, 'endpoint probe lock release'),
    });
    closers.push(
      () => endpointLock.close(),
      () => probe.promptBuilder.close(),
    );
    const deps: ProbeRoleDeps = {
      ...base,
      probe,
      endpointLock,
      sweep: { ...probe, workerRegion: region, endpointLock },
      probeJobExpireSeconds: PROBE_JOB_EXPIRE_SECONDS,
    };
    // Schedules of the old shared queue (one per region, keyed by region) fire into a queue that no
    // worker of this version works: remove them all, whichever region made them (decision 250).
    if (await boss.getQueue(LEGACY_SCHEDULE_PROBES_QUEUE)) {
      for (const legacy of await boss.getSchedules(LEGACY_SCHEDULE_PROBES_QUEUE)) await boss.unschedule(LEGACY_SCHEDULE_PROBES_QUEUE, legacy.key);
    }
    await startTasks(boss, PROBE_TASKS, deps, { work: !args.once });
    if (args.once) report = await drainOnce(boss, PROBE_TASKS, deps);
  } else {
    await startTasks(boss, JOBS_TASKS, base, { work: !args.once });
    if (args.once) report = await drainOnce(boss, JOBS_TASKS, base);
  }

  const heartbeat = startHeartbeat(
    db,
    { workerId, pid: process.pid, host: os.hostname(), region, role, version, startedAt },
    { intervalMs: args.heartbeatSeconds * 1000, metrics: metrics.toJson, log },
  );
  await heartbeat.beat();

  const shutdown = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    // Postgres may already be going down with us (Ctrl-C reaches the whole process group); a
    // dropped connection while stopping is expected, not a crash worth a stack trace.
    const quietExit = () => process.exit(code);
    process.on('uncaughtException', quietExit);
    process.on('unhandledRejection', quietExit);
    await boss.stop({ graceful: true, timeout: 10_000 });
    for (const c of closers) await c();
    await heartbeat.stop();
    await close();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  if (report) {
    log.info({ role, region, report }, 'drained once');
    await shutdown();
    return;
  }
  log.info({ workerId, region, role, version }, 'worker ready');
}

main().catch((err: unknown) => {
  log.fatal({ err: err instanceof Error ? err.message : String(err) }, 'worker failed to start');
  process.exit(1);
});
