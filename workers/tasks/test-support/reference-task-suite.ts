/**
 * The per-file set-up of a worker-task test against one reference server: quiet timing evidence
 * (injectLateness('quiet'), so rankability does not depend on this machine's load; decision 180),
 * a cloned test database seeded with the catalogue, and the reference server started with
 * `server` options on port 0, which the seeded calibration endpoint points at. `calibrationId` is
 * that endpoint's id. `fetches` collects the fetches the test's probe contexts build, closed by
 * stopReferenceTaskSuite (restores the clock source, closes fetches, server and database).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { endpoints } from '@/db/schema';
import { seedCatalog } from '@/db/seed';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { injectLateness, restoreLateness } from '@/lib/probe/test-support/injected-lateness';
import type { FetchLike } from '@/lib/probe/types';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '@/lib/reference-server/reference-server';
import { closeFetches } from './probe-task-context';

export interface ReferenceTaskSuite {
  t: TestDatabase;
  reference: ReferenceServer;
  calibrationId: number;
  fetches: FetchLike[];
}

export async function startReferenceTaskSuite(server: Omit<ReferenceServerOptions, 'port'>, fetches: FetchLike[] = []): Promise<ReferenceTaskSuite> {
  injectLateness('quiet');
  const t = await createTestDatabase();
  const reference = await startReferenceServer({ port: 0, ...server });
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: reference.port });
  const [cal] = await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.isCalibration, true));
  if (!cal) throw new Error('startReferenceTaskSuite: the seeded catalogue has no calibration endpoint');
  return { t, reference, calibrationId: cal.id, fetches };
}

/** Undoes startReferenceTaskSuite; safe when the set-up failed part way (pass what was returned, or undefined). */
export async function stopReferenceTaskSuite(s: ReferenceTaskSuite | undefined): Promise<void> {
  restoreLateness();
  if (!s) return;
  await closeFetches(s.fetches);
  await s.reference.close();
  await s.t.drop();
}

/**
 * Registers startReferenceTaskSuite(`server`) as the file's beforeAll (60 s) and
 * stopReferenceTaskSuite as its afterAll; `ready` runs inside the beforeAll with the started suite
 * (take `t`, the calibration id, … from it, add endpoints). Returns the fetches array the suite
 * closes: pass it to probeTaskContext. An afterAll the file registers after this call runs before
 * the suite stops (vitest runs after-hooks as a stack).
 */
export function useReferenceTaskSuite(server: Omit<ReferenceServerOptions, 'port'>, ready: (s: ReferenceTaskSuite) => void | Promise<void>): FetchLike[] {
  const fetches: FetchLike[] = [];
  let suite: ReferenceTaskSuite | undefined;
  beforeAll(async () => {
    suite = await startReferenceTaskSuite(server, fetches);
    await ready(suite);
  }, 60_000);
  afterAll(() => stopReferenceTaskSuite(suite));
  return fetches;
}
