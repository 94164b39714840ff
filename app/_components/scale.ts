/** Axis helpers for the hand-drawn charts (pure functions, no DOM). */

/**
 * "Nice" axis ticks covering [min, max] (Heckbert 1990): about `count` ticks at 1, 2, 2.5 or 5 ×
 * 10^k steps. Returns the ticks, ascending; the first ≤ min and the last ≥ max.
 */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (max <= min) max = min + (min === 0 ? 1 : Math.abs(min) * 0.1);
  const raw = (max - min) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag;
  const lo = Math.floor(min / step) * step;
  const hi = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Math.round(v / step) * step);
  return ticks;
}

/** Position of v in [lo, hi] as a percentage 0–100, clamped. */
export function pct(v: number, lo: number, hi: number): number {
  if (hi <= lo) return 0;
  return Math.max(0, Math.min(100, ((v - lo) / (hi - lo)) * 100));
}

/** Median of a non-empty list (mean of the middle two for even lengths); NaN when empty. */
export function median(xs: number[]): number {
  if (xs.length === 0) return Number.NaN;
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
}

/**
 * Equal-width histogram of `values` with about `bins` bins over nice bounds.
 * Returns bins { from, to, count } covering [min, max]; empty when there are no values.
 */
export function histogram(values: number[], bins = 20): Array<{ from: number; to: number; count: number }> {
  if (values.length === 0) return [];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const ticks = niceTicks(lo, hi === lo ? lo + 1 : hi, bins);
  const width = ticks[1]! - ticks[0]!;
  const out = ticks.slice(0, -1).map((from) => ({ from, to: from + width, count: 0 }));
  for (const v of values) {
    const i = Math.min(out.length - 1, Math.max(0, Math.floor((v - ticks[0]!) / width)));
    out[i]!.count++;
  }
  return out;
}
