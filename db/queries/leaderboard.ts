/**
 * Leaderboard window statistics, read from rollups so the cost does not grow with history.
 *
 * A window of W hours ending at `asOf` covers the W whole UTC hours before asOf's hour plus asOf's
 * own hour up to asOf: [floorHour(asOf) − W h, asOf]. The whole hours come from rollups (daily
 * buckets for whole UTC days inside the range, hourly buckets for the rest: at most 46 hourly + W/24
 * daily buckets per endpoint and region), and the partial current hour from raw measurements (the
 * "raw tail", at most one hour of rows). Counts, successes, error kinds and samples are exact;
 * percentiles come from merging the buckets' log-bucket sketches (lib/stats/sketch: each within
 * 1 % of the exact type-7 percentile of the same raw values). `listLeaderboardRowsFromRaw` is the
 * raw reference implementation the tests compare against.
 *
 * Rollup buckets that can no longer change (ended ≥ 10 minutes ago, so the per-minute rollup job
 * has folded in every late probe) are kept in a per-process cache for 5 minutes, so a busy server
 * reads each sealed bucket from Postgres about once per 5 minutes instead of once per request.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, measurementRollups, models, providers, workloads } from '../schema';
import {
  SketchAccumulator,
  createSketch,
  addToSketch,
  packSketchJson,
  sketchSummary,
  type PackedSketch,
  type Sketch,
  type SketchJson,
} from '@/lib/stats/sketch';
import { percentiles as exactPercentiles } from '@/lib/stats/percentiles';

/** P5/P25/P50/P75/P95 of one metric (unit as the metric's name says), or null without samples. */
export type Percentiles = { p5: number; p25: number; p50: number; p75: number; p95: number } | null;

/** An endpoint's public identity and declared metadata as shown on the leaderboard. */
export interface LeaderboardEndpoint {
  id: number;
  slug: string;
  provider: string;
  providerSlug: string;
  model: string;
  modelSlug: string;
  kind: 'provider' | 'calibration';
  status: string;
  hardware: string | null;
  engine: string | null;
  precision: string | null;
  speculativeDecoding: string | null;
  deploymentKind: string | null;
  region: string | null;
  calibrationTps: number | null;
  calibrationTtftMs: number | null;
}

/** One endpoint's figures over a window, before ranking. */
export interface LeaderboardRow {
  endpoint: LeaderboardEndpoint;
  /** probes in the window (success + failure) */
  n: number;
  successes: number;
  /** successful, valid samples behind the output-speed percentiles */
  samples: number;
  outputTokensPerSecond: Percentiles;
  ttftMs: Percentiles;
  ttfatMs: Percentiles;
  e2eMs: Percentiles;
  /** merged sketch of output speed (tokens/s) in the window, for the median's confidence interval */
  speedSketch: Sketch;
  errorKinds: Record<string, number>;
  lastMeasuredAt: string | null;
}

export interface LeaderboardParams {
  modelSlug: string;
  workloadSlug: string;
  /** window end (the board "as of" this instant) */
  asOf: Date;
  windowHours: number;
  /** token basis for output speed: provider-reported counts or o200k-normalised */
  basis: 'reported' | 'o200k';
  /** restrict to one worker region; null = all */
  region: string | null;
}

const HOUR = 3600_000;
const DAY = 86400_000;
const SEAL_AFTER_MS = 10 * 60_000;
const CACHE_TTL_MS = 5 * 60_000;
const CACHE_MAX_ENTRIES = 20_000;
const CATALOG_TTL_MS = 15_000;

/** The part of the window read from rollups and from raw measurements. */
export interface WindowPlan {
  /** first instant covered: floorHour(asOf) − W h */
  start: Date;
  /** asOf */
  end: Date;
  hourBuckets: Date[];
  dayBuckets: Date[];
  /** raw tail: measured_at in [rawFrom, end] */
  rawFrom: Date;
}

/**
 * Splits a window into daily buckets (whole UTC days), hourly buckets (the rest of the whole
 * hours) and the raw tail (asOf's own hour up to asOf). Pure.
 */
export function planWindow(asOf: Date, windowHours: number): WindowPlan {
  const tail = Math.floor(asOf.getTime() / HOUR) * HOUR;
  const start = tail - windowHours * HOUR;
  const firstDay = Math.ceil(start / DAY) * DAY;
  const lastDay = Math.floor(tail / DAY) * DAY;
  const hourBuckets: Date[] = [];
  const dayBuckets: Date[] = [];
  if (firstDay < lastDay) {
    for (let t = start; t < firstDay; t += HOUR) hourBuckets.push(new Date(t));
    for (let t = firstDay; t < lastDay; t += DAY) dayBuckets.push(new Date(t));
    for (let t = lastDay; t < tail; t += HOUR) hourBuckets.push(new Date(t));
  } else {
    for (let t = start; t < tail; t += HOUR) hourBuckets.push(new Date(t));
  }
  return { start: new Date(start), end: asOf, hourBuckets, dayBuckets, rawFrom: new Date(tail) };
}

