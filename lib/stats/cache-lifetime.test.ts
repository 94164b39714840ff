import { describe, expect, it } from 'vitest';
import { CACHE_LIFETIME_HIT_SHARE, measureCacheLifetime, type CacheLifetimeGap } from './cache-lifetime';
import { summariseCacheHits } from './window-stats';

const gap = (gapMinutes: number, n: number, misses: number): CacheLifetimeGap => ({
  gapMinutes,
  workloadSlug: `g${gapMinutes}`,
  hit: summariseCacheHits(n, misses),
});

describe('cache lifetime', () => {
  it('the longest gap still hit, with the next miss above it', () => {
    expect(measureCacheLifetime([gap(15, 4, 4), gap(2, 4, 0), gap(5, 4, 1)])).toMatchObject({ lifetimeMinutes: 5, nextMissMinutes: 15, atLeast: false });
  });
  it('every gap hit: at least the longest; the shortest missed: none', () => {
    expect(measureCacheLifetime([gap(2, 3, 0), gap(5, 3, 0), gap(15, 3, 0)])).toMatchObject({ lifetimeMinutes: 15, nextMissMinutes: null, atLeast: true });
    expect(measureCacheLifetime([gap(2, 3, 3), gap(5, 3, 0)])).toMatchObject({ lifetimeMinutes: null, nextMissMinutes: 2 });
  });
  it('a hit after a miss is not a lifetime; nothing reported is null', () => {
    expect(measureCacheLifetime([gap(2, 3, 0), gap(5, 3, 3), gap(15, 3, 0)])).toMatchObject({ lifetimeMinutes: 2, nextMissMinutes: 5 });
    expect(measureCacheLifetime([{ gapMinutes: 2, workloadSlug: 'g2', hit: null }])).toBeNull();
  });
  it('the hit threshold: a share just over 0.5 is hit, 0.5 itself is not', () => {
    expect(CACHE_LIFETIME_HIT_SHARE).toBe(0.5);
    // 2 of 4 hit: share 0.5, a miss; 3 of 5 hit: 0.6, a hit
    expect(measureCacheLifetime([gap(2, 4, 2)])).toMatchObject({ lifetimeMinutes: null, nextMissMinutes: 2 });
    expect(measureCacheLifetime([gap(2, 5, 2)])).toMatchObject({ lifetimeMinutes: 2, atLeast: true });
    // a gap without a reported count is skipped, not a miss
    expect(measureCacheLifetime([gap(2, 5, 0), { gapMinutes: 5, workloadSlug: 'g5', hit: null }, gap(15, 5, 0)])).toMatchObject({ lifetimeMinutes: 15 });
  });
});
