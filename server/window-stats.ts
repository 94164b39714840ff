/**
 * Window statistics of the database: loads a window's parts (window partials and the raw edge,
 * or on the fallback rollup buckets and the raw tail; db/queries) and computes every endpoint's
 * figures with the engine (lib/stats/window-stats). Every surface (leaderboard JSON and CSV,
 * snapshots, history, endpoint and compare pages, embeds, OG images) reads window figures through
 * {@link listWindowStats} or the leaderboard answer built on it (decision 070).
 *
 * No cache here (decision 215): an answer is cached once, whole, by the answer cache
 * (./answer-cache) keyed by the data version; this module always reads what is stored.
 * Cold work (decoding and merging many sketches on the rollup fallback) yields to the event loop
 * in slices so it never stalls the process's other requests (decision 124).
 */
import type { Db } from '@/db/client';
import {
  getWorkloadId,
  listLeaderboardEndpoints,
  listRawWindowRows,
  listRollupBuckets,
  type LeaderboardEndpoint,
  type RawWindowRow,
} from '@/db/queries/leaderboard';
import { toWindowPart } from '@/db/queries/rollup-parts';
import { listWindowRegions } from '@/db/queries/operations';
import { getPartialCoverage, listPartialBodies, type PartialCoverage } from '@/db/queries/window-partials';
import { ALL_REGIONS, DecodeArena, decodePartial, FINEST_PARTIAL_MINUTES, planPartials } from '@/lib/stats/window-partials';
import { sketchOf, toSortedSketch } from '@/lib/stats/sketch';
import { summariseFidelity } from '@/lib/fidelity/fidelity-summary';
import {
  RAW_SKIP,
  exactWindowPercentiles,
  medianInterval,
  mergeWindowParts,
  planWindow,
  summarizeWindow,
  summariseCacheHits,
  type RawRows,
  type SpeedBasis,
  type WindowPart,
  type WindowPlan,
  type WindowStats,
} from '@/lib/stats/window-stats';

export type { LeaderboardEndpoint } from '@/db/queries/leaderboard';

/** One endpoint's figures over a window, before ranking. */
export type LeaderboardRow = WindowStats & { endpoint: LeaderboardEndpoint };

/** The window asked for. */
export interface LeaderboardParams {
  modelSlug: string;
  workloadSlug: string;
  /** window end (the board "as of" this instant) */
  asOf: Date;
  windowHours: number;
  /** token basis for output speed: provider-reported counts or o200k-normalised */
  basis: SpeedBasis;
  /** restrict to one worker region; null = all */
  region: string | null;
}

const HOUR = 3600_000;

/** One bucket of one workload: per endpoint, all regions merged and each region. */
type BucketEntry = Map<number, { all: WindowPart; regions: Map<string, WindowPart> }>;

/**
 * Longest synchronous stretch of window work (ms) before it yields to the event loop, so a cold
 * window (many sketches to decode and merge) never stalls the web's other requests (decision 124).
 * The hot path (everything cached and merged) stays far below it and never yields.
 */
const SLICE_MS = 4;
interface Slicer {
  /** true once SLICE_MS has passed since the slice started */
  due(): boolean;
  /** yields (setImmediate) and starts a new slice */
  yield(): Promise<void>;
}
function createSlicer(): Slicer {
  let start = performance.now();
  return {
    due: () => performance.now() - start >= SLICE_MS,
    yield: () =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          start = performance.now();
          resolve();
        }),
      ),
  };
}

/** Groups parts into a BucketEntry (per endpoint: all regions merged + each region), yielding between endpoints when the slice is used up. */
async function toEntrySliced(rows: Array<{ endpointId: number; region: string; part: WindowPart }>, s: Slicer): Promise<BucketEntry> {
  const byEp = new Map<number, Map<string, WindowPart>>();
  for (const r of rows) {
    const m = byEp.get(r.endpointId) ?? new Map<string, WindowPart>();
    m.set(r.region, r.part);
    byEp.set(r.endpointId, m);
  }
  const entry: BucketEntry = new Map();
  for (const [id, regions] of byEp) {
    if (s.due()) await s.yield();
    entry.set(id, { all: mergeWindowParts([...regions.values()]), regions });
  }
  return entry;
}

