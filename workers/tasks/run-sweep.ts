/**
 * Task: run-sweep (one job per requested sweep; on demand, plus a dispatcher every minute that
 * re-sends jobs for sweeps still queued and fails sweeps whose worker died).
 *
 * A sweep runs only on an approved (active) endpoint whose owner consented and whose limits an
 * admin consented to for its current URL (lib/sweep/sweep-consent, decision 160), checked when the
 * sweep is queued, claimed and again before every level: withdrawing consent stops it after the
 * current level. Failures back off and stop the sweep (lib/sweep/run-sweep); the sweep's requests
 * are bounded (`maxRequests`) and so are its rows (all successes, at most
 * MAX_FAILED_STREAM_ROWS_PER_LEVEL failed streams per level, the rest counted). Its streams run on
 * probe threads, never on the loop that times this worker's scheduled probes. One sweep per endpoint at a time across all workers: the partial unique
 * index on sweeps (queued|running) and the row-locked claim (queued → running) make that hold
 * whatever pg-boss delivers twice. Each level is run by lib/sweep (the probe is a black box,
 * through the same SSRF-guarded fetch as probes); the level's figures and every stream's evidence
 * (timeline encoded like a measurement's) are stored in one transaction as the level ends.
 * The API key is decrypted here and nowhere else, and never logged.
 *
 * Sweeps and scheduled probes of one endpoint never overlap (decision 142): the levels run while
 * this worker holds the endpoint lock of workers/endpoint-lock.ts (`runSweep`), taken after the
 * claim. It first raises the endpoint's sweep marker, from which on probes of the endpoint in every
 * worker are skipped (workers/scheduled-probe.ts), then waits for a probe already streaming to end.
 * That wait is bounded (`endpointLockWaitMs`, default the probe deadline + 60 s): past it the sweep
 * is FAILED, not re-queued, with the reason in error_message — a probe never legitimately holds an
 * endpoint that long, so something is stuck, and a re-queued sweep would keep trying every minute
 * (the dispatcher) without its owner knowing; the owner can request it again.
 */
import { randomBytes } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import type { Db } from '@/db/client';
import { getProbeSpec } from '@/db/queries/probe-targets';
import {
  claimSweep,
  failStaleSweeps,
  finishSweep,
  getSweepConsentVerdict,
  insertSweepLevel,
  listQueuedSweepIds,
  updateSweepProgress,
  getWorkloadIdBySlug,
  type NewSweepStream,
} from '@/db/queries/sweeps';
import { resolveEndpointApiKey } from './endpoint-credentials';
import { createProbePool, defaultProbeThreads, SWEEP_THREAD_NICENESS, type ProbePool } from '@/lib/probe/probe-pool';
import { redactStoredStrings } from '@/lib/probe/redact';
import { encodeTimeline } from '@/lib/probe/timeline-codec';
import type { ProbeRequest } from '@/lib/probe/types';
import { buildPrompt, getWorkloadOrThrow, HEADLINE_WORKLOAD_SLUG } from '@/lib/probe/workloads';
import { DEFAULT_MAX_SWEEP_REQUESTS, runSweep, type SweepLevelResult } from '@/lib/sweep/run-sweep';
import { RUN_SWEEP_QUEUE, runSweepPayloadSchema, sweepJobOptions, type RunSweepPayload } from '@/lib/sweep/sweep-jobs';
import { QUEUES } from '@/lib/queues';
import { EndpointLockTimeoutError } from '../endpoint-lock';
import type { ProbeRoleTask } from '../task';
import type { SweepTaskContext } from './sweep-task-context';

export { RUN_SWEEP_QUEUE };
import type { SweepStream } from '@/lib/sweep/summarize-level';

/** Queue of the dispatcher (cron, every minute; workers/tasks/dispatch-sweeps.ts). */
export const DISPATCH_SWEEPS_QUEUE = QUEUES.dispatchSweeps;
/** A running sweep whose worker has not finished it after this long is failed (ms). */
export const STALE_SWEEP_MS = 3 * 60 * 60 * 1000;
/**
 * Failed streams of one level stored as sweep_streams rows; further failures are only counted
 * (the level's errorKinds, streams and failedStreamsNotStored). Successful streams are all stored:
 * they are bounded by the sweep's request budget. Decision 160.
 */
