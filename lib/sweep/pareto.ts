/**
 * The Pareto frontier of TPS/user against aggregate throughput (SemiAnalysis InferenceX's
 * tokens/s/user vs tokens/s/GPU chart): a point is on the frontier when no other point has both
 * at least its aggregate output tokens/s and at least its TPS/user, with one of them strictly
 * higher. Both axes are "more is better", so the frontier is the upper-right staircase.
 */

/** One operating point (one sweep level of one endpoint). */
export interface ParetoPoint {
  /** aggregate output tokens/s (or per GPU), x */
  aggregate: number;
  /** median TPS/user, y */
  perUser: number;
}

/**
 * Indexes (into `points`) of the frontier, ordered by aggregate ascending (TPS/user then falls).
 * O(n log n). Points with a non-finite coordinate are never on it. Duplicates: the first kept.
 */
export function paretoFrontier(points: readonly ParetoPoint[]): number[] {
  const order = points
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => Number.isFinite(p.aggregate) && Number.isFinite(p.perUser))
    .sort((a, b) => b.p.aggregate - a.p.aggregate || b.p.perUser - a.p.perUser || a.i - b.i);
  const frontier: number[] = [];
  let bestPerUser = Number.NEGATIVE_INFINITY;
  for (const { p, i } of order) {
    if (p.perUser > bestPerUser) {
      frontier.push(i);
      bestPerUser = p.perUser;
    }
  }
  return frontier.reverse();
}

/** Aggregate per GPU when the GPU count is declared (a positive integer), else null. */
export function perGpu(aggregate: number, gpuCount: number | null): number | null {
  return gpuCount !== null && Number.isInteger(gpuCount) && gpuCount > 0 ? aggregate / gpuCount : null;
}
