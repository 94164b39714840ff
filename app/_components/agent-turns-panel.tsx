/**
 * The endpoint page's agent-turns section (issue 25 item 3, decision 267): TTFT per turn of the
 * 3-turn tool-calling conversation (P5–P95 interval chart, ms) with a table alternative giving per
 * turn TTFT P50, TPS/user P50, the cached input tokens P50, the hit share (n, 95 % Wilson
 * interval) and the cached share of the prompt (median of cached ÷ input tokens with n, decision 291;
 * "not reported" when the provider gave either count for no request). Every figure is the endpoint's leaderboard entry of agent-turn-<t>, as
 * server/workload-families reads them for /api/v1/endpoints/{id}/families. Server component.
 */
import Link from 'next/link';
import { fmt, fmtPct } from './format';
import { IntervalChart } from './interval-chart';
import type { WindowEntry } from './endpoint-window';
import { NumTh } from './num-th';

export function AgentTurnsPanel({
  turns,
  endpointSlug,
  windowHours,
}: {
  turns: Array<{ turn: number; slug: string; entry: WindowEntry | null }>;
  endpointSlug: string;
  windowHours: number;
}) {
  const rows = turns.filter((t) => t.entry && t.entry.n > 0);
  if (rows.length === 0)
    return (
      <p className="muted" data-empty="agent-turns">
        No agent conversations in the last {windowHours} h yet (one runs every day).
      </p>
    );
  return (
    <>
      <IntervalChart
        id="agent-turns-ttft"
        title={`TTFT per turn of the agent conversation, ${endpointSlug}, last ${windowHours} h`}
        unit="ms"
        unitShort="TTFT ms"
        rows={rows
          .filter((t) => t.entry!.ttftMs)
          .map((t) => ({ key: t.slug, label: `turn ${t.turn}`, sublabel: `${t.slug} · n ${t.entry!.n}`, ...t.entry!.ttftMs! }))}
      />
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Agent turns (table)">
        <table data-table="agent-turns">
          <caption className="sr-only">
            TTFT, TPS/user, cached input tokens, cache hit share and cached share of the prompt per turn of the agent conversation, last {windowHours} h
          </caption>
          <thead>
            <tr>
              <th scope="col">Turn</th>
              <NumTh>TTFT P50 (ms)</NumTh>
              <NumTh>TPS/user P50</NumTh>
              <NumTh>Cached input tokens P50</NumTh>
              <NumTh>Hit share (95 % interval)</NumTh>
              <NumTh>Cached share of prompt P50 (n)</NumTh>
              <NumTh>n</NumTh>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ turn, slug, entry: e }) => (
              <tr key={slug} data-workload={slug}>
                <td>
                  turn {turn} <span className="muted small">({slug})</span>
                </td>
                <td className="num strong" data-metric="ttft-p50">
                  {fmt(e!.ttftMs?.p50)}
                </td>
                <td className="num" data-metric="tps-p50">
                  {fmt(e!.outputTokensPerSecond?.p50)}
                </td>
                <td className="num" data-metric="cached-p50">
                  {e!.cachedInputTokens ? fmt(e!.cachedInputTokens.p50) : 'not reported'}
                </td>
                <td className="num" data-metric="hit-share">
                  {e!.cacheHit
                    ? `${fmtPct(e!.cacheHit.share, 0)} (${fmtPct(e!.cacheHit.interval.low, 0)}–${fmtPct(e!.cacheHit.interval.high, 0)}, n ${e!.cacheHit.n})`
                    : '–'}
                </td>
                <td className="num" data-metric="cached-share">
                  {e!.cachedInputShare ? `${fmtPct(e!.cachedInputShare.p50, 0)} (n ${e!.cachedInputShare.n})` : 'not reported'}
                </td>
                <td className="num">{e!.n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="small muted" data-note="agent-turns">
        Each turn is a forced tool call; its call and a tool result are sent back with the next turn, so turn t repeats everything before it. See{' '}
        <Link href="/methodology#agent-turns">methodology</Link>; the figures as data: <Link href="#families-data">families API</Link>.
      </p>
    </>
  );
}
