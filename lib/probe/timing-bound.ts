/**
 * The error bound of one measurement (decision 180): how wrong its TTFT, TTFAT, E2E and output
 * speed may be, from how late the stamps that define them may have been taken
 * (./stamp-lateness.ts), and whether that is within the published accuracy (reason
 * `timing_uncertain` otherwise, decision 181).
 *
 * Stamps only err one way: a read is noticed at or after its bytes arrived, and request start is
 * stamped just before the request is written. With L(x) the lateness bound of stamp x and
 * `startSlackMs` the time from the request-start stamp to the end of the synchronous write that
 * followed it:
 * - TTFT is at most `L(first token) + startSlack` too high (never too low); likewise TTFAT and E2E
 *   with their own stamps.
 * - Output speed uses the span lastToken − firstToken: the true span lies within
 *   [span − L(last), span + L(first)], so the speed is off by at most max(L(first), L(last)) ÷ span
 *   (either way): `speedPct`.
 * Request start cancels out of the speed. A gap between any two token stamps (ITL, TPOT) is off by
 * at most the larger of their bounds, so the largest bound of any token stamp is kept as evidence
 * (`maxTokenLatenessMs`): what a check of single gaps may allow. Read coalescing (several events in the read that
 * delivered a defining token) is kept as evidence: every byte of a read arrived within its bound,
 * so coalescing never widens it, but it shows why a bound is wide.
 */
import type { TimelineEntry, TimingBound, TimingBoundEvidence } from './types';

export type { TimingBound, TimingBoundEvidence };

/**
 * Published accuracy (methodology): a measurement is rankable for timing only when its speed bound
 * is at most `speedPct` % and its TTFT bound at most `ttftMs` ms (decision 181: 2 × the 0.5 %
 * published speed accuracy; 5 ms, the loopback-and-scheduling part of a 1 ms median we cannot
 * promise per run on a shared machine, far below any TTFT difference the ranking separates).
 */
export const TIMING_BOUND_LIMITS = { speedPct: 1, ttftMs: 5 } as const;

/** Inputs of {@link computeTimingBound}: the measured times (ms since request start) and the evidence. */
export interface TimingBoundInput {
  ttftMs: number | null;
  ttfatMs: number | null;
  lastTokenMs: number | null;
  e2eMs: number | null;
  timeline: readonly TimelineEntry[];
  /** lateness bound (ms) of the stamp taken at `atMs` (ms since request start); undefined or Infinity: unknown */
  latenessAt: (atMs: number) => number | undefined;
  startSlackMs: number | null;
  /** the request-start stamp on the epoch clock, evidence only (TimingBoundEvidence) */
  requestStartEpochMs?: number | null;
  runQueueMs?: number | null;
  /** the kernel's network-processing threads' run-queue wait over the probe, ms (evidence only; decision 308) */
  netWaitMs?: number | null;
  gcPauseMs?: number | null;
}

const known = (x: number | undefined | null): number | null => (x === undefined || x === null || !Number.isFinite(x) ? null : x);
const round3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

/** The bound of one measurement from its stamps' lateness (module comment). Pure. */
export function computeTimingBound(input: TimingBoundInput): TimingBound {
  const late = (atMs: number | null) => (atMs === null ? null : known(input.latenessAt(atMs)));
  const slack = known(input.startSlackMs);
  const first = late(input.ttftMs);
  const firstAnswer = late(input.ttfatMs);
  const last = late(input.lastTokenMs);
  const end = late(input.e2eMs);
  const sinceStart = (l: number | null, figure: number | null) => (figure === null || l === null || slack === null ? null : l + slack);
  const spanMs = input.ttftMs !== null && input.lastTokenMs !== null ? input.lastTokenMs - input.ttftMs : null;
  const speedPct = spanMs !== null && spanMs > 0 && first !== null && last !== null ? (Math.max(first, last) / spanMs) * 100 : null;
  // Every token stamp's bound: a gap between two stamps is off by at most the larger of the two.
  let maxToken: number | null = input.timeline.length > 0 ? 0 : null;
  for (const t of input.timeline) {
    const l = late(t.atMs);
    if (l === null) {
      maxToken = null;
      break;
    }
    if (maxToken !== null && l > maxToken) maxToken = l;
  }
  const readEvents = (atMs: number | null) => (atMs === null ? 0 : input.timeline.filter((t) => t.atMs === atMs).length);
  return {
    ttftMs: round3(sinceStart(first, input.ttftMs)),
    ttfatMs: round3(sinceStart(firstAnswer, input.ttfatMs)),
    e2eMs: round3(sinceStart(end, input.e2eMs)),
    speedPct: speedPct === null ? null : Math.round(speedPct * 10_000) / 10_000,
    evidence: {
      startSlackMs: round3(slack),
      requestStartEpochMs: round3(known(input.requestStartEpochMs)),
      firstTokenLatenessMs: round3(first),
      firstAnswerLatenessMs: round3(firstAnswer),
      lastTokenLatenessMs: round3(last),
      endLatenessMs: round3(end),
      maxTokenLatenessMs: round3(maxToken),
      runQueueMs: round3(known(input.runQueueMs)),
      ...(input.netWaitMs != null ? { netWaitMs: round3(known(input.netWaitMs)) } : {}),
      gcPauseMs: round3(known(input.gcPauseMs)),
      firstReadEvents: readEvents(input.ttftMs),
      lastReadEvents: readEvents(input.lastTokenMs),
    },
  };
}

/**
 * True when a successful measurement's timing is vouched for: its TTFT bound and (when it has a
 * speed) its speed bound are known and within {@link TIMING_BOUND_LIMITS}. A failed measurement is
 * judged by its failure, not here (returns true). Limits inclusive: a bound exactly at the limit
 * passes.
 */
export function isTimingCertain(
  figures: { outcome: 'success' | 'error'; ttftMs: number | null; outputTokensPerSecond: number | null },
  bound: Pick<TimingBound, 'ttftMs' | 'speedPct'> | null,
  limits: { speedPct: number; ttftMs: number } = TIMING_BOUND_LIMITS,
): boolean {
  if (figures.outcome !== 'success') return true;
  if (!bound) return false;
  if (figures.ttftMs !== null && (bound.ttftMs === null || bound.ttftMs > limits.ttftMs)) return false;
  if (figures.outputTokensPerSecond !== null && (bound.speedPct === null || bound.speedPct > limits.speedPct)) return false;
  return true;
}

/** What a measurement row keeps of its bound beyond the three columns: `evidence.timing`. */
export type StoredTimingEvidence = TimingBoundEvidence & { ttfatBoundMs: number | null };

/**
 * The storage form of a bound: the columns (`ttftBoundMs`, `e2eBoundMs`, `speedBoundPct`) and
 * `evidence.timing`; all null / absent without a bound (a probe that failed before any stream).
 */
export function toStoredTimingBound(bound: TimingBound | undefined | null): {
  ttftBoundMs: number | null;
  e2eBoundMs: number | null;
  speedBoundPct: number | null;
  timing: StoredTimingEvidence | undefined;
} {
  if (!bound) return { ttftBoundMs: null, e2eBoundMs: null, speedBoundPct: null, timing: undefined };
  return { ttftBoundMs: bound.ttftMs, e2eBoundMs: bound.e2eMs, speedBoundPct: bound.speedPct, timing: { ...bound.evidence, ttfatBoundMs: bound.ttfatMs } };
}
