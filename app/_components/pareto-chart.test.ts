import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { buildSweepDetail, type StoredSweep, type StoredSweepLevel } from '@/lib/sweep/sweep-view';
import { ParetoChart, spreadLabels, type ParetoClaim } from './pareto-chart';
import { SweepLevelsTable } from './sweep-levels-table';
import { toParetoSeries } from './sweep-series';

const pct = (m: number) => ({ p5: m * 0.9, p25: m * 0.95, p50: m, p75: m * 1.05, p95: m * 1.1 });
const sweepRow = (id: number, endpointId: number, gpuCount: number | null): StoredSweep => ({
  id,
  endpointId,
  endpointSlug: `ep-${endpointId}`,
  provider: `P${endpointId}`,
  model: 'M',
  status: 'completed',
  requestedAt: new Date('2026-11-30T10:00:00Z'),
  startedAt: null,
  finishedAt: null,
  concurrencyLevels: [1, 2, 4],
  durationMs: 1000,
  warmUpMs: 0,
  maxOutputTokens: 64,
  objectiveTtftMs: 450,
  objectiveTpotMs: 40,
  minSuccessRate: 0.9,
  gpuCount,
  stopReason: null,
  stoppedAtConcurrency: null,
  currentConcurrency: null,
  streamsDone: 0,
});
const level = (sweepId: number, levelIndex: number, concurrency: number, perUser: number, aggregate: number): StoredSweepLevel => ({
  sweepId,
  levelIndex,
  concurrency,
  requests: 4,
  successes: 4,
  errorKinds: {},
  outputTokensPerSecond: pct(perUser),
  ttftMs: pct(100),
  tpotMs: pct(1000 / perUser),
  aggregateOutputTokensPerSecond: aggregate,
  completedRequestsPerSecond: 1,
  goodputRequestsPerSecond: 1,
  windowStartedAt: new Date('2026-11-30T10:00:01Z'),
  windowDurationMs: 1000,
  streams: { warmup: 1, measured: 4, tail: 1 },
  eventLoopDelayP99Ms: 1,
  valid: true,
  stopReason: null,
});

/** The chart's markup for `series` and `claims` (id t, title T, x axis "aggregate"). */
const renderPareto = (series: ReturnType<typeof toParetoSeries>, claims: ParetoClaim[]) =>
  renderToStaticMarkup(createElement(ParetoChart, { id: 't', title: 'T', xLabel: 'aggregate', series, claims }));

describe('Pareto chart and table', () => {
  const a = buildSweepDetail(sweepRow(1, 10, 8), [level(1, 0, 1, 1000, 900), level(1, 1, 2, 900, 1700), level(1, 2, 4, 500, 1800)]);
  const b = buildSweepDetail(sweepRow(2, 11, null), [level(2, 0, 1, 300, 280), level(2, 1, 2, 290, 2000)]);

  it('marks the frontier over every plotted endpoint, and per GPU only where declared', () => {
    const series = toParetoSeries([a, b], (s) => s.sweep.provider, false);
    const onFrontier = series.flatMap((s) => s.points.filter((p) => p.frontier).map((p) => `${s.label}:${p.concurrency}`));
    // P11:1 (280, 300) is beaten by P10:1 (900, 1000); P10:4 (1800, 500) is not beaten by P11:2 (2000, 290)
    expect(onFrontier).toEqual(['P10:1', 'P10:2', 'P10:4', 'P11:2']);
  });

  it('renders every point with its data, the claims as reference lines, and a table with every level', () => {
    const series = toParetoSeries([a, b], (s) => s.sweep.provider, false);
    const html = renderPareto(series, [
      { key: 'c1', label: '1,038 TPS/user', y: 1038 },
      { key: 'c2', label: '72,000 TPS/server', x: 72_000 },
    ]);
    expect(html.match(/data-point="/g)).toHaveLength(5);
    expect(html).toContain('data-claim="c1"');
    expect(html).toContain('data-claim="c2"');
    expect(html).toMatch(/role="img"/);
    const perGpu = toParetoSeries([a, b], (s) => s.sweep.provider, true);
    expect(perGpu[0]!.points.map((p) => p.x)).toEqual([900 / 8, 1700 / 8, 1800 / 8]);
    expect(perGpu[1]!.points).toEqual([]);
    const table = renderToStaticMarkup(createElement(SweepLevelsTable, { sweep: a, caption: 'c' }));
    expect(table.match(/data-concurrency=/g)).toHaveLength(3);
    expect(table).toContain('Tokens/s/GPU');
  });
});

describe('claim labels (issue #23 item 8)', () => {
  it('spreadLabels keeps every label at least the gap apart, in order, inside the plot', () => {
    // 11 claims within 30 units (the Pareto page had 11 overlapping labels)
    const wanted = [100, 102, 104, 105, 110, 111, 115, 118, 120, 125, 130];
    const placed = spreadLabels(wanted, 20, 400, 16);
    const sorted = [...placed].sort((x, y) => x - y);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(16);
    expect(Math.min(...placed)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...placed)).toBeLessThanOrEqual(400);
    // a stack that would run past the bottom is moved up, still apart
    const low = spreadLabels([390, 392, 395], 20, 400, 16);
    expect(Math.max(...low)).toBeLessThanOrEqual(400);
    expect([...low].sort((x, y) => x - y)).toEqual([368, 384, 400]);
    // labels already apart stay where they were
    expect(spreadLabels([50, 100, 200], 20, 400, 16)).toEqual([50, 100, 200]);
    // exactly the gap apart: unchanged; one unit closer: pushed
    expect(spreadLabels([50, 66], 20, 400, 16)).toEqual([50, 66]);
    expect(spreadLabels([50, 65], 20, 400, 16)).toEqual([50, 66]);
  });

  it('an upper-bound claim ("< 200") is drawn as a bound, not as a figure at 200', () => {
    const series = toParetoSeries(
      [buildSweepDetail(sweepRow(3, 12, null), [level(3, 0, 1, 300, 280), level(3, 1, 2, 250, 500)])],
      (s) => s.sweep.provider,
      false,
    );
    const html = renderPareto(series, [
      { key: 'c1', label: 'A: < 200 TPS/user', y: 200, bound: 'lt' },
      { key: 'c2', label: 'B: 1,038 TPS/user', y: 1038, bound: 'eq' },
    ]);
    expect(html).toMatch(/data-claim="c1" data-bound="lt"[^]*?stroke-dasharray="2 4"[^]*?▼ claim: A: &lt; 200 TPS\/user/);
    expect(html).toMatch(/data-claim="c2" data-bound="eq"[^]*?stroke-dasharray="6 4"[^]*?◆ claim: B: 1,038 TPS\/user/);
    // every text of the chart is at least 13 SVG units on a chart never narrower than 560 px of 720 (≥ 10 px)
    for (const m of html.matchAll(/font-size="(\d+)"/g)) expect(Number(m[1])).toBeGreaterThanOrEqual(13);
    expect(html).toContain('min-width:560px');
  });
});
