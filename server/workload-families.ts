/**
 * The workload families' figures of one endpoint (issue 25): prompt cache (decision 260; the
 * cached share of the prompt, decision 291),
 * structured-output penalty (261), agent turns (267) and cache lifetime (268), as rows of
 * lib/api/family-schemas FamilyFigure. Every value is read from the endpoint's leaderboard entry of
 * the family's workload (server/leaderboard: the one statistics engine, the one answer cache); the
 * only arithmetic here is the documented ratios (lib/stats/speed-ratio) and the lifetime rule
 * (lib/stats/cache-lifetime). The API route and the endpoint page both call this, so they agree
 * with each other and with the board.
 */
import type { z } from 'zod';
import type { Db } from '@/db/client';
import type { familyFigureSchema } from '@/lib/api/family-schemas';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { AGENT_WORKLOADS, CACHE_LIFETIME_WORKLOADS, STRUCTURED_WORKLOADS } from '@/lib/probe/workloads';
import { measureCacheLifetime, type CacheLifetime } from '@/lib/stats/cache-lifetime';
import { speedRatio } from '@/lib/stats/speed-ratio';
import { UnknownBoardFieldError } from './board-subject';
import { getLeaderboardAnswer, type LeaderboardAnswer } from './leaderboard';

/** One row of the families answer. */
export type FamilyFigure = z.infer<typeof familyFigureSchema>;
type Entry = LeaderboardAnswer['entries'][number];

/** Workloads whose entries the families read. */
const FAMILY_WORKLOADS = [
  'cache-cold-2k',
  'cache-warm-2k',
  'prose-1k',
  ...STRUCTURED_WORKLOADS.map((w) => w.slug),
  ...AGENT_WORKLOADS.map((w) => w.slug),
  ...CACHE_LIFETIME_WORKLOADS.map((w) => w.slug),
];

/**
 * The families' figures of `endpoint` over `windowHours` (default 72) as of the current minute (or
 * `now`), with the lifetime's evidence and the entries they came from (by workload slug).
 */
