import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getPublicEndpoint, listWorkloads } from '@/db/queries/catalog';
import { listEndpointHistory } from '@/db/queries/history';
import { listEndpointMeasurements } from '@/db/queries/measurements';
import { getDb } from '@/db/shared';
import { fmt } from '@/app/_components/format';
import { HistoryChart } from '@/app/_components/history-chart';

export const metadata: Metadata = { title: 'Endpoint' };

/** Endpoint page: declared metadata, hourly history chart, recent measurements with failure kinds. */
export default async function EndpointPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | undefined>> }) {
  await connection();
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0) notFound();
  const db = getDb();
  const endpoint = await getPublicEndpoint(db, id);
  if (!endpoint) notFound();
  const workloads = await listWorkloads(db);
  const sp = await searchParams;
  const workload = workloads.find((w) => w.slug === sp.workload)?.slug ?? workloads.find((w) => w.scheduled)?.slug ?? 'prose-1k';
  const to = new Date();
  const history = await listEndpointHistory(db, { endpointId: id, workloadSlug: workload, granularity: 'hour', from: new Date(to.getTime() - 7 * 86400_000), to, region: null });
  const recent = await listEndpointMeasurements(db, { endpointId: id, limit: 25 });
  const meta: Array<[string, string | number | null]> = [
    ['Provider', endpoint.provider], ['Model', endpoint.model], ['Protocol', endpoint.protocol], ['API model id', endpoint.apiModelId],
    ['Hardware', endpoint.hardware], ['Engine', endpoint.engine], ['Precision', endpoint.precision],
    ['Speculative decoding', endpoint.speculativeDecoding ? `${endpoint.speculativeDecoding}${endpoint.draftLength ? `, draft length ${endpoint.draftLength}` : ''}` : null],
    ['Deployment', endpoint.deploymentKind], ['Region', endpoint.region], ['Status', endpoint.status],
  ];
  return (
    <>
      <h1>{endpoint.provider}: {endpoint.slug}</h1>
      {endpoint.isCalibration ? <p className="tag">calibration endpoint: configured {fmt(endpoint.calibrationTps)} TPS/user, TTFT {fmt(endpoint.calibrationTtftMs)} ms</p> : null}
      <section className="card" aria-label="Declared metadata">
        <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.25rem 1rem', margin: 0 }}>
          {meta.map(([k, v]) => (
            <><dt key={`${k}-t`} className="muted">{k}</dt><dd key={`${k}-d`} style={{ margin: 0 }}>{v ?? '–'}</dd></>
          ))}
        </dl>
      </section>
      <h2>History: hourly median TPS/user, workload {workload}</h2>
      {history.length === 0 ? (
        <p className="card">No rollups yet: history appears after the first measurements are rolled up (every minute).</p>
      ) : (
        <HistoryChart title="Hourly median output speed" points={history.map((h) => ({ bucketStart: h.bucketStart, p25: h.outputTokensPerSecond?.p25 ?? null, p50: h.outputTokensPerSecond?.p50 ?? null, p75: h.outputTokensPerSecond?.p75 ?? null }))} />
      )}
      <h2>Recent measurements</h2>
      <p className="muted">Raw evidence: <Link href={`/api/v1/endpoints/${id}/measurements`}>JSON with timelines</Link> · <Link href={`/api/v1/endpoints/${id}/measurements?timeline=0`} type="text/csv">CSV</Link></p>
      <div className="table-wrap">
        <table>
          <thead><tr><th>Measured at (UTC)</th><th>Outcome</th><th className="num">TTFT (ms)</th><th className="num">TPS/user</th><th className="num">E2E (ms)</th><th className="num">Tokens (reported / o200k)</th><th className="num">Chunks</th><th>Region</th></tr></thead>
          <tbody>
            {recent.rows.map((m) => (
              <tr key={m.id}>
                <td>{m.measuredAt.toISOString().slice(0, 19).replace('T', ' ')}</td>
                <td className={m.outcome === 'success' ? 'badge-ok' : 'badge-bad'}>{m.outcome === 'success' ? (m.valid ? 'success' : 'success (invalid timing)') : m.errorKind}</td>
                <td className="num">{fmt(m.ttftMs, 1)}</td>
                <td className="num">{fmt(m.outputTokensPerSecond, 1)}</td>
                <td className="num">{fmt(m.e2eMs)}</td>
                <td className="num">{m.outputTokensReported ?? '–'} / {m.outputTokensO200k ?? '–'}</td>
                <td className="num">{m.contentChunks}</td>
                <td>{m.workerRegion}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
