import type { ReactNode } from 'react';
import { fmt } from './format';
import { niceTicks, pct } from './scale';

/** A labelled point of the linear scatter charts: `key` (data-point), `label`, and x and y in the chart's units. */
export interface LabelledPoint {
  key: string;
  label: string;
  x: number;
  y: number;
}

/**
 * The axes of a linear scatter chart from 0: 5 nice x ticks up to the largest x (at least `xFloor`),
 * 4 nice y ticks up to the largest y (at least 1), and the top tick of each (the axes' ends).
 */
export function linearScatterAxes(points: LabelledPoint[], xFloor: number) {
  const xTicks = niceTicks(0, Math.max(xFloor, ...points.map((p) => p.x)), 5);
  const yTicks = niceTicks(0, Math.max(1, ...points.map((p) => p.y)), 4);
  return { xTicks, yTicks, xHi: xTicks[xTicks.length - 1]!, yHi: yTicks[yTicks.length - 1]! };
}

/**
 * The axis ticks of the HTML scatter charts (scatter, price-speed, input-size; classes in
 * app/globals.css): y ticks from 0 to `yHi` labelled with fmt, x ticks at `xLeftPct(t)` percent of
 * the plot's width labelled `xLabel(t)`. Hidden from screen readers: the figure's label carries
 * every number.
 */
export function ScatterTicks({
  yTicks,
  yHi,
  xTicks,
  xLeftPct,
  xLabel,
}: {
  yTicks: number[];
  yHi: number;
  xTicks: number[];
  xLeftPct: (t: number) => number;
  xLabel: (t: number) => ReactNode;
}) {
  return (
    <>
      {yTicks.map((t) => (
        <span key={`y${t}`} className="scatter-ytick" style={{ bottom: `${pct(t, 0, yHi)}%` }} aria-hidden="true">
          {fmt(t)}
        </span>
      ))}
      {xTicks.map((t) => (
        <span key={`x${t}`} className="scatter-xtick" style={{ left: `${xLeftPct(t)}%` }} aria-hidden="true">
          {xLabel(t)}
        </span>
      ))}
    </>
  );
}

/**
 * One labelled point of a linear scatter chart: at (x, y) on axes from 0 to `xHi` and `yHi`,
 * marked data-point/data-x/data-y (tests read them), its label to the left past 55 % of the width
 * and alternately above and below (`i`, the point's index) so neighbours do not overlap.
 */
export function ScatterPointMark({
  point,
  i,
  xHi,
  yHi,
  className = 'scatter-point',
}: {
  point: LabelledPoint;
  i: number;
  xHi: number;
  yHi: number;
  className?: string;
}) {
  return (
    <span
      className={className}
      data-point={point.key}
      data-x={point.x}
      data-y={point.y}
      style={{ left: `${pct(point.x, 0, xHi)}%`, bottom: `${pct(point.y, 0, yHi)}%` }}
    >
      <span className={`scatter-label${pct(point.x, 0, xHi) > 55 ? ' left' : ''}`} style={{ top: i % 2 ? '0.4rem' : '-1.3rem' }}>
        {point.label}
      </span>
    </span>
  );
}
