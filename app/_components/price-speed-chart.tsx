import { fmt } from './format';
import { linearScatterAxes, ScatterPointMark, ScatterTicks, type LabelledPoint } from './scatter-parts';
import { pct } from './scale';

/**
 * One endpoint: x = declared blended price (USD per million tokens, 3:1; declared, not measured),
 * y = window median TPS/user (output speed P50, tokens/s; measured).
 */
export type PriceSpeedPoint = LabelledPoint;

/**
 * Declared blended price (x, USD per million tokens, 3:1 input:output, lower is cheaper) against
 * measured output speed per user (y, tokens/s, higher is faster), one point per endpoint with a
 * declared price. Drawn in HTML with the scatter chart's classes; role="img" with a label listing
 * every point; each point carries data-x/data-y. The page's table carries the same numbers.
 */
export function PriceSpeedChart({ points, title, id }: { points: PriceSpeedPoint[]; title: string; id: string }) {
  const { xTicks, yTicks, xHi, yHi } = linearScatterAxes(points, 0.01);
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
