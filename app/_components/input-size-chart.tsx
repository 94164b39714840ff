import { fmt } from './format';
import { ScatterTicks } from './scatter-parts';
import { niceTicks, pct } from './scale';

/** One point: a workload's window median of a metric at its input length. */
export interface InputSizePoint {
  /** workload slug */
  key: string;
  /** prompt category: one series per category */
  category: string;
  /** input length target, tokens */
  inputTokens: number;
  value: number;
}

/**
 * A metric (speed or TTFT, window medians) against input length on a log axis (~100, ~1k, ~10k,
 * ~100k tokens), one marker per workload, labelled with its category. Drawn in HTML like the
 * scatter chart (same classes), role="img" with a label listing every point; each point carries
 * data-x (input tokens) and data-y (value). The table beside it on the page carries the same numbers.
 */
export function InputSizeChart({ points, title, id, unit }: { points: InputSizePoint[]; title: string; id: string; unit: string }) {
  const yTicks = niceTicks(0, Math.max(1, ...points.map((p) => p.value)), 4);
  const yHi = yTicks[yTicks.length - 1]!;
  const sizes = [100, 1_000, 10_000, 100_000];
  const lo = Math.log10(sizes[0]!) - 0.25;
  const hi = Math.log10(sizes[sizes.length - 1]!) + 0.25;
  const x = (n: number) => pct(Math.log10(n), lo, hi);
  const categories = [...new Set(points.map((p) => p.category))].sort();
  const label = `${title}. ${points.map((p) => `${p.key} (${p.category}, ~${p.inputTokens.toLocaleString('en-US')} input tokens): ${fmt(p.value)} ${unit}`).join('; ')}.`;
  return (
    <figure className="scatter" role="img" aria-label={label} data-chart={id}>
      <div className="scatter-y-unit" aria-hidden="true">
        {unit} (P50)
      </div>
      <div className="scatter-plot">
        <ScatterTicks yTicks={yTicks} yHi={yHi} xTicks={sizes} xLeftPct={x} xLabel={(t) => (t >= 1000 ? `${t / 1000}k` : t)} />
        {points.map((p) => (
          <span
            key={p.key}
            className="scatter-point"
            data-point={p.key}
            data-x={p.inputTokens}
            data-y={p.value}
            style={{ left: `${x(p.inputTokens)}%`, bottom: `${pct(p.value, 0, yHi)}%` }}
          >
            <span className={`scatter-label${x(p.inputTokens) > 55 ? ' left' : ''}`} style={{ top: `${-1.3 + categories.indexOf(p.category) * 0.85}rem` }}>
              {p.category}
            </span>
          </span>
        ))}
      </div>
      <div className="scatter-x-unit" aria-hidden="true">
        input length (tokens, log scale) →
      </div>
    </figure>
  );
}