/** Merges several bucket entries (e.g. 6 hours into a block), region by region, in slices. */
async function mergeEntries(entries: BucketEntry[]): Promise<BucketEntry> {
  const s = createSlicer();
  const groups = new Map<string, { endpointId: number; region: string; parts: WindowPart[] }>();
  for (const e of entries) {
    for (const [id, v] of e) {
      for (const [region, part] of v.regions) {
        const k = `${id}|${region}`;
        const g = groups.get(k) ?? { endpointId: id, region, parts: [] };
        g.parts.push(part);
        groups.set(k, g);
      }
    }
  }
  const merged: Array<{ endpointId: number; region: string; part: WindowPart }> = [];
  for (const g of groups.values()) {
    if (s.due()) await s.yield();
    merged.push({ endpointId: g.endpointId, region: g.region, part: mergeWindowParts(g.parts) });
  }
  return toEntrySliced(merged, s);
}

/** Rollup buckets of one workload for the given starts, in one query, decoded in slices. */
async function loadRollupBuckets(db: Db, granularity: 'hour' | 'day', workloadId: number, starts: Date[]): Promise<BucketEntry[]> {
  if (starts.length === 0) return [];
  const rows = await listRollupBuckets(db, { granularity, workloadId, starts });
  // Decoding and merging sketches is the costly part of a cold window: done in slices.
  const s = createSlicer();
  const byStart = new Map<number, Array<{ endpointId: number; region: string; part: WindowPart }>>();
  for (const r of rows) {
    if (s.due()) await s.yield();
    const list = byStart.get(r.bucketStart.getTime()) ?? [];
    list.push({ endpointId: r.endpointId, region: r.workerRegion, part: toWindowPart(r) });
    byStart.set(r.bucketStart.getTime(), list);
  }
  const out: BucketEntry[] = [];
  for (const t of starts) out.push(await toEntrySliced(byStart.get(t.getTime()) ?? [], s));
  return out;
}

/** 6-hour blocks merged from their hourly buckets. */
async function loadBlocks(db: Db, workloadId: number, starts: Date[]): Promise<BucketEntry[]> {
  return Promise.all(
    starts.map(async (s) => {
      const hours = Array.from({ length: 6 }, (_, h) => new Date(s.getTime() + h * HOUR));
      return mergeEntries(await loadRollupBuckets(db, 'hour', workloadId, hours));
    }),
  );
}

/**
 * A run of consecutive sealed parts merged once: per endpoint, all regions merged (`all`); the
 * source buckets are kept for the rare per-region request. A 72 h board then merges at most three
 * parts per endpoint (leading hours, whole days, trailing hours) instead of up to 19.
 */
interface RunEntry {
  all: Map<number, WindowPart>;
  sources: BucketEntry[];
}

async function toRun(sources: BucketEntry[]): Promise<RunEntry> {
  const s = createSlicer();
  const byEp = new Map<number, WindowPart[]>();
  for (const e of sources) {
    for (const [id, v] of e) {
      const list = byEp.get(id);
      if (list) list.push(v.all);
      else byEp.set(id, [v.all]);
    }
  }
  const all = new Map<number, WindowPart>();
  for (const [id, parts] of byEp) {
    if (s.due()) await s.yield();
    all.set(id, mergeWindowParts(parts));
  }
  return { all, sources };
}

/**
 * The hours (hour-aligned, within one UTC day or shorter) as one run: 6-hour blocks and hours,
 * merged; or the whole days of `days` as one run.
 */
