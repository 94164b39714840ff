/**
 * Worker region names for the pages' region pickers: from {@link listRegions} (regions with
 * hourly rollups or a live worker), cached per database handle for 60 s and dropped with the window
 * caches (so a data-change NOTIFY refreshes it too).
 */
import type { Db } from '@/db/client';
import { listRegions } from '@/db/queries/operations';
import { namedWindowCache } from '@/db/window-stats';

const TTL_MS = 60_000;

/** Sorted region names (e.g. ['eu', 'us']); [] when nothing has been measured yet. */
export async function listRegionNames(db: Db, now = new Date()): Promise<string[]> {
  const cache = namedWindowCache<'names', { at: number; names: Promise<string[]> }>(db, 'region-names');
  const hit = cache.get('names');
  if (hit && now.getTime() - hit.at < TTL_MS) return hit.names;
  const names = listRegions(db, now).then((rows) => rows.map((r) => r.region));
  cache.set('names', { at: now.getTime(), names });
  names.catch(() => cache.delete('names'));
  return names;
}
