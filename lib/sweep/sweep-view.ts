/**
 * The published view of a sweep: stored rows → the API/page shape (ISO times, per-GPU aggregate,
 * the sweep's own Pareto frontier). One function, used by the API routes and the pages, so every
 * surface shows the same numbers.
 */
import { paretoFrontier, perGpu } from './pareto';
import type { SweepDetailView, SweepLevelView } from './sweep-schemas';
import type { SweepLevelFigures } from './summarize-level';

/** What a sweep was asked to do (the stored request columns). */
export interface SweepPlan {
  concurrencyLevels: number[];
  durationMs: number;
  warmUpMs: number;
  maxOutputTokens: number;
  objectiveTtftMs: number;
  objectiveTpotMs: number;
  minSuccessRate: number;
}

/** A stored sweep (db/queries/sweeps sweep columns). */
export interface StoredSweep extends SweepPlan {
  id: number;
  endpointId: number;
  endpointSlug: string;
  provider: string;
  model: string;
  status: SweepDetailView['sweep']['status'];
  requestedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  gpuCount: number | null;
  stopReason: string | null;
  stoppedAtConcurrency: number | null;
  currentConcurrency: number | null;
  streamsDone: number;
}

/** A stored level (db/queries/sweeps level columns). */
export interface StoredSweepLevel extends SweepLevelFigures {
  sweepId: number;
  levelIndex: number;
  concurrency: number;
  requests: number;
  successes: number;
  errorKinds: Record<string, number>;
  windowStartedAt: Date;
  windowDurationMs: number;
  streams: { warmup: number; measured: number; tail: number };
  eventLoopDelayP99Ms: number;
  valid: boolean;
  stopReason: string | null;
}

/** Builds the published view of one sweep from its row and its levels (any order; only its own are used). */
export function buildSweepDetail(sweep: StoredSweep, levels: readonly StoredSweepLevel[]): SweepDetailView {
  const own = levels.filter((l) => l.sweepId === sweep.id).sort((a, b) => a.levelIndex - b.levelIndex);
  const views: SweepLevelView[] = own.map((l) => ({
    levelIndex: l.levelIndex,
    concurrency: l.concurrency,
    requests: l.requests,
    successes: l.successes,
    errorKinds: l.errorKinds as SweepLevelView['errorKinds'],
    outputTokensPerSecond: l.outputTokensPerSecond,
    outputTokensPerSecondPerUser: l.outputTokensPerSecond, // alias (decision 280)
    ttftMs: l.ttftMs,
    tpotMs: l.tpotMs,
    aggregateOutputTokensPerSecond: l.aggregateOutputTokensPerSecond,
    aggregateOutputTokensPerSecondPerGpu: perGpu(l.aggregateOutputTokensPerSecond, sweep.gpuCount),
    completedRequestsPerSecond: l.completedRequestsPerSecond,
    goodputRequestsPerSecond: l.goodputRequestsPerSecond,
    windowStartedAt: l.windowStartedAt.toISOString(),
    windowDurationMs: l.windowDurationMs,
    streams: l.streams,
    eventLoopDelayP99Ms: l.eventLoopDelayP99Ms,
    valid: l.valid,
    stopReason: l.stopReason,
  }));
  const plotted = views.filter((l) => l.outputTokensPerSecond !== null);
  const frontier = paretoFrontier(plotted.map((l) => ({ aggregate: l.aggregateOutputTokensPerSecond, perUser: l.outputTokensPerSecond!.p50 }))).map(
    (i) => plotted[i]!.levelIndex,
  );
  return {
    sweep: {
      id: sweep.id,
      endpointId: sweep.endpointId,
      endpointSlug: sweep.endpointSlug,
      provider: sweep.provider,
      model: sweep.model,
      status: sweep.status,
      requestedAt: sweep.requestedAt.toISOString(),
      startedAt: sweep.startedAt?.toISOString() ?? null,
      finishedAt: sweep.finishedAt?.toISOString() ?? null,
      concurrencyLevels: sweep.concurrencyLevels,
      durationMs: sweep.durationMs,
      warmUpMs: sweep.warmUpMs,
      maxOutputTokens: sweep.maxOutputTokens,
      objective: { ttftMs: sweep.objectiveTtftMs, tpotMs: sweep.objectiveTpotMs },
      minSuccessRate: sweep.minSuccessRate,
      gpuCount: sweep.gpuCount,
      stopReason: sweep.stopReason,
      stoppedAtConcurrency: sweep.stoppedAtConcurrency,
      currentConcurrency: sweep.currentConcurrency,
      streamsDone: sweep.streamsDone,
    },
    levels: views,
    frontier,
  };
}

/**
 * The levels a sweep request may run: the requested ones (or the defaults) checked against the
 * endpoint's consented limits (highest concurrency, most levels; lib/sweep/sweep-consent).
 * Returns the levels or the reason they are refused (names the field). Defaults above the limit
 * are left out; of the rest, the highest `maxLevels` are kept.
 */
export function planSweepLevels(
  requested: readonly number[] | undefined,
  defaults: readonly number[],
  maxConcurrency: number,
  maxLevels: number = Number.POSITIVE_INFINITY,
): { ok: true; levels: number[] } | { ok: false; message: string } {
  if (requested) {
    const over = requested.find((n) => n > maxConcurrency);
    if (over !== undefined) return { ok: false, message: `concurrency: ${over} is above this endpoint's limit of ${maxConcurrency}` };
    if (requested.length > maxLevels)
      return { ok: false, message: `concurrency: ${requested.length} levels are more than this endpoint's limit of ${maxLevels}` };
    return { ok: true, levels: [...requested] };
  }
  const levels = defaults.filter((n) => n <= maxConcurrency);
  const kept = levels.length > maxLevels ? levels.slice(levels.length - maxLevels) : levels;
  return { ok: true, levels: kept.length ? kept : [Math.min(maxConcurrency, defaults[0] ?? 1)] };
}