export async function getEndpointFamilyFigures(
  db: Db,
  endpoint: { id: number; modelSlug: string },
  windowHours = 72,
  now = new Date(),
): Promise<{ items: FamilyFigure[]; lifetime: CacheLifetime | null; entries: Map<string, Entry>; windowStart: string | null; asOf: string | null }> {
  // A workload the catalog does not hold (an install seeded before the family) has no figures.
  const answers = await Promise.all(
    FAMILY_WORKLOADS.map((workload) =>
      getLeaderboardAnswer(db, leaderboardQuerySchema.parse({ model: endpoint.modelSlug, workload, window: `${windowHours}h` }), now).catch((err: unknown) => {
        if (err instanceof UnknownBoardFieldError && err.unknown.field === 'workload') return null;
        throw err;
      }),
    ),
  );
  const entries = new Map<string, Entry>();
  answers.forEach((a, i) => {
    const e = a?.entries.find((x) => x.endpoint.id === endpoint.id);
    if (e && e.n > 0) entries.set(FAMILY_WORKLOADS[i]!, e);
  });
  const items: FamilyFigure[] = [];
  const base = { turn: null, gapMinutes: null };
  const median = (
    family: FamilyFigure['family'],
    workload: string,
    figure: 'ttft_ms' | 'output_tokens_per_second' | 'cached_input_tokens',
    extra: Partial<FamilyFigure> = {},
  ) => {
    const e = entries.get(workload);
    const p = figure === 'ttft_ms' ? e?.ttftMs : figure === 'output_tokens_per_second' ? e?.outputTokensPerSecond : e?.cachedInputTokens;
    if (!e || !p) return;
    const unit = figure === 'ttft_ms' ? 'ms' : figure === 'output_tokens_per_second' ? 'tokens/s' : 'tokens';
    // n: the measurements behind this figure — for cached tokens those that reported a cache count
    // (the hit share's n), not the speed samples: a measurement without a count is unknown, not a 0.
    const n = figure === 'cached_input_tokens' ? (e.cacheHit?.n ?? 0) : e.samples;
    items.push({ ...base, family, figure, workload, value: p.p50, low: p.p5, high: p.p95, n, unit, ...extra });
  };
  const hitShare = (family: FamilyFigure['family'], workload: string, extra: Partial<FamilyFigure> = {}) => {
    const h = entries.get(workload)?.cacheHit;
    if (!h) return;
    items.push({
      ...base,
      family,
      figure: 'cache_hit_share',
      workload,
      value: h.share,
      low: h.interval.low,
      high: h.interval.high,
      n: h.n,
      unit: 'fraction',
      ...extra,
    });
  };
  // cached ÷ input tokens of each prompt, its window median with n (decision 291)
  const cachedShare = (family: FamilyFigure['family'], workload: string, extra: Partial<FamilyFigure> = {}) => {
    const c = entries.get(workload)?.cachedInputShare;
    if (!c) return;
    items.push({ ...base, family, figure: 'cached_input_share', workload, value: c.p50, low: c.p5, high: c.p95, n: c.n, unit: 'fraction', ...extra });
  };

  median('prompt_cache', 'cache-cold-2k', 'ttft_ms');
  median('prompt_cache', 'cache-warm-2k', 'ttft_ms');
  median('prompt_cache', 'cache-warm-2k', 'cached_input_tokens');
  hitShare('prompt_cache', 'cache-warm-2k');
  cachedShare('prompt_cache', 'cache-warm-2k');
  const cold = entries.get('cache-cold-2k')?.ttftMs?.p50;
  const warm = entries.get('cache-warm-2k')?.ttftMs?.p50;
  if (cold && warm)
    items.push({
      ...base,
      family: 'prompt_cache',
      figure: 'warm_over_cold_ttft',
      workload: null,
      value: warm / cold,
      low: null,
      high: null,
      n: null,
      unit: 'ratio',
    });

  const free = entries.get('prose-1k');
  for (const w of STRUCTURED_WORKLOADS) {
    const e = entries.get(w.slug);
    const m = (x: Entry | undefined) =>
      x?.outputTokensPerSecond && x.outputTokensPerSecondMedianCi ? { p50: x.outputTokensPerSecond.p50, interval: x.outputTokensPerSecondMedianCi } : null;
    const r = speedRatio(m(e), m(free));
    if (r)
      items.push({
        ...base,
        family: 'structured_output',
        figure: 'speed_penalty',
        workload: w.slug,
        value: r.ratio,
        low: r.interval.low,
        high: r.interval.high,
        n: null,
        unit: 'ratio',
      });
  }

  for (const w of AGENT_WORKLOADS) {
    const extra = { turn: w.agentTurn! };
    median('agent_turns', w.slug, 'ttft_ms', extra);
    median('agent_turns', w.slug, 'output_tokens_per_second', extra);
    median('agent_turns', w.slug, 'cached_input_tokens', extra);
    hitShare('agent_turns', w.slug, extra);
    cachedShare('agent_turns', w.slug, extra);
  }

  const checks = CACHE_LIFETIME_WORKLOADS.filter((w) => w.cacheLifetimeGapMinutes! > 0);
  for (const w of checks) hitShare('cache_lifetime', w.slug, { gapMinutes: w.cacheLifetimeGapMinutes! });
  const lifetime = measureCacheLifetime(
    checks.map((w) => ({ gapMinutes: w.cacheLifetimeGapMinutes!, workloadSlug: w.slug, hit: entries.get(w.slug)?.cacheHit ?? null })),
  );
  if (lifetime)
    items.push({
      ...base,
      family: 'cache_lifetime',
      figure: 'cache_lifetime_minutes',
      workload: null,
      value: lifetime.lifetimeMinutes,
      low: lifetime.lifetimeMinutes,
      high: lifetime.nextMissMinutes,
      n: lifetime.gaps.reduce((s, g) => s + (g.hit?.n ?? 0), 0),
      unit: 'minutes',
    });
  const any = answers.find((a) => a !== null);
  return { items, lifetime, entries, windowStart: any?.windowStart ?? null, asOf: any?.asOf ?? null };
}
