/**
 * Test support for route-handler tests (vitest only): a fresh database, the environment the web
 * process would have, and actors (anonymous, providers, admin) with real better-auth sessions.
 * Call `setupApiTest()` in beforeAll BEFORE importing any route module.
 */
import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { getEnv } from '@/lib/env';

export const TEST_ORIGIN = 'http://localhost:3000';

/** Prepares env + database for in-process route calls. Returns the test database. */
export async function setupApiTest(extraEnv: Record<string, string> = {}): Promise<TestDatabase> {
  const t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.TOKENPACE_SECRET_KEY = randomBytes(32).toString('hex');
  process.env.TOKENPACE_ALLOW_PRIVATE = '1';
  process.env.PORT = '3000';
  for (const [k, v] of Object.entries(extraEnv)) process.env[k] = v;
  getEnv(true);
  return t;
}

/** A signed-in actor: headers to send (cookie or bearer token). */
export interface Actor {
  name: string;
  email: string;
  userId: string | null;
  headers: Record<string, string>;
}

export const anonymous: Actor = { name: 'anonymous', email: '', userId: null, headers: {} };

/** Signs up a new account through POST /api/auth/sign-up/email and returns its session cookie. */
export async function signUp(email: string, password = 'correct horse battery', name = 'Test Provider'): Promise<Actor> {
  const { POST } = await import('@/app/api/auth/[...all]/route');
  const res = await POST(
    new Request(`${TEST_ORIGIN}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, 'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
      body: JSON.stringify({ email, password, name }),
    }),
  );
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string } };
  return { name: email, email, userId: body.user.id, headers: { cookie: cookieOf(res) } };
}

/** The Cookie header value a browser would send back after this response. */
export function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');
}

/** Builds a request to a route with an actor's credentials. JSON bodies get the JSON content type and our origin. */
export function req(actor: Actor, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${TEST_ORIGIN}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(method !== 'GET' ? { origin: TEST_ORIGIN } : {}),
      ...actor.headers,
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Route context with params, as Next passes it. */
export function params<P extends Record<string, string>>(p: P): { params: Promise<P> } {
  return { params: Promise.resolve(p) };
}
