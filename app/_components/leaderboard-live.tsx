'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { LeaderboardAnswer } from '@/server/leaderboard';
import { boundWord, fmt, fmtClaimDate, fmtUtc } from './format';
import { IntervalChart } from './interval-chart';
import { rankingRows, type SpeedClaim } from './ranking-rows';
import type { SortDir, SortKey } from './leaderboard-sort';
import { LeaderboardTable } from './leaderboard-table';
import { ScatterChart } from './scatter-chart';
import { UpdatedAgo } from './updated-ago';

/**
 * Live leaderboard: the server's first answer, then react-query refetches /api/v1/leaderboard every
 * 30 s (not when the board is pinned to an instant with ?at=) with a visible "updated N s ago".
 * Renders the ranking chart (median, P25–P75 and P5–P95 whiskers, tie bands, claim markers), the
 * TTFT-vs-speed scatter and the sortable table, all from the same answer (data-snapshot on the
 * section names it).
 */
export function LeaderboardLive({
  initial,
  query,
  caption,
  claims,
  pinned,
  initialSort,
  initialDir,
  renderedAt,
}: {
  initial: LeaderboardAnswer;
  /** epoch ms when the server rendered `initial` */
  renderedAt: number;
  /** query string of /api/v1/leaderboard, e.g. "model=…&workload=…&window=72h" */
  query: string;
  caption: string;
  claims: SpeedClaim[];
  /** true when the board is pinned to an instant (?at=): no refetch */
  pinned: boolean;
  initialSort: SortKey;
  initialDir: SortDir;
}) {
  const { data, dataUpdatedAt, isError, error, isFetching } = useQuery({
    queryKey: ['leaderboard', query],
    queryFn: async ({ signal }) => {
      const res = await fetch(`/api/v1/leaderboard?${query}`, { signal });
      if (!res.ok) throw new Error(`the server answered HTTP ${res.status}`);
      return (await res.json()) as LeaderboardAnswer;
    },
    initialData: initial,
    initialDataUpdatedAt: renderedAt,
    refetchInterval: pinned ? false : 30_000,
    refetchOnWindowFocus: !pinned,
    placeholderData: keepPreviousData,
  });
  const { rows, claimRows } = rankingRows(data, claims);
  const points = data.entries
    .filter((e) => e.rank !== null && e.outputTokensPerSecond && e.ttftMs)
    .map((e, _, all) => ({
      key: e.endpoint.slug,
      // a provider with several endpoints on the board is told apart by endpoint slug
      label: all.filter((o) => o.endpoint.providerSlug === e.endpoint.providerSlug).length > 1 ? e.endpoint.slug : e.endpoint.provider,
      x: e.ttftMs!.p50,
      y: e.outputTokensPerSecond!.p50,
    }));
  const unmeasured = data.entries.filter((e) => e.n === 0).length;
  const tableClaims = claims
    .filter((c) => c.providerSlug)
    .map((c) => ({
      providerSlug: c.providerSlug!,
      text: `${boundWord(c.bound)}${fmt(c.value)} TPS/user (${c.measuredBy ?? c.provider}, ${fmtClaimDate(c.claimDate)})`,
    }));
  return (
    <section aria-label={caption} data-snapshot={data.snapshotId} data-testid="leaderboard">
      <p className="status-line muted">
        As of {fmtUtc(data.asOf)} · window {data.window} · {pinned ? 'pinned to this instant' : <UpdatedAgo updatedAt={dataUpdatedAt} />}
        {isFetching ? <span className="muted"> · refreshing…</span> : null} · snapshot <Link href={`/s/${data.snapshotId}`}>{data.snapshotId}</Link>
      </p>
      {isError ? (
        <p className="notice" role="status">
          Could not refresh the leaderboard ({error instanceof Error ? error.message : 'network error'}); showing the answer from {fmtUtc(data.asOf)}. It
          retries every 30 s.
        </p>
      ) : null}
      {rows.length === 0 ? (
        <div className="empty" data-empty="leaderboard">
          <h2>No measurements in this window yet</h2>
          <p>
            None of the {data.entries.length} endpoints of this model has three or more successful probes of workload <strong>{data.workload}</strong> in the
            last {data.window}
            {unmeasured ? ` (${unmeasured} have none at all)` : ''}: this site does not probe them yet.
          </p>
          <p>
            Meanwhile: try a longer window or another workload above, look at the <Link href="/?model=tokenpace-reference">calibration reference stream</Link>{' '}
            that is measured every minute, or read the published claims below.
          </p>
        </div>
      ) : null}
      {rows.length > 0 || claimRows.length > 0 ? (
        <>
          <h2 id="ranking-heading">Ranking: median output speed per user</h2>
          <IntervalChart
            id="ranking"
            rows={rows}
            claimRows={claimRows}
            title={`Median output speed (TPS/user) by endpoint, ${caption}`}
            unit="tokens/s"
            unitShort="TPS/user"
          />
        </>
      ) : null}
      {points.length > 0 ? (
        <>
          <h2>Responsiveness against speed</h2>
          <ScatterChart id="scatter" points={points} title={`TTFT P50 against output speed P50, ${caption}`} />
          <p className="small muted">
            The shaded corner holds endpoints that are both quicker to the first token and faster per token than the median plotted endpoint. Both figures of
            every endpoint are in the table below.
          </p>
        </>
      ) : null}
      <h2 id="table-heading">All endpoints</h2>
      <LeaderboardTable entries={data.entries} caption={caption} claims={tableClaims} initialSort={initialSort} initialDir={initialDir} />
    </section>
  );
}
