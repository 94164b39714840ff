/**
 * Decision 173: two probes of the same slot, endpoint and workload send prompts with no
 * predictable part in common (their request nonces and fidelity codes differ), and neither equals
 * what the public builder gives for the slot alone. Real Postgres, a real local server that
 * records the request bodies it receives.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { endpoints, measurements, workloads } from '@/db/schema';
import { seedCatalog } from '@/db/seed';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { buildPrompt } from '@/lib/probe/workloads';
import { injectLateness, restoreLateness } from '@/lib/probe/test-support/injected-lateness';
import { runProbeJob } from './probe-endpoint';
import { closeFetches, probeTaskContext } from './test-support/probe-task-context';

let t: TestDatabase;
let server: http.Server;
let url = '';
let ctx: ReturnType<typeof probeTaskContext>;
const bodies: Array<{ messages: Array<{ content: string }> }> = [];

beforeAll(async () => {
  injectLateness('quiet');
  t = await createTestDatabase();
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      bodies.push(JSON.parse(raw) as (typeof bodies)[number]);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const words = ['Tokens', ' arrive', ' one', ' by', ' one', ' here', '.'];
      words.forEach((w, i) => res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: i === 0 ? { role: 'assistant', content: w } : { content: w } }] })}\n\n`));
      res.end(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  await seedCatalog(t.db, { workloads: [{ slug: 'prose-1k', category: 'prose', inputTokensTarget: 1000, maxOutputTokens: 64, concurrency: 1, scheduled: true }], lookupEnv: () => null, referencePort: 1 });
}, 120_000);

afterAll(async () => {
  restoreLateness();
  await closeFetches(ctx.fetches);
  await new Promise<void>((r) => server.close(() => r()));
  await t?.drop();
});

it('two probes of the same slot share no predictable part, and neither is the public builder’s prompt', async () => {
  const [cal] = await t.db.select({ providerId: endpoints.providerId, modelId: endpoints.modelId }).from(endpoints).where(eq(endpoints.isCalibration, true));
  const [ep] = await t.db.insert(endpoints).values({ slug: 'recording-local', providerId: cal!.providerId, modelId: cal!.modelId, protocol: 'openai-chat', baseUrl: url, apiModelId: 'm', allowPrivate: true, status: 'active' }).returning({ id: endpoints.id });
  const [wl] = await t.db.select({ id: workloads.id, slug: workloads.slug }).from(workloads).where(eq(workloads.slug, 'prose-1k'));
  const slotStart = '2026-12-01T12:00:00.000Z';
  ctx = probeTaskContext(t.db);
  for (const region of ['a', 'b']) {
    await runProbeJob(ctx, `job-${region}`, { jobKey: `secret:${region}`, endpointId: ep!.id, workloadId: wl!.id, slotStart, region, fidelity: false });
  }
  // One prompt per probe (a re-probe of the same slot, if any, resends its own prompt).
  const prompts = [...new Set(bodies.map((b) => b.messages.at(-1)!.content))];
  expect(prompts).toHaveLength(2);
  const [p1, p2] = prompts as [string, string];
  const nonce = (p: string) => /^Request ([0-9a-f]{16})\./.exec(p)?.[1];
  expect(nonce(p1)).toBeDefined();
  expect(nonce(p1)).not.toBe(nonce(p2));
  // the material differs from the first sentence on, not only in the nonce
  expect(p1.slice(40, 400)).not.toBe(p2.slice(40, 400));
  const publicPrompt = buildPrompt({ slug: wl!.slug, category: 'prose', inputTokensTarget: 1000 }, slotStart).prompt;
  expect([p1, p2]).not.toContain(publicPrompt);
  expect(nonce(publicPrompt)).not.toBe(nonce(p1));
  const stored = await t.db.select({ promptHash: measurements.promptHash }).from(measurements).where(eq(measurements.endpointId, ep!.id));
  expect(new Set(stored.map((m) => m.promptHash)).size).toBe(2);
  expect(bodies.length).toBeLessThanOrEqual(4);
});
