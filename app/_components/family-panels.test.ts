/**
 * The endpoint page's agent-turns and cache-lifetime sections: chart and table alternative show the
 * published per-turn figures and the per-gap hit shares with the lifetime read from them; no probes
 * → an empty state, never zeros.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { measureCacheLifetime } from '@/lib/stats/cache-lifetime';
import { summariseCacheHits } from '@/lib/stats/window-stats';
import { AgentTurnsPanel } from './agent-turns-panel';
import { CacheLifetimePanel, describeLifetime } from './cache-lifetime-panel';
import type { WindowEntry } from './endpoint-window';

const p = (v: number) => ({ p5: v * 0.9, p25: v * 0.95, p50: v, p75: v * 1.05, p95: v * 1.1 });
const entry = (ttft: number, tps: number, cached: number, n: number, misses: number, share: number | null = null) =>
  ({
    n,
    ttftMs: p(ttft),
    outputTokensPerSecond: p(tps),
    cachedInputTokens: p(cached),
    cacheHit: summariseCacheHits(n, misses),
    cachedInputShare: share === null ? null : { ...p(share), n: n - 1 },
  }) as unknown as WindowEntry;

it('agent turns: TTFT per turn in the chart, TTFT, TPS/user, cached tokens and hit share per turn in the table', () => {
  const turns = [
    { turn: 1, slug: 'agent-turn-1', entry: entry(1200, 250, 0, 5, 5) },
    { turn: 2, slug: 'agent-turn-2', entry: entry(300, 251, 1024, 5, 0, 0.84) },
    { turn: 3, slug: 'agent-turn-3', entry: null },
  ];
  const html = renderToStaticMarkup(createElement(AgentTurnsPanel, { turns, endpointSlug: 'ref', windowHours: 72 }));
  expect(html).toContain('data-chart="agent-turns-ttft"');
  expect(html).toMatch(
    /data-workload="agent-turn-2".*?data-metric="ttft-p50">300<.*?data-metric="tps-p50">251<.*?data-metric="cached-p50">1,024<.*?data-metric="hit-share">100%.*?data-metric="cached-share">84% \(n 4\)</s,
  );
  // a turn whose provider reported no input count: no share, never 0 %
  expect(html).toMatch(/data-workload="agent-turn-1".*?data-metric="cached-share">not reported</s);
  expect(html).not.toContain('data-workload="agent-turn-3"');
  expect(
    renderToStaticMarkup(createElement(AgentTurnsPanel, { turns: [{ turn: 1, slug: 'agent-turn-1', entry: null }], endpointSlug: 'ref', windowHours: 72 })),
  ).toContain('data-empty="agent-turns"');
});

it('cache lifetime: hit share per gap in the chart and the table, the lifetime in words', () => {
  const gap = (gapMinutes: number, n: number, misses: number) => ({
    gapMinutes,
    workloadSlug: `cache-lifetime-${gapMinutes}m`,
    hit: summariseCacheHits(n, misses),
  });
  const lifetime = measureCacheLifetime([gap(2, 3, 0), gap(5, 3, 1), gap(15, 3, 3)]);
  const html = renderToStaticMarkup(createElement(CacheLifetimePanel, { lifetime, endpointSlug: 'ref', windowHours: 72 }));
  expect(html).toContain('data-chart="cache-lifetime-hits"');
  expect(html).toMatch(/data-workload="cache-lifetime-5m".*?data-metric="hit-share">67%/s);
  expect(html).toContain('5 min: hit after 5 min, missed after 15 min.');
  expect(describeLifetime(measureCacheLifetime([gap(2, 3, 0)]))).toBe('At least 2 min: every gap tested was still hit.');
  expect(describeLifetime(measureCacheLifetime([gap(2, 3, 3)]))).toContain('Not hit even after the shortest gap (2 min)');
  expect(renderToStaticMarkup(createElement(CacheLifetimePanel, { lifetime: null, endpointSlug: 'ref', windowHours: 72 }))).toContain(
    'data-empty="cache-lifetime"',
  );
});
