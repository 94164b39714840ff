import { getEnv } from '@/lib/env';
import { openDb, type Db } from './client';

const globalForDb = globalThis as unknown as { tokenpaceDb?: Db };

/**
 * The web process's database handle, opened lazily from DATABASE_URL and kept across hot reloads.
 * Throws when DATABASE_URL is unset (the web server is always started by `tokenpace start`, which sets it).
 */
export function getDb(): Db {
  if (!globalForDb.tokenpaceDb) {
    const url = getEnv().DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set');
    globalForDb.tokenpaceDb = openDb(url, 10).db;
  }
  return globalForDb.tokenpaceDb;
}
