import Link from 'next/link';
import { listEndpointSweeps, listSweepLevels } from '@/db/queries/sweeps';
import type { Db } from '@/db/client';
import { CALIBRATION_CONFIG } from '@/lib/catalog/seed-catalog';
import { configuredCurve } from '@/lib/sweep/configured-curve';
import { buildSweepDetail } from '@/lib/sweep/sweep-view';
import { fmt, fmtUtc } from './format';
import { ParetoChart } from './pareto-chart';
import { toParetoSeries } from './sweep-series';
import { NumTh } from './num-th';

/**
 * Calibration sweep: the latest sweep of each calibration endpoint, measured against the reference
 * server's configured curve (lib/sweep/configured-curve from CALIBRATION_CONFIG): per level the
 * configured and measured TPS/user and aggregate, and their errors. A server component.
 */
export async function CalibrationSweep({ db, endpoints }: { db: Db; endpoints: Array<{ id: number; slug: string }> }) {
  const found = await Promise.all(
    endpoints.map(async (e) => {
      const rows = await listEndpointSweeps(db, { endpointId: e.id, limit: 10 });
      const levels = await listSweepLevels(
        db,
        rows.map((r) => r.id),
      );
      return { endpoint: e, sweep: rows.map((r) => buildSweepDetail(r, levels)).find((s) => s.levels.length > 0) ?? null };
    }),
  );
  const swept = found.filter((f) => f.sweep !== null);
  return (
    <section aria-labelledby="calibration-sweep">
      <h2 id="calibration-sweep">Calibration sweep: measured against configured curve</h2>
      <p>
        The reference server shares a capacity of {fmt(CALIBRATION_CONFIG.capacityTps)} tokens/s: each new stream gets min({fmt(CALIBRATION_CONFIG.tps)},{' '}
        {fmt(CALIBRATION_CONFIG.capacityTps)} ÷ open streams) tokens/s. A sweep of it must recover that curve; the difference is the sweep’s measurement error.
        An admin enables sweeps of the calibration endpoint and requests one (POST /api/v1/endpoints/{'{id}'}/sweeps).
      </p>
      {swept.length === 0 ? <p className="muted">No calibration sweep has run yet.</p> : null}
      {swept.map(({ endpoint, sweep }) => {
        const s = sweep!;
        const configured = configuredCurve(
          s.levels.map((l) => l.concurrency),
          {
            tps: CALIBRATION_CONFIG.tps,
            ttftMs: CALIBRATION_CONFIG.ttftMs,
            outputTokens: Math.min(CALIBRATION_CONFIG.outputTokens, s.sweep.maxOutputTokens),
            capacityTps: CALIBRATION_CONFIG.capacityTps,
          },
        );
        const measured = toParetoSeries([s], () => `measured (sweep ${s.sweep.id})`, false);
        const series = [
          ...measured,
          {
            key: 'configured',
            label: 'configured',
            dashed: true,
            points: configured.map((c) => ({
              x: c.aggregateOutputTokensPerSecond,
              y: c.outputTokensPerSecond,
              concurrency: c.concurrency,
              frontier: false,
            })),
          },
        ];
        const err = (m: number | null | undefined, c: number) =>
          m === null || m === undefined ? '–' : `${m >= c ? '+' : '−'}${Math.abs(((m - c) / c) * 100).toFixed(2)}%`;
        return (
          <div key={endpoint.id} data-calibration-sweep={endpoint.slug}>
            <p>
              <Link href={`/endpoints/${endpoint.id}/sweeps?sweep=${s.sweep.id}`}>
                {endpoint.slug}, sweep {s.sweep.id}
              </Link>{' '}
              of {fmtUtc(s.sweep.requestedAt)} ({s.sweep.status}).
            </p>
            <ParetoChart
              id={`calibration-sweep-${endpoint.slug}`}
              title={`Calibration sweep of ${endpoint.slug}: measured against configured`}
              xLabel="aggregate output tokens/s"
              series={series}
            />
            <table className="data-table" data-table="calibration-sweep">
              <caption>Configured and measured per level</caption>
              <thead>
                <tr>
                  <th scope="col">Concurrency</th>
                  <NumTh>Configured TPS/user</NumTh>
                  <NumTh>Measured P50</NumTh>
                  <NumTh>Error</NumTh>
                  <NumTh>Configured aggregate</NumTh>
                  <NumTh>Measured aggregate</NumTh>
                  <NumTh>Error</NumTh>
                  <th scope="col">Valid</th>
                </tr>
              </thead>
              <tbody>
                {s.levels.map((l, i) => (
                  <tr key={l.levelIndex}>
                    <th scope="row">{l.concurrency}</th>
                    <td className="num">{fmt(configured[i]!.outputTokensPerSecond, 1)}</td>
                    <td className="num">{fmt(l.outputTokensPerSecond?.p50, 1)}</td>
                    <td className="num">{err(l.outputTokensPerSecond?.p50, configured[i]!.outputTokensPerSecond)}</td>
                    <td className="num">{fmt(configured[i]!.aggregateOutputTokensPerSecond, 1)}</td>
                    <td className="num">{fmt(l.aggregateOutputTokensPerSecond, 1)}</td>
                    <td className="num">{err(l.aggregateOutputTokensPerSecond, configured[i]!.aggregateOutputTokensPerSecond)}</td>
                    <td>{l.valid ? 'yes' : 'no'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
    </section>
  );
}
