/**
 * Test support (vitest only): a fresh test database that in-process route handlers use
 * (DATABASE_URL, the environment re-read), with the public rate limit off.
 */
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { getEnv } from '@/lib/env';

/** Creates the database and points the process's environment at it; TOKENPACE_PUBLIC_RATE_LIMIT_PER_MINUTE = 0. */
export async function createPublicApiDatabase(): Promise<TestDatabase> {
  const t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.TOKENPACE_PUBLIC_RATE_LIMIT_PER_MINUTE = '0';
  getEnv(true);
  return t;
}
