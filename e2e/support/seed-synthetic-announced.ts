import { openDb } from '@/db/client';
import { notifyDataChanged } from '@/server/cache-invalidation';
import { seedSyntheticData, type SyntheticSeedResult } from './synthetic-data';
import { rollUpNow } from './probe-now';
import { e2eDatabaseUrl } from './tokenpace-cli';

/**
 * Seeds the synthetic demo data (seedSyntheticData, now) into the shared e2e database and, since it
 * is written straight into the database (past hours, new endpoints), announces it the way the
 * rollup job does (notifyDataChanged with `reason`), so every web and worker process drops its
 * caches (server/cache-invalidation.ts), then sends the rollup job now (rollUpNow), so its hours are
 * rolled up without waiting for the rollup's minute. Returns the seed (endpoint ids by slug, …).
 */
export async function seedSyntheticAnnounced(reason: string): Promise<SyntheticSeedResult> {
  const { db, close } = openDb(e2eDatabaseUrl(), 2);
  try {
    const seed = await seedSyntheticData(db, { now: new Date() });
    await notifyDataChanged(db, reason);
    await rollUpNow();
    return seed;
  } finally {
    await close();
  }
}
