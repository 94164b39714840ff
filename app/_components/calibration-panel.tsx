import Link from 'next/link';
import type { LeaderboardAnswer } from '@/server/leaderboard';
import { fmt } from './format';
import { DataTable } from './data-table';

/**
 * Calibration: our own reference servers, probed like any provider, shown apart from providers as
 * "configured R, measured M, error E%". This is how the site proves its own accuracy.
 */
export function CalibrationPanel({ answer }: { answer: LeaderboardAnswer }) {
  const rows = answer.entries.filter((e) => e.endpoint.kind === 'calibration');
  return (
    <section className="card" aria-labelledby="calibration-heading">
      <h2 id="calibration-heading" style={{ marginTop: 0 }}>
        Calibration
      </h2>
      <p className="muted">
        A local reference server streams at a configured rate; the probe measures it like any endpoint. Error = (measured − configured) ÷ configured.
      </p>
      {rows.length === 0 ? (
        <p>No calibration endpoint is registered.</p>
      ) : (
        <DataTable
          label="Calibration endpoints (table)"
          table="calibration"
          columns={[
            'Endpoint',
            { num: 'Configured TPS/user' },
            { num: 'Measured P50' },
            { num: 'Speed error' },
            { num: 'Configured TTFT (ms)' },
            { num: 'Measured TTFT P50 (ms)' },
            { num: 'n' },
          ]}
        >
          {rows.map((e) => {
            const measured = e.outputTokensPerSecond?.p50 ?? null;
            const configured = e.endpoint.calibrationTps;
            const error = measured !== null && configured ? ((measured - configured) / configured) * 100 : null;
            return (
              <tr key={e.endpoint.id} data-calibration={e.endpoint.slug}>
                <td>
                  <Link href={`/endpoints/${e.endpoint.id}`}>{e.endpoint.slug}</Link>
                </td>
                <td className="num">{fmt(configured)}</td>
                <td className="num" data-metric="calibration-measured">
                  {fmt(measured, 1)}
                </td>
                <td className="num" data-metric="calibration-error">
                  {error === null ? '–' : `${error >= 0 ? '+' : ''}${error.toFixed(2)}%`}
                </td>
                <td className="num">{fmt(e.endpoint.calibrationTtftMs)}</td>
                <td className="num">{fmt(e.ttftMs?.p50, 1)}</td>
                <td className="num">{e.n}</td>
              </tr>
            );
          })}
        </DataTable>
      )}
    </section>
  );
}