async function loadRun(db: Db, workloadId: number, p: { days: Date[] } | { hours: Date[]; blocks: Date[] }): Promise<RunEntry> {
  if ('days' in p) return p.days.length === 0 ? { all: new Map(), sources: [] } : toRun(await loadRollupBuckets(db, 'day', workloadId, p.days));
  if (p.hours.length + p.blocks.length === 0) return { all: new Map(), sources: [] };
  const [hours, blocks] = await Promise.all([loadRollupBuckets(db, 'hour', workloadId, p.hours), loadBlocks(db, workloadId, p.blocks)]);
  return toRun([...hours, ...blocks]);
}

/** Column-wise raw rows (lib/stats/window-stats RawRows) from query rows (in their order). */
export function packRaw(rows: RawWindowRow[]): RawRows {
  const bins = (f: (r: RawWindowRow) => number | null) => Int32Array.from(rows, (r) => (f(r) === null ? RAW_SKIP : Number(f(r))));
  return {
    endpointId: Int32Array.from(rows, (r) => Number(r.endpoint_id)),
    region: rows.map((r) => r.worker_region),
    atMs: Float64Array.from(rows, (r) => Number(r.at_ms)),
    success: Uint8Array.from(rows, (r) => (r.outcome === 'success' ? 1 : 0)),
    errorKind: rows.map((r) => r.error_kind),
    reasons: rows.map((r) => r.not_rankable_reasons ?? []),
    bins: {
      outputTokensPerSecond: bins((r) => r.speed_bin),
      outputTokensPerSecondO200k: bins((r) => r.speed_o200k_bin),
      ttftMs: bins((r) => r.ttft_ms_bin),
      ttfatMs: bins((r) => r.ttfat_ms_bin),
      e2eMs: bins((r) => r.e2e_ms_bin),
      itlP50Ms: bins((r) => r.itl_p50_ms_bin),
      itlP95Ms: bins((r) => r.itl_p95_ms_bin),
      cachedInputTokens: bins((r) => r.cached_input_tokens_bin ?? null),
      tierObjectiveMet: bins((r) => r.tier_objective_met_bin ?? null),
      cachedInputShare: bins((r) => r.cached_input_share_bin ?? null),
    },
    fidelity: Int8Array.from(rows, (r) => (r.fidelity_passed === null || r.fidelity_passed === undefined ? -1 : r.fidelity_passed ? 1 : 0)),
  };
}

/** A window's figures per endpoint and the worker regions whose probes they hold (sorted). */
export interface WindowFigures {
  rows: LeaderboardRow[];
  regions: string[];
  /** 'partials': bounded merges of stored partials + ≤ 10 min of raw rows (decision 210); 'rollups': the fallback */
  source: 'partials' | 'rollups';
}

/**
 * Longest raw edge (ms) a window may read after its last partial: more means the partials are
 * behind (worker stopped) and the window is answered from rollups instead.
 */
const MAX_RAW_EDGE_MS = 2 * HOUR;

/**
 * Where a window is cut between partials and raw rows (decision 210): the partials of [start,
 * edge) and the raw rows of [edge, asOf], edge = the 10-minute boundary at or before both asOf
 * and the coverage's end. Null when the partials do not cover the window (before the first build
 * or the backfill, or a worker behind by more than MAX_RAW_EDGE_MS): it is answered from rollups.
 */
export function partialsCut(asOf: Date, windowHours: number, coverage: PartialCoverage | null): { plan: WindowPlan; edge: number } | null {
  const plan = planWindow(asOf, windowHours);
  const asOfMs = asOf.getTime();
  const unit = FINEST_PARTIAL_MINUTES * 60_000;
  if (!coverage || coverage.fromMs > plan.start.getTime()) return null;
  const edge = Math.max(plan.start.getTime(), Math.floor(Math.min(asOfMs, coverage.toMs) / unit) * unit);
  if (asOfMs - edge > MAX_RAW_EDGE_MS) return null;
  return { plan, edge };
}

/** Decoded sketches of the window being summarised (lib/stats/window-partials DecodeArena). */
const arena = new DecodeArena();

