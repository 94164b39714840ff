import { plural } from '@/app/_components/format';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { resolveCatalogSlugs } from '@/server/catalog-slugs';
import { listModels } from '@/db/queries/catalog';
import { listModelHistory } from '@/db/queries/history';
import { DEFAULT_SPEED_BASIS } from '@/lib/stats/window-stats';
import { getDb } from '@/server/shared';
import { fromModelHistory } from '@/app/_components/history-series';
import { DailyHistory } from '@/app/_components/daily-history';

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
  // Unknown model or workload: 404, never URL text drawn as a model's name (issue 19 #14).
  if ((await resolveCatalogSlugs(db, { model, workload })).unknown) notFound();
  const now = new Date();
  const [rows, models] = await Promise.all([
    listModelHistory(db, {
      modelSlug: model,
      workloadSlug: workload,
      from: days === null ? new Date('2000-01-01T00:00:00Z') : new Date(now.getTime() - days * 86400_000),
      to: now,
      region: null,
      basis: DEFAULT_SPEED_BASIS,
    }),
    listModels(db),
  ]);
  const name = models.find((m) => m.slug === model)?.name ?? model;
  const series = fromModelHistory(rows);
  return (
    <>
      <h1>Daily median output speed: {name}</h1>
      <p className="small muted">
        Workload {workload}, {days === null ? 'all days' : `last ${plural(days, 'day')}`}; band = P25–P75; dashed lines = change points
      </p>
      {series.length > 0 ? (
        <DailyHistory id="embed-history" title={`Daily median output speed, ${name}, ${workload}`} series={series} height={280} />
      ) : (
        <p data-empty="embed-history">No daily history yet for this model and workload.</p>
      )}
      <p className="embed-foot">
        <a href={`/models/${model}?workload=${workload}&range=${range}`} target="_blank" rel="noopener">
          Tokenpace: full history<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </p>
    </>
  );
}
