/**
 * Issue 19 finding 13: every address of one IPv6 /64 shares one per-IP rate-limit bucket. Over real
 * HTTP (peer-address preload; 127.0.0.1 named a trusted proxy so X-Forwarded-For carries the
 * client), a real Postgres, sign-up's per-IP limit set to 3.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestDatabase } from '@/db/test-support/test-database';
import { getEnv } from '@/lib/env';
import { rateLimitBucket } from '@/lib/security/client-address';
import { TEST_ORIGIN, serveRoute, setupApiTest, type RouteServer } from '@/app/api/test-support/api-test';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let server: RouteServer;
let limits: typeof import('@/app/api/_lib/rate-limit');
let n = 0;

beforeAll(async () => {
  t = await setupApiTest({ TOKENPACE_TRUSTED_PROXIES: '127.0.0.1' });
  getEnv(true);
  limits = await import('@/app/api/_lib/rate-limit');
  limits.configureRateLimits({ signUpIp: { points: 3, durationSeconds: 600 } });
  server = await serveRoute((await import('./[...all]/route')).POST);
}, 120_000);

afterAll(async () => {
  limits?.configureRateLimits({});
  delete process.env.TOKENPACE_TRUSTED_PROXIES;
  getEnv(true);
  await server?.close();
  await t?.drop();
});

const signUpFrom = (client: string) =>
  fetch(`${server.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, 'x-forwarded-for': client },
    body: JSON.stringify({ email: `v6-${n++}@acme.example`, password: 'correct horse battery', name: 'V6' }),
  }).then((r) => r.status);

describe('IPv6 rate-limit buckets', () => {
  it('buckets by /64; IPv4 and IPv4-mapped as the address', () => {
    expect(rateLimitBucket('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(rateLimitBucket('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(rateLimitBucket('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitBucket('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitBucket('unknown')).toBe('unknown');
  });

  it('three addresses of one /64 use its 3 sign-ups; a fourth in it is refused, another /64 is not', async () => {
    expect([await signUpFrom('2001:db8:1:2::a'), await signUpFrom('2001:db8:1:2::b'), await signUpFrom('[2001:db8:1:2:abcd::1]')]).toEqual([200, 200, 200]);
    expect(await signUpFrom('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(429);
    expect(await signUpFrom('2001:db8:1:3::1')).toBe(200);
    // IPv4-mapped forms of one IPv4 address are one bucket too
    expect([await signUpFrom('198.51.100.7'), await signUpFrom('::ffff:198.51.100.7'), await signUpFrom('198.51.100.7')]).toEqual([200, 200, 200]);
    expect(await signUpFrom('::ffff:c633:6407')).toBe(429);
  });
});
