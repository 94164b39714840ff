'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { LeaderboardAnswer } from '@/app/_server/leaderboard';
import { boundWord, fmt, fmtClaimDate, fmtUtc } from './format';
import { IntervalChart, type ChartClaim, type IntervalRow } from './interval-chart';
import type { SortDir, SortKey } from './leaderboard-sort';
import { LeaderboardTable } from './leaderboard-table';
import { ScatterChart } from './scatter-chart';
import { UpdatedAgo } from './updated-ago';

/** A published output-speed claim as the home page passes it (tokens/s per user). */
export interface SpeedClaim {
  id: number;
  provider: string;
  providerSlug: string | null;
  subject: string;
  value: number;
  bound: string;
  claimDate: string;
  measuredBy: string | null;
  sourcePublisher: string | null;
}

/** Claim → marker text, e.g. "claimed 1,038 TPS/user, May 23, 2025". */
export function claimMarker(c: SpeedClaim): ChartClaim {
  return {
    value: c.value,
    bound: c.bound,
    label: `claimed ${boundWord(c.bound)}${fmt(c.value)} TPS/user, ${fmtClaimDate(c.claimDate)}`,
    source: [c.measuredBy, c.sourcePublisher].filter(Boolean).join(' via '),
  };
}

/** Interval-chart rows of the ranked entries, with claims on the row of the same provider. */
export function rankingRows(answer: LeaderboardAnswer, claims: SpeedClaim[]): { rows: IntervalRow[]; claimRows: IntervalRow[] } {
  const ranked = answer.entries.filter((e) => e.rank !== null && e.outputTokensPerSecond);
  const measuredProviders = new Set(ranked.map((e) => e.endpoint.providerSlug));
  const claimedOnce = new Set<string>();
  const rows: IntervalRow[] = ranked.map((e) => {
    const s = e.outputTokensPerSecond!;
    const mine = claimedOnce.has(e.endpoint.providerSlug) ? [] : claims.filter((c) => c.providerSlug === e.endpoint.providerSlug);
    claimedOnce.add(e.endpoint.providerSlug);
    const several = ranked.filter((o) => o.endpoint.providerSlug === e.endpoint.providerSlug).length > 1;
    return {
      key: e.endpoint.slug,
      label: `${e.rank}${e.tiedWith.length ? '=' : '.'} ${several ? e.endpoint.slug : e.endpoint.provider}`,
      sublabel: [several ? e.endpoint.provider : e.endpoint.slug, e.endpoint.hardware, e.endpoint.speculativeDecoding].filter(Boolean).join(' · '),
      p5: s.p5,
      p25: s.p25,
      p50: s.p50,
      p75: s.p75,
      p95: s.p95,
      band: e.tiedWith.length ? e.band : null,
      claims: mine.map(claimMarker),
    };
  });
  // claim-only rows: providers we do not measure; identical figures (value, bound, date, source) share one row
  const groups = new Map<string, SpeedClaim[]>();
  for (const c of claims.filter((c) => !c.providerSlug || !measuredProviders.has(c.providerSlug))) {
    const k = `${c.value}|${c.bound}|${c.claimDate}|${c.measuredBy}|${c.sourcePublisher}`;
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const claimRows: IntervalRow[] = [...groups.values()].map((g) => ({
    key: `claim-${g.map((c) => c.id).join('-')}`,
    label: g.map((c) => c.provider).join(', '),
    sublabel: g.length === 1 ? g[0]!.subject : undefined,
    p5: null,
    p25: null,
    p50: null,
    p75: null,
    p95: null,
    claims: [claimMarker(g[0]!)],
  }));
  return { rows, claimRows };
}

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
    .map((c) => ({ providerSlug: c.providerSlug!, text: `${boundWord(c.bound)}${fmt(c.value)} TPS/user (${c.measuredBy ?? c.provider}, ${fmtClaimDate(c.claimDate)})` }));
  return (
    <section aria-label={caption} data-snapshot={data.snapshotId} data-testid="leaderboard">
      <p className="status-line muted">
        As of {fmtUtc(data.asOf)} · window {data.window} ·{' '}
        {pinned ? 'pinned to this instant' : <UpdatedAgo updatedAt={dataUpdatedAt} />}
        {isFetching ? <span className="muted"> · refreshing…</span> : null} · snapshot <Link href={`/s/${data.snapshotId}`}>{data.snapshotId}</Link>
      </p>
      {isError ? (
        <p className="notice" role="status">
          Could not refresh the leaderboard ({error instanceof Error ? error.message : 'network error'}); showing the answer from {fmtUtc(data.asOf)}. It retries every 30 s.
        </p>
      ) : null}
      {rows.length === 0 ? (
        <div className="empty" data-empty="leaderboard">
          <h2>No measurements in this window yet</h2>
          <p>
            None of the {data.entries.length} endpoints of this model has three or more successful probes of workload <strong>{data.workload}</strong> in the last {data.window}
            {unmeasured ? ` (${unmeasured} have none at all)` : ''}. Seeded provider endpoints start being probed every minute once their API key variable is set (for example <code>GROQ_API_KEY</code>; see the README&apos;s list) and <code>npx tokenpace start</code> is restarted.
          </p>
          <p>
            Meanwhile: try a longer window or another workload above, look at the <Link href="/?model=tokenpace-reference">calibration reference stream</Link> that is measured every minute, or read the published claims below.
          </p>
        </div>
      ) : null}
      {rows.length > 0 || claimRows.length > 0 ? (
        <>
          <h2 id="ranking-heading">Ranking: median output speed per user</h2>
          <IntervalChart id="ranking" rows={rows} claimRows={claimRows} title={`Median output speed (TPS/user) by endpoint, ${caption}`} unit="tokens/s" unitShort="TPS/user" />
        </>
      ) : null}
      {points.length > 0 ? (
        <>
          <h2>Responsiveness against speed</h2>
          <ScatterChart id="scatter" points={points} title={`TTFT P50 against output speed P50, ${caption}`} />
        </>
      ) : null}
      <h2 id="table-heading">All endpoints</h2>
      <LeaderboardTable entries={data.entries} caption={caption} claims={tableClaims} initialSort={initialSort} initialDir={initialDir} />
    </section>
  );
}
