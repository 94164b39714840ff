/**
 * A ratio of sums (Σ numerator ÷ Σ denominator over paired observations) with a percentile
 * bootstrap 95 % interval (Efron & Tibshirani 1993, ch. 13: resample the pairs with replacement,
 * recompute the ratio, take the 2.5th and 97.5th percentiles). The ratio of sums weights each
 * observation by its size, as the window's totals do; the pairs bootstrap needs no assumption about
 * the ratio's distribution. Deterministic: the resampling generator is seeded from n, so the same
 * pairs always give the same interval (every surface shows one number).
 */
import { mulberry32 } from './random';
import { percentiles } from './percentiles';

/** Resamples of {@link ratioOfSumsInterval}. */
export const RATIO_BOOTSTRAP_RESAMPLES = 1000;

/** A ratio with its interval; null fields when there is no positive denominator. */
export interface RatioInterval {
  /** Σ numerator ÷ Σ denominator */
  ratio: number;
  /** percentile-bootstrap 95 % interval of the ratio */
  low: number;
  high: number;
  /** pairs behind it */
  n: number;
}

/**
 * @param numerators, denominators paired observations (same length, denominators > 0)
 * @returns the ratio of sums and its 95 % bootstrap interval; null for no pairs. With one pair the
 *   interval is the ratio itself (no spread is observable).
 * @throws RangeError when the arrays differ in length or a denominator is not > 0
 */
export function ratioOfSumsInterval(
  numerators: readonly number[],
  denominators: readonly number[],
  resamples = RATIO_BOOTSTRAP_RESAMPLES,
): RatioInterval | null {
  const n = numerators.length;
  if (n !== denominators.length) throw new RangeError('numerators and denominators differ in length');
  if (n === 0) return null;
  if (denominators.some((d) => !(d > 0))) throw new RangeError('every denominator must be > 0');
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const ratio = sum(numerators) / sum(denominators);
  const random = mulberry32(n);
  const draws = new Array<number>(resamples);
  for (let b = 0; b < resamples; b++) {
    let num = 0;
    let den = 0;
    for (let i = 0; i < n; i++) {
      const j = Math.floor(random() * n);
      num += numerators[j]!;
      den += denominators[j]!;
    }
    draws[b] = num / den;
  }
  const [low, high] = percentiles(draws, [2.5, 97.5]);
  return { ratio, low: Math.min(low!, ratio), high: Math.max(high!, ratio), n };
}
