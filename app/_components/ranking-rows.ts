/** Leaderboard answer → interval-chart rows with claim markers (pure; used by the live board and the embed). */
import type { LeaderboardAnswer } from '@/server/leaderboard';
import { boundWord, fmt, fmtClaimDate } from './format';
import type { ChartClaim, IntervalRow } from './interval-chart';

/** A published output-speed claim as the home page passes it (tokens/s per user). */
export interface SpeedClaim {
  id: number;
  provider: string;
  providerSlug: string | null;
  /** the serving system the claim is about */
  system: string | null;
  /** catalog endpoints that are that system (the only rows it may be drawn beside) */
  endpointIds: number[];
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

/**
 * Interval-chart rows of the ranked entries, each with the claims about its own system (claim
 * endpointIds); claims about systems not ranked here stand apart as claim-only rows (decision 073).
 */
export function rankingRows(answer: LeaderboardAnswer, claims: SpeedClaim[]): { rows: IntervalRow[]; claimRows: IntervalRow[] } {
  const ranked = answer.entries.filter((e) => e.rank !== null && e.outputTokensPerSecond);
  const rankedIds = new Set(ranked.map((e) => e.endpoint.id));
  const rows: IntervalRow[] = ranked.map((e) => {
    const s = e.outputTokensPerSecond!;
    const mine = claims.filter((c) => c.endpointIds.includes(e.endpoint.id));
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
  // claim-only rows: systems not ranked here; identical figures (value, bound, date, source) share one row
  const groups = new Map<string, SpeedClaim[]>();
  for (const c of claims.filter((c) => !c.endpointIds.some((id) => rankedIds.has(id)))) {
    const k = `${c.value}|${c.bound}|${c.claimDate}|${c.measuredBy}|${c.sourcePublisher}`;
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const claimRows: IntervalRow[] = [...groups.values()].map((g) => ({
    key: `claim-${g.map((c) => c.id).join('-')}`,
    label: g.map((c) => c.provider).join(', '),
    sublabel: g.length === 1 ? (g[0]!.system ?? g[0]!.subject) : undefined,
    p5: null,
    p25: null,
    p50: null,
    p75: null,
    p95: null,
    claims: [claimMarker(g[0]!)],
  }));
  return { rows, claimRows };
}
