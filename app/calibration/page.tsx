import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { listEndpoints, listWorkloads } from '@/db/queries/catalog';
import { listEndpointHistory } from '@/db/queries/history';
import { getDb } from '@/server/shared';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { calibrationErrorPct } from '@/app/_components/calibration-badge';
import { CalibrationPanel } from '@/app/_components/calibration-panel';
import { CalibrationSweep } from '@/app/_components/calibration-sweep';
import { EmptyState } from '@/app/_components/empty-state';
import { fmt, fmtUtc, fmtRange } from '@/app/_components/format';
import { TimeSeriesChart } from '@/app/_components/time-series-chart';
import { listCalibrationDeliveries } from '@/db/queries/calibration-delivery';
import { percentile } from '@/lib/stats/percentiles';
import { summarizeCalibrationSplit } from '@/lib/reference-server/delivery-report';
import { CalibrationBadge, CalibrationSplitFigures } from '@/app/_components/calibration-badge';
import { DataTable } from '@/app/_components/data-table';
import { bandPoints } from '@/app/_components/history-series';

export const metadata: Metadata = { title: 'Calibration' };

/**
 * Calibration: the reference stream's configured rate against what the probes measure, per
 * scheduled workload over 72 h, and the hourly measured median of the last 24 h against the
 * configured line.
 */
