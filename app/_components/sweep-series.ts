import { paretoFrontier } from '@/lib/sweep/pareto';
import type { SweepDetailView } from '@/lib/sweep/sweep-schemas';
import type { ParetoChartSeries } from './pareto-chart';

/**
 * Chart series of sweeps: one line per sweep through its levels (median TPS/user against the
 * aggregate, or the aggregate per GPU when `perGpu` and the sweep declares its GPU count), and the
 * Pareto frontier computed over every plotted point together (lib/sweep/pareto).
 */
export function toParetoSeries(sweeps: readonly SweepDetailView[], label: (s: SweepDetailView) => string, perGpu: boolean): ParetoChartSeries[] {
  const series = sweeps.map((s) => ({
    key: `sweep-${s.sweep.id}`,
    label: label(s),
    points: s.levels
      .filter((l) => l.outputTokensPerSecond !== null && (!perGpu || l.aggregateOutputTokensPerSecondPerGpu !== null))
      .map((l) => ({
        x: perGpu ? l.aggregateOutputTokensPerSecondPerGpu! : l.aggregateOutputTokensPerSecond,
        y: l.outputTokensPerSecond!.p50,
        concurrency: l.concurrency,
        frontier: false,
      })),
  }));
  const all = series.flatMap((s) => s.points);
  for (const i of paretoFrontier(all.map((p) => ({ aggregate: p.x, perUser: p.y })))) all[i]!.frontier = true;
  return series;
}
