/**
 * Ranking with tie bands: endpoints whose confidence intervals overlap are shown tied instead of
 * being ordered by noise (DESIGN.md §2, "Rankings"). Intervals typically come from the
 * order-statistic median interval of lib/stats/sketch (sketchMedianCi, 95 %) or P5–P95.
 */

/** Which way is better: 'higher-better' for speeds (TPS/user), 'lower-better' for latencies (TTFT). */
export type RankDirection = 'higher-better' | 'lower-better';

/** One entry to rank; median, low and high in the same unit, low ≤ median ≤ high, all finite. */
export interface RankInput<T> {
  id: T;
  median: number;
  low: number;
  high: number;
}

/**
 * An entry's place.
 * - rank: competition ranking of its band ("1224" style): 1 + number of entries in better bands;
 *   every member of a band has the same rank, e.g. bands of sizes 2, 1 → ranks 1, 1, 3
 * - band: 1-based index of its band (1 = best)
 * - tiedWith: ids of the other members of its band, in ranking order (empty when alone)
 */
export interface RankedEntry<T> {
  id: T;
  rank: number;
  band: number;
  tiedWith: T[];
}

/** Closed intervals [a.low, a.high] and [b.low, b.high] overlap (touching counts). */
function overlaps(a: { low: number; high: number }, b: { low: number; high: number }): boolean {
  return a.low <= b.high && b.low <= a.high;
}

/**
 * Rank entries by median and group statistically indistinguishable neighbours into tie bands.
 *
 * Band rule (leader-anchored, so overlap chains cannot grow without bound):
 * 1. Sort by median, best first (descending for 'higher-better', ascending for 'lower-better');
 *    equal medians keep input order (stable sort), so results are deterministic.
 * 2. The first entry leads band 1. Each following entry joins the current band if its interval
 *    overlaps the interval of the band's LEADER (the band's best entry); otherwise it starts a new
 *    band and becomes its leader.
 * Consequences: every member is tied with the leader; two members of one band may not overlap each
 * other (A ties B and A ties C is enough to put B and C in one band); an entry that overlaps the
 * previous band's last member but not its leader starts a new band, so a long chain of pairwise
 * overlaps (A~B, B~C, C~D …) never makes the top and bottom of a table "tied".
 *
 * @param entries items with id and median/low/high (any unit, e.g. tokens/s or ms)
 * @param direction which way is better
 * @returns one RankedEntry per input, best first
 * @throws RangeError if a value is not finite, low ≤ median ≤ high does not hold, or direction is unknown
 */
export function rankWithTieBands<T>(entries: readonly RankInput<T>[], direction: RankDirection): RankedEntry<T>[] {
  entries.forEach((e, i) => {
    if (![e.median, e.low, e.high].every(Number.isFinite)) {
      throw new RangeError(`entries[${i}]: median, low and high must be finite numbers`);
    }
    if (!(e.low <= e.median && e.median <= e.high)) {
      throw new RangeError(`entries[${i}]: expected low ≤ median ≤ high, got ${e.low} / ${e.median} / ${e.high}`);
    }
  });
  if (direction !== 'higher-better' && direction !== 'lower-better') {
    throw new RangeError(`direction must be 'higher-better' or 'lower-better', got ${String(direction)}`);
  }
  const sign = direction === 'higher-better' ? -1 : 1;
  const order = entries.map((e, i) => ({ e, i })).sort((a, b) => sign * (a.e.median - b.e.median) || a.i - b.i);

  const bands: RankInput<T>[][] = [];
  for (const { e } of order) {
    const current = bands[bands.length - 1];
    if (current && overlaps(current[0]!, e)) current.push(e);
    else bands.push([e]);
  }

  const out: RankedEntry<T>[] = [];
  let better = 0;
  bands.forEach((members, b) => {
    for (const m of members) {
      out.push({ id: m.id, rank: better + 1, band: b + 1, tiedWith: members.filter((x) => x !== m).map((x) => x.id) });
    }
    better += members.length;
  });
  return out;
}