export const MAX_FAILED_STREAM_ROWS_PER_LEVEL = 10;

export type { SweepTaskContext };

export type SweepTaskResult =
  | { status: 'skipped'; reason: 'not-queued' | 'gone' }
  | { status: 'completed' | 'stopped' | 'cancelled' | 'failed'; levels: number; stopReason: string | null };

/** Runs one sweep job. Never throws for endpoint failures; a database error marks the sweep failed and rethrows. */
export async function runSweepJob(ctx: SweepTaskContext, payload: RunSweepPayload, signal?: AbortSignal): Promise<SweepTaskResult> {
  const sweep = await claimSweep(ctx.db, { sweepId: payload.sweepId, workerRegion: ctx.workerRegion, workerVersion: ctx.workerVersion, now: ctx.now() });
  if (!sweep) return { status: 'skipped', reason: 'not-queued' };
  let pool: ProbePool | null = null;
  try {
    const workload = getWorkloadOrThrow(HEADLINE_WORKLOAD_SLUG);
    const workloadId = await getWorkloadIdBySlug(ctx.db, workload.slug);
    const spec = workloadId === null ? null : await getProbeSpec(ctx.db, sweep.endpointId, workloadId);
    if (!spec) {
      await finishSweep(ctx.db, {
        sweepId: sweep.id,
        status: 'failed',
        stopReason: null,
        stoppedAtConcurrency: null,
        errorMessage: 'endpoint or workload gone',
        now: ctx.now(),
      });
      return { status: 'skipped', reason: 'gone' };
    }
    const { endpoint } = spec;
    const apiKey = resolveEndpointApiKey(endpoint, ctx.secretKey, spec.operatorCredentials);
    // One prompt for the whole sweep (the headline workload's, keyed by the sweep): every stream
    // asks the same question, so levels differ only in concurrency.
    // Keyed by 128 secret random bits too (decision 173): a sweep's prompt is not predictable from its id.
    const { prompt } = buildPrompt(workload, `sweep:${sweep.id}:${randomBytes(16).toString('hex')}`);
    const request: Omit<ProbeRequest, 'signal' | 'onProgress'> = {
      protocol: endpoint.protocol,
      url: endpoint.baseUrl,
      model: endpoint.apiModelId,
      apiKey,
      prompt,
      maxOutputTokens: sweep.maxOutputTokens,
      deadlines: ctx.deadlines,
      fetch: ctx.createFetch({ allowPrivate: endpoint.allowPrivate }),
      extraHeaders: endpoint.probeHeaders,
      serviceTier: endpoint.serviceTier,
    };

    // Every sweep runs on probe threads (decisions 150, 160): its streams are stamped by loops of
    // their own, and the scheduled probes this worker runs meanwhile keep an unloaded main loop
    // (a concurrency-16 sweep on the main loop made other endpoints' probes invalid, issue 19).
    // The threads run at nice 10 (decision 166): on a contended core the probe loop runs first.
    const threads = Math.max(1, defaultProbeThreads(sweep.concurrencyLevels));
    pool =
      !ctx.probe && threads > 0 ? (ctx.createPool ?? createProbePool)({ threads, allowPrivate: endpoint.allowPrivate, niceness: SWEEP_THREAD_NICENESS }) : null;
    if (pool) await pool.ready();
    const probe = ctx.probe ?? pool?.probe;

    let streamsDone = 0;
    let lastProgressAt = 0;
    let progressWrite: Promise<void> = Promise.resolve();
    let levelsRun = 0;
    let lockHeld = false;
    let requestsLeft = ctx.maxRequests ?? DEFAULT_MAX_SWEEP_REQUESTS;
    const runLevels = async (): Promise<SweepTaskResult> => {
      lockHeld = true;
      for (let levelIndex = 0; levelIndex < sweep.concurrencyLevels.length; levelIndex++) {
        const concurrency = sweep.concurrencyLevels[levelIndex]!;
        if (signal?.aborted) return await end(ctx, sweep.id, 'cancelled', 'cancelled', concurrency, levelsRun, 'the worker stopped');
        const verdict = await getSweepConsentVerdict(ctx.db, sweep.endpointId, sweep);
        if (!verdict.ok) {
          return await end(
            ctx,
            sweep.id,
            'cancelled',
            'cancelled',
            concurrency,
            levelsRun,
            verdict.reason === 'no_owner_consent' ? 'consent withdrawn' : verdict.message,
          );
        }
        if (requestsLeft <= 0) return await end(ctx, sweep.id, 'stopped', 'request_budget', concurrency, levelsRun, null);
        await updateSweepProgress(ctx.db, { sweepId: sweep.id, currentConcurrency: concurrency, streamsDone });
        const streams: SweepStream[] = [];
        const result = await runSweep({
          request,
          concurrencyLevels: [concurrency],
          durationMs: sweep.durationMs,
          warmUpMs: ctx.warmUpMs ?? sweep.warmUpMs,
          objective: { ttftMs: sweep.objectiveTtftMs, tpotMs: sweep.objectiveTpotMs },
          minSuccessRate: sweep.minSuccessRate,
          maxRequests: requestsLeft,
          probe,
          signal,
          onStream: (s) => {
            streams.push(s);
            streamsDone++;
            const now = Date.now();
            if (now - lastProgressAt >= 1000) {
              lastProgressAt = now;
              progressWrite = progressWrite
                .then(() => updateSweepProgress(ctx.db, { sweepId: sweep.id, currentConcurrency: concurrency, streamsDone }))
                .catch(() => {});
            }
          },
        });
        await progressWrite;
        requestsLeft -= result.requestsStarted;
        const level = result.levels[0];
        if (level) {
          const { stored, notStored } = selectStreamRows(streams);
          await insertSweepLevel(ctx.db, {
            sweepId: sweep.id,
            level: { ...toLevelRow(levelIndex, level), failedStreamsNotStored: notStored },
            streams: stored.map(toStreamRow),
          });
          levelsRun++;
        }
        if (result.stopReason) {
          const status = result.stopReason === 'cancelled' ? 'cancelled' : 'stopped';
          return await end(ctx, sweep.id, status, result.stopReason, concurrency, levelsRun, null);
        }
      }
      await finishSweep(ctx.db, { sweepId: sweep.id, status: 'completed', stopReason: null, stoppedAtConcurrency: null, errorMessage: null, now: ctx.now() });
      return { status: 'completed', levels: levelsRun, stopReason: null };
    };

    // Every level under the endpoint lock: no scheduled probe streams to this endpoint meanwhile,
    // and none is running when the first level starts.
    const lockWaitMs = ctx.endpointLockWaitMs ?? ctx.deadlines.totalMs + 60_000;
    try {
      return await ctx.endpointLock.runSweep(sweep.endpointId, runLevels, { waitMs: lockWaitMs, signal });
    } catch (error) {
      if (error instanceof EndpointLockTimeoutError && !lockHeld) {
        const waited = lockWaitMs < 10_000 ? `${lockWaitMs} ms` : `${Math.round(lockWaitMs / 1000)} s`;
        const message = `endpoint busy: its lock was not free within ${waited} (a probe or another worker held it), so no level ran; request the sweep again`;
        await finishSweep(ctx.db, { sweepId: sweep.id, status: 'failed', stopReason: null, stoppedAtConcurrency: null, errorMessage: message, now: ctx.now() });
        return { status: 'failed', levels: 0, stopReason: null };
      }
      if (signal?.aborted && !lockHeld) {
        // Stopped while waiting for the lock: nothing ran.
        return await end(ctx, sweep.id, 'cancelled', 'cancelled', sweep.concurrencyLevels[0]!, 0, 'the worker stopped');
      }
      throw error;
    }
  } catch (error) {
    await finishSweep(ctx.db, {
      sweepId: sweep.id,
      status: 'failed',
      stopReason: null,
      stoppedAtConcurrency: null,
      errorMessage: redactStoredStrings((error as Error).message, []).slice(0, 500),
      now: ctx.now(),
    }).catch(() => {});
    throw error;
  } finally {
    await pool?.close();
  }
}

