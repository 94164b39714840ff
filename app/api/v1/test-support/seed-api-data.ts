/**
 * Test support (vitest only): a fresh database with the seeded catalog (two workloads) and
 * deterministic measurements of three Llama 4 Maverick endpoints (groq, sambanova, fireworks):
 * ~3 probes per hour and workload over `days` days before `now`, some failures and some
 * successes that are not rankable, then hourly and daily rollups. Env set for in-process routes.
 */
import { expect } from 'vitest';
import { rebuildRollups } from '@/db/queries/rollups';
import { endpoints, measurements, workloads } from '@/db/schema';
import { seedAllActive } from '@/db/test-support/seed-all-active';
import type { TestDatabase } from '@/db/test-support/test-database';
import { encodeTimeline } from '@/lib/probe/timeline-codec';
import { mulberry32 } from '@/lib/stats/random';
import { createPublicApiDatabase } from './public-api-database';

/** The seeded database and the ids tests need. */
export interface SeededApi {
  t: TestDatabase;
  endpointIds: number[];
  workloadIds: Record<string, number>;
}

/** Creates the database, seeds catalog + measurements + rollups; rate limit off. */
export async function seedApiData(params: { now: number; days: number }): Promise<SeededApi> {
  const t = await createPublicApiDatabase();
  await seedAllActive(t.db, { 'prose-1k': 'prose', 'code-1k': 'code' });
  const eps = await t.db.select({ id: endpoints.id, slug: endpoints.slug }).from(endpoints);
  const wls = await t.db.select({ id: workloads.id, slug: workloads.slug }).from(workloads);
  const chosen = ['groq', 'sambanova', 'fireworks'].map((p) => eps.find((e) => e.slug === `${p}-llama-4-maverick`)!); // fixed order: the figures below are per position
  expect(chosen.length).toBe(3);
  const timeline = encodeTimeline(Array.from({ length: 20 }, (_, i) => ({ atMs: 150 + i * 4, tokens: 1, channel: 'answer' as const })));
  const random = mulberry32(20261130); // deterministic, so a failure can be replayed
  const rows: Array<typeof measurements.$inferInsert> = [];
  // ~3 probes per hour and endpoint, both workloads, odd milliseconds (no ties at window bounds).
  for (let k = 0; k < params.days * 24 * 3; k++) {
    chosen.forEach((e, j) => {
      for (const w of wls) {
        const at = params.now - 30 * 60_000 - k * 20 * 60_000 - Math.floor(random() * 600_000) - 7;
        const failed = random() < 0.05;
        const unrankable = !failed && random() < 0.08;
        const speed = [900, 320, 450][j]! * (w.slug === 'code-1k' ? 1.2 : 1) * (0.8 + 0.4 * random()) * (unrankable ? 3 : 1);
        rows.push({
          jobKey: `j:${e.id}:${w.id}:${k}`,
          endpointId: e.id,
          workloadId: w.id,
          measuredAt: new Date(at),
          workerRegion: 'local',
          workerVersion: 'test',
          outcome: failed ? 'error' : 'success',
          errorKind: failed ? 'timeout' : null,
          ttftMs: failed ? null : 100 + 200 * random(),
          ttfatMs: failed ? null : 110 + 200 * random(),
          e2eMs: failed ? null : 1000 + 1000 * random(),
          outputTokensReported: failed ? null : 256,
          outputTokensO200k: failed ? null : 250,
          outputTokensPerSecond: failed ? null : speed,
          outputTokensPerSecondO200k: failed ? null : speed * 0.98,
          contentChunks: failed ? 0 : 20,
          timeline: failed ? null : timeline,
          rankable: !failed && !unrankable,
          notRankableReasons: failed ? ['failed'] : unrankable ? ['buffered_stream'] : [],
          flags: unrankable ? { buffered: true } : {},
        });
      }
    });
  }
  for (let i = 0; i < rows.length; i += 2000) await t.db.insert(measurements).values(rows.slice(i, i + 2000));
  for (const g of ['hour', 'day'] as const)
    await rebuildRollups(t.db, { granularity: g, from: new Date(params.now - (params.days + 2) * 86400_000), to: new Date(params.now + 3600_000) });
  return { t, endpointIds: chosen.map((e) => e.id), workloadIds: Object.fromEntries(wls.map((w) => [w.slug, w.id])) };
}
