/**
 * The measured prompt-cache lifetime of one endpoint over a window (issue 25 item 1, decision
 * 268): from the hit shares of the cache-lifetime checks (the same prefix again after gaps of 2, 5
 * and 15 minutes since the request before), the longest gap still hit. A gap counts as hit when
 * more than half of its checks that reported a cache count were served from the cache (share > 0.5);
 * the lifetime is the longest hit gap such that every shorter tested gap was hit too (a cache
 * that forgets at 2 minutes and "remembers" at 5 is noise, not a lifetime). `nextMissMinutes` is
 * the shortest tested gap beyond it that missed: the true lifetime lies in [lifetime,
 * nextMiss) on the tested ladder; `atLeast` says every tested gap was hit (the lifetime is at least
 * the longest gap tested). The hit shares themselves (with n and Wilson intervals) come from the one
 * engine (window-stats cacheHit); this only reads them. Pure.
 */
import type { CacheHitShare } from './window-stats';

/** One tested gap and its window hit share (null: no check reported a cache count). */
export interface CacheLifetimeGap {
  gapMinutes: number;
  workloadSlug: string;
  hit: CacheHitShare | null;
}

/** The lifetime figure with its evidence. */
export interface CacheLifetime {
  /** longest gap still hit, minutes; null when the shortest tested gap was not hit (no cache, or one shorter than it) or nothing was reported */
  lifetimeMinutes: number | null;
  /** shortest tested gap beyond the lifetime that missed, minutes; null when none did */
  nextMissMinutes: number | null;
  /** every tested gap with a reported count was hit: the lifetime is at least lifetimeMinutes */
  atLeast: boolean;
  /** the evidence: every tested gap, shortest first */
  gaps: CacheLifetimeGap[];
}

/** A gap is hit when more than this share of its checks were served from the cache. */
export const CACHE_LIFETIME_HIT_SHARE = 0.5;

/** The lifetime read from the gaps' hit shares (any order); null when no gap has a reported count. */
export function measureCacheLifetime(gaps: readonly CacheLifetimeGap[]): CacheLifetime | null {
  const sorted = [...gaps].sort((a, b) => a.gapMinutes - b.gapMinutes);
  const reported = sorted.filter((g) => g.hit !== null && g.hit.n > 0);
  if (reported.length === 0) return null;
  let lifetime: number | null = null;
  let nextMiss: number | null = null;
  for (const g of reported) {
    if (g.hit!.share > CACHE_LIFETIME_HIT_SHARE) lifetime = g.gapMinutes;
    else {
      nextMiss = g.gapMinutes;
      break;
    }
  }
  return { lifetimeMinutes: lifetime, nextMissMinutes: nextMiss, atLeast: nextMiss === null, gaps: sorted };
}
