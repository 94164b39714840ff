/**
 * Shared parts of the sweep routes: the public read (sweeps of a listed endpoint, or one sweep),
 * who may act on an endpoint's sweeps (its owner or an admin), and sending the sweep job.
 */
import { PgBoss } from 'pg-boss';
import { getPublicEndpoint } from '@/db/queries/catalog';
import { getSweep, getSweepEndpoint, listEndpointSweeps, listSweepLevels } from '@/db/queries/sweeps';
import type { Db } from '@/db/client';
import type { AccountUser } from '@/db/queries/accounts';
import { getEnv } from '@/lib/env';
import { RUN_SWEEP_QUEUE, sweepJobOptions } from '@/lib/sweep/sweep-jobs';
import { buildSweepDetail } from '@/lib/sweep/sweep-view';
import type { SweepDetailView } from '@/lib/sweep/sweep-schemas';
import { ApiError } from './respond';

/** How many sweeps an endpoint's history answer holds. */
export const SWEEP_HISTORY_LIMIT = 50;

/** Sweeps (with levels) of a listed endpoint, newest first; 404 naming `id` when not listed. */
export async function loadEndpointSweeps(db: Db, endpointId: number): Promise<SweepDetailView[]> {
  const endpoint = await getPublicEndpoint(db, endpointId);
  if (!endpoint) throw new ApiError('not_found', `endpoint ${endpointId} not found`, 'id');
  const sweeps = await listEndpointSweeps(db, { endpointId, limit: SWEEP_HISTORY_LIMIT });
  const levels = await listSweepLevels(
    db,
    sweeps.map((s) => s.id),
  );
  return sweeps.map((s) => buildSweepDetail(s, levels));
}

/** One sweep of a listed endpoint; 404 naming `id` otherwise. */
export async function loadSweep(db: Db, sweepId: number): Promise<SweepDetailView> {
  const sweep = await getSweep(db, sweepId);
  if (!sweep || !(await getPublicEndpoint(db, sweep.endpointId))) throw new ApiError('not_found', `sweep ${sweepId} not found`, 'id');
  return buildSweepDetail(sweep, await listSweepLevels(db, [sweepId]));
}

/**
 * The endpoint if `user` may manage its sweeps (its owner or an admin). Unknown endpoints and
 * other people's answer 404 alike, so private ids are not confirmed.
 */
export async function getSweepEndpointForUser(db: Db, endpointId: number, user: AccountUser) {
  const endpoint = await getSweepEndpoint(db, endpointId);
  if (!endpoint || (endpoint.owner !== user.id && user.role !== 'admin')) throw new ApiError('not_found', `endpoint ${endpointId} not found`, 'id');
  return endpoint;
}

const globalForBoss = globalThis as unknown as { tokenpaceSweepBoss?: Promise<PgBoss> };

/**
 * Sends the sweep's job to the workers (pg-boss, send-only from the web process). Best effort:
 * when the queue cannot be reached, the workers' dispatcher (every minute) sends it instead, so a
 * request never fails for that. Returns whether it was sent now.
 */
export async function sendSweepJob(sweepId: number): Promise<boolean> {
  const url = getEnv().DATABASE_URL;
  if (!url) return false;
  try {
    globalForBoss.tokenpaceSweepBoss ??= (async () => {
      const boss = new PgBoss({ connectionString: url, schema: 'pgboss', schedule: false, supervise: false, migrate: false, max: 2 });
      boss.on('error', () => {});
      await boss.start();
      return boss;
    })();
    const boss = await globalForBoss.tokenpaceSweepBoss;
    return (await boss.send(RUN_SWEEP_QUEUE, { sweepId }, sweepJobOptions(sweepId))) !== null;
  } catch {
    globalForBoss.tokenpaceSweepBoss = undefined;
    return false;
  }
}