// ---------------------------------------------------------------------------------------------
// Per-process caches (keyed by database handle so test databases never share entries).

interface CachedRollup {
  endpointId: number;
  region: string;
  count: number;
  successes: number;
  errorKinds: Record<string, number>;
  lastMeasuredAtMs: number | null;
  sketches: Partial<Record<string, PackedSketch>>;
}
interface CacheEntry {
  rows: CachedRollup[];
  expires: number;
}
interface DbCaches {
  rollups: Map<string, CacheEntry>;
  catalog: Map<string, { value: unknown; expires: number }>;
}
const caches = new WeakMap<Db, DbCaches>();
function cachesOf(db: Db): DbCaches {
  let c = caches.get(db);
  if (!c) {
    c = { rollups: new Map(), catalog: new Map() };
    caches.set(db, c);
  }
  return c;
}

/** Drops this process's cached rollup buckets and catalog of `db` (tests, or after a rebuild). */
export function clearLeaderboardCache(db: Db): void {
  caches.delete(db);
}

async function cachedCatalog<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
  const c = cachesOf(db).catalog;
  const hit = c.get(key);
  const now = Date.now();
  if (hit && hit.expires > now) return hit.value as T;
  const value = await load();
  c.set(key, { value, expires: now + CATALOG_TTL_MS });
  return value;
}

/** Listed endpoints of a model (active, inactive, paused) with declared metadata, by id. */
export async function listLeaderboardEndpoints(db: Db, modelSlug: string): Promise<LeaderboardEndpoint[]> {
  const rows = await db
    .select({
      id: endpoints.id,
      slug: endpoints.slug,
      provider: providers.name,
      providerSlug: providers.slug,
      model: models.name,
      modelSlug: models.slug,
      kind: providers.kind,
      status: endpoints.status,
      hardware: endpoints.hardware,
      engine: endpoints.engine,
      precision: endpoints.precision,
      speculativeDecoding: endpoints.speculativeDecoding,
      deploymentKind: endpoints.deploymentKind,
      region: endpoints.region,
      calibrationTps: endpoints.calibrationTps,
      calibrationTtftMs: endpoints.calibrationTtftMs,
    })
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(and(eq(models.slug, modelSlug), inArray(endpoints.status, ['active', 'inactive', 'paused'] as const)))
    .orderBy(asc(endpoints.id));
  return rows;
}

async function getWorkloadId(db: Db, slug: string): Promise<number | null> {
  const rows = await db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, slug)).limit(1);
  return rows[0]?.id ?? null;
}

const SPEED_METRIC = { reported: 'outputTokensPerSecond', o200k: 'outputTokensPerSecondO200k' } as const;
const SPEED_COLUMN = { reported: 'output_tokens_per_second', o200k: 'output_tokens_per_second_o200k' } as const;
const METRICS = ['outputTokensPerSecond', 'outputTokensPerSecondO200k', 'ttftMs', 'ttfatMs', 'e2eMs'] as const;

function toCached(r: { endpointId: number; workerRegion: string; count: number; successes: number; errorKinds: Record<string, number>; sketches: Record<string, Record<string, number>> }): CachedRollup {
  const sketches: Partial<Record<string, PackedSketch>> = {};
  for (const m of METRICS) if (r.sketches[m]) sketches[m] = packSketchJson(r.sketches[m] as SketchJson);
  const meta = r.sketches._ as { lastMeasuredAtMs?: number } | undefined;
  return {
    endpointId: r.endpointId,
    region: r.workerRegion,
    count: r.count,
    successes: r.successes,
    errorKinds: r.errorKinds ?? {},
    lastMeasuredAtMs: typeof meta?.lastMeasuredAtMs === 'number' ? meta.lastMeasuredAtMs : null,
    sketches,
  };
}

/**
 * Rollup rows (all endpoints and regions) of one workload for the given bucket starts, from the
 * per-process cache when sealed, else from Postgres in one query.
 */
