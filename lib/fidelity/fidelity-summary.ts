/**
 * Fidelity figures from verdict counts: the pass rate with its 95 % Wilson interval (lib/stats/wilson)
 * for a window, and the onset days of fidelity drops for the feed. Pure; counts in, figures out.
 */
import { wilsonInterval } from '../stats/wilson';

/** Fidelity of one endpoint (× workload) over a window; null when no check ran in it. */
export interface FidelitySummary {
  /** passed ÷ n, a fraction */
  passRate: number;
  /** judged fidelity checks in the window */
  n: number;
  /** 95 % Wilson score interval of passRate */
  interval: { low: number; high: number };
}

/** `passed` of `n` judged checks → summary; null when n = 0. Throws RangeError for impossible counts. */
export function summariseFidelity(passed: number, n: number): FidelitySummary | null {
  if (n === 0) return null;
  const w = wilsonInterval(passed, n);
  return { passRate: w.rate, n, interval: { low: w.low, high: w.high } };
}

/** Pass rate whose confident shortfall makes a day a fidelity drop: the day's Wilson upper bound below it. */
export const FIDELITY_DROP_BELOW = 0.95;
/** Fewest judged checks in a day for it to count as low (one unlucky check is not a drop). */
export const FIDELITY_DROP_MIN_CHECKS = 3;

/** One UTC day of an endpoint's fidelity checks. */
export interface FidelityDay {
  /** YYYY-MM-DD */
  day: string;
  n: number;
  passed: number;
}

/**
 * Onset days of fidelity drops in `days` (any order): a day is low when its 95 % Wilson upper
 * bound is below {@link FIDELITY_DROP_BELOW} with at least {@link FIDELITY_DROP_MIN_CHECKS} checks (we are confident the endpoint passes fewer than 95 %
 * of checks that day; a few failures of a good model among many passes never qualify). A drop is
 * reported on the first low day of each run of low days (a run is broken by a day with checks
 * that is not low; days without checks do not break it), so a persistently wrong endpoint yields
 * one entry per episode, not one per day.
 */
export function findFidelityDrops(days: readonly FidelityDay[]): Array<FidelityDay & { summary: FidelitySummary }> {
  const out: Array<FidelityDay & { summary: FidelitySummary }> = [];
  let inRun = false;
  for (const d of [...days].sort((a, b) => (a.day < b.day ? -1 : 1))) {
    const summary = summariseFidelity(d.passed, d.n);
    if (!summary) continue;
    const low = d.n >= FIDELITY_DROP_MIN_CHECKS && summary.interval.high < FIDELITY_DROP_BELOW;
    if (low && !inRun) out.push({ ...d, summary });
    inRun = low;
  }
  return out;
}
