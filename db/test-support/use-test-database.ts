/**
 * The per-file database of a test: beforeAll creates a test database (createTestDatabase) and,
 * with `seed`, seeds the catalogue (seedCatalog: `workloads`, default SEED_WORKLOADS; `lookupEnv`,
 * default none set, so every endpoint but the calibration one is inactive; the calibration
 * endpoint at 127.0.0.1:`referencePort`, null for none); afterAll drops it. An afterAll the file
 * registers later runs first (vitest runs after-hooks as a stack), so it may still use the database.
 */
import { afterAll, beforeAll } from 'vitest';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { seedCatalog, type SeedOptions } from '../seed';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * Registers the hooks above (beforeAll with `timeoutMs`, default vitest's) and returns the
 * database at once as a live view: its `db`, `sql`, `url`, `name`, `close` and `drop` read the
 * database the beforeAll created (reading them before it ran throws).
 */
export function useTestDatabase(o: { seed?: Pick<SeedOptions, 'referencePort'> & Partial<SeedOptions>; timeoutMs?: number } = {}): TestDatabase {
  let current: TestDatabase | undefined;
  const now = (): TestDatabase => {
    if (!current) throw new Error('useTestDatabase: the database is read before its beforeAll ran');
    return current;
  };
  beforeAll(async () => {
    current = await createTestDatabase();
    if (o.seed) await seedCatalog(current.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, ...o.seed });
  }, o.timeoutMs);
  afterAll(async () => {
    await current?.drop();
  });
  return new Proxy({} as TestDatabase, { get: (_, key) => now()[key as keyof TestDatabase] });
}
