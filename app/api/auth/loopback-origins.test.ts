/**
 * Issue #23 item 3: sign-up and sign-in from the loopback aliases of a local install's origin
 * (http://127.0.0.1:PORT, http://[::1]:PORT beside the printed http://localhost:PORT) work; any
 * other origin is refused with a message naming the site's address and TOKENPACE_PUBLIC_URL, not a
 * bare "Invalid origin". The real auth route handler (better-auth's origin check) on a real database.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { PEER_ADDRESS_HEADER } from '@/app/api/test-support/api-test';
import { setupApiTest } from '@/app/api/test-support/api-test';
import type { TestDatabase } from '@/db/test-support/test-database';
import { getEnv } from '@/lib/env';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let route: typeof import('./[...all]/route');
let body: typeof import('@/app/api/_lib/body');
let peer = 0;

beforeAll(async () => {
  t = await setupApiTest();
  route = await import('./[...all]/route');
  body = await import('@/app/api/_lib/body');
});
afterAll(async () => {
  await t?.drop();
});

/** Re-reads the environment and rebuilds the auth instance (it holds trustedOrigins). */
function configure(publicUrl: string | undefined): void {
  if (publicUrl === undefined) delete process.env.TOKENPACE_PUBLIC_URL;
  else process.env.TOKENPACE_PUBLIC_URL = publicUrl;
  getEnv(true);
  delete (globalThis as { tokenpaceAuth?: unknown }).tokenpaceAuth;
}
beforeEach(() => configure(undefined));

async function signUpFrom(origin: string): Promise<{ status: number; json: any; signIn?: number }> {
  const email = `p-${randomUUID().slice(0, 8)}@acme.example`;
  // A browser that has been on the site sends its cookies: better-auth checks the origin of such requests.
  const headers = { 'content-type': 'application/json', origin, cookie: 'theme=dark', [PEER_ADDRESS_HEADER]: `198.51.100.${(peer++ % 250) + 1}` };
  const res = await route.POST(
    new Request(`${origin}/api/auth/sign-up/email`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email, password: 'correct horse battery', name: 'Loopback Tester' }),
    }),
  );
  const json = await res.json();
  if (res.status !== 200) return { status: res.status, json };
  const signIn = await route.POST(
    new Request(`${origin}/api/auth/sign-in/email`, { method: 'POST', headers, body: JSON.stringify({ email, password: 'correct horse battery' }) }),
  );
  return { status: res.status, json, signIn: signIn.status };
}

it('a local install: sign-up and sign-in from localhost, 127.0.0.1 and [::1] on its port', async () => {
  for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
    const r = await signUpFrom(origin);
    expect({ origin, status: r.status, signIn: r.signIn }).toEqual({ origin, status: 200, signIn: 200 });
  }
});

it('other ports, schemes, loopback-looking hosts and other sites are refused, saying what to open or set', async () => {
  for (const origin of ['http://127.0.0.1:3001', 'https://localhost:3000', 'http://127.0.0.2:3000', 'http://localhost.example:3000', 'http://evil.example']) {
    const r = await signUpFrom(origin);
    expect({ origin, status: r.status }).toEqual({ origin, status: 403 });
    expect(r.json.error).toMatchObject({ code: 'forbidden', field: 'origin' });
    expect(r.json.error.message).toContain('Open http://localhost:3000 instead');
    expect(r.json.error.message).toContain('TOKENPACE_PUBLIC_URL');
    expect(r.json.error.message).not.toContain(origin); // no header echoed back
  }
});

it('a public site trusts only its own origin; a loopback public URL gets its aliases', async () => {
  configure('https://tokenpace.example');
  expect((await signUpFrom('http://localhost:3000')).status).toBe(403);
  expect((await signUpFrom('http://127.0.0.1:3000')).status).toBe(403);
  expect(await signUpFrom('https://tokenpace.example')).toMatchObject({ status: 200, signIn: 200 });
  configure('http://127.0.0.1:8080');
  expect(await signUpFrom('http://localhost:8080')).toMatchObject({ status: 200, signIn: 200 });
  expect((await signUpFrom('http://localhost:3000')).status).toBe(403);
});

it('the API same-origin check of cookie writes takes the same origins', () => {
  const req = (origin: string) => new Request('http://localhost:3000/api/v1/endpoints', { method: 'POST', headers: { origin } });
  for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) expect(() => body.assertSameOrigin(req(origin))).not.toThrow();
  for (const origin of ['http://127.0.0.1:3001', 'http://evil.example'])
    expect(() => body.assertSameOrigin(req(origin))).toThrow(/cross-site request refused.*TOKENPACE_PUBLIC_URL/);
  configure('https://tokenpace.example');
  expect(() =>
    body.assertSameOrigin(new Request('https://tokenpace.example/api/v1/endpoints', { method: 'POST', headers: { origin: 'http://127.0.0.1:3000' } })),
  ).toThrow(/cross-site/);
});
