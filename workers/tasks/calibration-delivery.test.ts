/**
 * Decision 182: calibration against what was really sent. A reference server deliberately slowed
 * (slowdownFactor 1.25: it claims 1,000 TPS/user and delivers 800) shows up as SERVER LATENESS
 * (delivered vs configured ≈ −20 %), not as probe error (measured vs delivered ≈ 0); an honest
 * server shows neither. Real Postgres, real reference servers over loopback, the real worker task
 * and guarded fetch; the probe's timing evidence is injected as quiet so that rankability does
 * not depend on this machine's load (the bound is tested in lib/probe/timing-bound.test.ts).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCalibrationDeliveries } from '@/db/queries/calibration-delivery';
import { seedCatalog } from '@/db/seed';
import { endpoints, measurements, workloads } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { injectLateness, restoreLateness } from '@/lib/probe/test-support/injected-lateness';
import { splitCalibrationError, summarizeCalibrationSplit } from '@/lib/reference-server/delivery-report';
import { startReferenceServer, STREAM_ID_HEADER, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { percentile } from '@/lib/stats/percentiles';
import type { FetchLike } from '@/lib/probe/types';
import { runProbeJob } from './probe-endpoint';
import { closeFetches, probeTaskContext } from './test-support/probe-task-context';

let t: TestDatabase;
const servers: ReferenceServer[] = [];
const fetches: FetchLike[] = [];
let slowLatenessPct = Number.NaN;

beforeAll(async () => {
  t = await createTestDatabase();
  injectLateness('quiet');
});

afterAll(async () => {
  restoreLateness();
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
    const r = await runProbeJob(ctx, `boss-${key}`, { endpointId: cal!.id, workloadId: workload!.id, region: 'local', slotStart: new Date().toISOString(), jobKey: key });
    expect(r).toMatchObject({ status: 'recorded', outcome: 'success' });
  }
  const rows = await listCalibrationDeliveries(t.db, { endpointId: cal!.id, from, to: new Date(Date.now() + 1000), limit: 100 });
  return { rows, summary: summarizeCalibrationSplit(rows, (v) => percentile(v, 50)) };
}

describe('calibration: probe error apart from server lateness', () => {
  it('a deliberately slowed reference server is server lateness, not probe error', { timeout: 60_000 }, async () => {
    const { rows, summary } = await probeCalibration(1.25, 3, 'slow');
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      // every measurement carries the server's own record of its stream
      expect(r.delivered).toMatchObject({ configuredTps: 1000, configuredTtftMs: 50 });
      // at most 800 tok/s (a busy machine only slows the server further: that is its lateness too)
      expect(r.delivered!.tps!).toBeLessThan(830);
    }
    expect(summary.n).toBe(3);
    // (a heavily loaded machine may coalesce reads into bulk ones: buffered_stream; probe error is over the rankable ones)
    expect(summary.rankable).toBeGreaterThan(0);
    // the server delivered 1000 / 1.25 = 800 tok/s: −20 % lateness
    expect(summary.serverSpeedLatenessPct!).toBeLessThan(-15);
    slowLatenessPct = summary.serverSpeedLatenessPct!;
    // against what was delivered the probe is right (a loaded machine's server timers aside)
    expect(Math.abs(summary.probeSpeedErrorPct!)).toBeLessThan(5);
    // the configured-vs-measured error the old badge showed would have blamed the probe for all of it
    const configuredError = ((rows[0]!.tps! - 1000) / 1000) * 100;
    expect(configuredError).toBeLessThan(-12);
  });

  it('an honest reference server shows neither', { timeout: 60_000 }, async () => {
    const { summary } = await probeCalibration(1, 3, 'honest');
    expect(summary.n).toBe(3);
    // the same machine, the same load: the honest server is at least 10 points less late
    expect(summary.serverSpeedLatenessPct!).toBeGreaterThan(slowLatenessPct + 10);
    expect(Math.abs(summary.probeSpeedErrorPct!)).toBeLessThan(5);
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
