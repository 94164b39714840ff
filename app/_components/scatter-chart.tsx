import { fmt } from './format';
import { linearScatterAxes, ScatterPointMark, ScatterTicks, type LabelledPoint } from './scatter-parts';
import { median, pct } from './scale';

/** One point: x = TTFT P50 (ms), y = output speed P50 (tokens/s). */
export type ScatterPoint = LabelledPoint;

/**
 * TTFT (x, ms, lower is better) against output speed (y, tokens/s, higher is better), drawn in
 * HTML so text keeps its size on phones. Dividers at the medians of the plotted endpoints mark the
 * fast-and-responsive quadrant (top left: quicker first token AND faster stream than the median).
 * role="img" with a label listing every point and its quadrant; each point carries data-x/data-y.
 */
export function ScatterChart({ points, title, id }: { points: ScatterPoint[]; title: string; id: string }) {
  const { xTicks, yTicks, xHi, yHi } = linearScatterAxes(points, 1);
  const mx = points.length >= 2 ? median(points.map((p) => p.x)) : null;
  const my = points.length >= 2 ? median(points.map((p) => p.y)) : null;
  const inQuadrant = (p: ScatterPoint) => mx !== null && my !== null && p.x <= mx && p.y >= my;
  const label = `${title}. ${points
    .map((p) => `${p.label}: TTFT ${fmt(p.x)} ms, ${fmt(p.y)} tokens/s${inQuadrant(p) ? ', in the fast-and-responsive quadrant' : ''}`)
    .join('; ')}.${mx !== null ? ` Quadrant dividers at the medians: TTFT ${fmt(mx)} ms, ${fmt(my)} tokens/s.` : ''}`;
  return (
    <figure className="scatter" role="img" aria-label={label} data-chart={id}>
      <div className="scatter-y-unit" aria-hidden="true">
        TPS/user (P50) ↑
      </div>
      <div className="scatter-plot">
        {mx !== null && my !== null ? (
          <>
            <span className="scatter-quadrant" style={{ left: 0, width: `${pct(mx, 0, xHi)}%`, bottom: `${pct(my, 0, yHi)}%`, top: 0 }}>
              <span className="scatter-quadrant-label">fast and responsive</span>
            </span>
            <span className="scatter-vline" style={{ left: `${pct(mx, 0, xHi)}%` }} />
            <span className="scatter-hline" style={{ bottom: `${pct(my, 0, yHi)}%` }} />
          </>
        ) : null}
        <ScatterTicks yTicks={yTicks} yHi={yHi} xTicks={xTicks} xLeftPct={(t) => pct(t, 0, xHi)} xLabel={(t) => fmt(t)} />
        {points.map((p, i) => (
          <ScatterPointMark key={p.key} point={p} i={i} xHi={xHi} yHi={yHi} className={`scatter-point${inQuadrant(p) ? ' in-quadrant' : ''}`} />
        ))}
      </div>
      <div className="scatter-x-unit" aria-hidden="true">
        TTFT P50 (ms) → lower is better
      </div>
    </figure>
  );
}
