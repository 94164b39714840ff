/**
 * Worker region names for the pages' region pickers: from {@link listRegions} (regions with
 * hourly rollups or a live worker), held in the one answer cache (./answer-cache) and dropped by
 * every data change (it reads every instant), so each rollup run refreshes it.
 */
import type { Db } from '@/db/client';
import { listRegions } from '@/db/queries/operations';
import { ANY_TIME, cachedAnswer } from './answer-cache';

/** Sorted region names (e.g. ['eu', 'us']); [] when nothing has been measured yet. */
export async function listRegionNames(db: Db, now = new Date()): Promise<string[]> {
  return cachedAnswer(db, 'region-names', ANY_TIME, () => listRegions(db, now).then((rows) => rows.map((r) => r.region)));
}