export default async function CalibrationPage() {
  await connection();
  const db = getDb();
  const [answer, workloads, endpoints] = await Promise.all([
    getLeaderboardAnswer(db, leaderboardQuerySchema.parse({ model: 'tokenpace-reference' })),
    listWorkloads(db),
    listEndpoints(db, { modelSlug: 'tokenpace-reference' }),
  ]);
  const scheduled = workloads.filter((w) => w.scheduled);
  const perWorkload = await Promise.all(
    scheduled.map((w) => getLeaderboardAnswer(db, leaderboardQuerySchema.parse({ model: 'tokenpace-reference', workload: w.slug }))),
  );
  const cal = endpoints.filter((e) => e.isCalibration);
  const now = new Date();
  const windowFrom = new Date(now.getTime() - 72 * 3600_000);
  const splits = await Promise.all(
    cal.map(async (e) =>
      summarizeCalibrationSplit(await listCalibrationDeliveries(db, { endpointId: e.id, from: windowFrom, to: now, limit: 5_000 }), (v) => percentile(v, 50)),
    ),
  );
  const histories = await Promise.all(
    cal.map((e) =>
      listEndpointHistory(db, {
        endpointId: e.id,
        workloadSlug: 'prose-1k',
        granularity: 'hour',
        from: new Date(now.getTime() - 24 * 3600_000),
        to: now,
        region: null,
      }),
    ),
  );
  return (
    <>
      <h1>Calibration</h1>
      <p className="lead">
        Tokenpace runs a reference server that streams tokens at a known rate and TTFT. It is scheduled and probed exactly like a provider endpoint; the
        difference between configured and measured figures is the measurement error of the whole pipeline (scheduler, network stack, parser, clock).
      </p>
      <CalibrationBadge answer={answer} split={splits[0] ?? null} />
      <CalibrationPanel answer={answer} />
      <h2 id="delivered">Probe error and server lateness, apart (last 72 h)</h2>
      <p className="muted">
        The reference server reports what it really sent for every stream (its own write times). <strong>Probe error</strong> is the measured figure against
        that delivered truth, over rankable measurements; <strong>server lateness</strong> is the delivered figure against the configured one, over every
        stream: a server that fell behind is not a probe that mis-measured. TTFT is delivered from the moment the request was written (the probe&apos;s
        request-start stamp and the server&apos;s log share this host&apos;s clock), so a server that read the request late is late itself (decision 302).
      </p>
      {cal.map((e, i) => (
        <CalibrationSplitFigures key={e.id} slug={e.slug} split={splits[i]!} />
      ))}
      <h2>Error by workload (last 72 h)</h2>
      <DataTable
        label="Calibration error by workload (table)"
        table="calibration-workloads"
        columns={[
          'Endpoint',
          'Workload',
          { num: 'Configured TPS/user' },
          { num: 'Measured P50' },
          { num: 'P5–P95' },
          { num: 'Speed error' },
          { num: 'TTFT P50 (ms)' },
          { num: 'n' },
        ]}
      >
        {perWorkload.flatMap((a, i) =>
          a.entries
            .filter((e) => e.endpoint.kind === 'calibration')
            .map((e) => {
              const err = calibrationErrorPct(e.outputTokensPerSecond?.p50, e.endpoint.calibrationTps);
              return (
                <tr key={`${e.endpoint.id}-${scheduled[i]!.slug}`} data-workload={scheduled[i]!.slug}>
                  <td>
                    <Link href={`/endpoints/${e.endpoint.id}`}>{e.endpoint.slug}</Link>
                  </td>
                  <td>{scheduled[i]!.slug}</td>
                  <td className="num">{fmt(e.endpoint.calibrationTps)}</td>
                  <td className="num" data-metric="measured">
                    {fmt(e.outputTokensPerSecond?.p50, 1)}
                  </td>
                  <td className="num">{e.outputTokensPerSecond ? `${fmtRange(e.outputTokensPerSecond.p5, e.outputTokensPerSecond.p95)}` : '–'}</td>
                  <td className="num">{err === null ? '–' : `${err >= 0 ? '+' : '−'}${Math.abs(err).toFixed(2)}%`}</td>
                  <td className="num">{fmt(e.ttftMs?.p50, 1)}</td>
                  <td className="num">{e.n}</td>
                </tr>
              );
            }),
        )}
      </DataTable>
      <CalibrationSweep db={db} endpoints={cal.map((e) => ({ id: e.id, slug: e.slug }))} />
      <h2>Measured speed, last 24 hours (hourly median, prose-1k)</h2>
      {cal.map((e, i) => {
        const h = histories[i]!;
        return h.some((x) => x.outputTokensPerSecond) ? (
          <div key={e.id}>
            <TimeSeriesChart
              id={`calibration-history-${e.slug}`}
              granularity="hour"
              unit="tokens/s"
              height={260}
              title={`Hourly median measured speed of ${e.slug} against its configured ${fmt(e.calibrationTps)} tokens/s`}
              reference={e.calibrationTps ? { value: e.calibrationTps, label: `configured ${fmt(e.calibrationTps)}` } : undefined}
              series={[
                {
                  key: 'cal',
                  label: e.slug,
                  color: 'var(--s1)',
                  points: bandPoints(h, (x) => x.outputTokensPerSecond),
                },
              ]}
            />
            <details>
              <summary>Hourly figures as a table</summary>
              <DataTable label="Hourly calibration figures (table)" columns={['Hour (UTC)', { num: 'Measured P50' }, { num: 'P25–P75' }, { num: 'Probes' }]}>
                {[...h].reverse().map((x) => (
                  <tr key={x.bucketStart}>
                    <td>{fmtUtc(x.bucketStart)}</td>
                    <td className="num">{fmt(x.outputTokensPerSecond?.p50, 1)}</td>
                    <td className="num">{x.outputTokensPerSecond ? `${fmt(x.outputTokensPerSecond.p25, 1)}–${fmt(x.outputTokensPerSecond.p75, 1)}` : '–'}</td>
                    <td className="num">{x.count}</td>
                  </tr>
                ))}
              </DataTable>
            </details>
          </div>
        ) : (
          <EmptyState key={e.id} id="calibration-history" title="No calibration history yet">
            <p>
              The reference stream is probed every minute once <code>npx tokenpace start</code> runs; hourly figures appear after the first rollup (within a
              minute or two).
            </p>
          </EmptyState>
        );
      })}
    </>
  );
}
