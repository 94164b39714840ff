import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { listClaims } from '@/db/queries/claims';
import { listEndpoints } from '@/db/queries/catalog';
import { getProviderBySlug } from '@/db/queries/ui-endpoint';
import { getDb } from '@/server/shared';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { ClaimsList } from '@/app/_components/claims-list';
import { EmptyState } from '@/app/_components/empty-state';
import { deploymentLabel, fmt, fmtPct } from '@/app/_components/format';
import { IntervalChart } from '@/app/_components/interval-chart';
import { DataTable } from '@/app/_components/data-table';

type Params = Promise<{ slug: string }>;
const WORKLOAD = 'prose-1k';

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug } = await params;
  const p = /^[a-z0-9][a-z0-9-]{0,80}$/.test(slug) ? await getListedProvider(slug) : null;
  return p
    ? { title: p.provider.name, description: `${p.provider.name}: endpoints listed on Tokenpace, their measured output speed per user and rank.` }
    : { title: 'Provider not found' };
}

/**
 * The provider of `slug` with its public endpoints, or null when it has none: providers named only
 * by pending, rejected or deleted submissions (and look-alike names waiting for review) get no
 * public page (404) — the same rule as the providers list and the API.
 */
async function getListedProvider(slug: string) {
  const db = getDb();
  const [provider, listed] = await Promise.all([getProviderBySlug(db, slug), listEndpoints(db, { providerSlug: slug })]);
  return provider && listed.length > 0 ? { provider, listed } : null;
}

/**
 * Provider page: its endpoints with declared metadata, status, and rank on each model's board
 * (workload prose-1k, last 72 h), a chart of their measured speed, and the provider's claims.
 */
export default async function ProviderPage({ params }: { params: Params }) {
  await connection();
  const { slug } = await params;
  if (!/^[a-z0-9][a-z0-9-]{0,80}$/.test(slug)) notFound();
  const db = getDb();
  const found = await getListedProvider(slug);
  if (!found) notFound();
  const { provider, listed } = found;
  const modelSlugs = [...new Set(listed.map((e) => e.modelSlug))];
  const [boards, claims] = await Promise.all([
    Promise.all(modelSlugs.map((m) => getLeaderboardAnswer(db, leaderboardQuerySchema.parse({ model: m, workload: WORKLOAD })))),
    Promise.all(modelSlugs.map((m) => listClaims(db, { modelSlug: m }))),
  ]);
  const entryOf = (id: number) =>
    boards.flatMap((b) => b.entries.map((e) => ({ e, ranked: b.entries.filter((x) => x.rank !== null).length }))).find((x) => x.e.endpoint.id === id) ?? null;
  // best rank first, unranked last (then by slug, as listed)
  const endpoints = [...listed].sort((a, b) => (entryOf(a.id)?.e.rank ?? Infinity) - (entryOf(b.id)?.e.rank ?? Infinity));
  const myClaims = claims.flat().filter((c) => c.providerSlug === slug);
  const measured = endpoints.map((ep) => ({ ep, entry: entryOf(ep.id)?.e })).filter((x) => x.entry?.outputTokensPerSecond);
  return (
    <>
      <p className="muted small">
        <Link href="/providers">Providers</Link>
      </p>
      <h1>{provider.name}</h1>
      <p className="muted lead">
        {provider.kind === 'calibration' ? 'Tokenpace\u2019s own reference servers, probed like any provider to show measurement accuracy. ' : ''}
        {slug.startsWith('synthetic-') ? 'Synthetic demo data written by the end-to-end tests; not a real provider. ' : ''}
        {endpoints.length} endpoint{endpoints.length === 1 ? '' : 's'} listed. Ranks are for workload {WORKLOAD} over the last 72 h.
        {provider.websiteUrl ? (
          <>
            {' '}
            Website:{' '}
            <a href={provider.websiteUrl} rel="noopener noreferrer">
              {provider.websiteUrl}
            </a>
            .
          </>
        ) : null}
      </p>
      {measured.length > 0 ? (
        <IntervalChart
          id="provider-speed"
          title={`Measured output speed of ${provider.name} endpoints, ${WORKLOAD}, last 72 h`}
          unit="tokens/s"
          unitShort="TPS/user"
          rows={measured.map(({ ep, entry }) => ({ key: ep.slug, label: ep.slug, sublabel: ep.model, ...entry!.outputTokensPerSecond! }))}
        />
      ) : (
        <EmptyState id="provider-speed" title="No measurements of this provider in the last 72 h">
          <p>
            {endpoints.some((e) => e.status === 'inactive')
              ? 'This site does not probe its endpoints at the moment; their figures appear within minutes of their first probes.'
              : 'Its endpoints have not been probed in this window.'}
            {myClaims.length ? ' Published claims are listed below.' : ''}
          </p>
        </EmptyState>
      )}
      <h2>Endpoints</h2>
      <DataTable
        label="Endpoints of this provider (table)"
        table="provider-endpoints"
        columns={[
          'Endpoint',
          'Model',
          'Rank',
          { num: 'TPS/user P50' },
          { num: 'TTFT P50 (ms)' },
          { num: 'Success' },
          { num: 'n' },
          'Deployment',
          'Declared',
          'Status',
        ]}
      >
        {endpoints.map((ep) => {
          const x = entryOf(ep.id);
          const e = x?.e;
          return (
            <tr key={ep.id} data-endpoint={ep.slug}>
              <td>
                <Link href={`/endpoints/${ep.id}`}>{ep.slug}</Link>
              </td>
              <td>
                <Link href={`/?model=${ep.modelSlug}&workload=${WORKLOAD}`}>{ep.model}</Link>
              </td>
              <td data-metric="rank">{e?.rank ? `${e.rank}${e.tiedWith.length ? ' (tied)' : ''} of ${x!.ranked}` : <span className="muted">unranked</span>}</td>
              <td className="num" data-metric="tps-p50">
                {fmt(e?.outputTokensPerSecond?.p50, 1)}
              </td>
              <td className="num">{fmt(e?.ttftMs?.p50)}</td>
              <td className="num">{fmtPct(e?.successRate, 1)}</td>
              <td className="num">{e?.n ?? 0}</td>
              <td>{deploymentLabel(ep.deploymentKind)}</td>
              <td>
                {[ep.hardware, ep.engine, ep.precision, ep.speculativeDecoding].filter(Boolean).map((t) => (
                  <span key={t} className="tag">
                    {t}
                  </span>
                ))}
              </td>
              <td>{ep.status === 'inactive' ? 'not measured here yet' : ep.status}</td>
            </tr>
          );
        })}
      </DataTable>
      {endpoints.length >= 2 ? (
        <p>
          <Link
            href={`/compare?e=${endpoints
              .slice(0, 4)
              .map((e) => e.id)
              .join(',')}`}
          >
            Compare these endpoints
          </Link>
        </p>
      ) : null}
      {myClaims.length > 0 ? <ClaimsList items={myClaims} heading={`Published claims about ${provider.name} (not our measurements)`} /> : null}
    </>
  );
}