/**
 * The window's figures from pre-merged partials (decision 210): the buckets of planPartials over
 * [start, P) with P = the 10-minute boundary at or before both asOf and the coverage's end, merged
 * per endpoint, plus the raw rows of [P, asOf]. Null when the partials do not cover the window
 * (before the first build or the backfill, or a worker behind by more than MAX_RAW_EDGE_MS).
 */
async function loadFromPartials(db: Db, p: LeaderboardParams, coverage: PartialCoverage | null): Promise<WindowFigures | null> {
  const cut = partialsCut(p.asOf, p.windowHours, coverage);
  if (!cut) return null;
  const { plan, edge } = cut;
  const [eps, workloadId] = await Promise.all([listLeaderboardEndpoints(db, p.modelSlug), getWorkloadId(db, p.workloadSlug)]);
  if (workloadId === null || eps.length === 0) {
    return { rows: eps.map((endpoint) => ({ endpoint, ...summarizeWindow([], p.basis) })), regions: [], source: 'partials' };
  }
  const ids = eps.map((e) => e.id);
  const [bodies, rawRows] = await Promise.all([
    listPartialBodies(db, { workloadId, modelSlug: p.modelSlug, regionKey: p.region ?? ALL_REGIONS, buckets: planPartials(plan.start.getTime(), edge) }),
    listRawWindowRows(db, { endpointIds: ids, workloadId, from: new Date(edge), to: p.asOf, region: p.region }),
  ]);
  // From here to the return nothing awaits, so one arena serves every window of this process.
  arena.reset();
  const partsOf = new Map<number, WindowPart[]>(ids.map((id) => [id, []]));
  const regions = new Set<string>();
  for (const body of bodies) {
    for (const s of decodePartial(body, arena)) {
      const list = partsOf.get(s.endpointId);
      if (!list) continue; // not listed (pending, retired)
      list.push(s.part);
      for (const r of s.regions) regions.add(r);
    }
  }
  const raw = packRaw(rawRows);
  const rowsOf = new Map<number, number[]>(ids.map((id) => [id, []]));
  for (let j = 0; j < raw.atMs.length; j++) {
    rowsOf.get(raw.endpointId[j]!)?.push(j);
    regions.add(raw.region[j]!);
  }
  const rows = eps.map((endpoint): LeaderboardRow => ({ endpoint, ...summarizeWindow(partsOf.get(endpoint.id)!, p.basis, raw, rowsOf.get(endpoint.id)!) }));
  return { rows, regions: [...regions].sort(), source: 'partials' };
}

/**
 * Per-endpoint window figures for one model and workload over the window of lib/stats/window-stats
 * planWindow ([floorHour(asOf) − W h, asOf]) and the worker regions they cover: from the window
 * partials when they cover the window (a bounded number of merges whatever the row count, decision
 * 210), else from rollups plus the raw tail. Both give bit-identical figures for the same
 * measurements (sketch merges are exact). Every listed endpoint of the model appears (n = 0 without
 * probes), ordered by id.
 */
export async function loadWindowFigures(db: Db, p: LeaderboardParams): Promise<WindowFigures> {
  const coverage = await getPartialCoverage(db);
  const fromPartials = await loadFromPartials(db, p, coverage);
  if (fromPartials) return fromPartials;
  const rows = await listWindowStatsFromRollups(db, p, coverage);
  const plan = planWindow(p.asOf, p.windowHours);
  const regions = await listWindowRegions(db, {
    endpointIds: rows.map((r) => r.endpoint.id),
    workloadSlug: p.workloadSlug,
    from: plan.start,
    to: p.asOf,
    region: p.region,
  });
  return { rows, regions, source: 'rollups' };
}

/** The per-endpoint figures of {@link loadWindowFigures} (every surface's window figures). */
export async function listWindowStats(db: Db, p: LeaderboardParams): Promise<LeaderboardRow[]> {
  return (await loadWindowFigures(db, p)).rows;
}