async function end(
  ctx: SweepTaskContext,
  sweepId: number,
  status: 'stopped' | 'cancelled',
  stopReason: string,
  concurrency: number,
  levels: number,
  errorMessage: string | null,
): Promise<SweepTaskResult> {
  await finishSweep(ctx.db, { sweepId, status, stopReason, stoppedAtConcurrency: concurrency, errorMessage, now: ctx.now() });
  return { status, levels, stopReason };
}

function toLevelRow(levelIndex: number, l: SweepLevelResult) {
  return {
    levelIndex,
    concurrency: l.concurrency,
    requests: l.requests,
    successes: l.successes,
    errorKinds: l.errorKinds as Record<string, number>,
    outputTokensPerSecond: l.outputTokensPerSecond,
    ttftMs: l.ttftMs,
    tpotMs: l.tpotMs,
    aggregateOutputTokensPerSecond: l.aggregateOutputTokensPerSecond,
    completedRequestsPerSecond: l.completedRequestsPerSecond,
    goodputRequestsPerSecond: l.goodputRequestsPerSecond,
    windowStartedAt: new Date(Math.round(l.windowStartedAtMs)),
    windowDurationMs: l.windowDurationMs,
    streams: l.streams,
    eventLoopDelayP99Ms: l.loopDelayP99Ms,
    valid: l.valid,
    stopReason: l.stopReason,
  };
}

