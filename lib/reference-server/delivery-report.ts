/**
 * Calibration against what was really sent (decision 182): the reference server's delivery report
 * of one stream, fetched after the probe through the same guarded fetch, and the two figures it
 * separates — the probe's error (measured vs delivered) and the server's lateness (delivered vs
 * configured). A calibration measurement 13 % slow used to read as our error; when the server
 * itself fell behind, the report says so.
 */
import { z } from 'zod';
import { STREAM_ID_HEADER } from './reference-server';

/** The report as the server serves it (lib/reference-server DeliveryReport); unknown keys dropped. */
export const deliveryReportSchema = z.object({
  id: z.string(),
  configuredTps: z.number().positive(),
  configuredTtftMs: z.number().nonnegative(),
  deliveredTtftMs: z.number().nullable(),
  readAtEpochMs: z.number().optional(),
  firstWriteAtEpochMs: z.number().nullable().optional(),
  firstWriteDoneAtEpochMs: z.number().nullable().optional(),
  deliveredTps: z.number().positive().nullable(),
  deliveredTpsMin: z.number().positive().nullable().optional(),
  deliveredTpsMax: z.number().positive().nullable().optional(),
  writes: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  completed: z.boolean(),
});
export type DeliveryReportBody = z.infer<typeof deliveryReportSchema>;

/** What a calibration measurement keeps of the report: `measurements.evidence.delivered`. */
export interface DeliveredEvidence {
  /** tokens/s and ms the server really delivered (its own write times); TTFT from its read of the request */
  tps: number | null;
  ttftMs: number | null;
  /**
   * The delivered TTFT from the request's write (decision 302): first content write − the latest
   * the request can have been written (the probe's request-start stamp + its start slack, never
   * after the server read it), ms. What a user waits, the server's own lateness in reading the
   * request included. Absent on rows stored before it, or when either side gave no stamp.
   */
  ttftFromWriteMs?: number | null;
  /** the server's lateness in reading the request: its read − the latest write, ms (same rule) */
  requestReadLateMs?: number | null;
  /**
   * The latest the truth can be (decision 305): the first write's call returned − the request's
   * start stamp (the earliest it can have been written), ms. [ttftFromWriteMs, this] holds the
   * truth however the server was scheduled between stamping a write and making it.
   */
  ttftFromWriteMaxMs?: number | null;
  /** the slowest and fastest delivered speed the server's write intervals allow, tokens/s (decision 305) */
  tpsMin?: number | null;
  tpsMax?: number | null;
  /** what it was configured to deliver (for this stream) */
  configuredTps: number;
  configuredTtftMs: number;
}

/** Captures the stream id header of a probe's response (a ProbeRecorder that ignores the bytes). */
export function createStreamIdCapture(): { recorder: { onResponse(status: number, headers: Headers): void; onBytes(): void }; id(): string | null } {
  let id: string | null = null;
  return {
    recorder: {
      onResponse: (_status, headers) => {
        const v = headers.get(STREAM_ID_HEADER);
        id = v && /^[A-Za-z0-9-]{1,64}$/.test(v) ? v : null;
      },
      onBytes: () => {},
    },
    id: () => id,
  };
}

/**
 * Fetches the delivery report of stream `streamId` from the reference server at `baseUrl` (the
 * endpoint's OpenAI base URL, …/v1). Null when the server has none or answers anything else
 * (a calibration endpoint that is not our reference server): never throws.
 */
