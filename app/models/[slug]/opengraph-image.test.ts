/**
 * Issue 19 findings 5 and 14: the model OG image of a model that is not in the catalog is a 404
 * (never URL text drawn as a model's name) and computes and stores nothing (no snapshot row).
 * Real Postgres with the seeded catalog.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedCatalog } from '@/db/seed';
import type { TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { setupApiTest } from '@/app/api/test-support/api-test';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
beforeAll(async () => {
  t = await setupApiTest();
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: 1 });
}, 120_000);
afterAll(async () => {
  await t?.drop();
});

describe('model OG image of unknown model text', () => {
  it.each(['no-such-model', 'groq-is-fastest', 'x'])('%j → 404, no rows written', async (slug) => {
    const tables = async () => (await t.sql`select count(*)::int as n from snapshots`)[0]!.n as number;
    const before = await tables();
    const { default: Image } = await import('./opengraph-image');
    const res = await Image({ params: Promise.resolve({ slug }) });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('unknown model');
    expect(await tables()).toBe(before);
  });
});
