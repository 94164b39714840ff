/**
 * Issue 19 finding 6 (decision 164): OG images are not rendered on every request. Real renders
 * (next/og: satori + resvg) and the real proxy with the in-memory public read limit:
 * - 10 distinct cards asked at once → at most OG_MAX_CONCURRENT_RENDERS renders, the rest 503 with
 *   Retry-After; a repeated card is served from the cache (same bytes, no render); the same card
 *   asked 5 times at once renders once; the cache keeps at most its bound;
 * - the OG paths pass the public read limit per client (429 + Retry-After).
 */
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureRateLimits } from '@/app/api/_lib/rate-limit';
import { PEER_ADDRESS_HEADER, setupApiTest } from '@/app/api/test-support/api-test';
import type { TestDatabase } from '@/db/test-support/test-database';
import { OG_MAX_CONCURRENT_RENDERS, ogImageResponse, ogImageStats, resetOgImages } from './og-image-response';
import type { OgCardProps } from './og-card';

const card = (i: number): OgCardProps => ({
  title: `Card ${i}`,
  subtitle: 'sub',
  bars: [{ label: 'a', value: `${i} t/s`, fraction: 0.5 }],
  footer: `snapshot ${i}`,
});

let t: TestDatabase;
beforeAll(async () => {
  t = await setupApiTest();
}, 120_000);
afterAll(async () => {
  configureRateLimits({});
  await t?.drop();
});

describe('OG image renders are bounded', () => {
  it('10 distinct cards at once: renders ≤ the limit, the rest 503; a repeat is a cache hit', async () => {
    resetOgImages();
    const res = await Promise.all(Array.from({ length: 10 }, (_, i) => ogImageResponse(async () => card(i), 'x')));
    const ok = res.filter((r) => r.status === 200);
    const busy = res.filter((r) => r.status === 503);
    expect(ok.length).toBe(OG_MAX_CONCURRENT_RENDERS);
    expect(busy.length).toBe(10 - OG_MAX_CONCURRENT_RENDERS);
    expect(busy.every((r) => Number(r.headers.get('retry-after')) > 0)).toBe(true);
    expect(ogImageStats().renders).toBe(OG_MAX_CONCURRENT_RENDERS);
    const first = new Uint8Array(await ok[0]!.arrayBuffer());
    expect(ok[0]!.headers.get('content-type')).toBe('image/png');
    expect([...first.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]); // "PNG"
    const firstIndex = res.indexOf(ok[0]!);
    const again = await ogImageResponse(async () => card(firstIndex), 'x');
    expect(again.headers.get('x-tokenpace-og-cache')).toBe('hit');
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(first);
    expect(ogImageStats().renders).toBe(OG_MAX_CONCURRENT_RENDERS);
  }, 60_000);

  it('the same card 5 times at once renders once; the cache keeps at most its bound', async () => {
    resetOgImages(3);
    const same = await Promise.all(Array.from({ length: 5 }, () => ogImageResponse(async () => card(100), 'x')));
    expect(same.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(ogImageStats().renders).toBe(1);
    for (let i = 0; i < 5; i++) expect((await ogImageResponse(async () => card(200 + i), 'x')).status).toBe(200);
    expect(ogImageStats().cached).toBe(3);
    resetOgImages();
  }, 60_000);

  it('no card → 404 with the given text, nothing rendered', async () => {
    resetOgImages();
    const r = await ogImageResponse(async () => null, 'unknown model');
    expect(r.status).toBe(404);
    expect(await r.text()).toBe('unknown model');
    expect(ogImageStats().renders).toBe(0);
  });

  it('OG paths pass the public read limit per client: 429 with Retry-After beyond it', async () => {
    configureRateLimits({ publicRead: { points: 3, durationSeconds: 60 } });
    const { proxy } = await import('@/proxy');
    const ask = (path: string, peer: string) => proxy(new NextRequest(`http://localhost:3000${path}`, { headers: { [PEER_ADDRESS_HEADER]: peer } }));
    const statuses = [];
    for (const p of ['/opengraph-image', '/models/a/opengraph-image', '/endpoints/1/opengraph-image', '/models/b/opengraph-image'])
      statuses.push((await ask(p, '10.7.0.1')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await ask('/models/c/opengraph-image', '10.7.0.1');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await ask('/models/c/opengraph-image', '10.7.0.2')).status).toBe(200);
    configureRateLimits({});
  });
});
