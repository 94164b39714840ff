/** Display formatting shared by pages (numbers keep their unit beside them). Pure, server- and client-safe. */

/** A number with `digits` fraction digits and thousands separators, or "–" when missing. */
export function fmt(v: number | null | undefined, digits = 0): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/**
 * Decimals of a TPS/user figure on every surface: one, for a median and for the intervals beside it
 * alike, so "1,000.7" never sits beside "1,001–1,004" (issue 23 item 9).
 */
export const SPEED_DIGITS = 1;

/** An interval "low–high" at one precision (the median's beside it: SPEED_DIGITS by default); "–" when either end is absent. */
export function fmtRange(low: number | null | undefined, high: number | null | undefined, digits = SPEED_DIGITS): string {
  if (low === null || low === undefined || high === null || high === undefined || !Number.isFinite(low) || !Number.isFinite(high)) return '–';
  return `${fmt(low, digits)}–${fmt(high, digits)}`;
}

/** "1 check", "2 checks", "1,234 measurements": a count with its noun, singular for exactly 1. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${fmt(n)} ${n === 1 ? singular : pluralForm}`;
}

/** A fraction 0..1 as a percentage ("97%"), or "–". */
export function fmtPct(v: number | null | undefined, digits = 0): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return `${(v * 100).toFixed(digits)}%`;
}

/** The prefix a claim's bound is written with: lt → "< ", approx → "≈ ". */
export function boundWord(bound: string): string {
  return { eq: '', approx: '≈ ', lt: '< ', le: '≤ ', gt: '> ', ge: '≥ ' }[bound] ?? '';
}

/** "2025-05-23" or "2025-05" → "May 23, 2025" / "May 2025" (UTC, English). */
export function fmtClaimDate(date: string): string {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(date);
  if (!m) return date;
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][Number(m[2]) - 1] ?? m[2];
  return m[3] ? `${month} ${Number(m[3])}, ${m[1]}` : `${month} ${m[1]}`;
}

/** ISO instant → "2026-11-29 12:03 UTC" (minutes) or with seconds. */
export function fmtUtc(iso: string | Date, seconds = false): string {
  const s = (typeof iso === 'string' ? iso : iso.toISOString()).slice(0, seconds ? 19 : 16).replace('T', ' ');
  return `${s} UTC`;
}

/** Milliseconds as a short duration: "850 ms", "1.2 s". */
export function fmtMs(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return v < 1000 ? `${fmt(v)} ms` : `${fmt(v / 1000, v < 10_000 ? 2 : 1)} s`;
}

/** The label of a deployment kind as shown in tables. */
export function deploymentLabel(kind: string | null | undefined): string {
  return kind === 'shared' ? 'shared serverless' : kind === 'dedicated' ? 'dedicated' : kind === 'self-hosted' ? 'self-hosted' : '–';
}
