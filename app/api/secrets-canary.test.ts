/**
 * CANARY: a recognisable API key is submitted, used by the verification probe and by a worker
 * probe (both must really send it to the provider), every API route is called as every kind of
 * actor, and then the key is searched for in everything the system wrote: server logs (console
 * and stdout/stderr), every response body and header, and a plain dump of every table
 * (`select *` of each, serialised, bytea included). Expected: zero occurrences outside the
 * provider's own request headers. Pages are covered by e2e/provider-submission.spec.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { format } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { seedCatalog } from '@/db/seed';
import { workloads } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { createGuardedFetch } from '@/lib/security/ssrf-guard';
import { parseEncryptionKey } from '@/lib/security/secrets';
import { createLoopDelayMonitor } from '@/lib/probe/loop-delay-monitor';
import { runProbeJob } from '@/workers/tasks/probe-endpoint';
import { fillPattern, importRoute, listApiRoutes } from './test-support/route-catalog';
import { anonymous, params, req, setupApiTest, signUp, signUpAdmin, type Actor } from './test-support/api-test';
import { sharedChatSubmission } from '@/app/api/test-support/chat-submission';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const CANARY = 'sk-CANARY-7f3e9a1c5b2d4e6f8a0b1c2d3e4f5a6b';
/** Spellings that would also count as a leak. */
const SPELLINGS = [CANARY, encodeURIComponent(CANARY), Buffer.from(CANARY).toString('base64'), Buffer.from(CANARY).toString('hex'), CANARY.slice(3, 30)];

let t: TestDatabase;
let ref: ReferenceServer;
let proxy: http.Server;
let proxyUrl: string;
/** Authorization headers the "provider" received (where the key SHOULD appear). */
const seenByProvider: string[] = [];
const logs: string[] = [];
const responses: Array<{ what: string; text: string }> = [];

function leaks(text: string): string[] {
  return SPELLINGS.filter((s) => text.includes(s));
}

beforeAll(async () => {
  t = await setupApiTest({ TOKENPACE_MAX_PENDING_SUBMISSIONS: '50' });
  // Capture everything the process logs, from here on.
  for (const m of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const orig = console[m].bind(console);
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
      logs.push(format(...args));
      orig(...args);
    });
  }
  for (const stream of [process.stdout, process.stderr]) {
    const orig = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      logs.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return (orig as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
  ref = await startReferenceServer({ port: 0, tps: 3000, ttftMs: 10, outputTokens: 48, tokensPerChunk: 4 });
  // A "provider" in front of the reference server: records the Authorization header, and answers
  // 401 echoing the key back when asked for model "echo-key" (a hostile or careless provider).
  proxy = http.createServer((inReq, inRes) => {
    seenByProvider.push(String(inReq.headers.authorization ?? ''));
    const chunks: Buffer[] = [];
    inReq.on('data', (c: Buffer) => chunks.push(c));
    inReq.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.toString().includes('"echo-key"')) {
        inRes.writeHead(401, { 'content-type': 'application/json', 'x-echo': String(inReq.headers.authorization) });
        inRes.end(JSON.stringify({ error: { message: `invalid api key: ${inReq.headers.authorization}` } }));
        return;
      }
      const u = new URL(ref.url);
      const out = http.request({ host: u.hostname, port: u.port, path: inReq.url, method: inReq.method, headers: inReq.headers }, (r) => {
        inRes.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(inRes);
      });
      out.end(body);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: new URL(ref.url).port ? Number(new URL(ref.url).port) : 3999 });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await new Promise((r) => proxy?.close(r));
  await ref?.close();
  await t?.drop();
});

async function record(what: string, res: Response): Promise<Response> {
  const text = await res.clone().text();
  responses.push({ what, text: `${res.status} ${JSON.stringify([...res.headers])}\n${text}` });
  return res;
}

