/** Leaderboard answer → interval-chart rows with claim markers (pure; used by the live board and the embed). */
import type { LeaderboardAnswer } from '@/app/_server/leaderboard';
import { boundWord, fmt, fmtClaimDate } from './format';
import type { ChartClaim, IntervalRow } from './interval-chart';

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

