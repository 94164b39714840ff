/**
 * The per-file set-up of the sweep tests that run a real sweep on real local servers: a cloned
 * test database seeded with the catalogue (no reference server: referencePort 1), the headline
 * workload's id, one endpoint lock (waits up to 10 s) and the sweep task's context
 * (sweep-task-context). The test keeps its own lists (`fetches` the sweep's fetches,
 * `probeFetches` its probe contexts', `closers` its servers') and stopSweepSuite closes them all,
 * then the lock and the database; safe after a set-up that failed part way.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { workloads } from '@/db/schema';
import { seedCatalog } from '@/db/seed';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import type { FetchLike } from '@/lib/probe/types';
import { HEADLINE_WORKLOAD_SLUG } from '@/lib/probe/workloads';
import type { GuardedFetch } from '@/lib/security/ssrf-guard';
import { createEndpointLock, type EndpointLock } from '../../endpoint-lock';
import type { SweepTaskContext } from '../run-sweep';
import { closeFetches } from './probe-task-context';
import { queueConsentedSweep } from './queue-consented-sweep';
import { closeGuardedFetches, sweepTaskContext } from './sweep-task-context';

export interface SweepSuiteLists {
  fetches: GuardedFetch[];
  probeFetches: FetchLike[];
  closers: Array<() => Promise<void>>;
}

export interface SweepSuite extends SweepSuiteLists {
  t: TestDatabase;
  lock: EndpointLock;
  ctx: SweepTaskContext;
  headlineId: number;
}

export async function startSweepSuite(lists: SweepSuiteLists): Promise<SweepSuite> {
  const t = await createTestDatabase();
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: 1 });
  const [headline] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, HEADLINE_WORKLOAD_SLUG));
  if (!headline) throw new Error(`startSweepSuite: no ${HEADLINE_WORKLOAD_SLUG} workload in the seed`);
  const lock = createEndpointLock({ url: t.url, waitMs: 10_000 });
  return { ...lists, t, lock, ctx: sweepTaskContext(t.db, lock, lists.fetches), headlineId: headline.id };
}

export async function stopSweepSuite(s: SweepSuite | undefined): Promise<void> {
  if (!s) return;
  await s.lock.close();
  await closeGuardedFetches(s.fetches);
  await closeFetches(s.probeFetches);
  for (const c of s.closers) await c();
  await s.t.drop();
}

/** A sweep suite filled in by useSweepSuite's beforeAll, with the admin's sweep request. */
export interface LiveSweepSuite extends SweepSuite {
  /** Admin consent (admin-1, up to 32 streams, 4 levels), then one sweep of `levels` for `durationMs` (ms) each; returns the sweep id. */
  queueSweep(endpointId: number, levels: number[], durationMs: number): Promise<number>;
}

/**
 * Registers startSweepSuite as the file's beforeAll (120 s) and stopSweepSuite as its afterAll
 * (an afterAll the file registers later runs first). Returns the suite object at once, with empty
 * lists; `t`, `lock`, `ctx` and `headlineId` are set on it when the beforeAll has run.
 */
export function useSweepSuite(): LiveSweepSuite {
  const lists: SweepSuiteLists = { fetches: [], probeFetches: [], closers: [] };
  let started: SweepSuite | undefined;
  const live = {
    ...lists,
    queueSweep: (endpointId: number, levels: number[], durationMs: number) =>
      queueConsentedSweep(live.t.db, { endpointId, levels, durationMs, userId: 'admin-1', maxConcurrency: 32, maxLevels: 4 }),
  } as LiveSweepSuite;
  beforeAll(async () => {
    started = await startSweepSuite(lists);
    Object.assign(live, started);
  }, 120_000);
  afterAll(() => stopSweepSuite(started));
  return live;
}
