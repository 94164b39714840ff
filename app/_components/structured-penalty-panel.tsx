/**
 * The endpoint page's structured-output section (issue 25 item 2): median TPS/user of prose-1k,
 * structured-json-1k and tool-call-1k (interval chart) and a table with each structured
 * workload's penalty (its median ÷ prose-1k's, lib/stats/speed-ratio, with the interval of the two
 * medians' 95 % intervals), TTFT and schema validity. Every figure is a leaderboard entry of the
 * one engine; the ratio is the only arithmetic here. Server component, no hooks.
 */
import Link from 'next/link';
import { speedRatio } from '@/lib/stats/speed-ratio';
import { fmt, fmtPct } from './format';
import { IntervalChart } from './interval-chart';
import type { WindowEntry } from './endpoint-window';
import { DataTable } from './data-table';

const median = (e: WindowEntry | null) =>
  e?.outputTokensPerSecond && e.outputTokensPerSecondMedianCi ? { p50: e.outputTokensPerSecond.p50, interval: e.outputTokensPerSecondMedianCi } : null;

export function StructuredPenaltyPanel({
  free,
  structured,
  endpointSlug,
  windowHours,
}: {
  free: WindowEntry | null;
  structured: Array<{ slug: string; label: string; entry: WindowEntry | null }>;
  endpointSlug: string;
  windowHours: number;
}) {
  const measured = structured.filter((s) => s.entry && s.entry.n > 0);
  if (measured.length === 0)
    return (
      <p className="muted" data-empty="structured-penalty">
        No structured-output probes in the last {windowHours} h yet (they run every 6 hours).
      </p>
    );
  const chartRows = [{ slug: 'prose-1k', label: 'free text', entry: free }, ...measured].filter((r) => r.entry?.outputTokensPerSecond);
  return (
    <>
      <IntervalChart
        id="structured-penalty"
        title={`Output speed, free text against structured output, ${endpointSlug}, last ${windowHours} h`}
        unit="tokens/s"
        unitShort="TPS/user"
        rows={chartRows.map((r) => ({ key: r.slug, label: r.label, sublabel: `${r.slug} · n ${r.entry!.n}`, ...r.entry!.outputTokensPerSecond! }))}
      />
      <DataTable
        label="Structured-output penalty (table)"
        table="structured-penalty"
        caption={<>Structured-output penalty: median TPS/user ÷ that of prose-1k, with interval, last {windowHours} h</>}
        columns={[
          'Workload',
          { num: 'TPS/user P50' },
          { num: 'prose-1k P50' },
          { num: 'Penalty (speed ratio)' },
          { num: 'Interval' },
          { num: 'TTFT P50 (ms)' },
          { num: 'Valid against schema' },
          { num: 'n' },
        ]}
      >
        {measured.map(({ slug, entry }) => {
          const r = speedRatio(median(entry), median(free));
          return (
            <tr key={slug} data-workload={slug}>
              <td>{slug}</td>
              <td className="num">{fmt(entry!.outputTokensPerSecond?.p50, 1)}</td>
              <td className="num">{fmt(free?.outputTokensPerSecond?.p50, 1)}</td>
              <td className="num strong" data-metric="penalty">
                {r ? `× ${r.ratio.toFixed(2)}` : '–'}
              </td>
              <td className="num">{r ? `${r.interval.low.toFixed(2)}–${r.interval.high.toFixed(2)}` : '–'}</td>
              <td className="num">{fmt(entry!.ttftMs?.p50)}</td>
              <td className="num" data-metric="schema-valid">
                {entry!.fidelity ? `${fmtPct(entry!.fidelity.passRate, 0)} of ${entry!.fidelity.n}` : '–'}
              </td>
              <td className="num">{entry!.n}</td>
            </tr>
          );
        })}
      </DataTable>
      <p className="small muted" data-note="structured-penalty">
        The same story as prose-1k, asked for as JSON through the protocol&apos;s structured-output request or a forced tool call; below × 1.00 the constraint
        slows decoding. See <Link href="/methodology#workloads">methodology</Link>.
      </p>
    </>
  );
}
