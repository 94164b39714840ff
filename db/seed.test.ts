import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setEndpointPricing } from '@/db/queries/pricing';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_ENDPOINTS, SEED_MODELS } from '@/lib/catalog/seed-catalog';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { endpoints, models } from './schema';
import { seedCatalog } from './seed';

describe('seedCatalog with the catalog data', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t?.drop());

  it('writes every model and endpoint with its facts; inactive without keys; retired ids retired', async () => {
    const r = await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: null });
    expect(r.endpoints).toBe(SEED_ENDPOINTS.length);
    expect(r.activeEndpoints).toBe(0);
    const rows = await t.db.select().from(endpoints);
    const bySlug = new Map(rows.map((e) => [e.slug, e]));
    for (const e of SEED_ENDPOINTS) {
      const row = bySlug.get(e.slug)!;
      expect(row.apiModelId, e.slug).toBe(e.apiModelId);
      expect(row.catalogSource, e.slug).toEqual({ url: e.source.url, checkedOn: e.source.checkedOn });
      expect(row.contextWindowTokens, e.slug).toBe(e.contextWindowTokens);
      expect(row.pricing, e.slug).toEqual(e.pricing);
      expect(row.status, e.slug).toBe(e.retiredOn ? 'retired' : 'inactive');
      expect(row.retiredAt?.toISOString().slice(0, 10) ?? null, e.slug).toBe(e.retiredOn);
    }
    const ms = await t.db.select().from(models);
    for (const m of SEED_MODELS) expect(ms.find((x) => x.slug === m.slug)).toMatchObject({ weights: m.weights, creator: m.creator, weightsUrl: m.weightsUrl });
  });

  it('a key turns on exactly that provider’s listed endpoints (never a retired one); re-seeding keeps ids', async () => {
    const before = new Map((await t.db.select({ id: endpoints.id, slug: endpoints.slug }).from(endpoints)).map((e) => [e.slug, e.id]));
    const r = await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: (n) => (n === 'CEREBRAS_API_KEY' ? 'k' : null), referencePort: null });
    const cerebras = SEED_ENDPOINTS.filter((e) => e.providerSlug === 'cerebras');
    expect(cerebras.some((e) => e.retiredOn)).toBe(true);
    expect(r.activeEndpoints).toBe(cerebras.filter((e) => !e.retiredOn).length);
    const rows = await t.db.select({ id: endpoints.id, slug: endpoints.slug, status: endpoints.status }).from(endpoints);
    for (const row of rows) {
      expect(row.id).toBe(before.get(row.slug));
      const e = SEED_ENDPOINTS.find((x) => x.slug === row.slug)!;
      expect(row.status, row.slug).toBe(e.retiredOn ? 'retired' : e.providerSlug === 'cerebras' ? 'active' : 'inactive');
    }
  });

  it('keeps an admin price declared after the catalog’s date; the catalog price replaces an older one', async () => {
    const e = SEED_ENDPOINTS.find((x) => x.pricing)!;
    const newer = { ...e.pricing!, inputUsdPerMTokens: 9, asOf: '2099-01-01' };
    await setEndpointPricing(t.db, { slug: e.slug, pricing: newer, actorUserId: null });
    await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: null });
    const [a] = await t.db.select({ pricing: endpoints.pricing }).from(endpoints).where(eq(endpoints.slug, e.slug));
    expect(a!.pricing).toEqual(newer);
    const older = { ...e.pricing!, inputUsdPerMTokens: 9, asOf: '2020-01-01' };
    await setEndpointPricing(t.db, { slug: e.slug, pricing: older, actorUserId: null });
    await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: null });
    const [b] = await t.db.select({ pricing: endpoints.pricing }).from(endpoints).where(eq(endpoints.slug, e.slug));
    expect(b!.pricing).toEqual(e.pricing);
    // same date: the catalog's (reviewed) figure wins
    await setEndpointPricing(t.db, { slug: e.slug, pricing: { ...e.pricing!, inputUsdPerMTokens: 9 }, actorUserId: null });
    await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: null });
    const [c] = await t.db.select({ pricing: endpoints.pricing }).from(endpoints).where(eq(endpoints.slug, e.slug));
    expect(c!.pricing).toEqual(e.pricing);
    // an endpoint the catalog has no price for keeps a declared one
    const unpriced = SEED_ENDPOINTS.find((x) => !x.pricing && !x.retiredOn)!;
    await setEndpointPricing(t.db, { slug: unpriced.slug, pricing: older, actorUserId: null });
    await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: null });
    const [d] = await t.db.select({ pricing: endpoints.pricing }).from(endpoints).where(eq(endpoints.slug, unpriced.slug));
    expect(d!.pricing).toEqual(older);
  });
});
