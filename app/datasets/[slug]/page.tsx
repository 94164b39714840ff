import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getDatasetWithSeries } from '@/db/queries/datasets';
import { getDb } from '@/server/shared';
import { fmt, fmtRange } from '@/app/_components/format';
import { IntervalChart } from '@/app/_components/interval-chart';
import { DataTable } from '@/app/_components/data-table';

export const metadata: Metadata = { title: 'Imported dataset' };

type S = { p5?: number; p25: number; p50: number; p75: number; p95: number; mean: number; count: number } | null;

/** One imported dataset: provenance header, chart of median output speed per series, summary table. */
export default async function DatasetPage({ params }: { params: Promise<{ slug: string }> }) {
  await connection();
  const { slug } = await params;
  const found = await getDatasetWithSeries(getDb(), slug);
  if (!found) notFound();
  const { dataset, series } = found;
  const rows = series.map((s) => ({
    ...s,
    speed: s.summary.outputTokensPerSecond as S,
    ttft: s.summary.ttftMs as S,
    llmperf: s.summary.llmperfThroughputTokensPerSecond as S,
    e2e: s.summary.e2eMs as S,
  }));
  const chart = rows
    .filter((r) => r.speed)
    .sort((a, b) => b.speed!.p50 - a.speed!.p50)
    .map((r) => ({
      key: r.slug,
      label: r.provider,
      sublabel: r.model,
      p5: r.speed!.p5 ?? null,
      p25: r.speed!.p25,
      p50: r.speed!.p50,
      p75: r.speed!.p75,
      p95: r.speed!.p95,
    }));
  return (
    <>
      <h1>{dataset.title}</h1>
      <section className="card" aria-label="Provenance">
        <p style={{ margin: 0 }}>
          <strong>Imported data, not Tokenpace measurements.</strong> Source:{' '}
          {dataset.sourceUrl ? (
            <a href={dataset.sourceUrl} rel="noopener noreferrer">
              {dataset.source}
            </a>
          ) : (
            dataset.source
          )}
          {dataset.sourceCommit ? ` (commit ${dataset.sourceCommit.slice(0, 12)})` : ''}. Collected: {dataset.collectedOn}. Licence: {dataset.licence}.
        </p>
        <p className="muted" style={{ marginBottom: 0 }}>
          {dataset.description}
        </p>
      </section>
      <h2>Median output speed (excluding TTFT) per series, with P25–P75 and P5–P95</h2>
      <IntervalChart
        id="dataset-speed"
        rows={chart}
        title={`${dataset.title}: median output speed per series (imported data)`}
        unit="tokens/s"
        unitShort="tokens/s"
      />
      <DataTable
        label="Summary per series (table)"
        caption={'Summary per series'}
        columns={[
          'Series',
          'Provider',
          'Model',
          { num: 'Output speed P50 (tokens/s)' },
          { num: 'P25–P75' },
          { num: 'LLMPerf throughput incl. TTFT P50 (tokens/s)' },
          { num: 'TTFT P50 (ms)' },
          { num: 'E2E P50 (ms)' },
          { num: 'Requests' },
        ]}
      >
        {rows.map((r) => (
          <tr key={r.slug} data-series={r.slug}>
            <td>{r.slug}</td>
            <td>{r.provider}</td>
            <td>{r.model}</td>
            <td className="num" data-metric="tps-p50">
              {fmt(r.speed?.p50, 1)}
            </td>
            <td className="num">{r.speed ? `${fmtRange(r.speed.p25, r.speed.p75)}` : '–'}</td>
            <td className="num">{fmt(r.llmperf?.p50, 1)}</td>
            <td className="num">{fmt(r.ttft?.p50)}</td>
            <td className="num">{fmt(r.e2e?.p50)}</td>
            <td className="num">{String(r.summary.requests ?? '–')}</td>
          </tr>
        ))}
      </DataTable>
      <p className="muted">
        JSON: <a href={`/api/v1/datasets/${dataset.slug}`}>/api/v1/datasets/{dataset.slug}</a>
      </p>
    </>
  );
}
