'use client';
import { Bar, BarChart, CartesianGrid, ErrorBar, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface ChartRow {
  label: string;
  p50: number;
  p25: number;
  p75: number;
}

/**
 * Horizontal bars of median output speed (tokens/s) with P25–P75 whiskers. The table beside it is
 * the accessible alternative; this chart is labelled for screen readers.
 */
export function LeaderboardChart({ rows, title }: { rows: ChartRow[]; title: string }) {
  const data = rows.map((r) => ({ ...r, whisker: [r.p50 - r.p25, r.p75 - r.p50] as [number, number] }));
  return (
    <figure className="chart" role="img" aria-label={`${title}: ${rows.map((r) => `${r.label} ${Math.round(r.p50)} tokens/s`).join('; ')}`} style={{ height: 60 + rows.length * 44, margin: 0 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ left: 8, right: 32, top: 8, bottom: 16 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" unit=" t/s" />
          <YAxis type="category" dataKey="label" width={200} />
          <Tooltip formatter={(v) => [`${Math.round(Number(v))} tokens/s`, 'median']} />
          <Bar dataKey="p50" fill="var(--accent)" isAnimationActive={false} name="median TPS/user">
            <ErrorBar dataKey="whisker" width={6} strokeWidth={2} stroke="var(--fg)" direction="x" />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
