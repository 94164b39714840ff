/** Turning history rows (db/queries/history.ts) into chart series and change-point annotations (pure). */
import type { HistoryChangePoint } from '@/db/queries/history';
import type { Annotation, Series, SeriesPoint } from './time-series-chart';

/** Series colours (CSS variables defined for both themes in globals.css). */
export const SERIES_COLORS = ['var(--s1)', 'var(--s2)', 'var(--s3)', 'var(--s4)', 'var(--s5)', 'var(--s6)', 'var(--s7)', 'var(--s8)'];

/** One bucket of a series: output speed percentiles in tokens/s (null without valid successes). */
export interface SeriesBucket {
  /** bucket start, ISO UTC (a day starts at 00:00Z) */
  bucketStart: string;
  /** probes in the bucket (success + failure) */
  n: number;
  successes: number;
  p25: number | null;
  p50: number | null;
  p75: number | null;
}

/** One endpoint's daily (or hourly) series with its change points and colour. */
export interface EndpointSeries {
  endpointId: number;
  endpointSlug: string;
  provider: string;
  color: string;
  buckets: SeriesBucket[];
  changePoints: HistoryChangePoint[];
}

/**
 * Series from db/queries/history listModelHistory rows (or rows shaped like them): endpoints
 * without any median are dropped; colours follow the order given.
 */
export function fromModelHistory(
  rows: Array<{
    endpoint: { id: number; slug: string; provider: string };
    days: Array<{ day: string; n: number; successes: number; median: number | null; p25: number | null; p75: number | null }>;
    changePoints: HistoryChangePoint[];
  }>,
): EndpointSeries[] {
  return rows
    .filter((r) => r.days.some((d) => d.median !== null))
    .map((r, i) => ({
      endpointId: r.endpoint.id,
      endpointSlug: r.endpoint.slug,
      provider: r.endpoint.provider,
      color: SERIES_COLORS[i % SERIES_COLORS.length]!,
      buckets: r.days.map((d) => ({ bucketStart: `${d.day}T00:00:00.000Z`, n: d.n, successes: d.successes, p25: d.p25, p50: d.median, p75: d.p75 })),
      changePoints: r.changePoints,
    }));
}

/** Chart series (median with P25–P75 band, tokens/s) of endpoint series. */
export function chartSeries(series: EndpointSeries[]): Series[] {
  return series.map((s) => ({
    key: `e${s.endpointId}`,
    label: s.endpointSlug,
    color: s.color,
    points: s.buckets.map((b) => ({ t: Date.parse(b.bucketStart), p25: b.p25, p50: b.p50, p75: b.p75 })),
  }));
}

/** Change points as chart annotations: "+45% synthetic-b200-eagle" at the first day of the new level. */
export function changeAnnotations(series: EndpointSeries[]): Annotation[] {
  return series.flatMap((s) =>
    s.changePoints.map((cp) => ({ t: Date.parse(`${cp.day}T00:00:00Z`), label: `${cp.label.split(' on ')[0]} ${s.endpointSlug}`, color: s.color })),
  );
}

/**
 * Chart points of a median with its P25–P75 band from history rows (db/queries/history): `t` the
 * bucket start (epoch ms), p25/p50/p75 of the figure `pick` reads from the row (tokens/s or ms, as
 * the figure is), null where the row has none.
 */
export function bandPoints<R extends { bucketStart: string }>(
  rows: readonly R[],
  pick: (row: R) => { p25: number; p50: number; p75: number } | null | undefined,
): SeriesPoint[] {
  return rows.map((r) => {
    const f = pick(r);
    return { t: Date.parse(r.bucketStart), p25: f?.p25 ?? null, p50: f?.p50 ?? null, p75: f?.p75 ?? null };
  });
}

/**
 * The one series of an endpoint's hourly speed chart: keyed "speed", labelled with the endpoint's
 * slug, in the first series colour, the P50 line and P25–P75 band of what `pick` reads per row.
 */
export function endpointSpeedSeries<R extends { bucketStart: string }>(
  slug: string,
  rows: readonly R[],
  pick: (row: R) => { p25: number; p50: number; p75: number } | null | undefined,
): Series[] {
  return [{ key: 'speed', label: slug, color: 'var(--s1)', points: bandPoints(rows, pick) }];
}
