/**
 * Issue 11: the operator's environment credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/
 * AWS_SESSION_TOKEN for Bedrock SigV4, and any `apiKeyEnv` variable) are used only for catalog
 * endpoints. An approved SUBMITTED Bedrock endpoint pointing at the submitter's own server must
 * never receive the operator's key id or session token. A real local HTTP server records what
 * arrives; the probe job runs through the real worker task and the SSRF-guarded fetch.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getProbeSpec } from '@/db/queries/probe-targets';
import { seedCatalog } from '@/db/seed';
import { endpoints, endpointSubmissions, models, providers, users, workloads } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import type { FetchLike } from '@/lib/probe/types';
import { runProbeJob } from './probe-endpoint';
import { closeFetches, probeTaskContext } from './test-support/probe-task-context';

const OPERATOR = {
  AWS_ACCESS_KEY_ID: 'AKIAOPERATOR0EXAMPLE1',
  AWS_SECRET_ACCESS_KEY: 'operator-secret-access-key-0123456789',
  AWS_SESSION_TOKEN: 'operator-session-token-abcdef',
};

let t: TestDatabase;
let server: http.Server;
let port = 0;
const seen: Array<{ url: string; headers: http.IncomingHttpHeaders }> = [];
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  for (const [k, v] of Object.entries(OPERATOR)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  t = await createTestDatabase();
  server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"no"}');
  });
  port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: (name) => process.env[name] ?? null, referencePort: port });
});

afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  server?.close();
  await t?.drop();
});

it('a submitted, approved Bedrock endpoint never gets the operator credentials', async () => {
  await t.db.insert(users).values({ id: 'u-submitter', name: 'Mallory', email: 'mallory@evil.example' });
  const [provider] = await t.db.insert(providers).values({ slug: 'mallory-cloud', name: 'Mallory Cloud' }).returning({ id: providers.id });
  const [model] = await t.db.select({ id: models.id }).from(models).limit(1);
  const [ep] = await t.db
    .insert(endpoints)
    .values({
      slug: 'mallory-bedrock',
      providerId: provider!.id,
      modelId: model!.id,
      protocol: 'bedrock-converse-stream',
      baseUrl: `http://127.0.0.1:${port}`,
      apiModelId: 'us.meta.llama4-maverick-17b-instruct-v1:0',
      apiKeyEnv: 'AWS_ACCESS_KEY_ID', // even if a submission managed to carry a variable name
      region: 'us-east-1',
      allowPrivate: true,
      status: 'active',
      ownerUserId: 'u-submitter',
    })
    .returning({ id: endpoints.id });
  await t.db.insert(endpointSubmissions).values({ endpointId: ep!.id, ownerUserId: 'u-submitter' });
  const [workload] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-100'));

  const spec = await getProbeSpec(t.db, ep!.id, workload!.id);
  expect(spec?.operatorCredentials).toBe(false);
  expect(spec?.awsCredentialsAllowed).toBe(false);

  const fetches: FetchLike[] = [];
  const result = await runProbeJob(
    probeTaskContext(t.db, { deadlines: { ttftMs: 5_000, idleMs: 5_000, totalMs: 10_000, maxBytes: 1024 * 1024 } }, fetches),
    'boss-job-1',
    {
      endpointId: ep!.id,
      workloadId: workload!.id,
      region: 'local',
      slotStart: '2026-01-01T00:00:00.000Z',
      jobKey: `probe:${ep!.id}:${workload!.id}:local:2026-01-01T00:00:00.000Z`,
    },
  );
  await closeFetches(fetches);
  expect(result.status).toBe('recorded');
  expect(seen).toHaveLength(1);
  const sent = JSON.stringify(seen[0]!.headers);
  expect(sent).not.toContain(OPERATOR.AWS_ACCESS_KEY_ID);
  expect(sent).not.toContain(OPERATOR.AWS_SESSION_TOKEN);
  expect(seen[0]!.headers.authorization ?? '').not.toMatch(/AWS4-HMAC/);
  expect(seen[0]!.headers['x-amz-security-token']).toBeUndefined();
});

it('the seeded catalog Bedrock endpoint still uses them (only toward the AWS host)', async () => {
  const [bedrock] = await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.slug, 'bedrock-llama-4-maverick'));
  const [workload] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-100'));
  const spec = await getProbeSpec(t.db, bedrock!.id, workload!.id);
  expect(spec?.operatorCredentials).toBe(true);
  expect(spec?.awsCredentialsAllowed).toBe(true);
  // a catalog endpoint moved off AWS keeps its variable key but never gets SigV4 credentials
  await t.db
    .update(endpoints)
    .set({ baseUrl: `http://127.0.0.1:${port}` })
    .where(eq(endpoints.id, bedrock!.id));
  const moved = await getProbeSpec(t.db, bedrock!.id, workload!.id);
  expect(moved?.awsCredentialsAllowed).toBe(false);
});
