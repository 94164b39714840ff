import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { buildSweepDetail, type StoredSweep, type StoredSweepLevel } from '@/lib/sweep/sweep-view';
import { ParetoChart } from './pareto-chart';
import { SweepLevelsTable } from './sweep-levels-table';
import { toParetoSeries } from './sweep-series';

const pct = (m: number) => ({ p5: m * 0.9, p25: m * 0.95, p50: m, p75: m * 1.05, p95: m * 1.1 });
const sweepRow = (id: number, endpointId: number, gpuCount: number | null): StoredSweep => ({
  id, endpointId, endpointSlug: `ep-${endpointId}`, provider: `P${endpointId}`, model: 'M', status: 'completed',
  requestedAt: new Date('2026-11-30T10:00:00Z'), startedAt: null, finishedAt: null, concurrencyLevels: [1, 2, 4],
  durationMs: 1000, warmUpMs: 0, maxOutputTokens: 64, objectiveTtftMs: 450, objectiveTpotMs: 40, minSuccessRate: 0.9,
  gpuCount, stopReason: null, stoppedAtConcurrency: null, currentConcurrency: null, streamsDone: 0,
});
const level = (sweepId: number, levelIndex: number, concurrency: number, perUser: number, aggregate: number): StoredSweepLevel => ({
  sweepId, levelIndex, concurrency, requests: 4, successes: 4, errorKinds: {}, outputTokensPerSecondPerUser: pct(perUser), ttftMs: pct(100), tpotMs: pct(1000 / perUser),
  aggregateOutputTokensPerSecond: aggregate, completedRequestsPerSecond: 1, goodputRequestsPerSecond: 1, windowStartedAt: new Date('2026-11-30T10:00:01Z'),
  windowDurationMs: 1000, streams: { warmup: 1, measured: 4, tail: 1 }, eventLoopDelayP99Ms: 1, valid: true, stopReason: null,
});

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
    const html = renderToStaticMarkup(createElement(ParetoChart, { id: 't', title: 'T', xLabel: 'aggregate', series, claims: [{ key: 'c1', label: '1,038 TPS/user', y: 1038 }, { key: 'c2', label: '72,000 TPS/server', x: 72_000 }] }));
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
