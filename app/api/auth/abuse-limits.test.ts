/**
 * Issue 11 regressions of the account routes, over real HTTP (a local server with the peer-address
 * preload in front of the auth route handler, as `tokenpace start` runs Next):
 * - sign-in limits hold whatever the body encoding (JSON or form) and whatever X-Forwarded-For says;
 * - the client address is the socket peer unless TOKENPACE_TRUSTED_PROXIES names it;
 * - sign-up answers alike for new and existing emails (no account enumeration);
 * - bodies are refused while being read once past their limit.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestDatabase } from '@/db/test-support/test-database';
import { getEnv } from '@/lib/env';
import { PEER_ADDRESS_HEADER, TEST_ORIGIN, serveRoute, setupApiTest, signUp, type RouteServer } from '@/app/api/test-support/api-test';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let server: RouteServer;
let limits: typeof import('@/app/api/_lib/rate-limit');
let route: typeof import('./[...all]/route');
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  t = await setupApiTest();
  limits = await import('@/app/api/_lib/rate-limit');
  route = await import('./[...all]/route');
  server = await serveRoute(route.POST);
  await signUp('victim@acme.example', PASSWORD);
});

afterAll(async () => {
  limits?.configureRateLimits({});
  await server?.close();
  await t?.drop();
});

beforeEach(async () => {
  await t.sql`delete from rate_limits`;
  limits.configureRateLimits({});
  delete process.env.TOKENPACE_TRUSTED_PROXIES;
  getEnv(true);
});

let forged = 0;
/** A different forged client address on every call. */
const forgedIp = () => `203.0.113.${(forged++ % 250) + 1}`;

function post(path: string, body: Record<string, string>, encoding: 'json' | 'form', extra: Record<string, string> = {}) {
  return fetch(`${server.url}/api/auth${path}`, {
    method: 'POST',
    headers: {
      'content-type': encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
      origin: TEST_ORIGIN,
      'x-forwarded-for': forgedIp(),
      [PEER_ADDRESS_HEADER]: forgedIp(), // a client-sent copy of the internal header is dropped too
      ...extra,
    },
    body: encoding === 'json' ? JSON.stringify(body) : new URLSearchParams(body).toString(),
  });
}

describe('sign-in limits', () => {
  it('per client address: 429 after the limit with JSON and form bodies, whatever X-Forwarded-For says', async () => {
    limits.configureRateLimits({ signInIp: { points: 4, durationSeconds: 60 } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await post('/sign-in/email', { email: `nobody${i}@acme.example`, password: 'wrong password!' }, i % 2 ? 'form' : 'json');
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
    const form = await post('/sign-in/email', { email: 'other@acme.example', password: 'wrong password!' }, 'form');
    expect(form.status).toBe(429);
    expect(Number(form.headers.get('retry-after'))).toBeGreaterThan(0);
    const json = await post('/sign-in/email', { email: 'other2@acme.example', password: 'wrong password!' }, 'json');
    expect(json.status).toBe(429);
    const [row] = await t.sql`select count(*)::int as n from rate_limits where key like 'tp:signInIp:%'`;
    expect(row!.n).toBe(1); // one bucket: the socket peer (127.0.0.1), not one per forged header
  });

  it('per email: after JSON attempts hit the limit, a form-encoded body with the right password gets 429 and no session', async () => {
    limits.configureRateLimits({ signInEmail: { points: 2, durationSeconds: 600 } });
    expect((await post('/sign-in/email', { email: 'victim@acme.example', password: 'wrong password!' }, 'json')).status).toBe(401);
    expect((await post('/sign-in/email', { email: 'Victim@ACME.example', password: 'wrong password!' }, 'form')).status).toBe(401);
    expect((await post('/sign-in/email', { email: 'victim@acme.example', password: 'wrong password!' }, 'json')).status).toBe(429);
    const right = await post('/sign-in/email', { email: ' VICTIM@acme.example', password: PASSWORD }, 'form');
    expect(right.status).toBe(429);
    expect(right.headers.getSetCookie().join(';')).not.toMatch(/session_token=[^;]/);
    const rightJson = await post('/sign-in/email', { email: 'victim@acme.example', password: PASSWORD }, 'json');
    expect(rightJson.status).toBe(429);
  });

  it('password-reset mails are limited per email too, whatever the encoding or forged address', async () => {
    limits.configureRateLimits({ resetEmail: { points: 2, durationSeconds: 3600 } });
    const codes: number[] = [];
    for (let i = 0; i < 3; i++)
      codes.push(
        (
          await post(
            '/request-password-reset',
            { email: i === 1 ? 'VICTIM@acme.example' : 'victim@acme.example', redirectTo: '/reset-password' },
            i % 2 ? 'form' : 'json',
          )
        ).status,
      );
    expect(codes).toEqual([200, 200, 429]);
  });

  it('a form-encoded sign-in with the right password works below the limits (same body reaches better-auth)', async () => {
    const res = await post('/sign-in/email', { email: 'victim@acme.example', password: PASSWORD }, 'form');
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().join(';')).toMatch(/session_token=[^;]/);
  });

  it('refuses other body types and a missing email before better-auth', async () => {
    const res = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: TEST_ORIGIN },
      body: 'email=victim@acme.example',
    });
    expect(res.status).toBe(400);
    const noEmail = await post('/sign-in/email', { password: PASSWORD }, 'form');
    expect(noEmail.status).toBe(400);
    expect((await noEmail.json()).error.field).toBe('email');
  });
});

