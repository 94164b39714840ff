/**
 * The submission routes' answers match the OpenAPI document (issue #23: Prism's validation proxy
 * found SubmittedEndpoint answers carrying undeclared contextWindowTokens and providerClaim, which
 * strict clients reject). Real Postgres and a local reference server; each body is validated with
 * ajv against the operation's documented response schema (additionalProperties false, as Prism
 * and generated clients read it): POST 201, PATCH 200, GET /api/v1/submissions 200.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestDatabase } from '@/db/test-support/test-database';
import { buildOpenApiDocument } from '@/lib/api/openapi';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { params, req, setupApiTest, signUp, type Actor } from '@/app/api/test-support/api-test';
import { chatSubmission } from '@/app/api/test-support/chat-submission';

// Route handlers call next/server's connection(), which needs Next's request scope.
vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const doc = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
  components: object;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'urn:tokenpace:openapi', components: doc.components } as object);

/** Validates `body` against the documented JSON response of `method opPath` with `status`. */
function expectDocumented(opPath: string, method: string, status: string, body: unknown) {
  const schema = doc.paths[opPath]?.[method]?.responses[status]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`no ${status} JSON response documented for ${method} ${opPath}`);
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"urn:tokenpace:openapi#/components/')) as object);
  expect(validate(body), `${method} ${opPath} ${status}: ${JSON.stringify(validate.errors?.slice(0, 5))}`).toBe(true);
}

let t: TestDatabase;
let ref: ReferenceServer;
let alice: Actor;

beforeAll(async () => {
  t = await setupApiTest();
  ref = await startReferenceServer({ port: 0, tps: 5000, ttftMs: 2, outputTokens: 8, tokensPerChunk: 4 });
  await t.sql`insert into models (slug, name) values ('tokenpace-reference', 'Tokenpace reference')`;
  alice = await signUp('alice@contract.example');
});

afterAll(async () => {
  await ref?.close();
  await t?.drop();
});

describe('submission answers match the OpenAPI document', () => {
  it('POST /api/v1/endpoints 201, PATCH /api/v1/endpoints/{id} 200 and GET /api/v1/submissions 200', async () => {
    const list = await import('./route');
    const one = await import('./[id]/route');
    const mine = await import('../submissions/route');
    const body = {
      provider: 'Contract Check',
      ...chatSubmission(ref.url),
      deploymentKind: 'self-hosted',
      system: 'one reference server',
      contextWindowTokens: 131072,
      contact: 'ops@contract.example',
    };
    const created = await list.POST(req(alice, 'POST', '/api/v1/endpoints', body));
    const createdJson = (await created.json()) as { endpoint: { id: number; contextWindowTokens: number; providerClaim: string } };
    expect(created.status).toBe(201);
    expect(createdJson.endpoint.contextWindowTokens).toBe(131072);
    expect(createdJson.endpoint.providerClaim).toBe('new_provider');
    expectDocumented('/api/v1/endpoints', 'post', '201', createdJson);

    const id = createdJson.endpoint.id;
    const edited = await one.PATCH(req(alice, 'PATCH', `/api/v1/endpoints/${id}`, { contextWindowTokens: 65536, notes: 'edited' }), params({ id: String(id) }));
    const editedJson = (await edited.json()) as { endpoint: { contextWindowTokens: number } };
    expect(edited.status).toBe(200);
    expect(editedJson.endpoint.contextWindowTokens).toBe(65536);
    expectDocumented('/api/v1/endpoints/{id}', 'patch', '200', editedJson);

    const owned = await mine.GET(req(alice, 'GET', '/api/v1/submissions'));
    const ownedJson = (await owned.json()) as { items: Array<{ id: number; contextWindowTokens: number }> };
    expect(owned.status).toBe(200);
    expect(ownedJson.items.map((e) => [e.id, e.contextWindowTokens])).toEqual([[id, 65536]]);
    expectDocumented('/api/v1/submissions', 'get', '200', ownedJson);
  });
});
