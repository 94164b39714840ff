/**
 * The endpoint page's prompt-cache section: the chart and its table alternative show the pair's
 * published figures (TTFT P50, cached tokens, hit share with n and interval, cached share of the
 * prompt with n) and the warm ÷ cold
 * ratio of the medians; no probes → an empty state, never zeros.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { summariseCacheHits } from '@/lib/stats/window-stats';
import type { WindowEntry } from './endpoint-window';
import { PromptCachePanel } from './prompt-cache-panel';

const p = (v: number) => ({ p5: v * 0.9, p25: v * 0.95, p50: v, p75: v * 1.05, p95: v * 1.1 });
const entry = (ttft: number, cached: number, n: number, misses: number, share: { p50: number; n: number } | null = null) =>
  ({
    n,
    ttftMs: p(ttft),
    cachedInputTokens: p(cached),
    cacheHit: summariseCacheHits(n, misses),
    cachedInputShare: share && { ...p(share.p50), n: share.n },
  }) as unknown as WindowEntry;

it('shows cold and warm TTFT, cached tokens and hit share in the chart and the table', () => {
  const html = renderToStaticMarkup(
    createElement(PromptCachePanel, {
      entries: { cold: entry(800, 0, 12, 12, { p50: 0, n: 12 }), warm: entry(200, 1792, 12, 3, { p50: 0.875, n: 11 }) },
      endpointSlug: 'ref',
      windowHours: 72,
    }),
  );
  expect(html).toContain('data-chart="prompt-cache-ttft"');
  expect(html).toMatch(
    /data-workload="cache-warm-2k".*?data-metric="ttft-p50">200<.*?data-metric="cached-p50">1,792<.*?data-metric="hit-share">75%.*?data-metric="cached-share">88% \(n 11\)</s,
  );
  expect(html).toMatch(/data-workload="cache-cold-2k".*?data-metric="hit-share">0%.*?data-metric="cached-share">0% \(n 12\)</s);
  expect(html).toContain('Warm TTFT is 25% of cold.');
});

it('says so when the pair has no probes yet', () => {
  const html = renderToStaticMarkup(createElement(PromptCachePanel, { entries: { cold: null, warm: null }, endpointSlug: 'ref', windowHours: 72 }));
  expect(html).toContain('data-empty="prompt-cache"');
  expect(html).not.toContain('<table');
});