describe('client address', () => {
  it('sign-up per-IP limit ignores forged X-Forwarded-For', async () => {
    limits.configureRateLimits({ signUpIp: { points: 2, durationSeconds: 3600 } });
    const codes: number[] = [];
    for (let i = 0; i < 3; i++)
      codes.push(
        (await post('/sign-up/email', { email: `new${i}-${Date.now()}@acme.example`, password: 'long enough password', name: 'New' }, i % 2 ? 'form' : 'json'))
          .status,
      );
    expect(codes).toEqual([200, 200, 429]);
  });

  it('X-Forwarded-For is believed only from a proxy named in TOKENPACE_TRUSTED_PROXIES', async () => {
    limits.configureRateLimits({ signInIp: { points: 1, durationSeconds: 60 } });
    process.env.TOKENPACE_TRUSTED_PROXIES = '127.0.0.1, ::1';
    getEnv(true);
    // behind the trusted proxy each real client has its own bucket; the right-most untrusted hop counts
    expect((await post('/sign-in/email', { email: 'a@acme.example', password: 'wrong password!' }, 'json', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(
      401,
    );
    expect((await post('/sign-in/email', { email: 'b@acme.example', password: 'wrong password!' }, 'json', { 'x-forwarded-for': '198.51.100.8' })).status).toBe(
      401,
    );
    expect(
      (await post('/sign-in/email', { email: 'c@acme.example', password: 'wrong password!' }, 'json', { 'x-forwarded-for': '1.2.3.4, 198.51.100.7' })).status,
    ).toBe(429);
    const keys = (await t.sql`select key from rate_limits where key like 'tp:signInIp:%' order by key`).map((r) => r.key);
    expect(keys).toEqual(['tp:signInIp:198.51.100.7', 'tp:signInIp:198.51.100.8']);
  });
});

describe('sign-up does not reveal existing accounts', () => {
  it('answers an existing email exactly like a new one (status, body shape, no session either way)', async () => {
    const existing = await post('/sign-up/email', { email: 'victim@acme.example', password: 'another long password', name: 'Eve' }, 'json');
    const fresh = await post('/sign-up/email', { email: `fresh-${Date.now()}@acme.example`, password: 'another long password', name: 'Eve' }, 'json');
    expect(existing.status).toBe(200);
    expect(fresh.status).toBe(200);
    const a = await existing.json();
    const b = await fresh.json();
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
    expect(Object.keys(a.user).sort()).toEqual(Object.keys(b.user).sort());
    expect(JSON.stringify(a)).not.toMatch(/exist/i);
    expect(existing.headers.getSetCookie().join(';')).not.toMatch(/session_token=[^;]/);
    expect(fresh.headers.getSetCookie().join(';')).not.toMatch(/session_token=[^;]/);
    // the existing account's password is unchanged
    expect((await post('/sign-in/email', { email: 'victim@acme.example', password: PASSWORD }, 'json')).status).toBe(200);
  });
});

describe('sign-up names', () => {
  it('refuses invisible and mixed-script look-alike characters in the name', async () => {
    for (const name of ['Ad\u200bmin', 'Tokenp\u0430ce team']) {
      const res = await post('/sign-up/email', { email: `look-${forged++}@acme.example`, password: 'long enough password', name }, 'json');
      expect(res.status).toBe(400);
      expect((await res.json()).error.field).toBe('name');
    }
  });
});

describe('body limits are enforced while reading', () => {
  /** A 20 MB chunked body that counts how much of it was pulled. */
  function hugeBody() {
    const state = { pulled: 0, closed: false };
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (state.pulled >= 20 * 1024 * 1024) {
          if (!state.closed) controller.close();
          state.closed = true;
          return;
        }
        state.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    return { stream, state };
  }

  it('the auth route refuses a 20 MB body after reading at most a few chunks', async () => {
    const { stream, state } = hugeBody();
    const res = await route.POST(
      new Request(`${TEST_ORIGIN}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error.field).toBe('body');
    expect(state.pulled).toBeLessThan(1024 * 1024);
  });

  it('the JSON API refuses a 20 MB body after reading at most a few chunks', async () => {
    const { POST } = await import('@/app/api/v1/endpoints/route');
    const actor = await signUp(`big-${Date.now()}@acme.example`);
    const { stream, state } = hugeBody();
    const res = await POST(
      new Request(`${TEST_ORIGIN}/api/v1/endpoints`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, ...actor.headers },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/at most 65536 bytes/);
    expect(state.pulled).toBeLessThan(1024 * 1024);
  });

  it('a declared Content-Length over the limit is refused before reading anything', async () => {
    const res = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
      body: JSON.stringify({ email: 'victim@acme.example', password: 'x'.repeat(40_000) }),
    });
    expect(res.status).toBe(400);
  });
});
