/**
 * An owner submits the DGX B200 template (issue 10 item 4): the declared system is stored, and once
 * an admin approves the endpoint the NVIDIA record (a claim about that system) lists it, so the
 * chart draws the claim beside it — and still not beside the NIM API endpoint.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { listClaims } from '@/db/queries/claims';
import { importClaimsFile } from '@/db/import/claims';
import { seedCatalog } from '@/db/seed';
import { endpoints } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { ENDPOINT_TEMPLATES } from '@/lib/catalog/seed-catalog';
import { CLAIMS_FILE } from '@/lib/datasets/paths';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { params, req, setupApiTest, signUp, signUpAdmin } from '@/app/api/test-support/api-test';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let ref: ReferenceServer;
beforeAll(async () => {
  t = await setupApiTest();
  ref = await startReferenceServer({ port: 0, tps: 2000, ttftMs: 30, outputTokens: 64, tokensPerChunk: 2 });
  await seedCatalog(t.db, { workloads: [], lookupEnv: () => 'x', referencePort: null });
  await importClaimsFile(t.db, CLAIMS_FILE);
});
afterAll(async () => {
  await ref?.close();
  await t?.drop();
});

it('a submitted DGX B200 endpoint carries its system and, once approved, the record is drawn beside it', async () => {
  const list = await import('./route');
  const review = await import('./[id]/review/route');
  const owner = await signUp('owner@dgx.example');
  const admin = await signUpAdmin(t.db, 'admin@tokenpace.example');
  const tpl = ENDPOINT_TEMPLATES.find((x) => x.slug === 'dgx-b200-trtllm-llama-4-maverick')!;
  const body = {
    provider: 'DGX Owner Lab',
    model: tpl.modelSlug,
    // the reference server stands in for the owner's trtllm-serve (OpenAI-compatible)
    baseUrl: ref.url,
    protocol: tpl.protocol,
    apiModelId: tpl.apiModelId,
    hardware: tpl.hardware,
    engine: tpl.engine,
    precision: tpl.precision,
    speculativeDecoding: tpl.speculativeDecoding,
    deploymentKind: tpl.deploymentKind,
    system: tpl.system,
    contact: 'ops@dgx.example',
  };
  const res = await list.POST(req(owner, 'POST', '/api/v1/endpoints', body));
  expect(res.status, await res.clone().text()).toBe(201);
  const id = ((await res.json()) as { endpoint: { id: number; system: string } }).endpoint.id;
  const [row] = await t.db.select({ system: endpoints.system, status: endpoints.status }).from(endpoints).where(eq(endpoints.id, id));
  expect(row).toEqual({ system: tpl.system, status: 'pending' });
  const record = async () => (await listClaims(t.db, { modelSlug: 'llama-4-maverick' })).find((c) => c.system === tpl.system && c.value === 1038)!;
  expect((await record()).endpointIds).toEqual([]); // pending endpoints are not public
  const approved = await review.POST(req(admin, 'POST', `/api/v1/endpoints/${id}/review`, { decision: 'approve', revision: 1 }), params({ id: String(id) }));
  expect(approved.status, await approved.clone().text()).toBe(200);
  expect((await record()).endpointIds).toEqual([id]);
});
