/** Sorting of leaderboard entries (shared by the server page, which reads ?sort=&dir=, and the table). */
import type { LeaderboardAnswer } from '@/server/leaderboard';

type Entry = LeaderboardAnswer['entries'][number];

/** Sortable columns of the leaderboard table and the value each sorts by (null sorts last). */
export const SORT_KEYS = {
  rank: { label: 'Rank', value: (e: Entry) => e.rank, better: 'asc' },
  speed: { label: 'TPS/user P50', value: (e: Entry) => e.outputTokensPerSecond?.p50 ?? null, better: 'desc' },
  ttft: { label: 'TTFT P50', value: (e: Entry) => e.ttftMs?.p50 ?? null, better: 'asc' },
  ttfat: { label: 'TTFAT P50', value: (e: Entry) => e.ttfatMs?.p50 ?? null, better: 'asc' },
  e2e: { label: 'E2E P50', value: (e: Entry) => e.e2eMs?.p50 ?? null, better: 'asc' },
  itl: { label: 'ITL P50', value: (e: Entry) => e.medianItlP50Ms, better: 'asc' },
  fidelity: { label: 'Fidelity', value: (e: Entry) => e.fidelity?.passRate ?? null, better: 'desc' },
  price: { label: 'Blended price', value: (e: Entry) => e.endpoint.blendedUsdPerMTokens, better: 'asc' },
  success: { label: 'Success', value: (e: Entry) => e.successRate, better: 'desc' },
  n: { label: 'n', value: (e: Entry) => e.n, better: 'desc' },
} as const;
export type SortKey = keyof typeof SORT_KEYS;
export type SortDir = 'asc' | 'desc';

/** Stable sort of entries by a column; nulls last whichever the direction. */
export function sortEntries(entries: Entry[], key: SortKey, dir: SortDir): Entry[] {
  const get = SORT_KEYS[key].value;
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => {
      const va = get(a.e);
      const vb = get(b.e);
      if (va === null && vb === null) return a.i - b.i;
      if (va === null) return 1;
      if (vb === null) return -1;
      return (dir === 'asc' ? va - vb : vb - va) || a.i - b.i;
    })
    .map((x) => x.e);
}