async function loadRollupBuckets(db: Db, granularity: 'hour' | 'day', workloadId: number, starts: Date[], wallNow: number): Promise<CachedRollup[][]> {
  const cache = cachesOf(db).rollups;
  const size = granularity === 'hour' ? HOUR : DAY;
  const out: CachedRollup[][] = new Array(starts.length);
  const missing: number[] = [];
  starts.forEach((s, i) => {
    const hit = cache.get(`${granularity}|${workloadId}|${s.getTime()}`);
    if (hit && hit.expires > wallNow) out[i] = hit.rows;
    else missing.push(i);
  });
  if (missing.length === 0) return out;
  const rows = await db
    .select({
      bucketStart: measurementRollups.bucketStart,
      endpointId: measurementRollups.endpointId,
      workerRegion: measurementRollups.workerRegion,
      count: measurementRollups.count,
      successes: measurementRollups.successes,
      errorKinds: measurementRollups.errorKinds,
      sketches: measurementRollups.sketches,
    })
    .from(measurementRollups)
    .where(
      and(
        eq(measurementRollups.granularity, granularity),
        eq(measurementRollups.workloadId, workloadId),
        inArray(
          measurementRollups.bucketStart,
          missing.map((i) => starts[i]!),
        ),
      ),
    );
  const byStart = new Map<number, CachedRollup[]>();
  for (const r of rows) {
    const k = r.bucketStart.getTime();
    const list = byStart.get(k) ?? [];
    list.push(toCached(r));
    byStart.set(k, list);
  }
  if (cache.size > CACHE_MAX_ENTRIES) cache.clear();
  for (const i of missing) {
    const s = starts[i]!;
    const list = byStart.get(s.getTime()) ?? [];
    out[i] = list;
    if (s.getTime() + size + SEAL_AFTER_MS <= wallNow) cache.set(`${granularity}|${workloadId}|${s.getTime()}`, { rows: list, expires: wallNow + CACHE_TTL_MS });
  }
  return out;
}

interface RawTailRow {
  endpoint_id: number;
  worker_region: string;
  outcome: string;
  valid: boolean;
  error_kind: string | null;
  at_ms: number;
  speed: number | null;
  ttft_ms: number | null;
  ttfat_ms: number | null;
  e2e_ms: number | null;
}

async function loadRawTail(db: Db, p: { endpointIds: number[]; workloadId: number; from: Date; to: Date; region: string | null; basis: 'reported' | 'o200k' }): Promise<RawTailRow[]> {
  if (p.endpointIds.length === 0) return [];
  const regionFilter = p.region ? sql`and m.worker_region = ${p.region}` : sql``;
  return (await db.execute(sql`
    select m.endpoint_id, m.worker_region, m.outcome, m.valid, m.error_kind,
           (extract(epoch from m.measured_at) * 1000)::float8 as at_ms,
           m.${sql.raw(SPEED_COLUMN[p.basis])} as speed, m.ttft_ms, m.ttfat_ms, m.e2e_ms
    from measurements m
    where m.endpoint_id = any(${`{${p.endpointIds.join(',')}}`}::int[]) and m.workload_id = ${p.workloadId}
      and m.measured_at >= ${p.from.toISOString()}::timestamptz and m.measured_at <= ${p.to.toISOString()}::timestamptz ${regionFilter}
  `)) as unknown as RawTailRow[];
}

/**
 * Per-endpoint statistics for one model and workload over the window described in the module doc,
 * from rollups plus the raw tail. Every listed endpoint of the model appears (n = 0 without
 * probes). `wallNow` (default Date.now()) only decides which buckets may be cached.
 */
