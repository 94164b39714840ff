/**
 * Issue 11: an approval is bound to the version the admin reviewed, and declared metadata changes
 * after approval go back to review. Route handlers called with real Request objects, real Postgres,
 * real reference server for the verification probe.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { TestDatabase } from '@/db/test-support/test-database';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { params, req, setupApiTest, signUp, signUpAdmin, type Actor } from '@/app/api/test-support/api-test';
import { sharedChatSubmission } from '@/app/api/test-support/chat-submission';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let ref: ReferenceServer;
let routes: { list: typeof import('./route'); one: typeof import('./[id]/route'); review: typeof import('./[id]/review/route') };
let owner: Actor;
let admin: Actor;

beforeAll(async () => {
  t = await setupApiTest({ TOKENPACE_MAX_PENDING_SUBMISSIONS: '20' });
  ref = await startReferenceServer({ port: 0, tps: 2000, ttftMs: 5, outputTokens: 16, tokensPerChunk: 2 });
  await t.sql`insert into models (slug, name) values ('tokenpace-reference', 'Tokenpace reference')`;
  routes = { list: await import('./route'), one: await import('./[id]/route'), review: await import('./[id]/review/route') };
  owner = await signUp('owner@revision.example');
  admin = await signUpAdmin(t.db, 'admin@revision.example');
});

afterAll(async () => {
  await ref?.close();
  await t?.drop();
});

async function call(res: Promise<Response>) {
  const r = await res;
  return { status: r.status, json: (await r.json()) as any };
}

async function submitOne() {
  const body = sharedChatSubmission(ref.url, {
    provider: 'Honest Cloud',
    contact: 'ops@honest.example',
    hardware: 'H100 SXM',
    engine: 'vLLM',
    precision: 'BF16',
  });
  const { status, json } = await call(routes.list.POST(req(owner, 'POST', '/api/v1/endpoints', body)));
  expect(status).toBe(201);
  return String(json.endpoint.id);
}

const review = (id: string, body: Record<string, unknown>) =>
  call(routes.review.POST(req(admin, 'POST', `/api/v1/endpoints/${id}/review`, body), params({ id })));
const patch = (id: string, body: Record<string, unknown>) => call(routes.one.PATCH(req(owner, 'PATCH', `/api/v1/endpoints/${id}`, body), params({ id })));

it('an approval made on an older revision is refused (409 naming revision) and changes nothing', async () => {
  const id = await submitOne();
  // the admin loads revision 1 … the owner swaps the declared hardware meanwhile
  const edit = await patch(id, { hardware: '8x B200', engine: 'TensorRT-LLM' });
  expect(edit.status).toBe(200);
  expect(edit.json.endpoint.revision).toBe(2);
  const stale = await review(id, { decision: 'approve', revision: 1 });
  expect(stale.status).toBe(409);
  expect(stale.json.error.field).toBe('revision');
  const [row] = await t.sql`select status from endpoints where id = ${Number(id)}`;
  expect(row!.status).toBe('pending');
  // a review without a revision is a 400 naming it
  const missing = await review(id, { decision: 'approve' });
  expect(missing.status).toBe(400);
  expect(missing.json.error.field).toBe('revision');
  // on the current revision it goes through
  const ok = await review(id, { decision: 'approve', revision: 2 });
  expect(ok.status).toBe(200);
  expect(ok.json.endpoint.status).toBe('active');
});

it.each([
  ['hardware', { hardware: 'GB200 NVL72' }],
  ['engine', { engine: 'SGLang' }],
  ['precision', { precision: 'FP4' }],
  ['region', { region: 'us-east' }],
  ['deploymentKind', { deploymentKind: 'dedicated' }],
  ['speculativeDecoding', { speculativeDecoding: 'EAGLE-3', draftLength: 4 }],
  ['removing hardware', { hardware: null }],
])('after approval, a change of %s sends the endpoint back to review', async (_name, change) => {
  const id = await submitOne();
  expect((await review(id, { decision: 'approve', revision: 1 })).status).toBe(200);
  const edit = await patch(id, change);
  expect(edit.status).toBe(200);
  expect(edit.json.endpoint.status).toBe('pending');
  expect(edit.json.verification).toBeNull(); // nothing probed changed
  const pub = await call(routes.one.GET(req({ name: 'anon', email: '', userId: null, headers: {} }, 'GET', `/api/v1/endpoints/${id}`), params({ id })));
  expect(pub.status).toBe(404); // not public until reviewed again
});

it('the same value again, contact or notes keep it active', async () => {
  const id = await submitOne();
  expect((await review(id, { decision: 'approve', revision: 1 })).status).toBe(200);
  expect((await patch(id, { hardware: 'H100 SXM' })).json.endpoint.status).toBe('active');
  expect((await patch(id, { notes: 'on-call rota changed' })).json.endpoint.status).toBe('active');
});
