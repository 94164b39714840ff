/**
 * Issue 9 / decision 060: the worker writes rankable, not_rankable_reasons, evidence and
 * retry_after_ms on the measurement row, adds event_loop_stall itself, and hourly rollups take
 * their percentiles only from rankable measurements (counts still cover every probe). Real
 * Postgres (cloned test database), real local HTTP server, the real worker task.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rebuildRollups } from '@/db/queries/rollups';
import { seedCatalog } from '@/db/seed';
import { endpoints, measurementRollups, measurements, models, providers, workloads } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import type { FetchLike } from '@/lib/probe/types';
import { fixedLoopDelay } from '@/lib/probe/test-support/fixed-loop-delay';
import { runProbeJob, type ProbeTaskContext } from './probe-endpoint';
import { probeTaskContext } from './test-support/probe-task-context';

let t: TestDatabase;
let server: http.Server;
let port = 0;

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

beforeAll(async () => {
  t = await createTestDatabase();
  // /good: 12 one-token events 10 ms apart; /odd: the same in an unknown field; /busy: HTTP 429.
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/busy')) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' }).end('{"error":{"message":"slow down"}}');
        return;
      }
      const field = req.url?.startsWith('/odd') ? 'output_text' : 'content';
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const timer = setInterval(() => {
        if (i < 12) res.write(chunk({ [field]: ' hello' }));
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
  server?.close();
  await t?.drop();
});

async function addEndpoint(slug: string, path: string): Promise<number> {
  const [provider] = await t.db.insert(providers).values({ slug: `${slug}-co`, name: `${slug} co` }).returning({ id: providers.id });
  const [model] = await t.db.select({ id: models.id }).from(models).limit(1);
  const [ep] = await t.db
    .insert(endpoints)
    .values({ slug, providerId: provider!.id, modelId: model!.id, protocol: 'openai-chat', baseUrl: `http://127.0.0.1:${port}${path}`, apiModelId: 'm', allowPrivate: true, status: 'active' })
    .returning({ id: endpoints.id });
  return ep!.id;
}

function context(loopDelayMs: number): ProbeTaskContext {
  return probeTaskContext(t.db, {
    createFetch: () => globalThis.fetch as FetchLike,
    monitorLoopDelay: fixedLoopDelay(loopDelayMs),
    now: () => new Date('2026-03-01T10:15:00Z'),
  });
}

it('writes rankability, evidence and retry_after_ms; rollups use rankable rows only', async () => {
  const [workload] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-100'));
  const run = async (endpointId: number, key: string, loopDelayMs = 0) =>
    runProbeJob(context(loopDelayMs), `boss-${key}`, { endpointId, workloadId: workload!.id, region: 'local', slotStart: '2026-03-01T10:00:00.000Z', jobKey: key });
  const good = await addEndpoint('tp-good', '/good/v1');
  const odd = await addEndpoint('tp-odd', '/odd/v1');
  const busy = await addEndpoint('tp-busy', '/busy/v1');
  expect((await run(good, 'k-good')).status).toBe('recorded');
  expect((await run(good, 'k-good-stalled', 500)).status).toBe('recorded');
  expect((await run(odd, 'k-odd')).status).toBe('recorded');
  expect((await run(busy, 'k-busy')).status).toBe('recorded');

  const rows = await t.db
    .select({ jobKey: measurements.jobKey, rankable: measurements.rankable, reasons: measurements.notRankableReasons, evidence: measurements.evidence, flags: measurements.flags, retryAfterMs: measurements.retryAfterMs, e2eMs: measurements.e2eMs, valid: measurements.valid })
    .from(measurements);
  const byKey = Object.fromEntries(rows.map((r) => [r.jobKey, r]));
  expect(byKey['k-good']).toMatchObject({ rankable: true, reasons: [], evidence: {}, valid: true });
  expect(byKey['k-good-stalled']).toMatchObject({ rankable: false, reasons: ['event_loop_stall'], valid: false });
  expect(byKey['k-odd']!.rankable).toBe(false);
  expect(byKey['k-odd']!.reasons).toContain('unrecognized_shape');
  expect(byKey['k-odd']!.evidence).toEqual({ unrecognizedPaths: ['choices[0].delta.output_text'] });
  expect(byKey['k-odd']!.flags).toMatchObject({ unrecognizedShape: true });
  expect(byKey['k-busy']).toMatchObject({ rankable: false, reasons: ['failed'], retryAfterMs: 3000 });
  expect(byKey['k-busy']!.e2eMs).not.toBeNull();

  await rebuildRollups(t.db, { granularity: 'hour', from: new Date('2026-03-01T10:00:00Z'), to: new Date('2026-03-01T11:00:00Z') });
  const rollups = await t.db
    .select({ endpointId: measurementRollups.endpointId, count: measurementRollups.count, successes: measurementRollups.successes, stats: measurementRollups.stats })
    .from(measurementRollups)
    .where(eq(measurementRollups.granularity, 'hour'));
  const of = (id: number) => rollups.find((r) => r.endpointId === id)!;
  // Both good probes are counted; only the unstalled one makes the percentiles (p5 = p95).
  expect(of(good).count).toBe(2);
  const tps = of(good).stats.outputTokensPerSecond!;
  expect(tps.p5).toBe(tps.p95);
  // The unrecognised stream is counted but gives no percentiles; the failure likewise.
  expect(of(odd).count).toBe(1);
  expect(of(odd).stats.outputTokensPerSecond).toBeNull();
  expect(of(busy).count).toBe(1);
});
