import { fmt } from './format';
import { ScatterPointMark, ScatterTicks } from './scatter-parts';
import { niceTicks, pct } from './scale';

/** One endpoint: x = declared blended price (USD per M tokens, 3:1), y = window median TPS/user. */
export interface PriceSpeedPoint {
  key: string;
  label: string;
  /** blended price, USD per million tokens (declared, not measured) */
  x: number;
  /** output speed P50, tokens/s (measured) */
  y: number;
}

/**
 * Declared blended price (x, USD per million tokens, 3:1 input:output, lower is cheaper) against
 * measured output speed per user (y, tokens/s, higher is faster), one point per endpoint with a
 * declared price. Drawn in HTML with the scatter chart's classes; role="img" with a label listing
 * every point; each point carries data-x/data-y. The page's table carries the same numbers.
 */
export function PriceSpeedChart({ points, title, id }: { points: PriceSpeedPoint[]; title: string; id: string }) {
  const xTicks = niceTicks(0, Math.max(0.01, ...points.map((p) => p.x)), 5);
  const yTicks = niceTicks(0, Math.max(1, ...points.map((p) => p.y)), 4);
  const xHi = xTicks[xTicks.length - 1]!;
  const yHi = yTicks[yTicks.length - 1]!;
  const label = `${title}. ${points.map((p) => `${p.label}: ${fmt(p.x, 3)} USD per million tokens (declared, blended 3:1), ${fmt(p.y)} tokens/s`).join('; ')}.`;
  return (
    <figure className="scatter" role="img" aria-label={label} data-chart={id}>
      <div className="scatter-y-unit" aria-hidden="true">
        TPS/user (P50, measured) ↑
      </div>
      <div className="scatter-plot">
        <ScatterTicks yTicks={yTicks} yHi={yHi} xTicks={xTicks} xLeftPct={(t) => pct(t, 0, xHi)} xLabel={(t) => fmt(t, 2)} />
        {points.map((p, i) => (
          <ScatterPointMark key={p.key} point={p} i={i} xHi={xHi} yHi={yHi} />
        ))}
      </div>
      <div className="scatter-x-unit" aria-hidden="true">
        blended price, USD per million tokens (3 input : 1 output, declared) → cheaper to the left
      </div>
    </figure>
  );
}
