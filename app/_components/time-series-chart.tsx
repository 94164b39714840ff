'use client';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceArea, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { plural } from './format';

/** One bucket of one series: t = bucket start (epoch ms); p25/p50/p75 in the chart's unit. */
export interface SeriesPoint {
  t: number;
  p25: number | null;
  p50: number | null;
  p75: number | null;
}

/** A line (median) with its P25–P75 band. `color` is a CSS colour, e.g. "var(--s1)". */
export interface Series {
  key: string;
  label: string;
  color: string;
  points: SeriesPoint[];
}

/** A vertical marker, e.g. a change point "+38% on 2026-11-17" of one series. */
export interface Annotation {
  t: number;
  label: string;
  color?: string;
}

/** A shaded period, e.g. an annotation "our eu worker lost its network 10:00-10:40" or an accepted dispute (decision 232). */
export interface PeriodNote {
  from: number;
  until: number;
  label: string;
}

const fmtTick = (granularity: 'hour' | 'day') => (t: number) => {
  const iso = new Date(t).toISOString();
  return granularity === 'day' ? iso.slice(5, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 13)}h`;
};

/**
 * Medians over time with P25–P75 bands for one or more series (recharts, no animation), with
 * annotations as dashed vertical lines. Wrapped in a figure with role="img" whose label states
 * each series' range and latest value; data-points counts the plotted buckets so tests can match
 * it with the table alternative (which the page renders beside it).
 */
export function TimeSeriesChart({
  series,
  annotations = [],
  periods = [],
  title,
  unit,
  granularity,
  id,
  height = 300,
  reference,
}: {
  series: Series[];
  annotations?: Annotation[];
  /** shaded periods (annotations of windows), clipped to the plotted range */
  periods?: PeriodNote[];
  title: string;
  /** e.g. "tokens/s" or "ms" */
  unit: string;
  granularity: 'hour' | 'day';
  id: string;
  height?: number;
  /** a horizontal reference line, e.g. a calibration endpoint's configured rate */
  reference?: { value: number; label: string };
}) {
  const rows = new Map<number, Record<string, number | [number, number] | null>>();
  for (const s of series) {
    for (const p of s.points) {
      const r = rows.get(p.t) ?? { t: p.t };
      r[`${s.key}__p50`] = p.p50;
      r[`${s.key}__band`] = p.p25 !== null && p.p75 !== null ? [p.p25, p.p75] : null;
      rows.set(p.t, r);
    }
  }
  const data = [...rows.values()].sort((a, b) => (a.t as number) - (b.t as number));
  const describe = series
    .map((s) => {
      const vals = s.points.map((p) => p.p50).filter((v): v is number => v !== null);
      if (vals.length === 0) return `${s.label}: no data`;
      const last = [...s.points].reverse().find((p) => p.p50 !== null)!;
      return `${s.label}: ${plural(vals.length, granularity === 'day' ? 'day' : 'hour')}, median from ${Math.round(Math.min(...vals))} to ${Math.round(Math.max(...vals))} ${unit}, latest ${Math.round(last.p50!)} ${unit}`;
    })
    .join('; ');
  const notes = `${annotations.length ? ` Marked changes: ${annotations.map((a) => a.label).join('; ')}.` : ''}${periods.length ? ` Annotated periods: ${periods.map((p) => p.label).join('; ')}.` : ''}${reference ? ` Reference line: ${reference.label}.` : ''}`;
  const pointCount = series.reduce((n, s) => n + s.points.filter((p) => p.p50 !== null).length, 0);
  const dots = data.length <= 40;
  return (
    <figure
      className="chart"
      role="img"
      aria-label={`${title}. ${describe}.${notes}`}
      data-chart={id}
      data-points={pointCount}
      data-periods={periods.length}
      style={{ height }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ left: 4, right: 16, top: 24, bottom: 4 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="t" type="number" scale="time" domain={['dataMin', 'dataMax']} tickFormatter={fmtTick(granularity)} minTickGap={36} />
          <YAxis
            width={56}
            tickFormatter={(v: number) => Math.round(v).toLocaleString('en-US')}
            label={{ value: unit, angle: -90, position: 'insideLeft', offset: 10 }}
          />
          <Tooltip
            labelFormatter={(t) =>
              new Date(Number(t))
                .toISOString()
                .slice(0, granularity === 'day' ? 10 : 16)
                .replace('T', ' ') + (granularity === 'hour' ? ' UTC' : '')
            }
            formatter={(v, name) => [
              Array.isArray(v) ? `${Math.round(Number(v[0]))}–${Math.round(Number(v[1]))}` : Math.round(Number(v)).toLocaleString('en-US'),
              String(name),
            ]}
          />
          {series.map((s) => (
            <Area
              key={`${s.key}-band`}
              dataKey={`${s.key}__band`}
              stroke="none"
              fill={s.color}
              fillOpacity={0.15}
              isAnimationActive={false}
              name={`${s.label} P25–P75`}
              connectNulls={false}
              activeDot={false}
            />
          ))}
          {series.map((s) => (
            <Line
              key={`${s.key}-line`}
              dataKey={`${s.key}__p50`}
              stroke={s.color}
              strokeWidth={2}
              dot={dots ? { r: 2 } : false}
              isAnimationActive={false}
              name={`${s.label} median`}
              connectNulls={false}
            />
          ))}
          {reference ? (
            <ReferenceLine
              y={reference.value}
              stroke="var(--ok)"
              strokeDasharray="6 3"
              label={{ value: reference.label, position: 'insideTopRight', fill: 'var(--fg)', fontSize: 11 }}
            />
          ) : null}
          {periods.map((p, i) => (
            <ReferenceArea
              key={`period-${i}`}
              x1={p.from}
              x2={p.until}
              fill="var(--warn, #d97706)"
              fillOpacity={0.12}
              stroke="var(--warn, #d97706)"
              strokeOpacity={0.4}
              ifOverflow="hidden"
              label={{ value: `▲ ${i + 1}`, position: 'insideTopLeft', fill: 'var(--fg)', fontSize: 11 }}
            />
          ))}
          {annotations.map((a, i) => (
            <ReferenceLine
              key={i}
              x={a.t}
              stroke={a.color ?? 'var(--fg)'}
              strokeDasharray="4 3"
              label={{ value: a.label, position: 'top', fill: 'var(--fg)', fontSize: 11 }}
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
