import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { listClaims } from '@/db/queries/claims';
import { listEndpoints, listModels, listWorkloads } from '@/db/queries/catalog';
import { listModelHistory } from '@/db/queries/history';
import { getDb } from '@/server/shared';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { DEFAULT_SPEED_BASIS } from '@/lib/stats/window-stats';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { ClaimsList } from '@/app/_components/claims-list';
import { EmptyState } from '@/app/_components/empty-state';
import { fmt, plural } from '@/app/_components/format';
import { fromModelHistory } from '@/app/_components/history-series';
import { PickerForm, regionField, workloadOptions } from '@/app/_components/pickers';
import { RegionCoverage } from '@/app/_components/region-coverage';
import { listRegionNames } from '@/server/regions';
import { PriceSpeedChart } from '@/app/_components/price-speed-chart';
import { DataTable } from '@/app/_components/data-table';
import { DailyHistory } from '@/app/_components/daily-history';

type Params = Promise<{ slug: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

/** History ranges of the model page: days back (null = everything stored). */
const MODEL_RANGES = { '7d': 7, '30d': 30, '90d': 90, all: null } as const;
type RangeKey = keyof typeof MODEL_RANGES;
const one = (v: string | string[] | undefined) => (typeof v === 'string' ? v : undefined);

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug } = await params;
  const model = (await listModels(getDb())).find((m) => m.slug === slug);
  return model
    ? { title: `${model.name}: history`, description: `Daily median output speed per user of every ${model.name} endpoint, with change points.` }
    : { title: 'Model not found' };
}

/**
 * Model page: every endpoint's daily median output speed with its P25–P75 band over 7d / 30d / 90d
 * / all, change points annotated (lib/stats/change-points), the table alternative, the endpoints
 * with their current rank, and the model's published claims. URL: ?workload=prose-1k&range=30d&region=eu
 * (no region = all worker regions merged; the page says which regions its figures cover).
 */
