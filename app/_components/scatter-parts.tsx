import type { ReactNode } from 'react';
import { fmt } from './format';
import { pct } from './scale';

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
  point: { key: string; label: string; x: number; y: number };
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
