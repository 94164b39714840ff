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
  /** the claim's bound as published: eq (a figure), lt/lte ("< 200": an upper bound), gt/gte, approx */
  bound?: string;
}

/** Smallest gap between two claim labels, in SVG units (one 13-unit line plus leading). */
const LABEL_GAP = 16;

/**
 * Positions labels near their wanted coordinate without overlapping: sorted, each at least `gap`
 * after the previous, then shifted back inside [lo, hi] when the stack ran past the end.
 */
export function spreadLabels(wanted: number[], lo: number, hi: number, gap = LABEL_GAP): number[] {
  const order = wanted.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const placed: number[] = new Array(wanted.length);
  let prev = -Infinity;
  for (const { v, i } of order) {
    const at = Math.max(v, lo, prev + gap);
    placed[i] = at;
    prev = at;
  }
  const overflow = prev - hi;
  if (overflow > 0) {
    // Shift the whole stack up, but never above lo (labels then keep their order and gap as far as room allows).
    let next = Infinity;
    for (const { i } of [...order].reverse()) {
      const at = Math.max(lo, Math.min(placed[i]! - overflow, next - gap));
      placed[i] = at;
      next = at;
    }
  }
  return placed;
}

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777'];
const W = 720;
const H = 420;
const M = { left: 64, right: 20, top: 16, bottom: 48 };
/** Text sizes in SVG units: the chart never renders narrower than MIN_WIDTH px (it scrolls inside its figure), so 13 stays ≥ 10 px on a phone. */
const TEXT = 13;
const MIN_WIDTH = 560;

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
export function ParetoChart({
  series,
  claims = [],
  title,
  xLabel,
  id,
}: {
  series: ParetoChartSeries[];
  claims?: ParetoClaim[];
  title: string;
  xLabel: string;
  id: string;
}) {
  const xs = [...series.flatMap((s) => s.points.map((p) => p.x)), ...claims.flatMap((c) => (c.x ? [c.x] : []))].filter((v) => v > 0);
  const ys = [...series.flatMap((s) => s.points.map((p) => p.y)), ...claims.flatMap((c) => (c.y ? [c.y] : []))].filter((v) => v > 0);
  const xLo = 10 ** Math.floor(Math.log10(Math.min(...xs, 10)));
  const xHi = 10 ** Math.ceil(Math.log10(Math.max(...xs, 100)));
  const yLo = 10 ** Math.floor(Math.log10(Math.min(...ys, 10)));
  const yHi = 10 ** Math.ceil(Math.log10(Math.max(...ys, 100)));
  const px = (x: number) => M.left + ((Math.log10(x) - Math.log10(xLo)) / (Math.log10(xHi) - Math.log10(xLo))) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - ((Math.log10(y) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo))) * (H - M.top - M.bottom);
  const xTicks = logTicks(xLo, xHi);
  // Claim labels: y claims beside their line, x claims at the top; spread so none overlaps another.
  const labelY = spreadLabels(
    claims.map((c) => (c.y ? py(c.y) - 4 : M.top + TEXT)),
    M.top + TEXT,
    H - M.bottom - 4,
  );
  const frontier = series.flatMap((s) => s.points.filter((p) => p.frontier && p.x > 0 && p.y > 0)).sort((a, b) => a.x - b.x);
  const label = `${title}. ${series
    .map(
      (s) =>
        `${s.label}: ${s.points.map((p) => `N=${p.concurrency} ${fmt(p.x)} aggregate, ${fmt(p.y)} TPS/user${p.frontier ? ' (frontier)' : ''}`).join('; ')}`,
    )
    .join('. ')}.${claims.length ? ` Claims: ${claims.map((c) => c.label).join('; ')}.` : ''}`;
  return (
    <figure className="pareto" data-chart={id} style={{ margin: 0, maxWidth: '100%', overflowX: 'auto' }}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} style={{ width: '100%', minWidth: MIN_WIDTH, maxWidth: W, height: 'auto' }}>
        {xTicks.map((t, i) => (
          <g key={`x${t}`} aria-hidden="true">
            <line x1={px(t)} x2={px(t)} y1={M.top} y2={H - M.bottom} stroke="currentColor" strokeOpacity={0.12} />
            {/* The last label ends at its tick (centred it would be cut at the chart's edge), the first starts at it. */}
            <text
              x={px(t)}
              y={H - M.bottom + 18}
              fontSize={TEXT}
              textAnchor={i === xTicks.length - 1 ? 'end' : i === 0 ? 'start' : 'middle'}
              fill="currentColor"
            >
              {fmt(t)}
            </text>
          </g>
        ))}
        {logTicks(yLo, yHi).map((t) => (
          <g key={`y${t}`} aria-hidden="true">
            <line x1={M.left} x2={W - M.right} y1={py(t)} y2={py(t)} stroke="currentColor" strokeOpacity={0.12} />
            <text x={M.left - 6} y={py(t) + 4} fontSize={TEXT} textAnchor="end" fill="currentColor">
              {fmt(t)}
            </text>
          </g>
        ))}
        <text x={(M.left + W - M.right) / 2} y={H - 8} fontSize={TEXT} textAnchor="middle" fill="currentColor">
          {xLabel} →
        </text>
        <text
          x={14}
          y={(M.top + H - M.bottom) / 2}
          fontSize={TEXT}
          textAnchor="middle"
          fill="currentColor"
          transform={`rotate(-90 14 ${(M.top + H - M.bottom) / 2})`}
        >
          TPS/user (median) →
        </text>
        {claims.map((c, i) => {
          // An upper bound ("< 200") is not a figure at 200: its line is faint and its label says "<" with an arrow below.
          const upper = c.bound === 'lt' || c.bound === 'lte';
          const lower = c.bound === 'gt' || c.bound === 'gte';
          return (
            <g key={c.key} data-claim={c.key} data-bound={c.bound ?? 'eq'}>
              {c.y ? (
                <line
                  x1={M.left}
                  x2={W - M.right}
                  y1={py(c.y)}
                  y2={py(c.y)}
                  stroke="#a16207"
                  strokeOpacity={upper || lower ? 0.45 : 1}
                  strokeDasharray={upper || lower ? '2 4' : '6 4'}
                />
              ) : null}
              {c.x ? (
                <line
                  x1={px(c.x)}
                  x2={px(c.x)}
                  y1={M.top}
                  y2={H - M.bottom}
                  stroke="#a16207"
                  strokeOpacity={upper || lower ? 0.45 : 1}
                  strokeDasharray={upper || lower ? '2 4' : '6 4'}
                />
              ) : null}
              <text x={c.x && !c.y ? px(c.x) - 4 : W - M.right - 4} y={labelY[i]} fontSize={TEXT} textAnchor="end" fill="#a16207">
                {upper ? '▼' : lower ? '▲' : '◆'} claim: {c.label}
              </text>
            </g>
          );
        })}
        {frontier.length > 1 ? (
          <polyline
            points={frontier.map((p) => `${px(p.x)},${py(p.y)}`).join(' ')}
            fill="none"
            stroke="currentColor"
            strokeOpacity={0.35}
            strokeWidth={8}
            strokeLinejoin="round"
            data-frontier="line"
          />
        ) : null}
        {series.map((s, i) => {
          const color = COLORS[i % COLORS.length]!;
          const pts = s.points.filter((p) => p.x > 0 && p.y > 0);
          return (
            <g key={s.key} data-series={s.key}>
              <polyline
                points={pts.map((p) => `${px(p.x)},${py(p.y)}`).join(' ')}
                fill="none"
                stroke={color}
                strokeWidth={2}
                strokeDasharray={s.dashed ? '5 4' : undefined}
              />
              {pts.map((p) => (
                <g key={p.concurrency} data-point={`${s.key}:${p.concurrency}`} data-x={p.x} data-y={p.y} data-frontier={p.frontier ? 'yes' : 'no'}>
                  <circle
                    cx={px(p.x)}
                    cy={py(p.y)}
                    r={p.frontier ? 6 : 4}
                    fill={p.frontier ? color : 'var(--background, white)'}
                    stroke={color}
                    strokeWidth={2}
                  />
                  <text x={px(p.x) + 7} y={py(p.y) - 6} fontSize={TEXT} fill={color} aria-hidden="true">
                    {p.concurrency}
                  </text>
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
        <span>
          Filled points: the Pareto frontier (no other point has both more aggregate throughput and more TPS/user). Numbers by points: concurrency. The table
          below has every figure.
        </span>
      </figcaption>
    </figure>
  );
}
