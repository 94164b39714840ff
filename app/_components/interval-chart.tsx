import { Fragment } from 'react';
import { fmt } from './format';
import { niceTicks, pct } from './scale';

/** One claimed figure drawn as a marker on a row (never a bar: claims are not measurements). */
export interface ChartClaim {
  value: number;
  bound: string;
  /** e.g. "claimed 1,038 TPS/user, May 2025" */
  label: string;
  /** e.g. "Artificial Analysis via Tom's Hardware" */
  source: string;
}

/**
 * One row: P5/P25/P50/P75/P95 of a metric (unit of the chart). `band` groups tied rows (same band,
 * more than one member → drawn inside one "tied" frame). Rows without percentiles draw only claims.
 */
export interface IntervalRow {
  key: string;
  label: string;
  sublabel?: string;
  p5: number | null;
  p25: number | null;
  p50: number | null;
  p75: number | null;
  p95: number | null;
  band?: number | null;
  claims?: ChartClaim[];
}

/**
 * Horizontal interval chart in HTML (responsive, no chart library): a bar to the median, a thick
 * P25–P75 whisker, a thin P5–P95 whisker, tie bands as frames around tied rows, and claims as
 * hollow diamonds with their text. The figure is role="img" with a label naming every value; each
 * row carries data-p5…data-p95 (unit of the chart) so tests compare it with the table alternative.
 * Server- and client-safe (no hooks).
 */
export function IntervalChart({
  rows,
  title,
  unit,
  unitShort,
  id,
  digits = 0,
  claimRows = [],
}: {
  rows: IntervalRow[];
  title: string;
  /** unit for the accessible label, e.g. "tokens/s" */
  unit: string;
  /** unit shown on the axis, e.g. "TPS/user" */
  unitShort: string;
  /** data-chart id for tests */
  id: string;
  digits?: number;
  /** rows that only carry claims (drawn after measured rows, under their own heading) */
  claimRows?: IntervalRow[];
}) {
  const values = [...rows, ...claimRows]
    .flatMap((r) => [r.p95 ?? r.p50, ...(r.claims ?? []).map((c) => c.value)])
    .filter((v): v is number => v !== null && Number.isFinite(v));
  const ticks = niceTicks(0, Math.max(1, ...values), 5);
  const lo = 0;
  const hi = ticks[ticks.length - 1]!;
  const describe = rows
    .filter((r) => r.p50 !== null)
    .map(
      (r) =>
        `${r.label}: median ${fmt(r.p50, digits)} ${unit} (P25–P75 ${fmt(r.p25, digits)}–${fmt(r.p75, digits)}, P5–P95 ${fmt(r.p5, digits)}–${fmt(r.p95, digits)})${r.claims?.length ? `, ${r.claims.map((c) => c.label).join('; ')}` : ''}`,
    )
    .join('; ');
  const claimsText = claimRows.map((r) => `${r.label}: ${r.claims?.map((c) => c.label).join('; ')}`).join('; ');
  const label = `${title}. ${describe || 'No measured values.'}${claimsText ? ` Published claims, not measured: ${claimsText}.` : ''}`;

  // group consecutive rows of the same band (only bands with several members are framed)
  const groups: IntervalRow[][] = [];
  for (const r of rows) {
    const last = groups[groups.length - 1];
    if (last && r.band !== null && r.band !== undefined && last[0]!.band === r.band) last.push(r);
    else groups.push([r]);
  }

  const renderRow = (r: IntervalRow, claimOnly: boolean) => (
    <div
      key={r.key}
      className={`ichart-row${claimOnly ? ' ichart-claim-row' : ''}`}
      data-chart-row={r.key}
      data-p5={r.p5 ?? ''}
      data-p25={r.p25 ?? ''}
      data-p50={r.p50 ?? ''}
      data-p75={r.p75 ?? ''}
      data-p95={r.p95 ?? ''}
      data-claim={r.claims?.map((c) => c.value).join(',') ?? ''}
    >
      <div className="ichart-label">
        <span className="ichart-name">{r.label}</span>
        {r.sublabel ? <span className="ichart-sub">{r.sublabel}</span> : null}
        {r.claims?.map((c, i) => (
          <span key={i} className="ichart-sub claim">
            {c.label}
            {c.source ? ` · ${c.source}` : ''}
          </span>
        ))}
      </div>
      <div className="ichart-track">
        {ticks.slice(1, -1).map((t) => (
          <span key={t} className="ichart-grid" style={{ left: `${pct(t, lo, hi)}%` }} />
        ))}
        {r.p50 !== null ? (
          <>
            <span className="ichart-bar" style={{ width: `${pct(r.p50, lo, hi)}%` }} />
            {r.p5 !== null && r.p95 !== null ? (
              <span className="ichart-w90" style={{ left: `${pct(r.p5, lo, hi)}%`, width: `${pct(r.p95, lo, hi) - pct(r.p5, lo, hi)}%` }} />
            ) : null}
            {r.p25 !== null && r.p75 !== null ? (
              <span className="ichart-w50" style={{ left: `${pct(r.p25, lo, hi)}%`, width: `${Math.max(0.6, pct(r.p75, lo, hi) - pct(r.p25, lo, hi))}%` }} />
            ) : null}
            <span className="ichart-med" style={{ left: `${pct(r.p50, lo, hi)}%` }} />
          </>
        ) : null}
        {r.claims?.map((c, i) => (
          <span
            key={i}
            className={`ichart-diamond${c.bound === 'lt' || c.bound === 'le' ? ' ichart-upper' : ''}`}
            style={{ left: `${pct(c.value, lo, hi)}%` }}
          />
        ))}
      </div>
      <div className="ichart-value">{r.p50 !== null ? fmt(r.p50, digits) : r.claims?.length ? <span className="claim">claim</span> : '–'}</div>
    </div>
  );

  return (
    <figure className="ichart" role="img" aria-label={label} data-chart={id}>
      <div className="ichart-rows">
        {groups.map((g, i) =>
          g.length > 1 ? (
            <div key={`band-${i}`} className="ichart-band" data-band={g[0]!.band ?? ''}>
              <span className="ichart-band-label">tied</span>
              {g.map((r) => renderRow(r, false))}
            </div>
          ) : (
            <Fragment key={g[0]!.key}>{renderRow(g[0]!, false)}</Fragment>
          ),
        )}
        {claimRows.length > 0 ? (
          <>
            <div className="ichart-divider claim">Published claims for endpoints we have not measured</div>
            {claimRows.map((r) => renderRow(r, true))}
          </>
        ) : null}
      </div>
      <div className="ichart-axis" aria-hidden="true">
        <div />
        <div className="ichart-ticks">
          {ticks.map((t) => (
            <span key={t} style={{ left: `${pct(t, lo, hi)}%` }}>
              {fmt(t)}
            </span>
          ))}
        </div>
        <div className="ichart-unit">{unitShort}</div>
      </div>
      <figcaption className="ichart-legend">
        <span>
          <i className="lg-bar" /> median
        </span>
        <span>
          <i className="lg-w50" /> P25–P75
        </span>
        <span>
          <i className="lg-w90" /> P5–P95
        </span>
        {groups.some((g) => g.length > 1) ? (
          <span>
            <i className="lg-band" /> tied (95% intervals of the median overlap)
          </span>
        ) : null}
        {[...rows, ...claimRows].some((r) => r.claims?.length) ? (
          <span>
            <i className="lg-diamond" /> published claim (not our measurement)
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