/**
 * The fallback of {@link loadWindowFigures}: rollups plus the raw tail (also the reference the
 * partials are tested against). The rollups are read only up to the rollup job's frontier (the
 * partials' coverage end: the job builds hourly rollups and partials in one run; before its first
 * run, nowhere) and the raw tail from there (decision 301): a board read while the job is behind
 * or has not yet run counts every measurement once instead of missing the hours not rolled up.
 * `coverage` (default: read) is the coverage row the caller already holds.
 */
export async function listWindowStatsFromRollups(db: Db, p: LeaderboardParams, coverage?: PartialCoverage | null): Promise<LeaderboardRow[]> {
  const [eps, workloadId, cov] = await Promise.all([
    listLeaderboardEndpoints(db, p.modelSlug),
    getWorkloadId(db, p.workloadSlug),
    coverage === undefined ? getPartialCoverage(db) : coverage,
  ]);
  const plan = planWindow(p.asOf, p.windowHours, cov ? cov.toMs : -Infinity);
  const partsOf = new Map<number, WindowPart[]>(eps.map((e) => [e.id, []]));
  let raw: RawRows | null = null;
  if (workloadId !== null && eps.length > 0) {
    // Runs: the hours before the first whole day, the whole days, the hours after them (each one part per endpoint).
    const firstDay = plan.dayBuckets[0]?.getTime() ?? Infinity;
    const lead = { hours: plan.hourBuckets.filter((d) => d.getTime() < firstDay), blocks: plan.blockBuckets.filter((d) => d.getTime() < firstDay) };
    const trail = { hours: plan.hourBuckets.filter((d) => d.getTime() >= firstDay), blocks: plan.blockBuckets.filter((d) => d.getTime() >= firstDay) };
    const loads = [
      loadRun(db, workloadId, lead),
      loadRun(db, workloadId, { days: plan.dayBuckets }),
      loadRun(db, workloadId, trail),
      listRawWindowRows(db, { endpointIds: eps.map((e) => e.id), workloadId, from: plan.rawFrom, to: plan.end, region: p.region }).then(packRaw),
    ] as const;
    const [a, b, c, tail] = await Promise.all(loads);
    raw = tail;
    for (const run of [a, b, c]) {
      for (const [id, list] of partsOf) {
        if (!p.region) {
          const part = run.all.get(id);
          if (part) list.push(part);
          continue;
        }
        for (const entry of run.sources) {
          const part = entry.get(id)?.regions.get(p.region);
          if (part) list.push(part);
        }
      }
    }
  }
  const asOfMs = p.asOf.getTime();
  const rawRows = new Map<number, number[]>(eps.map((e) => [e.id, []]));
  if (raw) {
    for (let j = 0; j < raw.atMs.length; j++) {
      if (raw.atMs[j]! > asOfMs || (p.region && raw.region[j] !== p.region)) continue;
      rawRows.get(raw.endpointId[j]!)?.push(j);
    }
  }
  const s = createSlicer();
  const out: LeaderboardRow[] = [];
  for (const endpoint of eps) {
    if (s.due()) await s.yield();
    out.push({ endpoint, ...summarizeWindow(partsOf.get(endpoint.id)!, p.basis, raw, rawRows.get(endpoint.id)!) });
  }
  return out;
}

/**
 * Reference implementation over raw measurements only (same window, same shape): EXACT type-7
 * percentiles of the rankable values, counts by direct counting. Its cost grows with the window's
 * raw rows; tests compare the published figures against it (within 0.1 %).
 */
