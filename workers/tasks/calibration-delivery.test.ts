/**
 * Decision 182: calibration against what was really sent. A reference server deliberately slowed
 * (slowdownFactor 1.25: it claims 1,000 TPS/user and delivers 800) shows up as SERVER LATENESS
 * (delivered vs configured ≈ −20 %), not as probe error (measured vs delivered ≈ 0); an honest
 * server shows no probe error and is never ahead of its configuration. Real Postgres, real
 * reference servers over loopback, the real worker task and guarded fetch, and the probe's real
 * timing evidence: on a busy machine a measurement is right within its bound or not rankable, and
 * the probe error is judged over the rankable ones (decision 286). How close an honest server
 * comes to its configuration on a quiet machine is a bench figure (`npm run bench:probe`).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCalibrationDeliveries } from '@/db/queries/calibration-delivery';
import { seedCatalog } from '@/db/seed';
import { endpoints, measurements, workloads } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { splitCalibrationError, summarizeCalibrationSplit } from '@/lib/reference-server/delivery-report';
import { startReferenceServer, STREAM_ID_HEADER, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { percentile } from '@/lib/stats/percentiles';
import type { FetchLike } from '@/lib/probe/types';
import { runProbeJob } from './probe-endpoint';
import { closeFetches, probeTaskContext } from './test-support/probe-task-context';

let t: TestDatabase;
const servers: ReferenceServer[] = [];
const fetches: FetchLike[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(async () => {
  await closeFetches(fetches);
  for (const s of servers) await s.close();
  await t?.drop();
});

/** Points the seeded calibration endpoint at a fresh reference server and probes it `runs` times. */
async function probeCalibration(slowdownFactor: number, runs: number, tag: string) {
  const server = await startReferenceServer({ port: 0, tps: 1000, ttftMs: 50, outputTokens: 256, slowdownFactor });
  servers.push(server);
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: server.port });
  const [cal] = await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.isCalibration, true));
  const [workload] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-100'));
  const ctx = probeTaskContext(t.db, {}, fetches);
  const from = new Date();
  for (let i = 0; i < runs; i++) {
    const key = `${tag}-${i}`;
    const r = await runProbeJob(ctx, `boss-${key}`, {
      endpointId: cal!.id,
      workloadId: workload!.id,
      region: 'local',
      slotStart: new Date().toISOString(),
      jobKey: key,
    });
    expect(r).toMatchObject({ status: 'recorded', outcome: 'success' });
  }
  const rows = await listCalibrationDeliveries(t.db, { endpointId: cal!.id, from, to: new Date(Date.now() + 1000), limit: 100 });
  return { rows, summary: summarizeCalibrationSplit(rows, (v) => percentile(v, 50)) };
}

/**
 * Against what was delivered the probe is right: over the rankable measurements (each within its
 * own bound, at most 1 % speed, decision 181) the median error is within 2 %, the 1 % plus the
 * server's own stamps (taken beside its writes, on the same busy loop); none rankable (every one
 * timing_uncertain on a very busy machine) leaves no probe error to judge, never a wrong one.
 */
function expectNoProbeError(summary: { rankable: number; probeSpeedErrorPct: number | null }): void {
  if (summary.rankable === 0) {
    expect(summary.probeSpeedErrorPct).toBeNull();
    return;
  }
  expect(Math.abs(summary.probeSpeedErrorPct!), JSON.stringify(summary)).toBeLessThan(2);
}

describe('calibration: probe error apart from server lateness', () => {
  it('a deliberately slowed reference server is server lateness, not probe error', { timeout: 60_000 }, async () => {
    const { rows, summary } = await probeCalibration(1.25, 3, 'slow');
    // 3 jobs; one whose timing the probe could not vouch for is probed once more (decision 181)
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.length).toBeLessThanOrEqual(6);
    for (const r of rows) {
      // every measurement carries the server's own record of its stream
      expect(r.delivered).toMatchObject({ configuredTps: 1000, configuredTtftMs: 50 });
      // at most 800 tok/s (a busy machine only slows the server further: that is its lateness too)
      expect(r.delivered!.tps!).toBeLessThan(830);
    }
    expect(summary.n).toBe(rows.length);
    // the server delivered at most 1000 / 1.25 = 800 tok/s: −20 % lateness or more, on any machine
    expect(summary.serverSpeedLatenessPct!).toBeLessThan(-19.9);
    expectNoProbeError(summary);
    // the configured-vs-measured error the old badge showed would have blamed the probe for all of it
    const configuredError = ((rows[0]!.tps! - 1000) / 1000) * 100;
    expect(configuredError).toBeLessThan(-12);
  });

  it('an honest reference server shows no probe error and is never ahead of its configuration', { timeout: 60_000 }, async () => {
    const { rows, summary } = await probeCalibration(1, 3, 'honest');
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(summary.n).toBe(rows.length);
    // never ahead of its configuration (a busy machine can only make it late: its own lateness)
    for (const r of rows) expect(r.delivered!.tps!).toBeLessThanOrEqual(1000 * (1 + 1e-4));
    expect(summary.serverSpeedLatenessPct!).toBeLessThanOrEqual(0.01);
    expectNoProbeError(summary);
  });

  it('a calibration endpoint that is not our reference server (no report) stores no delivered evidence', { timeout: 60_000 }, async () => {
    const rows = await t.db.select({ evidence: measurements.evidence }).from(measurements);
    expect(rows.every((r) => r.evidence.delivered !== undefined)).toBe(true);
    // the header names the stream; an unknown id is a 404, never another stream's record
    const server = servers[0]!;
    const res = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ stream: true, max_tokens: 2 }) });
    const id = res.headers.get(STREAM_ID_HEADER);
    await res.text();
    expect(id).toMatch(/^chatcmpl-ref-\d+$/);
    expect((await fetch(`${server.url}/tokenpace/deliveries/${id}`)).status).toBe(200);
    expect((await fetch(`${server.url}/tokenpace/deliveries/chatcmpl-ref-999999`)).status).toBe(404);
    expect((await fetch(`${server.url}/tokenpace/deliveries/..%2Fetc`)).status).toBe(404);
  });
});

describe('splitCalibrationError', () => {
  it('separates the two errors exactly', () => {
    const s = splitCalibrationError({ tps: 792, ttftMs: 55 }, { tps: 800, ttftMs: 52, configuredTps: 1000, configuredTtftMs: 50 });
    expect(s.probeSpeedErrorPct).toBeCloseTo(-1, 9);
    expect(s.probeTtftErrorMs).toBeCloseTo(3, 9);
    expect(s.serverSpeedLatenessPct).toBeCloseTo(-20, 9);
    expect(s.serverTtftLatenessMs).toBeCloseTo(2, 9);
  });

  it('probe error only over rankable measurements; server lateness over all with a report', () => {
    const d = { tps: 800, ttftMs: 50, configuredTps: 1000, configuredTtftMs: 50 };
    const summary = summarizeCalibrationSplit(
      [
        { tps: 800, ttftMs: 50, rankable: true, delivered: d },
        { tps: 400, ttftMs: 90, rankable: false, delivered: { ...d, tps: 1000 } },
        { tps: 999, ttftMs: 1, rankable: true, delivered: null },
      ],
      (v) => percentile(v, 50),
    );
    expect(summary).toMatchObject({ n: 2, rankable: 1, probeSpeedErrorPct: 0, worstRankedProbeSpeedErrorPct: 0 });
    expect(summary.serverSpeedLatenessPct).toBeCloseTo(-10, 9); // median of −20 and 0
  });
});
