import { connection } from 'next/server';
import type { Registry } from 'prom-client';
import { listLastSuccessAges, listLiveWorkerMetrics, listLiveWorkers, listQueueFigures } from '@/db/queries/operations';
import { getDb } from '@/server/shared';
import { buildDatabaseRegistry, renderMergedMetrics, type DatabaseFigures, type MetricsJson } from '@/lib/observability/metrics';

const LIVE_WORKER_MAX_AGE_MS = 60_000;
const WEB_REGISTRY = Symbol.for('tokenpace.webMetrics');

// GET /metrics – Prometheus text exposition: this web process, the live workers (from their heartbeats) and figures read from Postgres now.
export async function GET(): Promise<Response> {
  await connection();
  const now = new Date();
  const parts: MetricsJson[] = [];
  // Web-local registry of bin/web-observability.cjs (absent under `next dev` without the preload).
  const web = (globalThis as Record<symbol, unknown>)[WEB_REGISTRY] as Registry | undefined;
  if (web) parts.push((await web.getMetricsAsJSON()) as MetricsJson);
  const figures: DatabaseFigures = { databaseUp: false, queues: [], lastSuccess: [], liveWorkers: [] };
  try {
    const db = getDb();
    const [queues, lastSuccess, workers, workerMetrics] = await Promise.all([
      listQueueFigures(db, now),
      listLastSuccessAges(db, now),
      listLiveWorkers(db, now, LIVE_WORKER_MAX_AGE_MS),
      listLiveWorkerMetrics(db, now, LIVE_WORKER_MAX_AGE_MS),
    ]);
    figures.databaseUp = true;
    figures.queues = queues;
    figures.lastSuccess = lastSuccess.flatMap((e) =>
      e.ageSeconds === null ? [] : [{ endpointId: e.endpointId, endpoint: e.endpoint, ageSeconds: e.ageSeconds }],
    );
    const byRegion = new Map<string, number>();
    for (const w of workers) byRegion.set(w.region, (byRegion.get(w.region) ?? 0) + 1);
    figures.liveWorkers = [...byRegion].map(([region, count]) => ({ region, count }));
    for (const m of workerMetrics) if (Array.isArray(m)) parts.push(m as MetricsJson);
  } catch {
    // Database down: still expose the web's own figures and tokenpace_database_up 0.
  }
  parts.push((await buildDatabaseRegistry(figures).getMetricsAsJSON()) as MetricsJson);
  const { body, contentType } = await renderMergedMetrics(parts);
  return new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
}
