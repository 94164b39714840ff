'use client';
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { plural } from './format';

/** Histogram bin: [from, to) in the chart's unit, and how many samples fell in it. */
export interface HistogramBin {
  from: number;
  to: number;
  count: number;
}

/**
 * Histogram of samples (recharts bars, no animation). `markers` draws the median etc. as dashed
 * lines at the bin that contains them. role="img" figure; data-total is the sample count.
 */
export function HistogramChart({
  bins,
  title,
  unit,
  id,
  color = 'var(--accent)',
  markers = [],
}: {
  bins: HistogramBin[];
  title: string;
  unit: string;
  id: string;
  color?: string;
  markers?: Array<{ value: number; label: string }>;
}) {
  const data = bins.map((b) => ({ bin: `${Math.round(b.from)}–${Math.round(b.to)}`, count: b.count }));
  const total = bins.reduce((n, b) => n + b.count, 0);
  const peak = bins.reduce((best, b) => (b.count > best.count ? b : best), bins[0] ?? { from: 0, to: 0, count: 0 });
  const binOf = (v: number) => {
    const b = bins.find((x) => v >= x.from && v < x.to) ?? bins[bins.length - 1];
    return b ? `${Math.round(b.from)}–${Math.round(b.to)}` : '';
  };
  return (
    <figure
      className="chart"
      role="img"
      aria-label={`${title}: ${total} samples in ${bins.length} bins from ${Math.round(bins[0]?.from ?? 0)} to ${Math.round(bins[bins.length - 1]?.to ?? 0)} ${unit}; most samples (${peak.count}) between ${Math.round(peak.from)} and ${Math.round(peak.to)} ${unit}. ${markers.map((m) => `${m.label} ${Math.round(m.value)} ${unit}`).join(', ')}`}
      data-chart={id}
      data-total={total}
      style={{ height: 240 }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ left: 0, right: 12, top: 20, bottom: 4 }} barCategoryGap={1} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="bin"
            minTickGap={24}
            tick={{ fontSize: 11 }}
            label={{ value: unit, position: 'insideBottomRight', offset: -2, fontSize: 11 }}
            height={36}
          />
          <YAxis allowDecimals={false} width={40} />
          <Tooltip formatter={(v) => [String(v), 'probes']} />
          <Bar dataKey="count" fill={color} isAnimationActive={false} name="probes" />
          {markers.map((m) => (
            <ReferenceLine
              key={m.label}
              x={binOf(m.value)}
              stroke="var(--fg)"
              strokeDasharray="4 3"
              label={{ value: `${m.label} ${Math.round(m.value)}`, position: 'top', fill: 'var(--fg)', fontSize: 11 }}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** One bucket of probe outcomes; `kinds` are failure counts by error kind. */
export interface OutcomeRow {
  t: number;
  successes: number;
  kinds: Record<string, number>;
}

const KIND_COLORS = ['var(--bad)', 'var(--accent-2)', 'var(--s4)', 'var(--s6)', 'var(--s7)', 'var(--s8)', 'var(--s1)', 'var(--s5)'];

/**
 * Stacked bars of successes and failures by kind per bucket, with the success rate (%) as a line
 * on the right axis. role="img" figure labelled with totals per kind; data-failures = total failures.
 */
export function OutcomesChart({ rows, title, granularity, id }: { rows: OutcomeRow[]; title: string; granularity: 'hour' | 'day'; id: string }) {
  const kinds = [...new Set(rows.flatMap((r) => Object.keys(r.kinds)))].sort();
  const data = rows.map((r) => {
    const failures = Object.values(r.kinds).reduce((a, b) => a + b, 0);
    const total = r.successes + failures;
    return { t: r.t, success: r.successes, ...r.kinds, rate: total > 0 ? (r.successes / total) * 100 : null };
  });
  const totals = Object.fromEntries(kinds.map((k) => [k, rows.reduce((n, r) => n + (r.kinds[k] ?? 0), 0)]));
  const successes = rows.reduce((n, r) => n + r.successes, 0);
  const failures = Object.values(totals).reduce((a, b) => a + b, 0);
  const tick = (t: number) => {
    const iso = new Date(t).toISOString();
    return granularity === 'day' ? iso.slice(5, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 13)}h`;
  };
  return (
    <figure
      className="chart"
      role="img"
      aria-label={`${title}: ${successes} successes and ${failures} failures${failures ? ` (${kinds.map((k) => `${k} ${totals[k]}`).join(', ')})` : ''} over ${plural(rows.length, granularity === 'day' ? 'day' : 'hour')}.`}
      data-chart={id}
      data-failures={failures}
      data-successes={successes}
      style={{ height: 260 }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ left: 0, right: 4, top: 8, bottom: 4 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="t" tickFormatter={tick} minTickGap={36} />
          <YAxis yAxisId="n" allowDecimals={false} width={40} />
          <YAxis yAxisId="rate" orientation="right" domain={[0, 100]} width={44} tickFormatter={(v: number) => `${v}%`} />
          <Tooltip
            labelFormatter={(t) => tick(Number(t))}
            formatter={(v, name) => [name === 'success rate' ? `${Number(v).toFixed(1)}%` : String(v), String(name)]}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar yAxisId="n" dataKey="success" stackId="o" fill="var(--ok)" fillOpacity={0.55} isAnimationActive={false} name="success" />
          {kinds.map((k, i) => (
            <Bar key={k} yAxisId="n" dataKey={k} stackId="o" fill={KIND_COLORS[i % KIND_COLORS.length]} isAnimationActive={false} name={k} />
          ))}
          <Line
            yAxisId="rate"
            dataKey="rate"
            stroke="var(--fg)"
            dot={false}
            strokeWidth={1.5}
            isAnimationActive={false}
            name="success rate"
            connectNulls={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
