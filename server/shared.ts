import { getEnv } from '@/lib/env';
import { listenForDataChanges } from './cache-invalidation';
import { openDb, type Db } from '@/db/client';

const globalForDb = globalThis as unknown as { tokenpaceDb?: Db };

/**
 * The web process's database handle, opened lazily from DATABASE_URL and kept across hot reloads.
 * Opening it also starts LISTENing for data changes (./cache-invalidation), so this process drops
 * its window caches and answers as soon as any worker's rollup changes the data: every web
 * instance serves the same answers.
 * Throws when DATABASE_URL is unset (the web server is always started by `tokenpace start`, which sets it).
 */
export function getDb(): Db {
  if (!globalForDb.tokenpaceDb) {
    const url = getEnv().DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set');
    const handle = openDb(url, 10);
    globalForDb.tokenpaceDb = handle.db;
    listenForDataChanges(handle.db, handle.sql);
  }
  return globalForDb.tokenpaceDb;
}