export async function fetchDeliveryReport(
  fetch: (input: string, init?: RequestInit) => Promise<Response>,
  baseUrl: string,
  streamId: string,
  timeoutMs = 2_000,
  requestStart?: RequestStartStamp | null,
): Promise<DeliveredEvidence | null> {
  try {
    const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/tokenpace/deliveries/${encodeURIComponent(streamId)}`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return null;
    const text = await res.text();
    if (text.length > 4096) return null;
    const parsed = deliveryReportSchema.safeParse(JSON.parse(text));
    if (!parsed.success || parsed.data.id !== streamId) return null;
    const r = parsed.data;
    return {
      tps: r.deliveredTps,
      ttftMs: r.deliveredTtftMs,
      configuredTps: r.configuredTps,
      configuredTtftMs: r.configuredTtftMs,
      ...deliveredFromWrite(r, requestStart ?? null),
      ...(r.deliveredTpsMin !== undefined ? { tpsMin: r.deliveredTpsMin, tpsMax: r.deliveredTpsMax ?? null } : {}),
    };
  } catch {
    return null;
  }
}

/** The probe's request-start stamp on the host's epoch clock and its start slack (evidence.timing, decision 180/302). */
export interface RequestStartStamp {
  requestStartEpochMs?: number | null;
  startSlackMs: number | null;
}

/**
 * The delivered TTFT from the request's write and the server's lateness in reading it (decision
 * 302), from the report's epoch stamps and the probe's request-start stamp; empty when a stamp is
 * missing (a server that does not report them, a fetch that gave no request start). Pure.
 */
export function deliveredFromWrite(
  report: { readAtEpochMs?: number; firstWriteAtEpochMs?: number | null; firstWriteDoneAtEpochMs?: number | null },
  start: RequestStartStamp | null,
): Pick<DeliveredEvidence, 'ttftFromWriteMs' | 'requestReadLateMs' | 'ttftFromWriteMaxMs'> {
  const startAt = start?.requestStartEpochMs;
  const slack = start?.startSlackMs;
  const readAt = report.readAtEpochMs;
  const firstWrite = report.firstWriteAtEpochMs;
  if (startAt == null || slack == null || readAt === undefined || firstWrite == null) return {};
  const writtenBy = Math.min(startAt + slack, readAt);
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  const done = report.firstWriteDoneAtEpochMs;
  return {
    ttftFromWriteMs: round3(firstWrite - writtenBy),
    requestReadLateMs: round3(readAt - writtenBy),
    ...(done != null ? { ttftFromWriteMaxMs: round3(done - startAt) } : {}),
  };
}

/** How far a measured figure lies outside the truth interval; 0 inside it, null without a truth. */
export interface ErrorBeyondTruth {
  /** measured speed − the nearest end of [tpsMin, tpsMax], ÷ that end × 100, % */
  speedPct: number | null;
  /** measured TTFT − the nearest end of [ttftFromWriteMs, ttftFromWriteMaxMs], ms */
  ttftMs: number | null;
}

/**
 * The probe's error against the interval the truth lies in (decision 305): the server stamps each
 * write before it builds and makes it and again when the call returns, so a server preempted in
 * between widens the interval instead of being blamed on the probe. Falls back to the point truth
 * (tps, ttftFromWriteMs) where a report has no intervals. Pure.
 */
export function errorBeyondTruth(measured: { tps: number | null; ttftMs: number | null }, d: DeliveredEvidence): ErrorBeyondTruth {
  const beyond = (x: number, lo: number, hi: number) => (x < lo ? x - lo : x > hi ? x - hi : 0);
  let speedPct: number | null = null;
  if (measured.tps !== null) {
    const lo = d.tpsMin ?? d.tps;
    const hi = d.tpsMin != null ? (d.tpsMax ?? Number.POSITIVE_INFINITY) : d.tps;
    if (lo != null && hi != null) {
      const off = beyond(measured.tps, lo, hi);
      speedPct = off === 0 ? 0 : (off / (off < 0 ? lo : hi)) * 100;
    }
  }
  let ttftMs: number | null = null;
  const lo = d.ttftFromWriteMs ?? d.ttftMs;
  if (measured.ttftMs !== null && lo != null) ttftMs = beyond(measured.ttftMs, lo, d.ttftFromWriteMaxMs ?? lo);
  return { speedPct, ttftMs };
}

/** The two calibration figures of one measurement; null where a side is missing. */
export interface CalibrationSplit {
  /** (measured − delivered) ÷ delivered × 100: the probe's own error, % */
  probeSpeedErrorPct: number | null;
  /**
   * measured TTFT − delivered TTFT from the request's write when known (decision 302), else from
   * the server's read, ms (includes the loopback transit; the second also the server's reading)
   */
  probeTtftErrorMs: number | null;
  /** (delivered − configured) ÷ configured × 100: the server falling behind (negative) or ahead, % */
  serverSpeedLatenessPct: number | null;
  /** delivered TTFT − configured TTFT, ms (the same delivered TTFT as the probe error's) */
  serverTtftLatenessMs: number | null;
}

/** Splits one measurement's calibration error into probe error and server lateness. Pure. */
export function splitCalibrationError(measured: { tps: number | null; ttftMs: number | null }, delivered: DeliveredEvidence): CalibrationSplit {
  const d = delivered;
  // A server that read the request late is late in truth (decision 302): that wait is its lateness.
  const ttft = d.ttftFromWriteMs ?? d.ttftMs;
  return {
    probeSpeedErrorPct: measured.tps !== null && d.tps ? ((measured.tps - d.tps) / d.tps) * 100 : null,
    probeTtftErrorMs: measured.ttftMs !== null && ttft !== null ? measured.ttftMs - ttft : null,
    serverSpeedLatenessPct: d.tps ? ((d.tps - d.configuredTps) / d.configuredTps) * 100 : null,
    serverTtftLatenessMs: ttft !== null ? ttft - d.configuredTtftMs : null,
  };
}

/** Medians of the split over a window's calibration measurements (see {@link summarizeCalibrationSplit}). */
export interface CalibrationSplitSummary {
  /** measurements with a delivery report */
  n: number;
  /** of them rankable (the probe's timing vouched for) */
  rankable: number;
  /** medians over the rankable ones: the probe's own error (measured vs delivered) */
  probeSpeedErrorPct: number | null;
  probeTtftErrorMs: number | null;
  /** the worst probe speed error among the rankable ones, % (signed) */
  worstRankedProbeSpeedErrorPct: number | null;
  /** medians over all with a report: the server's lateness (delivered vs configured) */
  serverSpeedLatenessPct: number | null;
  serverTtftLatenessMs: number | null;
}

/**
 * Summarises calibration measurements into the two figures, apart: probe error over rankable
 * measurements (an unrankable one is not a published figure), server lateness over every measured
 * stream (it is the server's record either way). Medians are lib/stats percentile(…, 50), the one
 * definition every surface uses. Pure.
 */
export function summarizeCalibrationSplit(
  rows: readonly { tps: number | null; ttftMs: number | null; rankable: boolean; delivered: DeliveredEvidence | null | undefined }[],
  median: (values: number[]) => number,
): CalibrationSplitSummary {
  const withReport = rows.filter((r) => r.delivered);
  const splits = withReport.map((r) => ({ rankable: r.rankable, ...splitCalibrationError(r, r.delivered!) }));
  const ranked = splits.filter((s) => s.rankable);
  const med = (xs: (number | null)[]) => {
    const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
    return v.length ? median(v) : null;
  };
  const rankedSpeed = ranked.map((s) => s.probeSpeedErrorPct).filter((x): x is number => x !== null);
  return {
    n: withReport.length,
    rankable: ranked.length,
    probeSpeedErrorPct: med(ranked.map((s) => s.probeSpeedErrorPct)),
    probeTtftErrorMs: med(ranked.map((s) => s.probeTtftErrorMs)),
    worstRankedProbeSpeedErrorPct: rankedSpeed.length ? rankedSpeed.reduce((w, x) => (Math.abs(x) > Math.abs(w) ? x : w), 0) : null,
    serverSpeedLatenessPct: med(splits.map((s) => s.serverSpeedLatenessPct)),
    serverTtftLatenessMs: med(splits.map((s) => s.serverTtftLatenessMs)),
  };
}
