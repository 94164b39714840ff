/**
 * The endpoint page's prompt-cache section (issue 25, decision 260): TTFT of the cold and the warm
 * request of the prompt-cache pair (P5–P95 interval chart, ms) with a table alternative giving
 * TTFT P50 and P25–P75, the cached input tokens P50, the hit share with n and its 95 % Wilson
 * interval, and the cached share of the prompt (median with n, decision 291). Every figure is the endpoint's leaderboard entry of cache-cold-2k / cache-warm-2k
 * (the one statistics engine); nothing is computed here but the warm ÷ cold TTFT ratio of the two
 * published medians. Server component, no hooks.
 */
import Link from 'next/link';
import { fmt, fmtPct } from './format';
import { IntervalChart } from './interval-chart';
import type { WindowEntry } from './endpoint-window';
import { DataTable } from './data-table';

/** The pair's entries (absent when the workload has no probes in the window). */
export interface PromptCacheEntries {
  cold: WindowEntry | null;
  warm: WindowEntry | null;
}

export function PromptCachePanel({ entries, endpointSlug, windowHours }: { entries: PromptCacheEntries; endpointSlug: string; windowHours: number }) {
  const pairs: Array<{ slug: string; role: string; e: WindowEntry | null }> = [
    { slug: 'cache-cold-2k', role: 'cold', e: entries.cold },
    { slug: 'cache-warm-2k', role: 'warm', e: entries.warm },
  ];
  const rows = pairs.flatMap(({ slug, role, e }) => (e && e.n > 0 ? [[slug, role, e] as const] : []));
  if (rows.length === 0)
    return (
      <p className="muted" data-empty="prompt-cache">
        No prompt-cache probes in the last {windowHours} h yet (the pair runs every 6 hours).
      </p>
    );
  const cold = entries.cold?.ttftMs?.p50;
  const warm = entries.warm?.ttftMs?.p50;
  return (
    <>
      <IntervalChart
        id="prompt-cache-ttft"
        title={`TTFT cold against warm (prompt cache), ${endpointSlug}, last ${windowHours} h`}
        unit="ms"
        unitShort="TTFT ms"
        rows={rows.filter(([, , e]) => e.ttftMs).map(([slug, role, e]) => ({ key: slug, label: role, sublabel: `${slug} · n ${e.n}`, ...e.ttftMs! }))}
      />
      <DataTable
        label="Prompt cache (table)"
        table="prompt-cache"
        caption={<>TTFT, cached input tokens, cache hit share and cached share of the prompt of the cold and warm requests, last {windowHours} h</>}
        columns={[
          'Request',
          { num: 'TTFT P50 (ms)' },
          { num: 'P25–P75' },
          { num: 'Cached input tokens P50' },
          { num: 'Hit share (95 % interval)' },
          { num: 'Cached share of prompt P50 (n)' },
          { num: 'n' },
        ]}
      >
        {rows.map(([slug, role, e]) => (
          <tr key={slug} data-workload={slug}>
            <td>
              {role} <span className="muted small">({slug})</span>
            </td>
            <td className="num strong" data-metric="ttft-p50">
              {fmt(e.ttftMs?.p50)}
            </td>
            <td className="num">{e.ttftMs ? `${fmt(e.ttftMs.p25)}–${fmt(e.ttftMs.p75)}` : '–'}</td>
            <td className="num" data-metric="cached-p50">
              {e.cachedInputTokens ? fmt(e.cachedInputTokens.p50) : 'not reported'}
            </td>
            <td className="num" data-metric="hit-share">
              {e.cacheHit
                ? `${fmtPct(e.cacheHit.share, 0)} (${fmtPct(e.cacheHit.interval.low, 0)}–${fmtPct(e.cacheHit.interval.high, 0)}, n ${e.cacheHit.n})`
                : '–'}
            </td>
            <td className="num" data-metric="cached-share">
              {e.cachedInputShare ? `${fmtPct(e.cachedInputShare.p50, 0)} (n ${e.cachedInputShare.n})` : 'not reported'}
            </td>
            <td className="num">{e.n}</td>
          </tr>
        ))}
      </DataTable>
      <p className="small muted" data-note="prompt-cache">
        {cold && warm ? `Warm TTFT is ${fmtPct(warm / cold, 0)} of cold. ` : ''}The warm request repeats the cold one&apos;s first 1,900 tokens right after it;
        cached tokens and hit share are what the provider reports in its usage. See <Link href="/methodology#cache-hit-share">methodology</Link>.
      </p>
    </>
  );
}
