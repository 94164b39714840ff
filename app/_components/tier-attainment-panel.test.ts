/**
 * The endpoint page's service-tier section: the declared parameter and objective with its source,
 * attainment over 24 h / 72 h / 7 d in the chart and its table alternative (share, interval, n,
 * promised share, verdict from the interval); no objective → no attainment at all (never 0 %).
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { summariseCacheHits } from '@/lib/stats/window-stats';
import { TierAttainmentPanel, tierVerdict } from './tier-attainment-panel';

const tier = { parameter: 'service_tier' as const, value: 'priority' };
const objective = { share: 0.99, minOutputTokensPerSecond: 50, maxTtftMs: null, sourceUrl: 'https://openai.com/api-priority-processing/' };

describe('TierAttainmentPanel', () => {
  it('shows the declaration, the objective with its source, and attainment per window in chart and table', () => {
    const windows = [
      { hours: 24, attainment: summariseCacheHits(20, 5) },
      { hours: 72, attainment: summariseCacheHits(400, 0) },
      { hours: 168, attainment: null },
    ];
    const html = renderToStaticMarkup(createElement(TierAttainmentPanel, { tier, objective, windows, workloadSlug: 'prose-1k', endpointSlug: 'ref' }));
    expect(html).toContain('service_tier: &quot;priority&quot;');
    expect(html).toContain('99% of requests above 50 tokens/s (TPS/user)');
    expect(html).toContain('href="https://openai.com/api-priority-processing/"');
    expect(html).toContain('data-chart="tier-attainment"');
    expect(html).toMatch(/data-window="24h".*?data-metric="attainment">75\.0%<.*?data-metric="verdict">missed</s);
    expect(html).toMatch(/data-window="72h".*?data-metric="attainment">100\.0%<.*?data-metric="verdict">met</s);
    expect(html).toMatch(/data-window="168h".*?data-metric="attainment">–<.*?data-metric="verdict">no data</s);
  });

  it('an endpoint without an objective shows no attainment, not 0 %', () => {
    const noObjective = renderToStaticMarkup(
      createElement(TierAttainmentPanel, { tier, objective: null, windows: [], workloadSlug: 'prose-1k', endpointSlug: 'ref' }),
    );
    expect(noObjective).toContain('publishes no objective');
    expect(noObjective).not.toContain('<table');
    expect(noObjective).not.toContain('0%');
    const none = renderToStaticMarkup(
      createElement(TierAttainmentPanel, { tier: null, objective: null, windows: [], workloadSlug: 'prose-1k', endpointSlug: 'ref' }),
    );
    expect(none).toContain('data-empty="tier"');
  });

  it('verdict edges: met exactly at the promised share, undecided just under it, missed when the high end is under it', () => {
    const at = { share: 0.995, n: 1000, interval: { low: 0.99, high: 0.998 } };
    expect(tierVerdict(at, 0.99)).toBe('met');
    expect(tierVerdict({ ...at, interval: { low: 0.989999, high: 0.998 } }, 0.99)).toBe('undecided');
    expect(tierVerdict({ ...at, interval: { low: 0.95, high: 0.99 } }, 0.99)).toBe('undecided');
    expect(tierVerdict({ ...at, interval: { low: 0.95, high: 0.989999 } }, 0.99)).toBe('missed');
  });
});
