/**
 * Test support (vitest only): the per-file set-up of a test of the public API over real HTTP.
 * beforeAll (180 s): seedApiData(`now`, `days`), with `dump` the weekly dump of the last complete
 * week before `now` (writeDump), then serveApi; `ready` gets the seeded database, its ids and the
 * server. afterAll closes the server and drops the database (an afterAll the file registers later
 * runs first: vitest runs after-hooks as a stack).
 */
import { afterAll, beforeAll } from 'vitest';
import { lastCompleteWeek, writeDump } from '@/workers/tasks/write-dump';
import { serveApi } from './serve-api';
import { seedApiData, type SeededApi } from './seed-api-data';

/** What `ready` gets: the seeded database and ids, and the server (its base URL, e.g. http://127.0.0.1:PORT). */
export interface ServedApiData extends SeededApi {
  server: Awaited<ReturnType<typeof serveApi>>;
}

/** Registers the hooks above; see the file's docstring. */
export function useServedApiData(params: { now: number; days: number; dump: boolean }, ready: (s: ServedApiData) => void | Promise<void>): void {
  let served: Partial<ServedApiData> = {};
  beforeAll(async () => {
    served = await seedApiData({ now: params.now, days: params.days });
    if (params.dump) await writeDump(served.t!.db, lastCompleteWeek(new Date(params.now)));
    served.server = await serveApi();
    await ready(served as ServedApiData);
  }, 180_000);
  afterAll(async () => {
    await served.server?.close();
    await served.t?.drop();
  });
}
