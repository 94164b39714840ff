/**
 * Issue 19 findings 4 and 11, over real HTTP (a local server with the peer-address preload in
 * front of the auth and token route handlers) and a real Postgres:
 * - a password reset revokes the account's API tokens (sessions went already); so does verifying
 *   the address (an attacker who registered it first keeps no token once the owner proves it);
 * - 30 parallel token creations leave exactly the cap (20) live tokens.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiTokens } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { serveRoute, setupApiTest, signUp, TEST_ORIGIN, type Actor, type RouteServer } from '@/app/api/test-support/api-test';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let server: RouteServer;
const links: Array<{ kind: string; email: string; url: string }> = [];

beforeAll(async () => {
  t = await setupApiTest();
  // The default link sender writes "[auth] <kind> link for <email>: <url>" to the log: read it there.
  const log = console.log.bind(console);
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    const m = /^\[auth\] (\S+) link for (\S+): (\S+)$/.exec(String(args[0]));
    if (m) links.push({ kind: m[1]!, email: m[2]!, url: m[3]! });
    else log(...args);
  });
  const auth = await import('@/app/api/auth/[...all]/route');
  const tokens = await import('./route');
  server = await serveRoute(async (request) => {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/api/auth/')) return request.method === 'GET' ? auth.GET(request) : auth.POST(request);
    if (path === '/api/v1/tokens') return request.method === 'GET' ? tokens.GET(request) : tokens.POST(request);
    return new Response('not here', { status: 404 });
  });
}, 120_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await server?.close();
  await t?.drop();
});

const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(method !== 'GET' ? { origin: TEST_ORIGIN } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
    redirect: 'manual',
  });

async function createToken(actor: Actor): Promise<string> {
  const res = await call('POST', '/api/v1/tokens', actor.headers, { name: 'ci' });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}
const useToken = (token: string) => call('GET', '/api/v1/tokens', { authorization: `Bearer ${token}` });

describe('API tokens end with the credential that made them', () => {
  it('a password reset revokes every live token of the account (the token no longer authenticates)', async () => {
    const owner = await signUp('ops-reset@acme.example');
    const [a, b] = [await createToken(owner), await createToken(owner)];
    expect((await useToken(a)).status).toBe(200);
    const asked = await call('POST', '/api/auth/request-password-reset', {}, { email: 'ops-reset@acme.example', redirectTo: '/reset-password' });
    expect(asked.status).toBe(200);
    const link = links.filter((l) => l.kind === 'reset-password' && l.email === 'ops-reset@acme.example').at(-1);
    expect(link).toBeDefined();
    const resetToken = new URL(link!.url).pathname.split('/').at(-1)!;
    const reset = await call('POST', '/api/auth/reset-password', {}, { newPassword: 'a brand new passphrase', token: resetToken });
    expect(reset.status).toBe(200);
    for (const token of [a, b]) {
      const res = await useToken(token);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/revoked/);
    }
    expect(await t.db.$count(apiTokens, and(eq(apiTokens.userId, owner.userId!), isNull(apiTokens.revokedAt)))).toBe(0);
  });

  it('verifying the address revokes tokens made before (registered first by someone else)', async () => {
    const squatter = await signUp('ops-verify@acme.example');
    const token = await createToken(squatter);
    expect((await useToken(token)).status).toBe(200);
    const link = links.filter((l) => l.kind === 'verify-email' && l.email === 'ops-verify@acme.example').at(-1);
    expect(link).toBeDefined();
    const u = new URL(link!.url);
    const verified = await call('GET', `${u.pathname}${u.search}`, {});
    expect(verified.status).toBeLessThan(400);
    expect((await useToken(token)).status).toBe(401);
  });

  it('an email change is not offered (it would move an account without proof)', async () => {
    const user = await signUp('ops-change@acme.example');
    const res = await call('POST', '/api/auth/change-email', user.headers, { newEmail: 'other@evil.example' });
    expect(res.status).toBeGreaterThanOrEqual(400);
  });
});

describe('the token cap holds under parallel creation', () => {
  it('30 parallel creations over HTTP: exactly 20 succeed (201), 10 are refused (409), 20 live tokens', { timeout: 60_000 }, async () => {
    const racer = await signUp('ops-race@acme.example');
    const results = await Promise.all(Array.from({ length: 30 }, () => call('POST', '/api/v1/tokens', racer.headers, { name: 'race' })));
    const codes = results.map((r) => r.status).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(20);
    expect(codes.filter((c) => c === 409)).toHaveLength(10);
    expect(await t.db.$count(apiTokens, and(eq(apiTokens.userId, racer.userId!), isNull(apiTokens.revokedAt)))).toBe(20);
  });
});
