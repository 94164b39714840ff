import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildRollups } from '@/db/queries/rollups';
import { endpoints, measurements, workloads } from '@/db/schema';
import { seedCatalog } from '@/db/seed';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { listNotableChanges } from './notable-changes';

const NOW = new Date('2026-12-01T12:00:00Z');
const DAY = 86400_000;
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  await seedCatalog(t.db, {
    workloads: [{ slug: 'prose-1k', category: 'prose', inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true }],
    lookupEnv: () => null,
    referencePort: null,
  });
});
afterAll(async () => t?.drop());

describe('feed: endpoints joining and leaving', () => {
  it('a catalog endpoint waiting for its key is not announced; it joins when first measured; a retired one leaves', async () => {
    // listed now (inside the 30-day period) but never probed: nothing to announce
    const quiet = await listNotableChanges(t.db, { now: NOW, days: 30, limit: 500 });
    expect(quiet.filter((c) => c.kind === 'new-endpoint')).toEqual([]);

    // an endpoint listed long ago (before the period), first measured 2 days ago (its key was set)
    const [groq] = await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.slug, 'groq-gpt-oss-120b'));
    await t.db
      .update(endpoints)
      .set({ createdAt: new Date(NOW.getTime() - 90 * DAY), status: 'active' })
      .where(eq(endpoints.id, groq!.id));
    const [w] = await t.db.select({ id: workloads.id }).from(workloads);
    const at = new Date(NOW.getTime() - 2 * DAY + 37_000);
    await t.db.insert(measurements).values({
      jobKey: 'feed:1',
      endpointId: groq!.id,
      workloadId: w!.id,
      measuredAt: at,
      workerRegion: 'local',
      workerVersion: 'test',
      outcome: 'success',
      ttftMs: 100,
      e2eMs: 500,
      outputTokensPerSecond: 400,
      contentChunks: 10,
    });
    await rebuildRollups(t.db, { granularity: 'hour', from: new Date(NOW.getTime() - 3 * DAY), to: NOW });
    // a retired endpoint: retired yesterday (in the period), and one retired before the period
    await t.db
      .update(endpoints)
      .set({ status: 'retired', retiredAt: new Date(NOW.getTime() - DAY) })
      .where(eq(endpoints.slug, 'groq-qwen3-32b'));
    await t.db
      .update(endpoints)
      .set({ status: 'retired', retiredAt: new Date(NOW.getTime() - 31 * DAY) })
      .where(eq(endpoints.slug, 'groq-llama-4-scout'));

    // one whose retirement the catalog dates in the future: not in the feed before that day
    await t.db
      .update(endpoints)
      .set({ status: 'retired', retiredAt: new Date(NOW.getTime() + 5 * DAY) })
      .where(eq(endpoints.slug, 'groq-llama-3-3-70b'));

    const changes = await listNotableChanges(t.db, { now: NOW, days: 30, limit: 500 });
    // nothing in the feed is dated after now (issue 23 item 12)
    expect(changes.filter((c) => Date.parse(c.updated) > NOW.getTime()).map((c) => c.title)).toEqual([]);
    const joins = changes.filter((c) => c.id.startsWith('endpoint-joins/'));
    expect(joins.map((c) => c.title)).toEqual(['Endpoint joins: Groq groq-gpt-oss-120b (gpt-oss-120b)']);
    expect(joins[0]!.updated).toBe(new Date(Math.floor(at.getTime() / 3600_000) * 3600_000).toISOString());
    const leaves = changes.filter((c) => c.kind === 'endpoint-leaves');
    expect(leaves.map((c) => c.title)).toEqual(['Endpoint leaves: Groq groq-qwen3-32b (Qwen3 32B)']);
    expect(leaves[0]!.summary).toMatch(/no longer probed; its measurements and history stay/);
    // a measurement before the period: the endpoint joined earlier, not announced now
    const earlier = await listNotableChanges(t.db, { now: new Date(NOW.getTime() + 40 * DAY), days: 30, limit: 500 });
    expect(earlier.some((c) => c.id.startsWith('endpoint-joins/'))).toBe(false);
  });
});