export async function listWindowStatsFromRaw(db: Db, p: LeaderboardParams): Promise<LeaderboardRow[]> {
  const eps = await listLeaderboardEndpoints(db, p.modelSlug);
  const workloadId = await getWorkloadId(db, p.workloadSlug);
  const plan = planWindow(p.asOf, p.windowHours);
  const raw =
    workloadId === null ? [] : await listRawWindowRows(db, { endpointIds: eps.map((e) => e.id), workloadId, from: plan.start, to: plan.end, region: p.region });
  return eps.map((endpoint): LeaderboardRow => {
    const rows = raw.filter((r) => Number(r.endpoint_id) === endpoint.id);
    // a value enters the figures exactly when Postgres gave it a bin (rankable and present)
    const values = (v: (r: RawWindowRow) => number | null, bin: (r: RawWindowRow) => number | null) =>
      rows.filter((r) => bin(r) !== null).map((r) => Number(v(r)));
    const speeds =
      p.basis === 'o200k'
        ? values(
            (r) => r.speed_o200k,
            (r) => r.speed_o200k_bin,
          )
        : values(
            (r) => r.speed,
            (r) => r.speed_bin,
          );
    const count = (pairs: Array<string | null>) => {
      const o: Record<string, number> = {};
      for (const k of pairs) if (k) o[k] = (o[k] ?? 0) + 1;
      return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
    };
    const notRankableRows = rows.filter((r) => (r.not_rankable_reasons ?? []).length > 0);
    const last = rows.reduce<number | null>((m, r) => (m === null || Number(r.at_ms) > m ? Number(r.at_ms) : m), null);
    const speed = exactWindowPercentiles(speeds);
    const speedSketch = toSortedSketch(sketchOf(speeds));
    const itlP50 = exactWindowPercentiles(
      values(
        (r) => r.itl_p50_ms,
        (r) => r.itl_p50_ms_bin,
      ),
    );
    const itlP95 = exactWindowPercentiles(
      values(
        (r) => r.itl_p95_ms,
        (r) => r.itl_p95_ms_bin,
      ),
    );
    const judged = rows.filter((r) => r.fidelity_passed !== null && r.fidelity_passed !== undefined);
    const cached = values(
      (r) => r.cached_input_tokens ?? null,
      (r) => r.cached_input_tokens_bin ?? null,
    );
    const tierJudged = values(
      (r) => r.tier_objective_met ?? null,
      (r) => r.tier_objective_met_bin ?? null,
    );
    const shares = values(
      (r) => r.cached_input_share ?? null,
      (r) => r.cached_input_share_bin ?? null,
    );
    const sharePercentiles = exactWindowPercentiles(shares);
    return {
      endpoint,
      n: rows.length,
      successes: rows.filter((r) => r.outcome === 'success').length,
      samples: speeds.length,
      outputTokensPerSecond: speed,
      ttftMs: exactWindowPercentiles(
        values(
          (r) => r.ttft_ms,
          (r) => r.ttft_ms_bin,
        ),
      ),
      ttfatMs: exactWindowPercentiles(
        values(
          (r) => r.ttfat_ms,
          (r) => r.ttfat_ms_bin,
        ),
      ),
      e2eMs: exactWindowPercentiles(
        values(
          (r) => r.e2e_ms,
          (r) => r.e2e_ms_bin,
        ),
      ),
      outputTokensPerSecondMedianCi: speed ? medianInterval(speedSketch, speed.p50) : null,
      errorKinds: count(rows.map((r) => r.error_kind)),
      lastMeasuredAt: last === null ? null : new Date(last).toISOString(),
      notRankable: { total: notRankableRows.length, byReason: count(notRankableRows.flatMap((r) => r.not_rankable_reasons)) },
      medianItlP50Ms: itlP50 && itlP95 ? itlP50.p50 : null,
      medianItlP95Ms: itlP50 && itlP95 ? itlP95.p50 : null,
      fidelity: summariseFidelity(judged.filter((r) => r.fidelity_passed).length, judged.length),
      cachedInputTokens: exactWindowPercentiles(cached),
      cacheHit: summariseCacheHits(cached.length, cached.filter((v) => v <= 0).length),
      tierObjectiveAttainment: summariseCacheHits(tierJudged.length, tierJudged.filter((v) => v <= 0).length),
      cachedInputShare: sharePercentiles ? { ...sharePercentiles, n: shares.length } : null,
    };
  });
}
