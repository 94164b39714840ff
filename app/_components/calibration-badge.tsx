import Link from 'next/link';
import type { LeaderboardAnswer } from '@/app/_server/leaderboard';
import { fmt } from './format';

/** Speed error (%) of a calibration entry: (measured − configured) ÷ configured × 100, or null. */
export function calibrationErrorPct(measured: number | null | undefined, configured: number | null | undefined): number | null {
  if (measured === null || measured === undefined || !configured) return null;
  return ((measured - configured) / configured) * 100;
}

/**
 * Compact proof of accuracy shown beside the ranking: the reference stream's configured rate, what
 * the probes measured over the window, and the error; green within ±2 %, amber beyond, grey when
 * there is no calibration data yet. Links to /calibration.
 */
export function CalibrationBadge({ answer }: { answer: LeaderboardAnswer }) {
  const e = answer.entries.find((x) => x.endpoint.kind === 'calibration' && x.outputTokensPerSecond);
  if (!e) {
    return (
      <Link href="/calibration" className="cal-badge cal-none" data-calibration-badge="none">
        Calibration: no reference measurements yet
      </Link>
    );
  }
  const err = calibrationErrorPct(e.outputTokensPerSecond!.p50, e.endpoint.calibrationTps);
  const good = err !== null && Math.abs(err) <= 2;
  return (
    <Link href="/calibration" className={`cal-badge ${good ? 'cal-good' : 'cal-warn'}`} data-calibration-badge={err === null ? '' : err.toFixed(2)}>
      <span aria-hidden="true">{good ? '✓' : '!'}</span> Calibrated: reference {fmt(e.endpoint.calibrationTps)} TPS/user measured {fmt(e.outputTokensPerSecond!.p50, 1)} ({err === null ? '–' : `${err >= 0 ? '+' : '−'}${Math.abs(err).toFixed(2)}%`}, n {e.n})
    </Link>
  );
}
