import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema';

/** The drizzle database handle used by queries, workers and route handlers. */
export type Db = PostgresJsDatabase<typeof schema>;

export interface DbHandle {
  db: Db;
  sql: postgres.Sql;
  close: () => Promise<void>;
}

/**
 * Opens a pooled connection to `url` (postgres:// URL). Does not run migrations.
 * `max` is the pool size (default 10). Throws only on first query if the server is unreachable.
 * Connections are opened lazily and re-opened after a Postgres restart (postgres.js), so callers
 * recover by themselves once the server is back; a connect attempt gives up after 5 s.
 */
export function openDb(url: string, max = 10): DbHandle {
  const client = postgres(url, { max, onnotice: () => {}, idle_timeout: 30, connect_timeout: 5 });
  const db = drizzle(client, { schema });
  return { db, sql: client, close: () => client.end({ timeout: 5 }) };
}
