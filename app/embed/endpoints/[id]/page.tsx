import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getPublicEndpoint } from '@/db/queries/catalog';
import { resolveCatalogSlugs } from '@/server/catalog-slugs';
import { listEndpointHistory } from '@/db/queries/history';
import { getDb } from '@/server/shared';
import { DetailsTable } from '@/app/_components/details-table';
import { fmt, fmtUtc, fmtRange } from '@/app/_components/format';
import { TimeSeriesChart } from '@/app/_components/time-series-chart';
import { endpointSpeedSeries } from '@/app/_components/history-series';

export const metadata: Metadata = { title: 'Endpoint (embed)' };
type Params = Promise<{ id: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

/** Embeddable hourly history of one endpoint: /embed/endpoints/{id}?workload=prose-1k (last 7 days). */
export default async function EmbedEndpoint({ params, searchParams }: { params: Params; searchParams: Search }) {
  await connection();
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) notFound();
  const db = getDb();
  const endpoint = await getPublicEndpoint(db, id);
  if (!endpoint) notFound();
  const sp = await searchParams;
  const workload = typeof sp.workload === 'string' && /^[a-z0-9][a-z0-9-]{0,80}$/.test(sp.workload) ? sp.workload : 'prose-1k';
  // An unknown workload is a 404, never URL text drawn as a workload's name (issue 19 #14).
  if ((await resolveCatalogSlugs(db, { workload })).unknown) notFound();
  const now = new Date();
  const history = await listEndpointHistory(db, {
    endpointId: id,
    workloadSlug: workload,
    granularity: 'hour',
    from: new Date(now.getTime() - 7 * 86400_000),
    to: now,
    region: null,
  });
  const latest = [...history].reverse().find((h) => h.outputTokensPerSecond);
  return (
    <>
      <h1>
        {endpoint.provider}: {endpoint.slug}
      </h1>
      <p className="small muted">
        Hourly median output speed with P25–P75, workload {workload}, last 7 days
        {latest ? `; latest hour ${fmt(latest.outputTokensPerSecond!.p50, 1)} tokens/s (${fmtUtc(latest.bucketStart)})` : ''}
      </p>
      {history.some((h) => h.outputTokensPerSecond) ? (
        <>
          <TimeSeriesChart
            id="embed-endpoint"
            granularity="hour"
            unit="tokens/s"
            height={260}
            title={`Hourly median output speed, ${endpoint.slug}, ${workload}`}
            series={endpointSpeedSeries(endpoint.slug, history, (h) => h.outputTokensPerSecond)}
          />
          <DetailsTable
            summary="Table"
            label="Hourly history (table)"
            table="embed-endpoint"
            columns={['Hour (UTC)', { num: 'TPS/user P50' }, { num: 'P25–P75' }, { num: 'Probes' }]}
          >
            {[...history].reverse().map((h) => (
              <tr key={h.bucketStart}>
                <td>{fmtUtc(h.bucketStart)}</td>
                <td className="num" data-metric="tps-p50">
                  {fmt(h.outputTokensPerSecond?.p50, 1)}
                </td>
                <td className="num">{h.outputTokensPerSecond ? `${fmtRange(h.outputTokensPerSecond.p25, h.outputTokensPerSecond.p75)}` : '–'}</td>
                <td className="num">{h.n}</td>
              </tr>
            ))}
          </DetailsTable>
        </>
      ) : (
        <p data-empty="embed-endpoint">
          No measurements of this endpoint in the last 7 days{endpoint.status === 'inactive' ? ' (it is waiting for its API key)' : ''}.
        </p>
      )}
      <p className="embed-foot">
        <a href={`/endpoints/${id}?workload=${workload}`} target="_blank" rel="noopener">
          Tokenpace: endpoint page with evidence<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </p>
    </>
  );
}
