import { fmt } from './format';

/** One operating point of a curve: one sweep level. */
export interface ParetoChartPoint {
  /** aggregate output tokens/s (or per GPU), x */
  x: number;
  /** median TPS/user, y */
  y: number;
  concurrency: number;
  /** on the Pareto frontier of everything plotted */
  frontier: boolean;
}

/** One line: one endpoint's sweep (or a configured curve). */
export interface ParetoChartSeries {
  key: string;
  label: string;
  points: ParetoChartPoint[];
  /** draw dashed (a configured/true curve rather than a measurement) */
  dashed?: boolean;
}

/** A published claim: a TPS/user figure (y) or an aggregate figure (x), drawn as a reference line. */
export interface ParetoClaim {
  key: string;
  label: string;
  x?: number;
  y?: number;
}

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777'];
const W = 720;
const H = 420;
const M = { left: 64, right: 16, top: 16, bottom: 48 };

/** log10 ticks at 1, 2, 5 × powers of ten covering [lo, hi]. */
function logTicks(lo: number, hi: number): number[] {
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) for (const m of [1, 2, 5]) ticks.push(m * 10 ** e);
  return ticks.filter((t) => t >= lo * 0.999 && t <= hi * 1.001);
}

/**
 * TPS/user (y) against aggregate output tokens/s (x), both on log scales (the field spans 10 to
 * 100,000 tokens/s), one line per series through its levels, frontier points ringed and joined by a
 * thick staircase, claims as dashed reference lines. Server-rendered SVG with role="img" and a
 * label listing every point, so the table beside it and the chart say the same.
 */
export function ParetoChart({ series, claims = [], title, xLabel, id }: { series: ParetoChartSeries[]; claims?: ParetoClaim[]; title: string; xLabel: string; id: string }) {
  const xs = [...series.flatMap((s) => s.points.map((p) => p.x)), ...claims.flatMap((c) => (c.x ? [c.x] : []))].filter((v) => v > 0);
  const ys = [...series.flatMap((s) => s.points.map((p) => p.y)), ...claims.flatMap((c) => (c.y ? [c.y] : []))].filter((v) => v > 0);
  const xLo = 10 ** Math.floor(Math.log10(Math.min(...xs, 10)));
  const xHi = 10 ** Math.ceil(Math.log10(Math.max(...xs, 100)));
  const yLo = 10 ** Math.floor(Math.log10(Math.min(...ys, 10)));
  const yHi = 10 ** Math.ceil(Math.log10(Math.max(...ys, 100)));
  const px = (x: number) => M.left + ((Math.log10(x) - Math.log10(xLo)) / (Math.log10(xHi) - Math.log10(xLo))) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - ((Math.log10(y) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo))) * (H - M.top - M.bottom);
  const frontier = series
    .flatMap((s) => s.points.filter((p) => p.frontier && p.x > 0 && p.y > 0))
    .sort((a, b) => a.x - b.x);
  const label = `${title}. ${series
    .map((s) => `${s.label}: ${s.points.map((p) => `N=${p.concurrency} ${fmt(p.x)} aggregate, ${fmt(p.y)} TPS/user${p.frontier ? ' (frontier)' : ''}`).join('; ')}`)
    .join('. ')}.${claims.length ? ` Claims: ${claims.map((c) => c.label).join('; ')}.` : ''}`;
  return (
    <figure className="pareto" data-chart={id}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} style={{ width: '100%', maxWidth: W, height: 'auto' }}>
        {logTicks(xLo, xHi).map((t) => (
          <g key={`x${t}`} aria-hidden="true">
            <line x1={px(t)} x2={px(t)} y1={M.top} y2={H - M.bottom} stroke="currentColor" strokeOpacity={0.12} />
            <text x={px(t)} y={H - M.bottom + 16} fontSize={11} textAnchor="middle" fill="currentColor">{fmt(t)}</text>
          </g>
        ))}
        {logTicks(yLo, yHi).map((t) => (
          <g key={`y${t}`} aria-hidden="true">
            <line x1={M.left} x2={W - M.right} y1={py(t)} y2={py(t)} stroke="currentColor" strokeOpacity={0.12} />
            <text x={M.left - 6} y={py(t) + 4} fontSize={11} textAnchor="end" fill="currentColor">{fmt(t)}</text>
          </g>
        ))}
        <text x={(M.left + W - M.right) / 2} y={H - 8} fontSize={12} textAnchor="middle" fill="currentColor">{xLabel} →</text>
        <text x={14} y={(M.top + H - M.bottom) / 2} fontSize={12} textAnchor="middle" fill="currentColor" transform={`rotate(-90 14 ${(M.top + H - M.bottom) / 2})`}>TPS/user (median) →</text>
        {claims.map((c) => (
          <g key={c.key} data-claim={c.key}>
            {c.y ? <line x1={M.left} x2={W - M.right} y1={py(c.y)} y2={py(c.y)} stroke="#a16207" strokeDasharray="6 4" /> : null}
            {c.x ? <line x1={px(c.x)} x2={px(c.x)} y1={M.top} y2={H - M.bottom} stroke="#a16207" strokeDasharray="6 4" /> : null}
            <text x={c.x ? px(c.x) - 4 : W - M.right - 4} y={c.y ? py(c.y) - 4 : M.top + 12} fontSize={11} textAnchor="end" fill="#a16207">◆ claim: {c.label}</text>
          </g>
        ))}
        {frontier.length > 1 ? (
          <polyline points={frontier.map((p) => `${px(p.x)},${py(p.y)}`).join(' ')} fill="none" stroke="currentColor" strokeOpacity={0.35} strokeWidth={8} strokeLinejoin="round" data-frontier="line" />
        ) : null}
        {series.map((s, i) => {
          const color = COLORS[i % COLORS.length]!;
          const pts = s.points.filter((p) => p.x > 0 && p.y > 0);
          return (
            <g key={s.key} data-series={s.key}>
              <polyline points={pts.map((p) => `${px(p.x)},${py(p.y)}`).join(' ')} fill="none" stroke={color} strokeWidth={2} strokeDasharray={s.dashed ? '5 4' : undefined} />
              {pts.map((p) => (
                <g key={p.concurrency} data-point={`${s.key}:${p.concurrency}`} data-x={p.x} data-y={p.y} data-frontier={p.frontier ? 'yes' : 'no'}>
                  <circle cx={px(p.x)} cy={py(p.y)} r={p.frontier ? 6 : 4} fill={p.frontier ? color : 'var(--background, white)'} stroke={color} strokeWidth={2} />
                  <text x={px(p.x) + 7} y={py(p.y) - 6} fontSize={10} fill={color} aria-hidden="true">{p.concurrency}</text>
                </g>
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption>
        {series.map((s, i) => (
          <span key={s.key} style={{ marginRight: '1rem', color: COLORS[i % COLORS.length] }}>
            ● {s.label}
          </span>
        ))}
        <span>Filled points: the Pareto frontier (no other point has both more aggregate throughput and more TPS/user). Numbers by points: concurrency. The table below has every figure.</span>
      </figcaption>
    </figure>
  );
}
