import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setEndpointPricing } from '@/db/queries/pricing';
import { listEndpoints } from '@/db/queries/catalog';
import { seedCatalog } from '@/db/seed';
import { auditEvents, endpoints } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_ENDPOINTS } from '@/lib/catalog/seed-catalog';
import { EXAMPLE_PRICING } from '@/lib/catalog/test-support/example-pricing';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { parsePricingArgs } from './pricing-command';

const ARGS = ['groq-llama-4-maverick', '--input', '0.2', '--output', '0.6', '--source', 'https://example.com/pricing', '--as-of', '2026-11-30'];

describe('tokenpace pricing: arguments', () => {
  it('parses a declaration and --clear; names the bad option', () => {
    expect(parsePricingArgs(ARGS)).toEqual({
      slug: 'groq-llama-4-maverick',
      pricing: EXAMPLE_PRICING,
    });
    expect(parsePricingArgs(['x', '--clear'])).toEqual({ slug: 'x', pricing: null });
    expect(() => parsePricingArgs(ARGS.filter((a, i) => i < 5))).toThrow(/--source/);
    expect(() => parsePricingArgs([...ARGS.slice(0, 2), 'cheap', ...ARGS.slice(3)])).toThrow(/--input/);
    expect(() => parsePricingArgs([...ARGS.slice(0, 7), '--as-of', '30.11.2026'])).toThrow(/--as-of/);
    expect(() => parsePricingArgs(['a', 'b', '--clear'])).toThrow(/one endpoint slug/);
  });
});

describe('tokenpace pricing: database', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: 3999 });
  });
  afterAll(async () => t?.drop());

  it('every endpoint has a pricing field (null until declared); a declaration is stored, shown with its blend and audited', async () => {
    const before = await listEndpoints(t.db);
    expect(before.length).toBeGreaterThanOrEqual(13);
    // the catalog's published prices (with their source and date) are seeded; the rest stay null until declared
    for (const e of before) {
      const seeded = SEED_ENDPOINTS.find((s) => s.slug === e.slug);
      expect(e.pricing, e.slug).toEqual(seeded?.pricing ?? null);
      if (!e.pricing) expect(e.blendedUsdPerMTokens).toBeNull();
    }
    const { slug, pricing } = parsePricingArgs([before[0]!.slug, ...ARGS.slice(1)]);
    const id = await setEndpointPricing(t.db, { slug, pricing, actorUserId: null });
    expect(id).toBe(before[0]!.id);
    const after = (await listEndpoints(t.db)).find((e) => e.id === id)!;
    expect(after.pricing).toEqual(pricing);
    expect(after.blendedUsdPerMTokens).toBeCloseTo(0.3, 12);
    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.endpointId, id!));
    expect(audit.map((a) => a.action)).toContain('endpoint.pricing');
    expect(await setEndpointPricing(t.db, { slug: 'nope', pricing: null, actorUserId: null })).toBeNull();
    await setEndpointPricing(t.db, { slug, pricing: null, actorUserId: null });
    const [row] = await t.db.select({ pricing: endpoints.pricing }).from(endpoints).where(eq(endpoints.id, id!));
    expect(row!.pricing).toBeNull();
  });
});