export async function listLeaderboardRows(db: Db, p: LeaderboardParams, wallNow = Date.now()): Promise<LeaderboardRow[]> {
  const [eps, workloadId] = await Promise.all([
    cachedCatalog(db, `endpoints|${p.modelSlug}`, () => listLeaderboardEndpoints(db, p.modelSlug)),
    cachedCatalog(db, `workload|${p.workloadSlug}`, () => getWorkloadId(db, p.workloadSlug)),
  ]);
  const plan = planWindow(p.asOf, p.windowHours);
  const speedMetric = SPEED_METRIC[p.basis];
  const empty = () => ({ n: 0, successes: 0, errorKinds: {} as Record<string, number>, lastMs: null as number | null, parts: [] as CachedRollup[], raw: [] as RawTailRow[] });
  const acc = new Map(eps.map((e) => [e.id, empty()]));
  if (workloadId !== null && eps.length > 0) {
    const [hours, days, raw] = await Promise.all([
      loadRollupBuckets(db, 'hour', workloadId, plan.hourBuckets, wallNow),
      loadRollupBuckets(db, 'day', workloadId, plan.dayBuckets, wallNow),
      loadRawTail(db, { endpointIds: eps.map((e) => e.id), workloadId, from: plan.rawFrom, to: plan.end, region: p.region, basis: p.basis }),
    ]);
    for (const bucket of [...hours, ...days]) {
      for (const r of bucket) {
        const a = acc.get(r.endpointId);
        if (!a || (p.region && r.region !== p.region)) continue;
        a.n += r.count;
        a.successes += r.successes;
        for (const [k, v] of Object.entries(r.errorKinds)) a.errorKinds[k] = (a.errorKinds[k] ?? 0) + v;
        if (r.lastMeasuredAtMs !== null && (a.lastMs === null || r.lastMeasuredAtMs > a.lastMs)) a.lastMs = r.lastMeasuredAtMs;
        a.parts.push(r);
      }
    }
    for (const r of raw) {
      const a = acc.get(Number(r.endpoint_id));
      if (!a) continue;
      a.n += 1;
      if (r.outcome === 'success') a.successes += 1;
      if (r.error_kind) a.errorKinds[r.error_kind] = (a.errorKinds[r.error_kind] ?? 0) + 1;
      if (a.lastMs === null || r.at_ms > a.lastMs) a.lastMs = r.at_ms;
      a.raw.push(r);
    }
  }
  const merger = new SketchAccumulator();
  const merge = (a: ReturnType<typeof empty>, metric: string, rawValue: (r: RawTailRow) => number | null): Sketch => {
    for (const part of a.parts) {
      const s = part.sketches[metric];
      if (s) merger.addBins(s.keys, s.counts, s.zeros);
    }
    for (const r of a.raw) {
      const v = rawValue(r);
      if (r.outcome === 'success' && r.valid && v !== null) merger.addValue(Number(v));
    }
    return merger.drain();
  };
  return eps.map((endpoint) => {
    const a = acc.get(endpoint.id)!;
    const speedSketch = merge(a, speedMetric, (r) => r.speed);
    return {
      endpoint,
      n: a.n,
      successes: a.successes,
      samples: speedSketch.total,
      outputTokensPerSecond: sketchSummary(speedSketch),
      ttftMs: sketchSummary(merge(a, 'ttftMs', (r) => r.ttft_ms)),
      ttfatMs: sketchSummary(merge(a, 'ttfatMs', (r) => r.ttfat_ms)),
      e2eMs: sketchSummary(merge(a, 'e2eMs', (r) => r.e2e_ms)),
      speedSketch,
      errorKinds: sortKeys(a.errorKinds),
      lastMeasuredAt: a.lastMs === null ? null : new Date(a.lastMs).toISOString(),
    };
  });
}

function sortKeys(o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Reference implementation over raw measurements only (same window, same shape): exact type-7
 * percentiles and a sketch built from every raw speed. Its cost grows with the window's raw rows;
 * the tests use it to prove the rollup path's answers (exact counts, percentiles within 1 %).
 */
export async function listLeaderboardRowsFromRaw(db: Db, p: LeaderboardParams): Promise<LeaderboardRow[]> {
  const eps = await listLeaderboardEndpoints(db, p.modelSlug);
  const workloadId = await getWorkloadId(db, p.workloadSlug);
  const plan = planWindow(p.asOf, p.windowHours);
  const raw =
    workloadId === null
      ? []
      : await loadRawTail(db, { endpointIds: eps.map((e) => e.id), workloadId, from: plan.start, to: plan.end, region: p.region, basis: p.basis });
  return eps.map((endpoint) => {
    const rows = raw.filter((r) => Number(r.endpoint_id) === endpoint.id);
    const ok = rows.filter((r) => r.outcome === 'success' && r.valid);
    const values = (f: (r: RawTailRow) => number | null) => ok.map(f).filter((v): v is number => v !== null).map(Number);
    const pct = (xs: number[]): Percentiles => {
      if (xs.length === 0) return null;
      const [p5, p25, p50, p75, p95] = exactPercentiles(xs, [5, 25, 50, 75, 95]) as [number, number, number, number, number];
      return { p5, p25, p50, p75, p95 };
    };
    const speeds = values((r) => r.speed);
    const speedSketch = createSketch();
    for (const v of speeds) addToSketch(speedSketch, v);
    const errorKinds: Record<string, number> = {};
    for (const r of rows) if (r.error_kind) errorKinds[r.error_kind] = (errorKinds[r.error_kind] ?? 0) + 1;
    const last = rows.reduce<number | null>((m, r) => (m === null || r.at_ms > m ? r.at_ms : m), null);
    return {
      endpoint,
      n: rows.length,
      successes: rows.filter((r) => r.outcome === 'success').length,
      samples: speeds.length,
      outputTokensPerSecond: pct(speeds),
      ttftMs: pct(values((r) => r.ttft_ms)),
      ttfatMs: pct(values((r) => r.ttfat_ms)),
      e2eMs: pct(values((r) => r.e2e_ms)),
      speedSketch,
      errorKinds: sortKeys(errorKinds),
      lastMeasuredAt: last === null ? null : new Date(last).toISOString(),
    };
  });
}
