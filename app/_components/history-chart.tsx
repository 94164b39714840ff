'use client';
import { Area, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface HistoryPoint {
  bucketStart: string;
  p25: number | null;
  p50: number | null;
  p75: number | null;
}

/** Median output speed per bucket with its P25–P75 band (tokens/s). Table alternative sits beside it. */
export function HistoryChart({ points, title, unit = 'tokens/s' }: { points: HistoryPoint[]; title: string; unit?: string }) {
  const data = points.map((p) => ({ t: p.bucketStart.slice(0, 16).replace('T', ' '), p50: p.p50, band: p.p25 !== null && p.p75 !== null ? [p.p25, p.p75] : null }));
  return (
    <figure className="chart" role="img" aria-label={`${title}: ${points.length} buckets`} style={{ height: 280, margin: 0 }}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ left: 8, right: 16, top: 8, bottom: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="t" minTickGap={40} />
          <YAxis unit={unit === 'tokens/s' ? ' t/s' : ' ms'} width={80} />
          <Tooltip />
          <Area dataKey="band" stroke="none" fill="var(--accent)" fillOpacity={0.2} isAnimationActive={false} name="P25–P75" />
          <Line dataKey="p50" stroke="var(--accent)" dot={false} strokeWidth={2} isAnimationActive={false} name="median" />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
