import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { decodeTimeline } from '@/lib/probe/timeline-codec';
import { countSyntheticMeasurements, removeSyntheticData, seedSyntheticData } from '@/e2e/support/synthetic-data';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';
import { seedCatalog } from '../seed';
import { listModelHistory } from './history';
import { getEndpointEvidence, getProviderBySlug, listEndpointRecentMeasurements, listEndpointSamples, listEndpointsCreatedBetween } from './ui-endpoint';
import { listWindowStats } from '@/server/window-stats';
import { listEndpointOutcomes } from './ui-history';

const NOW = new Date('2026-11-29T12:00:00Z');
let t: TestDatabase;
let ids: Record<string, number>;

beforeAll(async () => {
  t = await createTestDatabase();
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: 3999 });
  ids = (await seedSyntheticData(t.db, { now: NOW, days: 20 })).endpointIds;
}, 120_000);
afterAll(async () => t?.drop());

describe('synthetic e2e data', () => {
  it('is deterministic, marked synthetic and removable', async () => {
    const n = await countSyntheticMeasurements(t.db);
    expect(n).toBeGreaterThan(4000);
    const provider = await getProviderBySlug(t.db, 'synthetic-demo');
    expect(provider).toMatchObject({ name: 'Synthetic demo', kind: 'provider' });
    expect(Object.keys(ids).every((s) => s.startsWith('synthetic-'))).toBe(true);
  });

  it('stores timelines whose implied speed equals the stored speed', async () => {
    const ev = await getEndpointEvidence(t.db, { endpointId: ids['synthetic-h100-vllm']!, measurementId: null });
    expect(ev).not.toBeNull();
    const tl = decodeTimeline(ev!.timeline!);
    const total = tl.reduce((s, e) => s + e.tokens, 0);
    expect(total).toBe(256);
    const speed = (total - tl[0]!.tokens) / ((tl.at(-1)!.atMs - tl[0]!.atMs) / 1000);
    expect(speed).toBeCloseTo(ev!.outputTokensPerSecond!, 9);
    expect(tl.length).toBe(ev!.contentChunks);
  });
});

describe('ui queries', () => {
  it('finds the synthetic step change of the B200 endpoint in the model history', async () => {
    const history = await listModelHistory(t.db, {
      modelSlug: 'llama-4-maverick',
      workloadSlug: 'prose-1k',
      from: new Date(NOW.getTime() - 20 * 86400_000),
      to: NOW,
      region: null,
      basis: 'reported',
    });
    const b200 = history.find((s) => s.endpoint.slug === 'synthetic-b200-eagle')!;
    expect(b200.changePoints).toHaveLength(1);
    expect(b200.changePoints[0]!.relativeChange).toBeGreaterThan(0.4);
    expect(['2026-11-17', '2026-11-18']).toContain(b200.changePoints[0]!.day); // the step happened 2026-11-17T12:00Z
    const h100 = history.find((s) => s.endpoint.slug === 'synthetic-h100-vllm')!;
    expect(h100.changePoints).toEqual([]);
    expect(h100.days.length).toBeGreaterThanOrEqual(20);
  });

  it('window stats per workload show speculative decoding helping code more than prose', async () => {
    const window = { modelSlug: 'llama-4-maverick', asOf: NOW, windowHours: 72, basis: 'reported' as const, region: null };
    const slugs = ['code-1k', 'json-1k', 'math-1k', 'prose-1k'];
    const rows = await Promise.all(slugs.map((w) => listWindowStats(t.db, { ...window, workloadSlug: w })));
    const bySlug = Object.fromEntries(rows.map((r, i) => [slugs[i]!, r.find((e) => e.endpoint.id === ids['synthetic-b200-eagle'])!]));
    expect(bySlug['code-1k']!.outputTokensPerSecond!.p50).toBeGreaterThan(bySlug['prose-1k']!.outputTokensPerSecond!.p50 * 1.2);
    expect(bySlug['prose-1k']!.n).toBe(72 * 4); // every 15 min in [now − 72 h, now]: the window includes its start
  });

  it('samples, outcomes, recent measurements and new endpoints', async () => {
    const id = ids['synthetic-mi300-sglang']!;
    const samples = await listEndpointSamples(t.db, {
      endpointId: id,
      workloadSlug: 'prose-1k',
      from: new Date(NOW.getTime() - 72 * 3600_000),
      to: NOW,
      limit: 2000,
    });
    const stats = (
      await listWindowStats(t.db, { modelSlug: 'llama-4-maverick', workloadSlug: 'prose-1k', asOf: NOW, windowHours: 72, basis: 'reported', region: null })
    ).find((e) => e.endpoint.id === id);
    expect(samples.outputTokensPerSecond.length).toBe(stats!.samples);
    const outcomes = await listEndpointOutcomes(t.db, { endpointId: id, granularity: 'day', from: new Date(NOW.getTime() - 20 * 86400_000), to: NOW });
    const failures = outcomes.reduce((s, b) => s + b.count - b.successes, 0);
    const kinds = outcomes.reduce((s, b) => s + Object.values(b.errorKinds).reduce((a, c) => a + c, 0), 0);
    expect(failures).toBe(kinds);
    expect(failures).toBeGreaterThan(50);
    const recent = await listEndpointRecentMeasurements(t.db, { endpointId: id, limit: 10 });
    expect(recent).toHaveLength(10);
    expect(recent.some((r) => r.hasTimeline)).toBe(true);
    const created = await listEndpointsCreatedBetween(t.db, { from: new Date(NOW.getTime() - 30 * 86400_000), to: NOW });
    expect(created.map((c) => c.slug)).toContain('synthetic-l40s-vllm');
  });

  it('evidence of another endpoint is not served', async () => {
    const ev = await getEndpointEvidence(t.db, { endpointId: ids['synthetic-h100-vllm']!, measurementId: null });
    expect(await getEndpointEvidence(t.db, { endpointId: ids['synthetic-l40s-vllm']!, measurementId: ev!.id })).toBeNull();
  });

  it('removal leaves no synthetic rows', async () => {
    await removeSyntheticData(t.db);
    expect(await countSyntheticMeasurements(t.db)).toBe(0);
    expect(await getProviderBySlug(t.db, 'synthetic-demo')).toBeNull();
  });
});
