/**
 * Issue 23 low item: a declared price blend is published rounded (0.3, never 0.30000000000000004)
 * by every SQL path that computes it, as lib/catalog/pricing does. Real Postgres, the production
 * route handlers called with real Requests.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { endpoints } from '@/db/schema';
import { seedCatalog } from '@/db/seed';
import type { TestDatabase } from '@/db/test-support/test-database';
import { blendedUsdPerMTokens } from '@/lib/catalog/pricing';
import { anonymous, params, req, setupApiTest } from '@/app/api/test-support/api-test';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let id: number;
const pricing = {
  inputUsdPerMTokens: 0.2,
  outputUsdPerMTokens: 0.6,
  cachedInputUsdPerMTokens: null,
  currency: 'USD' as const,
  source: 'https://groq.com/pricing',
  asOf: '2026-11-30',
};

beforeAll(async () => {
  t = await setupApiTest({ TOKENPACE_PUBLIC_RATE_LIMIT_PER_MINUTE: '0' });
  await seedCatalog(t.db, {
    workloads: [{ slug: 'prose-1k', category: 'prose', inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true }],
    lookupEnv: () => 'x',
    referencePort: null,
  });
  const [row] = await t.db.update(endpoints).set({ pricing }).where(eq(endpoints.slug, 'groq-llama-4-maverick')).returning({ id: endpoints.id });
  id = row!.id;
}, 120_000);

afterAll(async () => {
  await t?.drop();
});

it('publishes (3 × 0.2 + 0.6) ÷ 4 as 0.3 in the endpoint record, the endpoint list and its CSV', async () => {
  expect((3 * 0.2 + 0.6) / 4).toBe(0.30000000000000004); // what float arithmetic alone would publish
  expect(blendedUsdPerMTokens(pricing)).toBe(0.3);
  const one = await (await import('./[id]/route')).GET(req(anonymous, 'GET', `/api/v1/endpoints/${id}`), params({ id: String(id) }));
  expect(((await one.json()) as { blendedUsdPerMTokens: number }).blendedUsdPerMTokens).toBe(0.3);
  const list = await (await import('./route')).GET(req(anonymous, 'GET', '/api/v1/endpoints?model=llama-4-maverick'));
  const items = ((await list.json()) as { items: Array<{ id: number; blendedUsdPerMTokens: number | null }> }).items;
  expect(items.find((e) => e.id === id)!.blendedUsdPerMTokens).toBe(0.3);
  const csv = await (await import('./route')).GET(req(anonymous, 'GET', '/api/v1/endpoints?model=llama-4-maverick', undefined, { accept: 'text/csv' }));
  const text = await csv.text();
  expect(text).not.toContain('0.30000000000000004');
  expect(text).toContain(',0.3,');
});
