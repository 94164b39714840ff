import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import path from 'node:path';
import postgres from 'postgres';

/** Folder of committed SQL migrations (drizzle-kit output). */
export const MIGRATIONS_DIR = path.resolve(__dirname, 'migrations');

/**
 * Applies all pending migrations to the database at `url`. Safe to run concurrently from several
 * processes: a session advisory lock serialises them. Throws the server's error on failure.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(7346201)`;
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
    await client`select pg_advisory_unlock(7346201)`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
