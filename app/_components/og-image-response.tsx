/**
 * Rendering OG images without letting requests decide the cost (issue 19 #6, decision 164).
 *
 * - Cached by what the image shows: the key is the SHA-256 of the card's props (title, subtitle,
 *   bars, footer: the footer carries the answer's snapshotId and minute), so a repeated card is
 *   served from memory; at most {@link OG_CACHE_MAX_ENTRIES} images (least recently used out).
 * - At most {@link OG_MAX_CONCURRENT_RENDERS} renders at once per process (satori + resvg take
 *   ~100 ms of CPU each); the same card asked for while it renders waits for that render; a
 *   different card beyond the limit is 503 with Retry-After (a crawler retries, a page is not slowed).
 * - The public read rate limit (decision 213) applies to the OG paths in proxy.ts.
 * - Building the card may need a new on-demand answer: a spent snapshot budget (decision 163) is a
 *   503 too; an unknown subject (no props) is a 404, never URL text drawn.
 */
import { createHash } from 'node:crypto';
import { ImageResponse } from 'next/og';
import { SnapshotBudgetError } from '@/server/snapshot-budget';
import { OG_SIZE, OgCard, type OgCardProps } from './og-card';

export const OG_CACHE_MAX_ENTRIES = 256;
let maxEntries = OG_CACHE_MAX_ENTRIES;
export const OG_MAX_CONCURRENT_RENDERS = 2;
/** seconds a client should wait after a 503 */
const RETRY_AFTER_S = 2;
/** seconds a client or CDN may keep an image (the card changes at most once a minute) */
const MAX_AGE_S = 60;

const cache = new Map<string, Uint8Array>();
const inFlight = new Map<string, Promise<Uint8Array>>();
let active = 0;
const stats = { renders: 0, cacheHits: 0, refused: 0 };

/** Counters of this process (renders done, answers from the cache, 503s for the render limit) and the cache's size. */
export function ogImageStats(): Readonly<typeof stats & { cached: number }> {
  return { ...stats, cached: cache.size };
}

/** Forgets cached images and counters; `cacheMaxEntries` replaces the cache bound (tests). */
export function resetOgImages(cacheMaxEntries = OG_CACHE_MAX_ENTRIES): void {
  maxEntries = cacheMaxEntries;
  cache.clear();
  stats.renders = 0;
  stats.cacheHits = 0;
  stats.refused = 0;
}

const png = (bytes: Uint8Array, cached: boolean) =>
  new Response(bytes as BodyInit, {
    status: 200,
    headers: { 'content-type': 'image/png', 'cache-control': `public, max-age=${MAX_AGE_S}`, 'x-tokenpace-og-cache': cached ? 'hit' : 'miss' },
  });
const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });

async function render(props: OgCardProps): Promise<Uint8Array> {
  stats.renders++;
  return new Uint8Array(await new ImageResponse(<OgCard {...props} />, OG_SIZE).arrayBuffer());
}

/**
 * The PNG response of the card `build` describes: 404 with `notFoundText` when it returns null, 503 +
 * Retry-After when the render limit or the snapshot budget is reached, else the image (cached).
 */
export async function ogImageResponse(build: () => Promise<OgCardProps | null>, notFoundText: string): Promise<Response> {
  let props: OgCardProps | null;
  try {
    props = await build();
  } catch (err) {
    if (err instanceof SnapshotBudgetError) return text(503, err.message, { 'retry-after': String(err.retryAfterSeconds) });
    throw err;
  }
  if (!props) return text(404, notFoundText);
  const key = createHash('sha256').update(JSON.stringify(props)).digest('base64url');
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    stats.cacheHits++;
    return png(hit, true);
  }
  const pending = inFlight.get(key);
  if (pending) return png(await pending, false);
  if (active >= OG_MAX_CONCURRENT_RENDERS) {
    stats.refused++;
    return text(503, 'busy rendering images; retry shortly', { 'retry-after': String(RETRY_AFTER_S) });
  }
  active++;
  const work = render(props).finally(() => {
    active--;
    inFlight.delete(key);
  });
  inFlight.set(key, work);
  const bytes = await work;
  cache.set(key, bytes);
  while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
  return png(bytes, false);
}