/**
 * The streams of a level stored as rows: every successful one, and the first
 * MAX_FAILED_STREAM_ROWS_PER_LEVEL failed ones (in completion order); the rest are only counted.
 */
export function selectStreamRows(streams: readonly SweepStream[]): { stored: SweepStream[]; notStored: number } {
  const stored: SweepStream[] = [];
  let failed = 0;
  let notStored = 0;
  for (const s of streams) {
    if (s.result.outcome === 'success') stored.push(s);
    else if (failed++ < MAX_FAILED_STREAM_ROWS_PER_LEVEL) stored.push(s);
    else notStored++;
  }
  return { stored, notStored };
}

function toStreamRow(s: SweepStream): NewSweepStream {
  const r = s.result;
  return {
    slot: s.slot,
    phase: s.phase,
    startedAt: new Date(Math.round(s.startedAtMs)),
    outcome: r.outcome,
    errorKind: r.errorKind,
    errorMessage: r.errorMessage,
    httpStatus: r.httpStatus,
    ttfbMs: r.ttfbMs,
    ttftMs: r.ttftMs,
    e2eMs: r.e2eMs,
    outputTokensReported: r.outputTokensReported,
    outputTokensO200k: r.outputTokensO200k,
    outputTokensPerSecond: r.outputTokensPerSecond,
    tpotMs: r.tpotMs,
    contentChunks: r.contentChunks,
    finishReason: r.finishReason,
    timeline: encodeTimeline(r.timeline),
    flags: r.flags,
  };
}

/**
 * Dispatcher: re-sends a job for every sweep still queued (a web process's send may have been
 * lost) and fails running sweeps older than STALE_SWEEP_MS (their worker died). Idempotent: jobs
 * are keyed by sweep, the claim admits one runner.
 */
export async function dispatchSweeps(db: Db, boss: Pick<PgBoss, 'send'>, now: Date): Promise<{ sent: number; failed: number }> {
  const failed = await failStaleSweeps(db, { startedBefore: new Date(now.getTime() - STALE_SWEEP_MS), now });
  const ids = await listQueuedSweepIds(db);
  for (const sweepId of ids) await boss.send(RUN_SWEEP_QUEUE, { sweepId }, sweepJobOptions(sweepId));
  return { sent: ids.length, failed };
}

/**
 * The descriptor (workers/task.ts): probe role (a sweep is measurement: its streams need the
 * probe's clock, and it holds the same endpoint lock as probes), one sweep at a time per process.
 * Jobs come from the web (a request) and from the dispatcher (workers/tasks/dispatch-sweeps.ts).
 */
export const runSweepTask: ProbeRoleTask = {
  task: 'run-sweep',
  role: 'probe',
  description: 'Run one consented concurrency sweep (levels 1..N) under the endpoint lock.',
  queue: () => RUN_SWEEP_QUEUE,
  queueOptions: { policy: 'standard' },
  workOptions: { localConcurrency: 1, batchSize: 1 },
  timed: false, // sweeps have their own metric (tokenpace_sweep_duration_seconds)
  run: async (deps, job) => {
    const payload = runSweepPayloadSchema.parse(job.data);
    const r = await runSweepJob(deps.sweep, payload, job.signal);
    if (r.status !== 'skipped') deps.log.info({ sweepId: payload.sweepId, status: r.status, stopReason: r.stopReason, levels: r.levels }, 'sweep finished');
    return r;
  },
};