export default async function ModelPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  await connection();
  const { slug } = await params;
  const db = getDb();
  const [models, workloads] = await Promise.all([listModels(db), listWorkloads(db)]);
  const model = models.find((m) => m.slug === slug);
  if (!model) notFound();
  const sp = await searchParams;
  // A workload or region given in the URL that does not exist: not found (issue 19 #5), never an answer for it.
  const workloadParam = one(sp.workload);
  if (workloadParam !== undefined && workloadParam !== '' && !workloads.some((w) => w.slug === workloadParam)) notFound();
  const workload = workloadParam || 'prose-1k';
  const range: RangeKey = Object.hasOwn(MODEL_RANGES, one(sp.range) ?? '') ? (one(sp.range) as RangeKey) : '30d';
  const days = MODEL_RANGES[range];
  const regions = await listRegionNames(db);
  // A region the picker offers; empty = all regions merged; any other name: not found.
  const regionParam = one(sp.region);
  if (regionParam && !regions.includes(regionParam)) notFound();
  const region = regionParam || null;
  const now = new Date();
  const from = days === null ? new Date('2000-01-01T00:00:00Z') : new Date(now.getTime() - days * 86400_000);
  const [buckets, answer, claims, modelEndpoints] = await Promise.all([
    listModelHistory(db, { modelSlug: slug, workloadSlug: workload, from, to: now, region, basis: DEFAULT_SPEED_BASIS }),
    getLeaderboardAnswer(db, leaderboardQuerySchema.parse({ model: slug, workload, region: region ?? undefined })),
    listClaims(db, { modelSlug: slug }),
    listEndpoints(db, { modelSlug: slug }),
  ]);
  // Declared prices (never measured) beside measured speed; blended 3:1 input:output.
  const priceOf = new Map(modelEndpoints.map((e) => [e.id, e]));
  const pricePoints = answer.entries
    .map((e) => ({ e, price: priceOf.get(e.endpoint.id)?.blendedUsdPerMTokens ?? null }))
    .filter((x): x is { e: (typeof answer.entries)[number]; price: number } => x.price !== null && x.e.outputTokensPerSecond !== null)
    .map(({ e, price }) => ({ key: e.endpoint.slug, label: e.endpoint.slug, x: price, y: e.outputTokensPerSecond!.p50 }));
  const series = fromModelHistory(buckets);
  const regionPicker = regionField(regions, region);
  const rangeLabel = days === null ? 'all stored days' : `last ${plural(days, 'day')}`;
  return (
    <>
      <p className="muted small">
        <Link href="/models">Models</Link>
      </p>
      <h1>{model.name}: history</h1>
      <p className="muted lead">
        {model.description} Daily median output speed per user of each endpoint with its P25–P75 band; dashed lines mark change points (a shift of the daily
        median by 15% or more that held for 3+ days). Per-endpoint hourly history is on each endpoint&apos;s page.
      </p>
      <PickerForm
        action={`/models/${slug}`}
        fields={[
          { name: 'workload', label: 'Workload', value: workload, options: workloadOptions(workloads) },
          {
            name: 'range',
            label: 'Range',
            value: range,
            options: Object.entries(MODEL_RANGES).map(([k, d]) => ({ value: k, label: d === null ? 'all' : `last ${plural(d, 'day')}` })),
          },
          ...(regionPicker ? [regionPicker] : []),
        ]}
      />
      <RegionCoverage answer={answer} />
      <h2 id="history-heading">
        Daily median output speed, workload {workload}, {rangeLabel}
      </h2>
      {series.length > 0 ? (
        <DailyHistory
          id="model-history"
          title={`Daily median output speed by endpoint, ${model.name}, ${workload}, ${rangeLabel}`}
          series={series}
          height={360}
          legendLabel={(s) => <Link href={`/endpoints/${s.endpointId}?workload=${workload}`}>{s.endpointSlug}</Link>}
        />
      ) : (
        <EmptyState id="model-history" title="No daily history yet" level={3}>
          <p>
            History is built from hourly and daily rollups of the probes, refreshed every minute. None of the {model.endpointCount} endpoints of {model.name}{' '}
            has a measured day for workload {workload} in this range. Endpoints waiting for an API key start once their variable is set (see the{' '}
            <Link href={`/?model=${slug}`}>leaderboard</Link> for each endpoint&apos;s status).
          </p>
        </EmptyState>
      )}

      <h2>Endpoints and current rank (last 72 h, {workload})</h2>
      <DataTable
        label="Endpoints (table)"
        table="model-endpoints"
        columns={['Rank', 'Endpoint', 'Provider', { num: 'TPS/user P50' }, { num: 'n' }, { num: 'Price, blended 3:1 (USD/M, declared)' }, 'Status']}
      >
        {answer.entries.map((e) => (
          <tr key={e.endpoint.id} data-endpoint={e.endpoint.slug}>
            <td>
              {e.rank === null ? (
                <span className="muted" data-not-ranked={e.notRankedReason ?? undefined}>
                  {e.notRankedReason === 'fidelity_below_bound' ? 'unranked: fails fidelity checks' : 'unranked'}
                </span>
              ) : (
                `${e.rank}${e.tiedWith.length ? ' (tied)' : ''}`
              )}
            </td>
            <td>
              <Link href={`/endpoints/${e.endpoint.id}`}>{e.endpoint.slug}</Link>
            </td>
            <td>
              <Link href={`/providers/${e.endpoint.providerSlug}`}>{e.endpoint.provider}</Link>
            </td>
            <td className="num">{fmt(e.outputTokensPerSecond?.p50, 1)}</td>
            <td className="num">{e.n}</td>
            <td className="num" data-metric="blended-price">
              {(() => {
                const p = priceOf.get(e.endpoint.id);
                return p?.pricing ? (
                  <span
                    title={`input ${p.pricing.inputUsdPerMTokens}, output ${p.pricing.outputUsdPerMTokens} USD per M tokens; ${p.pricing.source}, as of ${p.pricing.asOf}`}
                  >
                    {fmt(p.blendedUsdPerMTokens, 3)}
                  </span>
                ) : (
                  <span className="muted">not declared</span>
                );
              })()}
            </td>
            <td>{e.endpoint.status === 'inactive' ? 'awaiting API key' : e.endpoint.status}</td>
          </tr>
        ))}
      </DataTable>
      <h2 id="price-speed">Speed against price (last 72 h, {workload})</h2>
      <p className="muted">
        Declared blended price (3 input tokens : 1 output token, USD per million tokens, as the endpoint&apos;s owner or an admin declared it with its source
        and date; never measured) against measured median output speed per user. Endpoints without a declared price are left out.
      </p>
      {pricePoints.length > 0 ? (
        <PriceSpeedChart id="price-speed" points={pricePoints} title={`Blended price against output speed, ${model.name}, ${workload}, last 72 h`} />
      ) : (
        <p className="muted">No endpoint of {model.name} has a declared price yet.</p>
      )}
      <p>
        <Link href={`/?model=${slug}&workload=${workload}`}>Full leaderboard of {model.name}</Link> ·{' '}
        <Link href={`/embed/history?model=${slug}&workload=${workload}&range=${range}`}>embeddable history chart</Link> ·{' '}
        <Link href={`/models/${slug}/pareto`}>throughput against interactivity (sweeps)</Link>
      </p>
      {claims.length > 0 ? <ClaimsList items={claims} heading={`Published claims about ${model.name} (not our measurements)`} /> : null}
    </>
  );
}
