import Link from 'next/link';
import type { LeaderboardAnswer } from '@/app/_server/leaderboard';
import { fmt } from './format';

/**
 * Calibration: our own reference servers, probed like any provider, shown apart from providers as
 * "configured R, measured M, error E%". This is how the site proves its own accuracy.
 */
export function CalibrationPanel({ answer }: { answer: LeaderboardAnswer }) {
  const rows = answer.entries.filter((e) => e.endpoint.kind === 'calibration');
  return (
    <section className="card" aria-labelledby="calibration-heading">
      <h2 id="calibration-heading" style={{ marginTop: 0 }}>Calibration</h2>
      <p className="muted">A local reference server streams at a configured rate; the probe measures it like any endpoint. Error = (measured − configured) ÷ configured.</p>
      {rows.length === 0 ? (
        <p>No calibration endpoint is registered.</p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Calibration endpoints (table)">
        <table data-table="calibration">
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col" className="num">Configured TPS/user</th>
              <th scope="col" className="num">Measured P50</th>
              <th scope="col" className="num">Speed error</th>
              <th scope="col" className="num">Configured TTFT (ms)</th>
              <th scope="col" className="num">Measured TTFT P50 (ms)</th>
              <th scope="col" className="num">n</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => {
              const measured = e.outputTokensPerSecond?.p50 ?? null;
              const configured = e.endpoint.calibrationTps;
              const error = measured !== null && configured ? ((measured - configured) / configured) * 100 : null;
              return (
                <tr key={e.endpoint.id} data-calibration={e.endpoint.slug}>
                  <td><Link href={`/endpoints/${e.endpoint.id}`}>{e.endpoint.slug}</Link></td>
                  <td className="num">{fmt(configured)}</td>
                  <td className="num" data-metric="calibration-measured">{fmt(measured, 1)}</td>
                  <td className="num" data-metric="calibration-error">{error === null ? '–' : `${error >= 0 ? '+' : ''}${error.toFixed(2)}%`}</td>
                  <td className="num">{fmt(e.endpoint.calibrationTtftMs)}</td>
                  <td className="num">{fmt(e.ttftMs?.p50, 1)}</td>
                  <td className="num">{e.n}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        </div>
      )}
    </section>
  );
}
