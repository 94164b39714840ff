/**
 * Worker heartbeat: every `intervalMs` the worker upserts its row in `worker_heartbeats` (pid,
 * host, region, version, last heartbeat) together with its prom-client metrics JSON, which
 * /api/health and /metrics on any web instance read. A failed beat (Postgres restarting) is logged
 * and retried on the next tick; it never stops the worker. `stop()` deletes the row.
 */
import type { Db } from '@/db/client';
import { deleteWorkerHeartbeat, upsertWorkerHeartbeat, type WorkerIdentity } from '@/db/queries/operations';
import type { Logger } from '@/lib/observability/logger';

export interface HeartbeatHandle {
  /** Sends one beat now; resolves false when it failed. */
  beat(): Promise<boolean>;
  stop(): Promise<void>;
}

export function startHeartbeat(db: Db, worker: WorkerIdentity, opts: { intervalMs: number; metrics: () => Promise<unknown[]>; log: Logger }): HeartbeatHandle {
  let failing = false;
  const beat = async (): Promise<boolean> => {
    try {
      await upsertWorkerHeartbeat(db, worker, new Date(), await opts.metrics());
      if (failing) opts.log.info('heartbeat restored: database reachable again');
      failing = false;
      return true;
    } catch (err) {
      // The message only: a failed upsert's error can carry its whole metrics payload (tens of KB).
      if (!failing)
        opts.log.warn({ err: (err instanceof Error ? err.message : String(err)).slice(0, 300) }, 'heartbeat failed (database unreachable?); retrying');
      failing = true;
      return false;
    }
  };
  const timer = setInterval(() => void beat(), opts.intervalMs);
  timer.unref();
  return {
    beat,
    async stop() {
      clearInterval(timer);
      await deleteWorkerHeartbeat(db, worker.workerId, new Date()).catch(() => {});
    },
  };
}
