/**
 * Named hostile inputs against POST /api/v1/endpoints, each with the answer it must get. This
 * table is the record of what was tried (the generated ones are in fuzz.test.ts, the SSRF address
 * corpus in lib/security/ssrf-corpus.ts).
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { TestDatabase } from '@/db/test-support/test-database';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { setupApiTest, signUp, TEST_ORIGIN, type Actor } from './test-support/api-test';
import { sharedChatSubmission } from '@/app/api/test-support/chat-submission';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let ref: ReferenceServer;
let alice: Actor;
let list: typeof import('./v1/endpoints/route');

beforeAll(async () => {
  t = await setupApiTest({ TOKENPACE_MAX_PENDING_SUBMISSIONS: '1000' });
  ref = await startReferenceServer({ port: 0, tps: 5000, ttftMs: 2, outputTokens: 8, tokensPerChunk: 4 });
  await t.sql`insert into models (slug, name) values ('tokenpace-reference', 'Tokenpace reference')`;
  (await import('./_lib/rate-limit')).configureRateLimits({ submission: { points: 1_000_000, durationSeconds: 60 } });
  list = await import('./v1/endpoints/route');
  alice = await signUp('hostile@hostile.example');
});

afterAll(async () => {
  await ref?.close();
  await t?.drop();
});

const base = () => sharedChatSubmission(ref.url, { provider: 'Hostile Co', contact: 'h@hostile.example' });

/** [what, body overrides (or a raw body string), expected status, expected error field (or a check of the stored row)] */
const CASES: Array<[string, Record<string, unknown> | string, number, string | null]> = [
  ['cloud metadata URL', { baseUrl: 'http://169.254.169.254/latest/meta-data/' }, 400, 'baseUrl'],
  ['metadata via decimal IPv4', { baseUrl: 'http://2852039166/' }, 400, 'baseUrl'],
  ['metadata via IPv4-mapped IPv6', { baseUrl: 'http://[::ffff:a9fe:a9fe]/' }, 400, 'baseUrl'],
  ['CGNAT address', { baseUrl: 'http://100.100.100.200/' }, 400, 'baseUrl'],
  ['unspecified 0.0.0.0', { baseUrl: 'http://0.0.0.0/' }, 400, 'baseUrl'],
  ['multicast', { baseUrl: 'http://224.0.0.1/' }, 400, 'baseUrl'],
  ['file: scheme', { baseUrl: 'file:///etc/passwd' }, 400, 'baseUrl'],
  ['gopher: scheme (Redis smuggling)', { baseUrl: 'gopher://127.0.0.1:6379/_FLUSHALL' }, 400, 'baseUrl'],
  ['javascript: scheme', { baseUrl: 'javascript:alert(1)' }, 400, 'baseUrl'],
  ['credentials in URL', { baseUrl: 'https://user:secret@api.example.com/v1' }, 400, 'baseUrl'],
  ['unresolvable host', { baseUrl: 'https://no-such-host.invalid/v1' }, 400, 'baseUrl'],
  ['CRLF in URL', { baseUrl: 'http://example.com/\r\nHost: evil' }, 400, 'baseUrl'],
  ['8 KiB URL', { baseUrl: `https://example.com/${'a'.repeat(8192)}` }, 400, 'baseUrl'],
  ['SQL injection in provider', { provider: "x'); drop table endpoints; --" }, 201, 'stored verbatim'],
  ['HTML/script in notes', { notes: '<script>alert(1)</script>' }, 201, 'stored verbatim'],
  ['NUL byte in API model id', { apiModelId: 'a\u0000b' }, 400, 'apiModelId'],
  ['bidi override in provider', { provider: 'evil\u202eoc' }, 400, 'provider'],
  ['CRLF header injection in API key', { apiKey: 'sk-abc\r\nX-Evil: 1' }, 400, 'apiKey'],
  ['space in API key', { apiKey: 'sk abc def ghi' }, 400, 'apiKey'],
  ['65,000-character API key', { apiKey: 'k'.repeat(65_000) }, 400, 'apiKey'],
  ['100 KB body', { notes: 'n'.repeat(100_000) }, 400, 'body'],
  ['role escalation field', { role: 'admin' }, 400, 'role'],
  ['status field (skip review)', { status: 'active' }, 400, 'status'],
  ['owner field (act as someone else)', { ownerUserId: 'someone-else' }, 400, 'ownerUserId'],
  ['allowPrivate field', { allowPrivate: true }, 400, 'allowPrivate'],
  ['__proto__ key', '{"__proto__":{"admin":true}}', 400, '__proto__'],
  ['unknown protocol', { protocol: 'grpc' }, 400, 'protocol'],
  ['draft length as string', { speculativeDecoding: 'EAGLE-3', draftLength: '3' }, 400, 'draftLength'],
  ['draft length 10^9', { speculativeDecoding: 'EAGLE-3', draftLength: 1e9 }, 400, 'draftLength'],
  ['draft length without method', { draftLength: 3 }, 400, 'draftLength'],
  ['both model and proposal', { proposedModel: 'Llama 99' }, 400, 'proposedModel'],
  ['unlisted model slug', { model: 'secret-model' }, 400, 'model'],
  ['array body', '[1,2,3]', 400, 'body'],
  ['truncated JSON', '{"provider": "x"', 400, 'body'],
  ['numbers for every field', { provider: 1, baseUrl: 2, protocol: 3, apiModelId: 4, deploymentKind: 5, contact: 6 }, 400, 'provider'],
];

it.each(CASES)('%s', async (_what, overrides, status, field) => {
  const before = Number((await t.sql`select count(*)::int as n from endpoints`)[0]!.n);
  const body = typeof overrides === 'string' ? overrides : JSON.stringify({ ...base(), ...overrides });
  const res = await list.POST(
    new Request(`${TEST_ORIGIN}/api/v1/endpoints`, {
      method: 'POST',
      headers: { ...alice.headers, 'content-type': 'application/json', origin: TEST_ORIGIN },
      body,
    }),
  );
  expect(res.status).toBe(status);
  const json = (await res.json()) as { error?: { field: string; fields?: Array<{ field: string }> }; endpoint?: Record<string, unknown> };
  const after = Number((await t.sql`select count(*)::int as n from endpoints`)[0]!.n);
  if (status === 400) {
    expect(json.error!.fields?.map((f) => f.field) ?? [json.error!.field]).toContain(field);
    expect(after).toBe(before);
  } else {
    // stored as text, rendered escaped by React; the SQL is a parameter, not SQL
    expect(after).toBe(before + 1);
    const key = Object.keys(overrides as object)[0]!;
    expect(json.endpoint![key]).toBe((overrides as Record<string, unknown>)[key]);
  }
});

it('a cross-site POST with the session cookie is refused (403), and so is a form-encoded one (400)', async () => {
  const cross = await list.POST(
    new Request(`${TEST_ORIGIN}/api/v1/endpoints`, {
      method: 'POST',
      headers: { ...alice.headers, 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify(base()),
    }),
  );
  expect(cross.status).toBe(403);
  const form = await list.POST(
    new Request(`${TEST_ORIGIN}/api/v1/endpoints`, {
      method: 'POST',
      headers: { ...alice.headers, 'content-type': 'text/plain', origin: TEST_ORIGIN },
      body: JSON.stringify(base()),
    }),
  );
  expect(form.status).toBe(400);
});
