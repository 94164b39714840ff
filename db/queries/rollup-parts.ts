/**
 * Rollup rows → window parts (lib/stats/window-stats WindowPart): the one place that reads the
 * stored JSON of a rollup bucket (sketches with their version, error kinds, not-rankable counts), used
 * by the leaderboard window and the history series alike.
 */
import { packSketchJson, type PackedSketch, type SketchJson } from '@/lib/stats/sketch';
import { WINDOW_METRICS, type WindowMetric, type WindowPart } from '@/lib/stats/window-stats';

/** The stored columns of one rollup bucket that a window part needs. */
export interface RollupPartRow {
  count: number;
  successes: number;
  errorKinds: Record<string, number>;
  sketches: Record<string, Record<string, number>>;
  /** measurement_rollups.excluded: the bucket's not-rankable counts */
  notRankable: { total: number; byReason: Record<string, number> } | null;
}

/**
 * One rollup bucket as a mergeable window part. Sketches are read with the version stored in
 * them (`_.v`; 1 when absent), so rows written before the current bucket function still merge
 * correctly (re-keyed, at their old accuracy).
 */
export function toWindowPart(r: RollupPartRow): WindowPart {
  const meta = r.sketches._ as { lastMeasuredAtMs?: number; v?: number; fidelityChecks?: number; fidelityPassed?: number } | undefined;
  const version = typeof meta?.v === 'number' ? Number(meta.v) : 1;
  const sketches: Partial<Record<WindowMetric, PackedSketch>> = {};
  for (const m of WINDOW_METRICS) if (r.sketches[m]) sketches[m] = packSketchJson(r.sketches[m] as SketchJson, version);
  return {
    count: r.count,
    successes: r.successes,
    errorKinds: Object.entries(r.errorKinds ?? {}),
    lastMeasuredAtMs: typeof meta?.lastMeasuredAtMs === 'number' ? Number(meta.lastMeasuredAtMs) : null,
    sketches,
    notRankableTotal: Number(r.notRankable?.total ?? 0),
    notRankableByReason: Object.entries(r.notRankable?.byReason ?? {}),
    // judged fidelity checks of the bucket (stored beside the sketch metadata; absent before issue 14)
    fidelityChecks: Number(meta?.fidelityChecks ?? 0),
    fidelityPassed: Number(meta?.fidelityPassed ?? 0),
  };
}
