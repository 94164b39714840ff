import { plural } from '@/app/_components/format';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { listModels } from '@/db/queries/catalog';
import { listModelHistory } from '@/db/queries/history';
import { getDb } from '@/db/shared';
import { changeAnnotations, chartSeries, fromModelHistory } from '@/app/_components/history-series';
import { HistoryTables } from '@/app/_components/history-table';
import { TimeSeriesChart } from '@/app/_components/time-series-chart';

export const metadata: Metadata = { title: 'History (embed)' };
type Search = Promise<Record<string, string | string[] | undefined>>;
const RANGES: Record<string, number | null> = { '7d': 7, '30d': 30, '90d': 90, all: null };
const slugRe = /^[a-z0-9][a-z0-9-]{0,80}$/;

/** Embeddable model history: /embed/history?model=…&workload=…&range=30d (daily medians, change points). */
export default async function EmbedHistory({ searchParams }: { searchParams: Search }) {
  await connection();
  const sp = await searchParams;
  const model = typeof sp.model === 'string' && slugRe.test(sp.model) ? sp.model : 'llama-4-maverick';
  const workload = typeof sp.workload === 'string' && slugRe.test(sp.workload) ? sp.workload : 'prose-1k';
  const range = typeof sp.range === 'string' && Object.hasOwn(RANGES, sp.range) ? sp.range : '30d';
  const days = RANGES[range]!;
  const db = getDb();
  const now = new Date();
  const [rows, models] = await Promise.all([
    listModelHistory(db, { modelSlug: model, workloadSlug: workload, from: days === null ? new Date('2000-01-01T00:00:00Z') : new Date(now.getTime() - days * 86400_000), to: now, region: null, basis: 'reported' }),
    listModels(db),
  ]);
  const name = models.find((m) => m.slug === model)?.name ?? model;
  const series = fromModelHistory(rows);
  return (
    <>
      <h1>Daily median output speed: {name}</h1>
      <p className="small muted">Workload {workload}, {days === null ? 'all days' : `last ${plural(days, 'day')}`}; band = P25–P75; dashed lines = change points</p>
      {series.length > 0 ? (
        <>
          <TimeSeriesChart id="embed-history" granularity="day" unit="tokens/s" height={280} title={`Daily median output speed, ${name}, ${workload}`} series={chartSeries(series)} annotations={changeAnnotations(series)} />
          <ul className="chart-legend" aria-label="Series">
            {series.map((s) => (
              <li key={s.endpointId} style={{ listStyle: 'none' }}><span className="swatch" style={{ background: s.color }} aria-hidden="true" />{s.endpointSlug}</li>
            ))}
          </ul>
          <HistoryTables series={series} granularity="day" id="embed-history" />
        </>
      ) : (
        <p data-empty="embed-history">No daily history yet for this model and workload.</p>
      )}
      <p className="embed-foot">
        <a href={`/models/${model}?workload=${workload}&range=${range}`} target="_blank" rel="noopener">Tokenpace: full history<span className="sr-only"> (opens in a new tab)</span></a>
      </p>
    </>
  );
}
