import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { listClaims } from '@/db/queries/claims';
import { listModels } from '@/db/queries/catalog';
import { listLatestModelSweeps, listSweepLevels } from '@/db/queries/sweeps';
import { getDb } from '@/server/shared';
import { buildSweepDetail } from '@/lib/sweep/sweep-view';
import { EmptyState } from '@/app/_components/empty-state';
import { boundWord, fmt, fmtUtc } from '@/app/_components/format';
import { ParetoChart, type ParetoClaim } from '@/app/_components/pareto-chart';
import { SweepLevelsTable } from '@/app/_components/sweep-levels-table';
import { toParetoSeries } from '@/app/_components/sweep-series';

type Params = Promise<{ slug: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

/** Claim metrics drawn on the chart: per-user speed (a y line) and aggregate per server (an x line). */
const Y_CLAIM_METRIC = 'output_speed_tps_per_user';
const X_CLAIM_METRIC = 'aggregate_output_tps_per_server';

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug } = await params;
  const model = (await listModels(getDb())).find((m) => m.slug === slug);
  return model
    ? {
        title: `${model.name}: throughput vs interactivity`,
        description: `TPS/user against aggregate throughput of every swept ${model.name} endpoint, with the Pareto frontier and published claims.`,
      }
    : { title: 'Model not found' };
}

/**
 * Model Pareto page: the latest sweep of every endpoint of the model, one line each, TPS/user (y)
 * against aggregate output tokens/s (x; per GPU with ?per=gpu, only endpoints that declare their
 * GPU count), the frontier over all of them, and published claims as reference lines (e.g. 1,038
 * TPS/user; 72,000 TPS per server). Tables below carry every figure.
 */
export default async function ModelParetoPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  await connection();
  const { slug } = await params;
  const db = getDb();
  const model = (await listModels(db)).find((m) => m.slug === slug);
  if (!model) notFound();
  const perGpu = (await searchParams).per === 'gpu';
  const rows = await listLatestModelSweeps(db, model.id);
  const levels = await listSweepLevels(
    db,
    rows.map((r) => r.id),
  );
  const sweeps = rows.map((r) => buildSweepDetail(r, levels)).filter((s) => s.levels.length > 0 && (!perGpu || s.sweep.gpuCount !== null));
  const claims = (await listClaims(db, { modelSlug: slug })).filter((c) => c.metric === Y_CLAIM_METRIC || c.metric === X_CLAIM_METRIC);
  const claimMarks: ParetoClaim[] = perGpu
    ? []
    : claims.map((c) => ({
        key: `claim-${c.id}`,
        label: `${c.provider}${c.system ? ` (${c.system})` : ''}: ${boundWord(c.bound)}${fmt(c.value)} ${c.metric === Y_CLAIM_METRIC ? 'TPS/user' : 'TPS/server'}`,
        bound: c.bound,
        ...(c.metric === Y_CLAIM_METRIC ? { y: c.value } : { x: c.value }),
      }));
  return (
    <main className="page">
      <p>
        <Link href={`/models/${slug}`}>← {model.name}</Link>
      </p>
      <h1>{model.name}: throughput against interactivity</h1>
      <p>
        Each line is one endpoint’s latest concurrency sweep: as more users share it, each user’s speed (TPS/user) falls and the endpoint’s total output
        (aggregate tokens/s) rises, until it saturates. Points no other point beats on both axes form the Pareto frontier. Claims are published figures, not our
        measurements. {perGpu ? <Link href="?">Show per endpoint</Link> : <Link href="?per=gpu">Show per GPU (endpoints that declare their GPU count)</Link>}
      </p>
      {sweeps.length === 0 ? (
        <EmptyState id="no-sweeps" title="No sweeps yet">
          {perGpu
            ? 'No swept endpoint of this model declares its GPU count.'
            : 'No endpoint of this model has been swept yet. Sweeps run only with the owner’s consent.'}
        </EmptyState>
      ) : (
        <>
          <ParetoChart
            id="model-pareto"
            title={`${model.name}: TPS/user against aggregate throughput`}
            xLabel={perGpu ? 'aggregate output tokens/s per GPU' : 'aggregate output tokens/s'}
            series={toParetoSeries(sweeps, (s) => `${s.sweep.provider} (${s.sweep.endpointSlug})`, perGpu)}
            claims={claimMarks}
          />
          {sweeps.map((s) => (
            <section key={s.sweep.id}>
              <h2>
                <Link href={`/endpoints/${s.sweep.endpointId}/sweeps?sweep=${s.sweep.id}`}>
                  {s.sweep.provider} · {s.sweep.endpointSlug}
                </Link>
              </h2>
              <SweepLevelsTable sweep={s} caption={`Sweep ${s.sweep.id} of ${fmtUtc(s.sweep.requestedAt)} (${s.sweep.status})`} />
            </section>
          ))}
        </>
      )}
      {claims.length > 0 ? (
        <section aria-labelledby="pareto-claims">
          <h2 id="pareto-claims">Claims on the chart</h2>
          <ul>
            {claims.map((c) => (
              <li key={c.id}>
                {c.provider}
                {c.system ? ` (${c.system})` : ''}: {fmt(c.value)} {c.unit} ({c.metric}), {c.claimDate}
                {c.sourceUrl ? (
                  <>
                    {' '}
                    — <a href={c.sourceUrl}>{c.sourceTitle ?? 'source'}</a>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  );
}
