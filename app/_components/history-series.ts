/** Turning rollup buckets into chart series and change-point annotations (pure, server-side). */
import type { EndpointBucket } from '@/db/queries/ui-history';
import { detectChangePoints, formatChange, type ChangePoint } from '@/lib/stats/change-points';
import type { Annotation, Series } from './time-series-chart';

/** Series colours (CSS variables defined for both themes in globals.css). */
export const SERIES_COLORS = ['var(--s1)', 'var(--s2)', 'var(--s3)', 'var(--s4)', 'var(--s5)', 'var(--s6)', 'var(--s7)', 'var(--s8)'];

/** One endpoint's series with its change points (detected on daily medians of output speed). */
export interface EndpointSeries {
  endpointId: number;
  endpointSlug: string;
  provider: string;
  color: string;
  buckets: EndpointBucket[];
  changePoints: ChangePoint[];
}

/**
 * Groups buckets by endpoint (in first-seen order), assigns colours, and, for daily buckets,
 * detects change points of the daily median output speed (lib/stats/change-points defaults:
 * ≥ 15 % effect, ≥ 3 days per segment, Mann–Whitney p < 0.05).
 */
export function toEndpointSeries(buckets: EndpointBucket[], granularity: 'hour' | 'day'): EndpointSeries[] {
  const by = new Map<number, EndpointBucket[]>();
  for (const b of buckets) by.set(b.endpointId, [...(by.get(b.endpointId) ?? []), b]);
  return [...by.values()]
    .filter((bs) => bs.some((b) => b.outputTokensPerSecond))
    .map((bs, i) => {
      const daily = bs.filter((b) => b.outputTokensPerSecond && b.outputTokensPerSecond.p50 > 0).map((b) => ({ day: b.bucketStart.slice(0, 10), median: b.outputTokensPerSecond!.p50 }));
      return {
        endpointId: bs[0]!.endpointId,
        endpointSlug: bs[0]!.endpointSlug,
        provider: bs[0]!.provider,
        color: SERIES_COLORS[i % SERIES_COLORS.length]!,
        buckets: bs,
        changePoints: granularity === 'day' ? detectChangePoints(daily) : [],
      };
    });
}

/** Chart series (median with P25–P75 band, tokens/s) of endpoint series. */
export function chartSeries(series: EndpointSeries[]): Series[] {
  return series.map((s) => ({
    key: `e${s.endpointId}`,
    label: s.endpointSlug,
    color: s.color,
    points: s.buckets.map((b) => ({ t: Date.parse(b.bucketStart), p25: b.outputTokensPerSecond?.p25 ?? null, p50: b.outputTokensPerSecond?.p50 ?? null, p75: b.outputTokensPerSecond?.p75 ?? null })),
  }));
}

/** Change points as chart annotations: "+45%" at the first day of the new level, in the series colour. */
export function changeAnnotations(series: EndpointSeries[]): Annotation[] {
  return series.flatMap((s) => s.changePoints.map((cp) => ({ t: Date.parse(`${cp.day}T00:00:00Z`), label: `${formatChange(cp).split(' on ')[0]} ${s.endpointSlug}`, color: s.color })));
}

export { formatChange };
