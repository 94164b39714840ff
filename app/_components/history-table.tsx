import Link from 'next/link';
import { DetailsTable } from './details-table';
import { fmt, fmtPct, fmtRange, plural } from './format';
import type { EndpointSeries } from './history-series';
import { NumTh } from './num-th';

/**
 * Table alternatives of a multi-endpoint history chart: the change points (always visible) and a
 * day × endpoint pivot of medians with P25–P75 (in a disclosure, newest first). Cells carry
 * data-endpoint/data-day so tests can compare them with the chart and the JSON API.
 */
export function HistoryTables({ series, granularity, id }: { series: EndpointSeries[]; granularity: 'hour' | 'day'; id: string }) {
  const times = [...new Set(series.flatMap((s) => s.buckets.map((b) => b.bucketStart)))].sort().reverse();
  const changes = series.flatMap((s) => s.changePoints.map((cp) => ({ s, cp }))).sort((a, b) => (a.cp.day < b.cp.day ? 1 : -1));
  return (
    <>
      <h3>Change points</h3>
      {changes.length > 0 ? (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Change points (table)">
          <table data-table={`${id}-changes`}>
            <caption className="sr-only">Detected changes of the daily median output speed</caption>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Change</th>
                <NumTh>Before (tokens/s)</NumTh>
                <NumTh>After (tokens/s)</NumTh>
                <NumTh>p-value</NumTh>
              </tr>
            </thead>
            <tbody>
              {changes.map(({ s, cp }) => (
                <tr key={`${s.endpointId}-${cp.day}`} data-change={s.endpointSlug} data-day={cp.day}>
                  <td>
                    <span className="swatch" style={{ background: s.color }} aria-hidden="true" />
                    <Link href={`/endpoints/${s.endpointId}`}>{s.endpointSlug}</Link>
                  </td>
                  <td data-metric="change">{cp.label}</td>
                  <td className="num">{fmt(cp.before, 1)}</td>
                  <td className="num">{fmt(cp.after, 1)}</td>
                  <td className="num">{cp.pValue < 0.001 ? '< 0.001' : cp.pValue.toFixed(3)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted" data-empty={`${id}-changes`}>
          {granularity === 'day'
            ? 'No change points: no endpoint\u2019s daily median moved by 15% or more for at least 3 days in this range.'
            : 'Change points are detected on daily medians; pick a range of 30 days or more.'}
        </p>
      )}
      <DetailsTable
        summary={`History as a table (${plural(times.length, granularity === 'day' ? 'day' : 'hour')} × ${plural(series.length, 'endpoint')})`}
        label="History (table)"
        table={id}
        caption={`Median output speed (tokens/s) with P25–P75 per ${granularity}`}
        head={
          <tr>
            <th scope="col">{granularity === 'day' ? 'Day' : 'Hour'} (UTC)</th>
            {series.map((s) => (
              <th scope="col" className="num" key={s.endpointId}>
                {s.endpointSlug}
              </th>
            ))}
          </tr>
        }
      >
        {times.map((t) => (
          <tr key={t} data-bucket={t}>
            <td>{granularity === 'day' ? t.slice(0, 10) : t.slice(0, 16).replace('T', ' ')}</td>
            {series.map((s) => {
              const b = s.buckets.find((x) => x.bucketStart === t);
              return (
                <td className="num" key={s.endpointId} data-endpoint={s.endpointSlug} data-p50={b?.p50 ?? ''}>
                  {b && b.p50 !== null ? `${fmt(b.p50, 1)} (${fmtRange(b.p25, b.p75)})` : '–'}
                  {b && b.n > 0 && b.successes < b.n ? <span className="small muted block">{fmtPct(b.successes / b.n)} ok</span> : null}
                </td>
              );
            })}
          </tr>
        ))}
      </DetailsTable>
    </>
  );
}
