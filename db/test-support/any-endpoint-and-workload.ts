import type { Db } from '../client';
import { endpoints, workloads } from '../schema';

/**
 * The ids of one endpoint row and one workload row (the first Postgres returns: for tests where
 * which one does not matter); throws when either table is empty.
 */
export async function anyEndpointAndWorkload(db: Db): Promise<{ endpointId: number; workloadId: number }> {
  const [e] = await db.select({ id: endpoints.id }).from(endpoints).limit(1);
  const [w] = await db.select({ id: workloads.id }).from(workloads).limit(1);
  if (!e || !w) throw new Error('anyEndpointAndWorkload: no endpoint or no workload (seed the catalogue first)');
  return { endpointId: e.id, workloadId: w.id };
}
