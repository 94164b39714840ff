import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { getPublicEndpoint } from '@/db/queries/catalog';
import { listEndpointSweeps, listSweepLevels } from '@/db/queries/sweeps';
import { getDb } from '@/server/shared';
import { buildSweepDetail } from '@/lib/sweep/sweep-view';
import { EmptyState } from '@/app/_components/empty-state';
import { fmtUtc } from '@/app/_components/format';
import { ParetoChart } from '@/app/_components/pareto-chart';
import { SweepLevelsTable } from '@/app/_components/sweep-levels-table';
import { toParetoSeries } from '@/app/_components/sweep-series';

type Params = Promise<{ id: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const endpoint = await getPublicEndpoint(getDb(), Number((await params).id));
  return endpoint
    ? {
        title: `${endpoint.provider} ${endpoint.model}: concurrency sweeps`,
        description: 'TPS/user against aggregate throughput at rising concurrency, with the Pareto frontier.',
      }
    : { title: 'Endpoint not found' };
}

/**
 * An endpoint's concurrency sweeps: the chosen sweep (?sweep=id, default the latest that ran) as
 * a Pareto chart (TPS/user against aggregate output tokens/s, per GPU with ?per=gpu when the GPU
 * count is declared), its table, and the history of every sweep. The layout has already answered
 * 404 for unknown endpoints.
 */
export default async function EndpointSweepsPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  await connection();
  const id = Number((await params).id);
  const sp = await searchParams;
  const db = getDb();
  const endpoint = (await getPublicEndpoint(db, id))!;
  const rows = await listEndpointSweeps(db, { endpointId: id, limit: 50 });
  const levels = await listSweepLevels(
    db,
    rows.map((r) => r.id),
  );
  const sweeps = rows.map((r) => buildSweepDetail(r, levels));
  const chosen = sweeps.find((s) => String(s.sweep.id) === sp.sweep) ?? sweeps.find((s) => s.levels.length > 0) ?? null;
  const perGpu = sp.per === 'gpu' && chosen?.sweep.gpuCount !== null && chosen !== null;
  return (
    <main className="page">
      <p>
        <Link href={`/endpoints/${id}`}>
          ← {endpoint.provider} · {endpoint.model}
        </Link>
      </p>
      <h1>Concurrency sweeps</h1>
      <p>
        Each sweep holds 1, 2, 4, … concurrent streams for a fixed time per level and measures what one user gets (TPS/user) against what the endpoint delivers
        in total (aggregate output tokens/s). Sweeps run only with the owner’s consent. Definitions: <Link href="/methodology#sweeps">methodology</Link>. Data:{' '}
        <a href={`/api/v1/endpoints/${id}/sweeps`}>JSON</a>, <a href={`/api/v1/endpoints/${id}/sweeps.csv`}>CSV</a>.
      </p>
      {chosen === null ? (
        <EmptyState id="no-sweeps" title="No sweeps yet">
          This endpoint has not been swept. Its owner can request a sweep from the dashboard.
        </EmptyState>
      ) : (
        <section aria-labelledby="chosen-sweep">
          <h2 id="chosen-sweep">
            Sweep {chosen.sweep.id} · {fmtUtc(chosen.sweep.requestedAt)} · {chosen.sweep.status}
            {chosen.sweep.stopReason ? ` (stopped at ${chosen.sweep.stoppedAtConcurrency}: ${chosen.sweep.stopReason})` : ''}
          </h2>
          {chosen.sweep.gpuCount !== null ? (
            <p>
              {perGpu ? (
                <Link href={`?sweep=${chosen.sweep.id}`}>Show per endpoint</Link>
              ) : (
                <Link href={`?sweep=${chosen.sweep.id}&per=gpu`}>Show per GPU ({chosen.sweep.gpuCount} GPUs declared)</Link>
              )}
            </p>
          ) : null}
          <ParetoChart
            id="endpoint-sweep"
            title={`TPS/user against aggregate throughput, sweep ${chosen.sweep.id}`}
            xLabel={perGpu ? 'aggregate output tokens/s per GPU' : 'aggregate output tokens/s'}
            series={toParetoSeries([chosen], (s) => `sweep ${s.sweep.id}`, perGpu)}
          />
          <SweepLevelsTable
            sweep={chosen}
            caption={`Sweep ${chosen.sweep.id}: every level (steady window ${chosen.sweep.durationMs / 1000} s; goodput objective TTFT ≤ ${chosen.sweep.objective.ttftMs} ms, TPOT ≤ ${chosen.sweep.objective.tpotMs} ms)`}
          />
        </section>
      )}
      {sweeps.length > 0 ? (
        <section aria-labelledby="sweep-history">
          <h2 id="sweep-history">History of sweeps</h2>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Every sweep of this endpoint">
            <table className="data-table">
              <caption>Every sweep of this endpoint, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Sweep</th>
                  <th scope="col">Requested</th>
                  <th scope="col">Status</th>
                  <th scope="col">Levels run</th>
                  <th scope="col">Highest TPS/user (P50)</th>
                  <th scope="col">Highest aggregate tokens/s</th>
                </tr>
              </thead>
              <tbody>
                {sweeps.map((s) => (
                  <tr key={s.sweep.id}>
                    <th scope="row">
                      <Link href={`?sweep=${s.sweep.id}`}>{s.sweep.id}</Link>
                    </th>
                    <td>{fmtUtc(s.sweep.requestedAt)}</td>
                    <td>
                      {s.sweep.status}
                      {s.sweep.status === 'running' && s.sweep.currentConcurrency !== null
                        ? ` (level ${s.sweep.currentConcurrency}, ${s.sweep.streamsDone} streams)`
                        : ''}
                      {s.sweep.stopReason ? ` (${s.sweep.stopReason} at ${s.sweep.stoppedAtConcurrency})` : ''}
                    </td>
                    <td>{s.levels.map((l) => l.concurrency).join(', ') || '–'}</td>
                    <td>{Math.max(0, ...s.levels.map((l) => l.outputTokensPerSecond?.p50 ?? 0)).toFixed(1)}</td>
                    <td>{Math.max(0, ...s.levels.map((l) => l.aggregateOutputTokensPerSecond)).toFixed(1)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </main>
  );
}
