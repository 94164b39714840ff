/**
 * The endpoint page's cache-lifetime section (issue 25 item 1, decision 268): the hit share of the
 * same prefix after each gap (chart: share with its 95 % Wilson interval, %) with a table
 * alternative (gap, hit share, interval, n) and the lifetime read from them (the longest gap still
 * hit, lib/stats/cache-lifetime), as server/workload-families computes it for
 * /api/v1/endpoints/{id}/families. Server component, no hooks.
 */
import Link from 'next/link';
import type { CacheLifetime } from '@/lib/stats/cache-lifetime';
import { fmtPct } from './format';
import { IntervalChart } from './interval-chart';
import { DataTable } from './data-table';

/** How the lifetime reads in words. */
export function describeLifetime(l: CacheLifetime | null): string {
  if (!l) return 'No check reported a cache count yet.';
  if (l.lifetimeMinutes === null) return `Not hit even after the shortest gap (${l.nextMissMinutes} min): no cache, or one shorter than that.`;
  if (l.atLeast) return `At least ${l.lifetimeMinutes} min: every gap tested was still hit.`;
  return `${l.lifetimeMinutes} min: hit after ${l.lifetimeMinutes} min, missed after ${l.nextMissMinutes} min.`;
}

export function CacheLifetimePanel({ lifetime, endpointSlug, windowHours }: { lifetime: CacheLifetime | null; endpointSlug: string; windowHours: number }) {
  const gaps = lifetime?.gaps.filter((g) => g.hit) ?? [];
  if (!lifetime || gaps.length === 0)
    return (
      <p className="muted" data-empty="cache-lifetime">
        No cache-lifetime checks with a cache count in the last {windowHours} h yet (one series runs every day).
      </p>
    );
  return (
    <>
      <p data-figure="cache-lifetime">
        <strong>Measured lifetime: </strong>
        {describeLifetime(lifetime)}
      </p>
      <IntervalChart
        id="cache-lifetime-hits"
        title={`Prompt-cache hit share after each gap, ${endpointSlug}, last ${windowHours} h`}
        unit="%"
        unitShort="hit %"
        rows={gaps.map((g) => {
          const share = g.hit!.share * 100;
          return {
            key: g.workloadSlug,
            label: `${g.gapMinutes} min`,
            sublabel: `${g.workloadSlug} · n ${g.hit!.n}`,
            p5: g.hit!.interval.low * 100,
            p25: share,
            p50: share,
            p75: share,
            p95: g.hit!.interval.high * 100,
          };
        })}
      />
      <DataTable
        label="Cache lifetime (table)"
        table="cache-lifetime"
        caption={<>Hit share of the same prefix after each gap since the previous request, last {windowHours} h</>}
        columns={['Gap since the previous request', { num: 'Hit share' }, { num: '95 % interval' }, { num: 'n' }]}
      >
        {gaps.map((g) => (
          <tr key={g.workloadSlug} data-workload={g.workloadSlug}>
            <td>
              {g.gapMinutes} min <span className="muted small">({g.workloadSlug})</span>
            </td>
            <td className="num strong" data-metric="hit-share">
              {fmtPct(g.hit!.share, 0)}
            </td>
            <td className="num">{`${fmtPct(g.hit!.interval.low, 0)}–${fmtPct(g.hit!.interval.high, 0)}`}</td>
            <td className="num">{g.hit!.n}</td>
          </tr>
        ))}
      </DataTable>
      <p className="small muted" data-note="cache-lifetime">
        A gap counts as hit when more than half of its checks were served from the cache. See <Link href="/methodology#cache-lifetime">methodology</Link>.
      </p>
    </>
  );
}
