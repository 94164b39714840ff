import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, workloads } from '../schema';

/**
 * Active endpoints × scheduled workloads that are due at `now` (endpoints in 429 back-off are
 * left out until their notBefore instant). One row per probe to enqueue.
 */
export async function listDueProbeTargets(db: Db, now: Date) {
  const eps = await db
    .select({ id: endpoints.id, slug: endpoints.slug })
    .from(endpoints)
    .where(and(eq(endpoints.status, 'active'), or(isNull(endpoints.notBefore), lte(endpoints.notBefore, now))));
  const wls = await db.select({ id: workloads.id, slug: workloads.slug }).from(workloads).where(eq(workloads.scheduled, true));
  return eps.flatMap((e) => wls.map((w) => ({ endpointId: e.id, endpointSlug: e.slug, workloadId: w.id, workloadSlug: w.slug })));
}

/** Everything a worker needs to probe one endpoint with one workload; null when either is gone. */
export async function getProbeSpec(db: Db, endpointId: number, workloadId: number) {
  const [endpoint] = await db.select().from(endpoints).where(eq(endpoints.id, endpointId)).limit(1);
  const [workload] = await db.select().from(workloads).where(eq(workloads.id, workloadId)).limit(1);
  if (!endpoint || !workload) return null;
  return { endpoint, workload };
}
