/**
 * Wilson score interval for a binomial proportion (E. B. Wilson, 1927, "Probable inference, the
 * law of succession, and statistical inference", JASA 22:209–212). Used for success rates of
 * probes; unlike the Wald interval it behaves at 0 and n successes and for small n.
 */

/** A proportion with its interval; all in [0, 1]. */
export interface WilsonInterval {
  /** successes ÷ total (the point estimate, not the interval's centre). */
  rate: number;
  low: number;
  high: number;
}

/**
 * Wilson score interval without continuity correction:
 * centre = (p̂ + z²/2n) / (1 + z²/n), half-width = z/(1 + z²/n) · √(p̂(1 − p̂)/n + z²/4n²),
 * clamped to [0, 1] against rounding. Example: 5 of 10 at z = 1.96 → [0.2366, 0.7634].
 * @param successes integer count, 0 ≤ successes ≤ total
 * @param total integer count of trials, ≥ 1
 * @param z standard-normal quantile, > 0 (1.96 ≈ 95 % two-sided, the default)
 * @throws RangeError if counts are not integers, total < 1, successes outside [0, total], or z ≤ 0 / not finite
 */
export function wilsonInterval(successes: number, total: number, z = 1.96): WilsonInterval {
  if (!Number.isSafeInteger(total) || total < 1) throw new RangeError(`total must be an integer ≥ 1, got ${String(total)}`);
  if (!Number.isSafeInteger(successes) || successes < 0 || successes > total) {
    throw new RangeError(`successes must be an integer in [0, ${total}], got ${String(successes)}`);
  }
  if (!(Number.isFinite(z) && z > 0)) throw new RangeError(`z must be a positive finite number, got ${String(z)}`);
  const n = total;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    rate: p,
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === total ? 1 : Math.min(1, centre + half),
  };
}
