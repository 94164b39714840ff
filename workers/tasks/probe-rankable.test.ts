/**
 * Issue 9 / decision 060: the worker writes rankable, not_rankable_reasons, evidence and
 * retry_after_ms on the measurement row, the error bound (decision 180) with timing_uncertain and
 * its re-probes (decisions 181, 309), and hourly rollups take their percentiles only from rankable
 * measurements (counts still cover every probe). Real Postgres (cloned test database), real local
 * HTTP server, the real worker task; the timing evidence is injected (quiet / unknown), so the
 * verdicts do not depend on this machine's load.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rebuildRollups } from '@/db/queries/rollups';
import { seedCatalog } from '@/db/seed';
import { measurementRollups, measurements, workloads } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import type { FetchLike } from '@/lib/probe/types';
import { fixedLoopDelay } from '@/lib/probe/test-support/fixed-loop-delay';
import { injectLateness, restoreLateness } from '@/lib/probe/test-support/injected-lateness';
import { mergeSketchJson, createSketch, sketchSummary, type SketchJson } from '@/lib/stats/sketch';
import { MAX_TIMING_RETRIES, runProbeJob, type ProbeTaskContext } from './probe-endpoint';
import { probeTaskContext } from './test-support/probe-task-context';
import { addTestEndpoint } from './test-support/add-test-endpoint';

let t: TestDatabase;
let server: http.Server;
let port = 0;
const settleSeen = new Map<string, number>();

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

beforeAll(async () => {
  t = await createTestDatabase();
  // /good: 12 one-token events 10 ms apart; /odd: the same in an unknown field; /busy: HTTP 429.
  // Each request gets its own word order: probes carry secret, distinct prompts (decision 173), and
  // one fixed text for all of them would rightly be repeated_answer.
  const WORDS = [' one', ' two', ' three', ' four', ' five', ' six', ' seven', ' eight', ' nine', ' ten', ' red', ' blue'];
  let served = 0;
  server = http.createServer((req, res) => {
    const shift = served++;
    req.resume();
    // /settle-N/: the probe's clock becomes quiet from this path's N-th request on (a busy spell passing)
    const settle = /^\/settle-(\d+)\//.exec(req.url ?? '');
    if (settle) {
      const seen = (settleSeen.get(settle[1]!) ?? 0) + 1;
      settleSeen.set(settle[1]!, seen);
      if (seen >= Number(settle[1])) injectLateness('quiet');
    }
    req.on('end', () => {
      if (req.url?.startsWith('/busy')) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' }).end('{"error":{"message":"slow down"}}');
        return;
      }
      const field = req.url?.startsWith('/odd') ? 'output_text' : 'content';
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const timer = setInterval(() => {
        if (i < 12) res.write(chunk({ [field]: WORDS[(i + shift) % WORDS.length]! }));
        else {
          clearInterval(timer);
          res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
        }
        i++;
      }, 10);
    });
  });
  port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: port });
});

afterAll(async () => {
  restoreLateness();
  server?.close();
  await t?.drop();
});

const addEndpoint = (slug: string, path: string) => addTestEndpoint(t.db, slug, `http://127.0.0.1:${port}${path}`, { apiModelId: 'm' });

function context(loopDelayMs: number): ProbeTaskContext {
  return probeTaskContext(t.db, {
    createFetch: () => globalThis.fetch as FetchLike,
    monitorLoopDelay: fixedLoopDelay(loopDelayMs),
    now: () => new Date('2026-03-01T10:15:00Z'),
  });
}

it('writes rankability, evidence and retry_after_ms; rollups use rankable rows only', async () => {
  const [workload] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-100'));
  const run = async (endpointId: number, key: string, lateness: 'quiet' | 'unknown' = 'quiet', loopDelayMs = 0) => {
    injectLateness(lateness);
    return runProbeJob(context(loopDelayMs), `boss-${key}`, {
      endpointId,
      workloadId: workload!.id,
      region: 'local',
      slotStart: '2026-03-01T10:00:00.000Z',
      jobKey: key,
    });
  };
  const good = await addEndpoint('tp-good', '/good/v1');
  const odd = await addEndpoint('tp-odd', '/odd/v1');
  const busy = await addEndpoint('tp-busy', '/busy/v1');
  expect((await run(good, 'k-good')).status).toBe('recorded');
  // A loop-delay p99 of 500 ms no longer decides anything (evidence only); no timing evidence does.
  expect((await run(good, 'k-good-loop', 'quiet', 500)).status).toBe('recorded');
  expect((await run(good, 'k-good-stalled', 'unknown')).status).toBe('recorded');
  expect((await run(odd, 'k-odd')).status).toBe('recorded');
  expect((await run(busy, 'k-busy')).status).toBe('recorded');

  const rows = await t.db
    .select({
      jobKey: measurements.jobKey,
      rankable: measurements.rankable,
      reasons: measurements.notRankableReasons,
      evidence: measurements.evidence,
      flags: measurements.flags,
      retryAfterMs: measurements.retryAfterMs,
      e2eMs: measurements.e2eMs,
      valid: measurements.valid,
      ttftBoundMs: measurements.ttftBoundMs,
      speedBoundPct: measurements.speedBoundPct,
      e2eBoundMs: measurements.e2eBoundMs,
      loopP99: measurements.eventLoopDelayP99Ms,
    })
    .from(measurements);
  const byKey = Object.fromEntries(rows.map((r) => [r.jobKey, r]));
  expect(byKey['k-good']).toMatchObject({ rankable: true, reasons: [], valid: true });
  // The bound is stored: columns and evidence.timing; with quiet evidence only the request-start slack remains.
  expect(byKey['k-good']!.speedBoundPct).toBe(0);
  expect(byKey['k-good']!.ttftBoundMs).toBeCloseTo(0.05, 9); // the injected request-start slack
  expect(byKey['k-good']!.evidence).toMatchObject({ timing: { firstTokenLatenessMs: 0, lastTokenLatenessMs: 0, firstReadEvents: 1, lastReadEvents: 1 } });
  expect(byKey['k-good-loop']).toMatchObject({ rankable: true, reasons: [], valid: true, loopP99: 500 });
  // Unknown evidence: kept, not rankable, valid false; probed once more under its own key (also unknown here).
  expect(byKey['k-good-stalled']).toMatchObject({ rankable: false, reasons: ['timing_uncertain'], valid: false, ttftBoundMs: null, speedBoundPct: null });
  expect(byKey['k-good-stalled:timing-retry']).toMatchObject({ rankable: false, reasons: ['timing_uncertain'], valid: false });
  // …and once more (decision 309), then no further: at most MAX_TIMING_RETRIES re-probes a slot.
  expect(byKey['k-good-stalled:timing-retry-2']).toMatchObject({ rankable: false, reasons: ['timing_uncertain'], valid: false });
  expect(rows.filter((r) => r.jobKey.startsWith('k-good-stalled')).length).toBe(1 + MAX_TIMING_RETRIES);
  expect(byKey['k-good-stalled:timing-retry-3']).toBeUndefined();
  // A slot that failed for another reason is not re-probed.
  expect(byKey['k-odd:timing-retry']).toBeUndefined();
  expect(byKey['k-odd:timing-retry-2']).toBeUndefined();
  expect(rows.filter((r) => r.jobKey.endsWith(':timing-retry:timing-retry'))).toEqual([]);
  expect(byKey['k-odd']!.rankable).toBe(false);
  expect(byKey['k-odd']!.reasons).toContain('unrecognized_shape');
  expect(byKey['k-odd']!.evidence).toMatchObject({ unrecognizedPaths: ['choices[0].delta.output_text'] });
  expect(byKey['k-odd']!.flags).toMatchObject({ unrecognizedShape: true });
  expect(byKey['k-busy']).toMatchObject({ rankable: false, reasons: ['failed'], retryAfterMs: 3000 });
  expect(byKey['k-busy']!.e2eMs).not.toBeNull();

  await rebuildRollups(t.db, { granularity: 'hour', from: new Date('2026-03-01T10:00:00Z'), to: new Date('2026-03-01T11:00:00Z') });
  const rollups = await t.db
    .select({
      endpointId: measurementRollups.endpointId,
      count: measurementRollups.count,
      successes: measurementRollups.successes,
      sketches: measurementRollups.sketches,
    })
    .from(measurementRollups)
    .where(eq(measurementRollups.granularity, 'hour'));
  const of = (id: number) => rollups.find((r) => r.endpointId === id)!;
  // Every good probe is counted (the uncertain one and its two re-probes too); the percentiles come
  // from the two rankable ones only.
  expect(of(good).count).toBe(5);
  // The rollup's percentiles as every reader gets them: from its mergeable sketch (the one engine).
  const summary = (id: number) => sketchSummary(mergeSketchJson(createSketch(), of(id).sketches.outputTokensPerSecond as SketchJson | undefined));
  const tps = summary(good)!;
  const ranked = await t.db.select({ tps: measurements.outputTokensPerSecond }).from(measurements).where(eq(measurements.rankable, true));
  const rankedGood = ranked.map((r) => r.tps!).sort((a, b) => a - b);
  expect(rankedGood).toHaveLength(2);
  // percentiles of the two rankable rows only (sketch accuracy: within 1 %)
  for (const p of [tps.p5, tps.p95]) {
    expect(p).toBeGreaterThanOrEqual(rankedGood[0]! * 0.99);
    expect(p).toBeLessThanOrEqual(rankedGood[1]! * 1.01);
  }
  // The unrecognised stream is counted but gives no percentiles; the failure likewise.
  expect(of(odd).count).toBe(1);
  expect(summary(odd)).toBeNull();
  expect(of(busy).count).toBe(1);
});

it('a slot uncertain only on timing is re-probed until a run is certain, at most MAX_TIMING_RETRIES times (decision 309)', async () => {
  const [workload] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-100'));
  const run = async (endpointId: number, key: string) => {
    injectLateness('unknown');
    return runProbeJob(context(0), `boss-${key}`, {
      endpointId,
      workloadId: workload!.id,
      region: 'local',
      slotStart: '2026-03-01T10:00:00.000Z',
      jobKey: key,
    });
  };
  const keysOf = async (prefix: string) =>
    (await t.db.select({ jobKey: measurements.jobKey, rankable: measurements.rankable }).from(measurements))
      .filter((r) => r.jobKey.startsWith(prefix))
      .sort((a, b) => a.jobKey.localeCompare(b.jobKey))
      .map((r) => `${r.jobKey}=${r.rankable}`);
  // certain on the first re-probe: no second one
  await run(await addEndpoint('tp-settle-2', '/settle-2/v1'), 's2');
  expect(await keysOf('s2')).toEqual(['s2=false', 's2:timing-retry=true']);
  // certain only on the last allowed re-probe (the edge): ranked
  await run(await addEndpoint('tp-settle-3', '/settle-3/v1'), 's3');
  expect(await keysOf('s3')).toEqual(['s3=false', 's3:timing-retry=false', 's3:timing-retry-2=true']);
  // certain one request too late: every run kept as evidence, none ranked, no fourth request
  await run(await addEndpoint('tp-settle-4', '/settle-4/v1'), 's4');
  expect(await keysOf('s4')).toEqual(['s4=false', 's4:timing-retry=false', 's4:timing-retry-2=false']);
  restoreLateness();
});
