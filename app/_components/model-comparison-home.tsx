import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { listWorkloads } from '@/db/queries/catalog';
import type { Db } from '@/db/client';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { DEFAULT_SPEED_BASIS } from '@/lib/stats/window-stats';
import { getModelComparison } from '@/server/model-comparison';
import { EmptyState } from './empty-state';
import { filterStateOf } from './model-comparison-state';
import { ModelComparisonView } from './model-comparison-view';
import { InvalidFilterNotice, PickerForm, workloadOptions } from './pickers';

const WINDOWS = ['24h', '72h', '7d'] as const;

/**
 * The home page: every model of the catalog compared by its fastest rankable endpoint (TPS/user with
 * its interval, TTFT, price, precision, context), filterable and sortable, with a chart; each model's
 * board is one click away (/?model=slug). Figures come from each model's leaderboard answer
 * (server/model-comparison, decision 223). Without any measured model it says so in a visitor's
 * words and points at what can be seen meanwhile (calibration, imported data, claims).
 */
export async function ModelComparisonHome({ db, sp }: { db: Db; sp: Record<string, string | undefined> }) {
  const parsed = leaderboardQuerySchema.pick({ workload: true, window: true }).safeParse({ workload: sp.workload, window: sp.window });
  const q = parsed.success ? parsed.data : leaderboardQuerySchema.pick({ workload: true, window: true }).parse({});
  const workloads = await listWorkloads(db);
  // An unknown workload is a 404 (issue 19 #5): never an answer computed or stored for URL text.
  if (!workloads.some((w) => w.slug === q.workload)) notFound();
  const workload = q.workload;
  const cmp = await getModelComparison(db, { workload, window: q.window, basis: DEFAULT_SPEED_BASIS, region: undefined });
  const windowLabel = `${q.window}h`;
  const measured = cmp.models.filter((m) => m.best).length;
  const windowParam = WINDOWS.find((w) => (w.endsWith('d') ? Number(w.slice(0, -1)) * 24 : Number(w.slice(0, -1))) === q.window) ?? windowLabel;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Which model, and which provider, is fastest for one user?</h1>
          <p className="muted lead">
            {cmp.models.length} models from the catalog, each shown by its fastest measured endpoint: median output tokens per second of one stream (TPS/user)
            over the last {windowLabel}, with the 95 % interval of that median, time to first token and the published price. Open a model’s board for every
            provider serving it.
          </p>
        </div>
      </div>
      <InvalidFilterNotice parsed={parsed} fallback="the default comparison" />
      <PickerForm
        action="/"
        fields={[
          { name: 'workload', label: 'Workload', value: workload, options: workloadOptions(workloads) },
          { name: 'window', label: 'Window', value: windowParam, options: WINDOWS.map((w) => ({ value: w, label: `last ${w}` })) },
        ]}
      />
      {measured === 0 ? (
        <EmptyState id="home-comparison" title="No model has been measured here yet" level={2}>
          <p>
            This site measures a provider only after whoever runs it has turned that provider on, and none is on yet. When one is, each model below gets its
            fastest endpoint, a speed with its interval and a chart, within minutes.
          </p>
          <p>
            Meanwhile you can see <Link href="/calibration">how accurately Tokenpace measures</Link> (our own reference stream, measured every minute),{' '}
            <Link href="/datasets">measurements others published</Link> (imported, kept apart from ours) and{' '}
            <Link href="/claims">the speeds vendors claim</Link>. The catalog below lists what will be compared, with published prices and context windows.
          </p>
        </EmptyState>
      ) : null}
      <Suspense fallback={<div className="skeleton" style={{ height: 320 }} />}>
        <ModelComparisonView models={cmp.models} initial={filterStateOf(sp)} workload={workload} windowLabel={windowLabel} />
      </Suspense>
      <section className="card share" aria-labelledby="home-share-heading">
        <h2 id="home-share-heading">Use these numbers</h2>
        <ul className="link-list">
          <li>
            <a href={`/api/v1/model-comparison?workload=${workload}&window=${windowLabel}`}>JSON</a> ·{' '}
            <a href={`/api/v1/model-comparison.csv?workload=${workload}&window=${windowLabel}`}>CSV</a> (each model cites the snapshot of its board)
          </li>
          <li>
            <Link href="/models">Every model</Link> · <Link href="/providers">every provider</Link> ·{' '}
            <Link href="/compare">compare endpoints of any models</Link>
          </li>
          <li>
            <a href="/feed.xml">Atom feed of notable changes</a> (new #1, change points, endpoints joining and leaving)
          </li>
        </ul>
      </section>
    </>
  );
}
