import { connection } from 'next/server';
import { listLiveWorkers, listQueueFigures, type LiveWorker, type QueueFigures } from '@/db/queries/operations';
import { getDb } from '@/db/shared';

/** A worker counts as live when its heartbeat (every 15 s) is at most this old. */
const LIVE_WORKER_MAX_AGE_MS = 60_000;
/** A probe queue whose oldest due job waited longer than this makes the service `degraded`. */
const DEGRADED_QUEUE_LAG_SECONDS = 300;
/** The database must answer within this much time to count as up. */
const DATABASE_TIMEOUT_MS = 3_000;

/** Body of GET /api/health. */
export interface HealthBody {
  /** Kept for older monitors: true unless the database is unreachable. */
  ok: boolean;
  /** ok: all fine; degraded: serving, but no live worker or a probe queue lags; unavailable: database down (503). */
  status: 'ok' | 'degraded' | 'unavailable';
  checkedAt: string;
  database: { state: 'up' | 'down'; latencyMs: number | null; error?: string };
  /** Per pg-boss queue: queued and active jobs, lag of the oldest due job in seconds. */
  queues: QueueFigures[];
  /** Workers with a heartbeat in the last 60 s: pid, host, region, version, startedAt, lastHeartbeatAt (ISO). */
  workers: LiveWorker[];
}

// GET /api/health – database state, queue lag and live workers as JSON; 503 while the database is unreachable.
export async function GET(): Promise<Response> {
  await connection();
  const now = new Date();
  const t0 = performance.now();
  try {
    const db = getDb();
    const [queues, workers] = await withTimeout(Promise.all([listQueueFigures(db, now), listLiveWorkers(db, now, LIVE_WORKER_MAX_AGE_MS)]), DATABASE_TIMEOUT_MS);
    const latencyMs = Math.round((performance.now() - t0) * 10) / 10;
    const lagging = queues.some((q) => q.queue.startsWith('probe-') && q.lagSeconds > DEGRADED_QUEUE_LAG_SECONDS);
    const body: HealthBody = {
      ok: true,
      status: workers.length === 0 || lagging ? 'degraded' : 'ok',
      checkedAt: now.toISOString(),
      database: { state: 'up', latencyMs },
      queues,
      workers,
    };
    return Response.json(body, { headers: { 'cache-control': 'no-store' } });
  } catch {
    const body: HealthBody = {
      ok: false,
      status: 'unavailable',
      checkedAt: now.toISOString(),
      database: { state: 'down', latencyMs: null, error: 'database unreachable' },
      queues: [],
      workers: [],
    };
    return Response.json(body, { status: 503, headers: { 'cache-control': 'no-store', 'retry-after': '5' } });
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
