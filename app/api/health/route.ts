import { connection } from 'next/server';
import { loadHealthFigures } from '@/db/queries/operations';
import { getDb } from '@/server/shared';
import { assessHealth, type RegionHealth } from '@/lib/observability/health';
import { slotMinutesForCron } from '@/lib/probe/cadence';
import { probeQueueName } from '@/lib/queues';
import type { LiveWorker, QueueFigures } from '@/db/queries/operations';
/** The database must answer within this much time to count as up. */
const DATABASE_TIMEOUT_MS = 3_000;

/** Body of GET /api/health. */
export interface HealthBody {
  /** Kept for older monitors: true unless the database is unreachable. */
  ok: boolean;
  /**
   * ok: all fine; degraded: serving, but no live worker, no live jobs worker, or a region's schedule has not produced
   * probes (`stalledRegions`, lib/observability/health.ts); unavailable: database down (503).
   */
  status: 'ok' | 'degraded' | 'unavailable';
  /** Why `degraded` (e.g. "region eu: schedule-unclaimed"); empty when ok. */
  problems: string[];
  /** Names of the regions whose schedule has not produced probes. */
  stalledRegions: string[];
  /** Every region with a probe schedule: its firings, live workers, state and reasons. */
  regions: RegionHealth[];
  checkedAt: string;
  database: { state: 'up' | 'down'; latencyMs: number | null; error?: string };
  /** Per pg-boss queue: queued and active jobs, lag of the oldest due job in seconds. */
  queues: QueueFigures[];
  /** Workers with a heartbeat in the last 60 s: pid, host, region, role (probe|jobs), version, startedAt, lastHeartbeatAt (ISO). */
  workers: LiveWorker[];
}

// GET /api/health – database state, queue lag, live workers and per-region probe schedules as JSON; 503 while the database is unreachable.
export async function GET(): Promise<Response> {
  await connection();
  const now = new Date();
  const t0 = performance.now();
  try {
    const db = getDb();
    const { queues, workers, schedules } = await withTimeout(loadHealthFigures(db, now), DATABASE_TIMEOUT_MS);
    const latencyMs = Math.round((performance.now() - t0) * 10) / 10;
    const verdict = assessHealth({
      now,
      queues,
      liveWorkers: workers.length,
      liveJobsWorkers: workers.filter((w) => w.role === 'jobs').length,
      schedules,
      slotMinutes: slotMinutesForCron,
      probeQueueName,
    });
    const body: HealthBody = {
      ok: true,
      status: verdict.status,
      problems: verdict.problems,
      stalledRegions: verdict.stalledRegions,
      regions: verdict.regions,
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
      problems: ['database unreachable'],
      stalledRegions: [],
      regions: [],
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
