/**
 * Issue 19 findings 8 and 9, over real HTTP (a local server with the peer-address preload in front
 * of the auth route handler) and a real Postgres, with the default limits:
 * - the per-email sign-in lockout counts only attempts that reached the password check: 12
 *   sign-ins refused for a foreign Origin leave the owner able to sign in; 10 wrong passwords
 *   still lock the address (the 10th is answered 401, the 11th 429);
 * - POST /api/auth/verify-password (and the other session password checks) are limited per
 *   session: 10 wrong guesses, then 429, even from many addresses.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestDatabase } from '@/db/test-support/test-database';
import { PEER_ADDRESS_HEADER, TEST_ORIGIN, serveRoute, setupApiTest, signUp, type RouteServer } from '@/app/api/test-support/api-test';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let server: RouteServer;
const PASSWORD = 'correct horse battery';
let n = 0;
const ip = () => `203.0.113.${(n++ % 250) + 1}`;

beforeAll(async () => {
  t = await setupApiTest();
  const route = await import('./[...all]/route');
  server = await serveRoute(route.POST);
}, 120_000);

// Every request comes from 127.0.0.1 (the preload sets the peer header from the socket): the
// per-IP limits (30/min) would mix the tests; each starts with empty counters.
beforeEach(async () => {
  await t.sql`delete from rate_limits`;
});

afterAll(async () => {
  await server?.close();
  await t?.drop();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, [PEER_ADDRESS_HEADER]: ip(), ...headers },
    body: JSON.stringify(body),
  });

describe('sign-in lockout counts password checks only', () => {
  it('12 sign-ins refused for a foreign Origin do not lock the address; the owner signs in', async () => {
    await signUp('victim-origin@acme.example', PASSWORD);
    for (let i = 0; i < 12; i++) {
      const r = await post('/sign-in/email', { email: 'victim-origin@acme.example', password: 'wrong password!!' }, { origin: 'https://evil.example' });
      expect(r.status, `attempt ${i + 1}`).toBe(403);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    }
    const ok = await post('/sign-in/email', { email: 'victim-origin@acme.example', password: PASSWORD });
    expect(ok.status).toBe(200);
  });

  it('wrong passwords still lock it: the 10th wrong one is 401, the 11th attempt 429', async () => {
    await signUp('victim-guess@acme.example', PASSWORD);
    for (let i = 1; i <= 10; i++)
      expect((await post('/sign-in/email', { email: 'victim-guess@acme.example', password: `wrong guess ${i}!` })).status, `guess ${i}`).toBe(401);
    const locked = await post('/sign-in/email', { email: 'victim-guess@acme.example', password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a correct password is not counted as a guess: 12 good sign-ins in a row all succeed', async () => {
    await signUp('victim-often@acme.example', PASSWORD);
    for (let i = 0; i < 12; i++) expect((await post('/sign-in/email', { email: 'victim-often@acme.example', password: PASSWORD })).status).toBe(200);
  });
});

describe('session password checks are limited', () => {
  it('verify-password: 10 wrong guesses per session, then 429 (from changing addresses); the right one is not a guess', async () => {
    const user = await signUp('guessed@acme.example', PASSWORD);
    expect((await post('/verify-password', { password: PASSWORD }, user.headers)).status).toBe(200);
    for (let i = 1; i <= 10; i++) expect((await post('/verify-password', { password: `guess number ${i}` }, user.headers)).status, `guess ${i}`).toBe(400);
    const after = await post('/verify-password', { password: PASSWORD }, user.headers);
    expect(after.status).toBe(429);
    // change-password shares the session's budget
    expect((await post('/change-password', { currentPassword: 'guess again', newPassword: 'another long passphrase' }, user.headers)).status).toBe(429);
  });
});

describe('account names are checked on every write (issue 19 #15)', () => {
  it('update-user refuses zero-width and bidi override characters in the name, as sign-up does', async () => {
    const user = await signUp('renamer@acme.example', PASSWORD);
    for (const name of ['Admin\u202e', 'Zero\u200bWidth', '\u2066Groq\u2069']) {
      const r = await post('/update-user', { name }, user.headers);
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(((await r.json()) as { error: { field: string } }).error.field).toBe('name');
    }
    expect((await post('/update-user', { name: 'Renamed Team' }, user.headers)).status).toBe(200);
  });
});
