import Link from 'next/link';
import type { LeaderboardAnswer } from '@/server/leaderboard';
import { fmt } from './format';
import type { CalibrationSplitSummary } from '@/lib/reference-server/delivery-report';

const signedPct = (x: number | null) => (x === null ? '–' : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}%`);
const signedMs = (x: number | null) => (x === null ? '–' : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)} ms`);

/**
 * The two calibration figures of one reference endpoint, apart (decision 182): probe error
 * (measured vs what the server delivered, rankable measurements) and server lateness (delivered vs
 * configured). Shows "no delivery reports yet" without data.
 */
export function CalibrationSplitFigures({ slug, split }: { slug: string; split: CalibrationSplitSummary }) {
  if (split.n === 0) return <p data-calibration-split={slug}>{slug}: no delivery reports yet.</p>;
  return (
    <dl className="meta" data-calibration-split={slug}>
      <dt>{slug}: probe error (measured vs delivered)</dt>
      <dd data-metric="probe-error">
        speed {signedPct(split.probeSpeedErrorPct)} median (worst ranked {signedPct(split.worstRankedProbeSpeedErrorPct)}), TTFT{' '}
        {signedMs(split.probeTtftErrorMs)} median, over {split.rankable} rankable of {split.n}
      </dd>
      <dt>{slug}: server lateness (delivered vs configured)</dt>
      <dd data-metric="server-lateness">
        speed {signedPct(split.serverSpeedLatenessPct)}, TTFT {signedMs(split.serverTtftLatenessMs)} median over {split.n} streams
      </dd>
    </dl>
  );
}

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
export function CalibrationBadge({ answer, split = null }: { answer: LeaderboardAnswer; split?: CalibrationSplitSummary | null }) {
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
      <span aria-hidden="true">{good ? '✓' : '!'}</span> Calibrated: reference {fmt(e.endpoint.calibrationTps)} TPS/user measured{' '}
      {fmt(e.outputTokensPerSecond!.p50, 1)} ({err === null ? '–' : `${err >= 0 ? '+' : '−'}${Math.abs(err).toFixed(2)}%`}, n {e.n})
      {split && split.n > 0 ? (
        <span data-calibration-split-badge="">
          {' '}
          · probe error {signedPct(split.probeSpeedErrorPct)} vs delivered · server lateness {signedPct(split.serverSpeedLatenessPct)} vs configured
        </span>
      ) : null}
    </Link>
  );
}