it('never lets the submitted API key out: logs, responses and database dump', async () => {
  const alice = await signUp('canary-alice@acme.example');
  const bob = await signUp('canary-bob@other.example');
  const admin = await signUpAdmin(t.db, 'canary-admin@tokenpace.example');
  const list = await import('./v1/endpoints/route');
  const one = await import('./v1/endpoints/[id]/route');
  const review = await import('./v1/endpoints/[id]/review/route');
  const tokens = await import('./v1/tokens/route');

  const body = sharedChatSubmission(proxyUrl, { provider: 'Canary Cloud', model: 'llama-4-maverick', apiKey: CANARY, contact: 'ops@canary.example' });
  // 1. Submission with verification probe (success), and one whose provider echoes the key in an error.
  const sub = await record('submit', await list.POST(req(alice, 'POST', '/api/v1/endpoints', body)));
  expect(sub.status).toBe(201);
  const created = (await sub.json()) as { endpoint: { id: number }; verification: { outcome: string } };
  expect(created.verification.outcome).toBe('success');
  const id = created.endpoint.id;
  const echo = await record('submit-echo', await list.POST(req(alice, 'POST', '/api/v1/endpoints', { ...body, apiModelId: 'echo-key' })));
  const echoJson = (await echo.json()) as { endpoint: { id: number }; verification: { outcome: string; errorKind: string; errorMessage: string } };
  expect(echoJson.verification.errorKind).toBe('http_error');
  expect(echoJson.verification.errorMessage).toContain('invalid api key');
  // Invalid submissions carrying the key (it must not be echoed in field errors).
  await record('submit-bad', await list.POST(req(alice, 'POST', '/api/v1/endpoints', { ...body, apiKey: `${CANARY} with spaces`, contact: '' })));
  await record('submit-bad-url', await list.POST(req(alice, 'POST', '/api/v1/endpoints', { ...body, baseUrl: `http://${CANARY}:x@169.254.169.254/` })));

  // 2. Approve, edit (re-verification with the stored, encrypted key), approve again.
  await record(
    'approve',
    await review.POST(req(admin, 'POST', `/api/v1/endpoints/${id}/review`, { decision: 'approve', revision: 1 }), params({ id: String(id) })),
  );
  await record('edit', await one.PATCH(req(alice, 'PATCH', `/api/v1/endpoints/${id}`, { baseUrl: `${proxyUrl}/` }), params({ id: String(id) })));
  await record(
    'approve-2',
    await review.POST(req(admin, 'POST', `/api/v1/endpoints/${id}/review`, { decision: 'approve', revision: 2 }), params({ id: String(id) })),
  );

  // 3. A worker probe: decrypts the stored key inside the worker and sends it.
  const [workload] = await t.db.select().from(workloads).where(eq(workloads.slug, 'prose-1k'));
  const env = (await import('@/lib/env')).getEnv();
  const r = await runProbeJob(
    {
      db: t.db,
      workerId: 'canary-worker',
      workerVersion: 'test',
      createFetch: () => createGuardedFetch({ allowPrivate: true }),
      secretKey: parseEncryptionKey(env.TOKENPACE_SECRET_KEY!),
      monitorLoopDelay: () => createLoopDelayMonitor({ thresholdP99Ms: 10_000 }),
      deadlines: { ttftMs: 10_000, idleMs: 10_000, totalMs: 20_000, maxBytes: 1 << 20 },
      now: () => new Date(),
    },
    'boss-job-1',
    { endpointId: id, workloadId: workload!.id, region: 'local', slotStart: new Date().toISOString(), jobKey: `canary:${id}` },
  );
  expect(r).toMatchObject({ status: 'recorded', outcome: 'success' });

  // The key really reached the provider: twice from verification probes (submit + edit), once from the worker.
  expect(seenByProvider.filter((h) => h === `Bearer ${CANARY}`).length).toBeGreaterThanOrEqual(4);

  // 4. Every API route, every method, as every actor.
  const tokenRes = await record('token', await tokens.POST(req(alice, 'POST', '/api/v1/tokens', { name: 'canary' })));
  const { token } = (await tokenRes.json()) as { token: string };
  const actors: Actor[] = [anonymous, alice, bob, admin, { ...alice, name: 'alice-token', headers: { authorization: `Bearer ${token}` } }];
  const routes = listApiRoutes();
  expect(routes.length).toBeGreaterThan(20);
  const values = { id: String(id), slug: 'llmperf-leaderboard', all: 'get-session' };
  let calls = 0;
  for (const route of routes) {
    const mod = await importRoute(route.file);
    const path = fillPattern(route.pattern, values);
    for (const method of ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'] as const) {
      const fn = mod[method] as ((r: Request, c: unknown) => Promise<Response>) | undefined;
      if (typeof fn !== 'function') continue;
      for (const actor of actors) {
        if (method === 'DELETE' && route.pattern === '/api/v1/endpoints/[id]') continue; // keep the endpoint for the dump
        const ctx = params({ id: String(id), slug: 'llmperf-leaderboard', all: ['get-session'] } as unknown as Record<string, string>);
        const body = method === 'POST' || method === 'PATCH' ? { ...body_for(route.pattern) } : undefined;
        const res = await fn(req(actor, method, path, body), ctx);
        await record(`${method} ${path} as ${actor.name}`, res);
        calls++;
      }
    }
  }
  expect(calls).toBeGreaterThan(100);
  // every call was answered (no handler crashed), so each body above was really produced
  expect(responses.filter((x) => x.text.startsWith('500 ')).map((x) => x.what)).toEqual([]);

  // 5. A plain dump of every table.
  const tables = await t.sql<
    { table_name: string }[]
  >`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`;
  expect(tables.map((x) => x.table_name)).toEqual(
    expect.arrayContaining([
      'endpoints',
      'endpoint_verifications',
      'audit_events',
      'measurements',
      'users',
      'sessions',
      'accounts',
      'api_tokens',
      'rate_limits',
    ]),
  );
  let dump = '';
  for (const { table_name } of tables) {
    const rows = await t.sql.unsafe(`select * from "${table_name}"`);
    dump +=
      `\n-- ${table_name}\n` +
      JSON.stringify(rows, (_k, v) => (v && typeof v === 'object' && v.type === 'Buffer' ? Buffer.from(v.data).toString('latin1') : v));
  }
  expect(dump).toContain('v1:'); // the envelope is there…
  expect(dump.length).toBeGreaterThan(10_000);

  // 6. Zero occurrences anywhere.
  expect(leaks(dump)).toEqual([]);
  const leakedResponses = responses.filter((x) => leaks(x.text).length > 0).map((x) => x.what);
  expect(leakedResponses).toEqual([]);
  expect(responses.length).toBeGreaterThan(100);
  const allLogs = logs.join('\n');
  expect(leaks(allLogs)).toEqual([]);
  expect(allLogs).toContain('verify-email link'); // the capture works
});

/** A plausible body per mutating route (the canary key included where a key fits). */
function body_for(pattern: string): Record<string, unknown> {
  if (pattern.endsWith('/review')) return { decision: 'reject', reason: `probe ${CANARY.slice(0, 3)}`, revision: 1 };
  if (pattern === '/api/v1/tokens') return { name: 'x' };
  if (pattern === '/api/v1/endpoints/[id]') return { notes: 'edited', apiKey: CANARY };
  if (pattern === '/api/v1/endpoints')
    return sharedChatSubmission(proxyUrl, { provider: 'Canary Two', model: 'llama-4-maverick', apiKey: CANARY, contact: 'x@y.example' });
  if (pattern.startsWith('/api/auth')) return { email: 'canary-alice@acme.example', password: CANARY };
  return {};
}
