/**
 * Leaderboard window statistics, read from rollups so the cost does not grow with history.
 *
 * A window of W hours ending at `asOf` covers the W whole UTC hours before asOf's hour plus asOf's
 * own hour up to asOf: [floorHour(asOf) − W h, asOf]. The whole hours come from rollups (daily
 * buckets for whole UTC days inside the range; 6-hour blocks merged from hourly buckets, and hourly
 * buckets, for the rest: at most 10 hours + 6 blocks + W/24 days per endpoint), and the partial
 * current hour from raw measurements (the "raw tail", at most one hour of rows). Counts, successes, error kinds and samples are exact;
 * percentiles come from merging the buckets' log-bucket sketches (lib/stats/sketch: each within
 * 1 % of the exact type-7 percentile of the same raw values). `listLeaderboardRowsFromRaw` is the
 * raw reference implementation the tests compare against.
 *
 * Rollup buckets that can no longer change (ended ≥ 10 minutes ago, so the per-minute rollup job
 * has folded in every late probe) are kept in a per-process cache for 5 minutes, grouped per
 * endpoint with regions pre-merged, and whole 6-hour blocks are merged once from their hours, so a
 * busy server reads each sealed bucket from Postgres about once per 5 minutes instead of once per
 * request, and a 72 h window merges at most ~19 parts per endpoint. Sealed raw hours (for `at=`
 * answers) are cached the same way; the current hour's raw tail is always queried.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, measurementRollups, models, providers, workloads } from '../schema';
import {
  SketchAccumulator,
  createSketch,
  packSketchJson,
  sketchIndex,
  sketchOf,
  sketchSummary,
  toSortedSketch,
  type PackedSketch,
  type SketchJson,
  type SortedSketch,
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
  speedSketch: SortedSketch;
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
  /** whole hours not covered by a day or a 6-hour block */
  hourBuckets: Date[];
  /** whole UTC 6-hour blocks (00, 06, 12, 18 h) not covered by a day, each merged from its 6 hourly rollups */
  blockBuckets: Date[];
  dayBuckets: Date[];
  /** raw tail: measured_at in [rawFrom, end] */
  rawFrom: Date;
}

const BLOCK = 6 * HOUR;

/** Splits [from, to) (hour-aligned) into 6-hour blocks and leftover hours. */
function splitHours(from: number, to: number, hours: Date[], blocks: Date[]): void {
  const firstBlock = Math.ceil(from / BLOCK) * BLOCK;
  const lastBlock = Math.floor(to / BLOCK) * BLOCK;
  if (firstBlock >= lastBlock) {
    for (let t = from; t < to; t += HOUR) hours.push(new Date(t));
    return;
  }
  for (let t = from; t < firstBlock; t += HOUR) hours.push(new Date(t));
  for (let t = firstBlock; t < lastBlock; t += BLOCK) blocks.push(new Date(t));
  for (let t = lastBlock; t < to; t += HOUR) hours.push(new Date(t));
}

/**
 * Splits a window into daily buckets (whole UTC days), 6-hour blocks and hourly buckets (the rest
 * of the whole hours), and the raw tail (asOf's own hour up to asOf). Pure. A 72 h window needs at
 * most 2 × (3 blocks + 5 hours) + 3 days = 19 parts per endpoint and region.
 */
export function planWindow(asOf: Date, windowHours: number): WindowPlan {
  const tail = Math.floor(asOf.getTime() / HOUR) * HOUR;
  const start = tail - windowHours * HOUR;
  const firstDay = Math.ceil(start / DAY) * DAY;
  const lastDay = Math.floor(tail / DAY) * DAY;
  const hourBuckets: Date[] = [];
  const blockBuckets: Date[] = [];
  const dayBuckets: Date[] = [];
  if (firstDay < lastDay) {
    splitHours(start, firstDay, hourBuckets, blockBuckets);
    for (let t = firstDay; t < lastDay; t += DAY) dayBuckets.push(new Date(t));
    splitHours(lastDay, tail, hourBuckets, blockBuckets);
  } else {
    splitHours(start, tail, hourBuckets, blockBuckets);
  }
  return { start: new Date(start), end: asOf, hourBuckets, blockBuckets, dayBuckets, rawFrom: new Date(tail) };
}

// ---------------------------------------------------------------------------------------------
// Per-process caches (keyed by database handle so test databases never share entries).

const METRICS = ['outputTokensPerSecond', 'outputTokensPerSecondO200k', 'ttftMs', 'ttfatMs', 'e2eMs'] as const;
type Metric = (typeof METRICS)[number];

/** One endpoint's figures in one bucket (one region, or all regions merged). */
interface Part {
  count: number;
  successes: number;
  errorKinds: Array<[string, number]>;
  lastMeasuredAtMs: number | null;
  sketches: Partial<Record<Metric, PackedSketch>>;
}
/** One bucket of one workload: per endpoint, all regions merged and each region. */
type BucketEntry = Map<number, { all: Part; regions: Map<string, Part> }>;

interface RawHour {
  endpointId: Int32Array;
  region: string[];
  atMs: Float64Array;
  success: Uint8Array;
  errorKind: Array<string | null>;
  /** sketch bucket index per metric; RAW_SKIP when null or not a successful valid probe, RAW_ZERO for ≤ 0 */
  bins: Record<Metric, Int32Array>;
}
const RAW_SKIP = -2147483648;
const RAW_ZERO = 2147483647;
/**
 * Cached values are promises, so concurrent requests needing the same bucket share one load
 * (no thundering herd on a cold cache). Sealed entries live CACHE_TTL_MS; unsealed ones (the
 * newest buckets, still updated by the per-minute rollup job) UNSEALED_TTL_MS, which only
 * de-duplicates simultaneous requests.
 */
interface DbCaches {
  /** `value` is set once the load has settled, so hot requests read it without awaiting. */
  buckets: Map<string, { entry: Promise<BucketEntry>; value?: BucketEntry; expires: number }>;
  raw: Map<string, { hour: Promise<RawHour>; value?: RawHour; expires: number }>;
  catalog: Map<string, { value: Promise<unknown>; resolved?: { v: unknown }; expires: number }>;
}
const UNSEALED_TTL_MS = 2_000;
const caches = new WeakMap<Db, DbCaches>();
function cachesOf(db: Db): DbCaches {
  let c = caches.get(db);
  if (!c) {
    c = { buckets: new Map(), raw: new Map(), catalog: new Map() };
    caches.set(db, c);
  }
  return c;
}
const RAW_CACHE_MAX_HOURS = 2_000;

/** Drops this process's cached rollup buckets, raw hours and catalog of `db` (tests, or after a rebuild). */
export function clearLeaderboardCache(db: Db): void {
  caches.delete(db);
}

function cachedCatalog<T>(db: Db, key: string, load: () => Promise<T>, wallNow: number): T | Promise<T> {
  const c = cachesOf(db).catalog;
  const hit = c.get(key);
  if (hit && hit.expires > wallNow) return hit.resolved ? (hit.resolved.v as T) : (hit.value as Promise<T>);
  const value = load();
  const slot: { value: Promise<unknown>; resolved?: { v: unknown }; expires: number } = { value, expires: wallNow + CATALOG_TTL_MS };
  c.set(key, slot);
  value.then((v) => (slot.resolved = { v })).catch(() => c.delete(key));
  return value;
}

/** A promise with its settle functions (filled by one batched load, awaited by many requests). */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {}); // callers observe the rejection through Promise.all
  return { promise, resolve, reject };
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

const SUMMARY_LEVELS = [5, 25, 50, 75, 95] as const;
const SPEED_METRIC = { reported: 'outputTokensPerSecond', o200k: 'outputTokensPerSecondO200k' } as const;

/** Merges parts (counts, kinds, sketches) into one part. */
function mergeParts(parts: Part[]): Part {
  if (parts.length === 1) return parts[0]!;
  const kinds = new Map<string, number>();
  let count = 0;
  let successes = 0;
  let last: number | null = null;
  const sketches: Partial<Record<Metric, PackedSketch>> = {};
  for (const p of parts) {
    count += p.count;
    successes += p.successes;
    for (const [k, v] of p.errorKinds) kinds.set(k, (kinds.get(k) ?? 0) + v);
    if (p.lastMeasuredAtMs !== null && (last === null || p.lastMeasuredAtMs > last)) last = p.lastMeasuredAtMs;
  }
  for (const m of METRICS) {
    const s = createSketch();
    let any = false;
    for (const p of parts) {
      const ps = p.sketches[m];
      if (!ps) continue;
      any = true;
      for (let j = 0; j < ps.keys.length; j++) s.bins.set(ps.keys[j]!, (s.bins.get(ps.keys[j]!) ?? 0) + ps.counts[j]!);
      s.zeros += ps.zeros;
    }
    if (any) {
      const keys = Int32Array.from([...s.bins.keys()].sort((a, b) => a - b));
      sketches[m] = { keys, counts: Float64Array.from(keys, (k) => s.bins.get(k)!), zeros: s.zeros };
    }
  }
  return { count, successes, errorKinds: [...kinds.entries()], lastMeasuredAtMs: last, sketches };
}

/** Groups rows into a BucketEntry (per endpoint: all regions merged + each region). */
function toEntry(rows: Array<{ endpointId: number; region: string; part: Part }>): BucketEntry {
  const byEp = new Map<number, Map<string, Part>>();
  for (const r of rows) {
    const m = byEp.get(r.endpointId) ?? new Map<string, Part>();
    m.set(r.region, r.part);
    byEp.set(r.endpointId, m);
  }
  const entry: BucketEntry = new Map();
  for (const [id, regions] of byEp) entry.set(id, { all: mergeParts([...regions.values()]), regions });
  return entry;
}

/** Merges several bucket entries (e.g. 6 hours into a block). */
function mergeEntries(entries: BucketEntry[]): BucketEntry {
  const rows: Array<{ endpointId: number; region: string; parts: Part[] }> = [];
  const index = new Map<string, (typeof rows)[number]>();
  for (const e of entries) {
    for (const [id, v] of e) {
      for (const [region, part] of v.regions) {
        const k = `${id}|${region}`;
        let r = index.get(k);
        if (!r) {
          r = { endpointId: id, region, parts: [] };
          index.set(k, r);
          rows.push(r);
        }
        r.parts.push(part);
      }
    }
  }
  return toEntry(rows.map((r) => ({ endpointId: r.endpointId, region: r.region, part: mergeParts(r.parts) })));
}

function toPart(r: { count: number; successes: number; errorKinds: Record<string, number>; sketches: Record<string, Record<string, number>> }): Part {
  const sketches: Partial<Record<Metric, PackedSketch>> = {};
  for (const m of METRICS) if (r.sketches[m]) sketches[m] = packSketchJson(r.sketches[m] as SketchJson);
  const meta = r.sketches._ as { lastMeasuredAtMs?: number } | undefined;
  return {
    count: r.count,
    successes: r.successes,
    errorKinds: Object.entries(r.errorKinds ?? {}),
    lastMeasuredAtMs: typeof meta?.lastMeasuredAtMs === 'number' ? Number(meta.lastMeasuredAtMs) : null,
    sketches,
  };
}

/**
 * Rollup buckets of one workload (all endpoints and regions) for the given starts, from the
 * per-process cache, else from Postgres in one query for all missing starts.
 */
function loadRollupBuckets(db: Db, granularity: 'hour' | 'day', workloadId: number, starts: Date[], wallNow: number): BucketEntry[] | Promise<BucketEntry[]> {
  const cache = cachesOf(db).buckets;
  const size = granularity === 'hour' ? HOUR : DAY;
  const out: Array<BucketEntry | Promise<BucketEntry>> = [];
  let pending = false;
  const missing = new Map<number, { key: string; d: ReturnType<typeof deferred<BucketEntry>> }>();
  if (cache.size > CACHE_MAX_ENTRIES) cache.clear();
  for (const s of starts) {
    const key = `${granularity}|${workloadId}|${s.getTime()}`;
    const hit = cache.get(key);
    if (hit && hit.expires > wallNow) {
      if (hit.value) out.push(hit.value);
      else {
        out.push(hit.entry);
        pending = true;
      }
      continue;
    }
    const d = deferred<BucketEntry>();
    const sealed = s.getTime() + size + SEAL_AFTER_MS <= wallNow;
    const slot: { entry: Promise<BucketEntry>; value?: BucketEntry; expires: number } = { entry: d.promise, expires: wallNow + (sealed ? CACHE_TTL_MS : UNSEALED_TTL_MS) };
    d.promise.then((v) => (slot.value = v)).catch(() => {});
    cache.set(key, slot);
    missing.set(s.getTime(), { key, d });
    out.push(d.promise);
    pending = true;
  }
  if (!pending) return out as BucketEntry[];
  if (missing.size > 0) void fetchBuckets(db, granularity, workloadId, missing, cache);
  return Promise.all(out);
}

/** Loads the missing buckets in one query and settles their deferreds. */
async function fetchBuckets(
  db: Db,
  granularity: 'hour' | 'day',
  workloadId: number,
  missing: Map<number, { key: string; d: ReturnType<typeof deferred<BucketEntry>> }>,
  cache: DbCaches['buckets'],
): Promise<void> {
  {
    try {
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
              [...missing.keys()].map((t) => new Date(t)),
            ),
          ),
        );
      const byStart = new Map<number, Array<{ endpointId: number; region: string; part: Part }>>();
      for (const r of rows) {
        const k = r.bucketStart.getTime();
        const list = byStart.get(k) ?? [];
        list.push({ endpointId: r.endpointId, region: r.workerRegion, part: toPart(r) });
        byStart.set(k, list);
      }
      for (const [t, m] of missing) m.d.resolve(toEntry(byStart.get(t) ?? []));
    } catch (err) {
      for (const m of missing.values()) {
        cache.delete(m.key);
        m.d.reject(err);
      }
    }
  }
}

/** 6-hour blocks merged from their hourly buckets, cached like buckets. */
function loadBlocks(db: Db, workloadId: number, starts: Date[], wallNow: number): BucketEntry[] | Promise<BucketEntry[]> {
  const cache = cachesOf(db).buckets;
  let pending = false;
  const out = starts.map((s): BucketEntry | Promise<BucketEntry> => {
    const key = `block|${workloadId}|${s.getTime()}`;
    const hit = cache.get(key);
    if (hit && hit.expires > wallNow) {
      if (hit.value) return hit.value;
      pending = true;
      return hit.entry;
    }
    const hours = Array.from({ length: 6 }, (_, h) => new Date(s.getTime() + h * HOUR));
    const entry = Promise.resolve(loadRollupBuckets(db, 'hour', workloadId, hours, wallNow)).then(mergeEntries);
    const sealed = s.getTime() + BLOCK + SEAL_AFTER_MS <= wallNow;
    const slot: { entry: Promise<BucketEntry>; value?: BucketEntry; expires: number } = { entry, expires: wallNow + (sealed ? CACHE_TTL_MS : UNSEALED_TTL_MS) };
    entry.then((v) => (slot.value = v)).catch(() => cache.delete(key));
    cache.set(key, slot);
    pending = true;
    return entry;
  });
  return pending ? Promise.all(out) : (out as BucketEntry[]);
}

interface RawTailRow {
  endpoint_id: number;
  worker_region: string;
  outcome: string;
  valid: boolean;
  error_kind: string | null;
  at_ms: number;
  speed: number | null;
  speed_o200k: number | null;
  ttft_ms: number | null;
  ttfat_ms: number | null;
  e2e_ms: number | null;
}

/** Raw rows with measured_at in [from, to] (or [from, to) with `toExclusive`). */
async function queryRaw(db: Db, p: { endpointIds: number[] | null; workloadId: number; from: Date; to: Date; region: string | null; toExclusive?: boolean }): Promise<RawTailRow[]> {
  const toOp = p.toExclusive ? sql`<` : sql`<=`;
  const regionFilter = p.region ? sql`and m.worker_region = ${p.region}` : sql``;
  const endpointFilter = p.endpointIds ? sql`m.endpoint_id = any(${`{${p.endpointIds.join(',')}}`}::int[]) and` : sql``;
  return (await db.execute(sql`
    select m.endpoint_id, m.worker_region, m.outcome, m.valid, m.error_kind,
           floor(extract(epoch from m.measured_at) * 1000)::float8 as at_ms,
           m.output_tokens_per_second as speed, m.output_tokens_per_second_o200k as speed_o200k, m.ttft_ms, m.ttfat_ms, m.e2e_ms
    from measurements m
    where ${endpointFilter} m.workload_id = ${p.workloadId}
      and m.measured_at >= ${p.from.toISOString()}::timestamptz and m.measured_at ${toOp} ${p.to.toISOString()}::timestamptz ${regionFilter}
  `)) as unknown as RawTailRow[];
}

function packRaw(rows: RawTailRow[]): RawHour {
  const ok = rows.map((r) => r.outcome === 'success' && r.valid);
  const bins = (f: (r: RawTailRow) => number | null) =>
    Int32Array.from(rows, (r, j) => {
      const v = f(r);
      if (!ok[j] || v === null) return RAW_SKIP;
      const x = Number(v);
      return x <= 0 ? RAW_ZERO : sketchIndex(x);
    });
  return {
    endpointId: Int32Array.from(rows, (r) => Number(r.endpoint_id)),
    region: rows.map((r) => r.worker_region),
    atMs: Float64Array.from(rows, (r) => Number(r.at_ms)),
    success: Uint8Array.from(rows, (r) => (r.outcome === 'success' ? 1 : 0)),
    errorKind: rows.map((r) => r.error_kind),
    bins: {
      outputTokensPerSecond: bins((r) => r.speed),
      outputTokensPerSecondO200k: bins((r) => r.speed_o200k),
      ttftMs: bins((r) => r.ttft_ms),
      ttfatMs: bins((r) => r.ttfat_ms),
      e2eMs: bins((r) => r.e2e_ms),
    },
  };
}

/**
 * Raw measurements of the tail [hourStart, asOf]: a sealed hour (ended ≥ 10 min ago) is read once
 * for all endpoints and regions and kept per process; the current hour is queried each time.
 */
function loadRawTail(db: Db, p: { endpointIds: number[]; workloadId: number; from: Date; to: Date; region: string | null }, wallNow: number): RawHour | Promise<RawHour> {
  if (p.from.getTime() + HOUR + SEAL_AFTER_MS <= wallNow) {
    const cache = cachesOf(db).raw;
    const key = `${p.workloadId}|${p.from.getTime()}`;
    const hit = cache.get(key);
    if (hit && hit.expires > wallNow) return hit.value ?? hit.hour;
    const hour = queryRaw(db, { endpointIds: null, workloadId: p.workloadId, from: p.from, to: new Date(p.from.getTime() + HOUR), toExclusive: true, region: null }).then(packRaw);
    if (cache.size > RAW_CACHE_MAX_HOURS) cache.clear();
    const slot: { hour: Promise<RawHour>; value?: RawHour; expires: number } = { hour, expires: wallNow + CACHE_TTL_MS };
    cache.set(key, slot);
    hour.then((v) => (slot.value = v)).catch(() => cache.delete(key));
    return hour;
  }
  return queryRaw(db, p).then(packRaw);
}

/**
 * Per-endpoint statistics for one model and workload over the window described in the module doc,
 * from rollups plus the raw tail. Every listed endpoint of the model appears (n = 0 without
 * probes). `wallNow` (default Date.now()) only decides which buckets may be cached.
 */
export async function listLeaderboardRows(db: Db, p: LeaderboardParams, wallNow = Date.now()): Promise<LeaderboardRow[]> {
  const epsOrPromise = cachedCatalog(db, `endpoints|${p.modelSlug}`, () => listLeaderboardEndpoints(db, p.modelSlug), wallNow);
  const wlOrPromise = cachedCatalog(db, `workload|${p.workloadSlug}`, () => getWorkloadId(db, p.workloadSlug), wallNow);
  const eps = epsOrPromise instanceof Promise ? await epsOrPromise : epsOrPromise;
  const workloadId = wlOrPromise instanceof Promise ? await wlOrPromise : wlOrPromise;
  const plan = planWindow(p.asOf, p.windowHours);
  const speedMetric = SPEED_METRIC[p.basis];
  const partsOf = new Map<number, Part[]>(eps.map((e) => [e.id, []]));
  let raw: RawHour | null = null;
  if (workloadId !== null && eps.length > 0) {
    const parts = [
      loadRollupBuckets(db, 'hour', workloadId, plan.hourBuckets, wallNow),
      loadBlocks(db, workloadId, plan.blockBuckets, wallNow),
      loadRollupBuckets(db, 'day', workloadId, plan.dayBuckets, wallNow),
      loadRawTail(db, { endpointIds: eps.map((e) => e.id), workloadId, from: plan.rawFrom, to: plan.end, region: p.region }, wallNow),
    ] as const;
    // Hot path: everything cached and settled → no awaiting at all.
    const [hours, blocks, days, tail] = parts.some((x) => x instanceof Promise) ? await Promise.all(parts) : (parts as unknown as [BucketEntry[], BucketEntry[], BucketEntry[], RawHour]);
    raw = tail;
    for (const bucket of [hours, blocks, days]) {
      for (const entry of bucket) {
        for (const [id, list] of partsOf) {
          const v = entry.get(id);
          if (!v) continue;
          const part = p.region ? v.regions.get(p.region) : v.all;
          if (part) list.push(part);
        }
      }
    }
  }
  const asOfMs = p.asOf.getTime();
  const merger = new SketchAccumulator();
  const rawRows = new Map<number, number[]>(eps.map((e) => [e.id, []]));
  if (raw) {
    for (let j = 0; j < raw.atMs.length; j++) {
      if (raw.atMs[j]! > asOfMs || (p.region && raw.region[j] !== p.region)) continue;
      rawRows.get(raw.endpointId[j]!)?.push(j);
    }
  }
  return eps.map((endpoint) => {
    const parts = partsOf.get(endpoint.id)!;
    const rows = rawRows.get(endpoint.id)!;
    let n = 0;
    let successes = 0;
    let lastMs: number | null = null;
    const kinds: Record<string, number> = {};
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      n += part.count;
      successes += part.successes;
      const ek = part.errorKinds;
      for (let e = 0; e < ek.length; e++) kinds[ek[e]![0]] = (kinds[ek[e]![0]] ?? 0) + ek[e]![1];
      if (part.lastMeasuredAtMs !== null && (lastMs === null || part.lastMeasuredAtMs > lastMs)) lastMs = part.lastMeasuredAtMs;
    }
    for (let i = 0; i < rows.length; i++) {
      const j = rows[i]!;
      n += 1;
      successes += raw!.success[j]!;
      const k = raw!.errorKind[j];
      if (k) kinds[k] = (kinds[k] ?? 0) + 1;
      if (lastMs === null || raw!.atMs[j]! > lastMs) lastMs = raw!.atMs[j]!;
    }
    const fill = (metric: Metric): void => {
      for (let i = 0; i < parts.length; i++) {
        const s = parts[i]!.sketches[metric];
        if (s) merger.addBins(s.keys, s.counts, s.zeros);
      }
      if (rows.length === 0) return;
      const col = raw!.bins[metric];
      for (let i = 0; i < rows.length; i++) {
        const b = col[rows[i]!]!;
        if (b === RAW_SKIP) continue;
        if (b === RAW_ZERO) merger.addZero();
        else merger.addIndex(b);
      }
    };
    const summary = (metric: Metric): Percentiles => {
      fill(metric);
      const q = merger.drainPercentiles(SUMMARY_LEVELS);
      return q ? { p5: q[0]!, p25: q[1]!, p50: q[2]!, p75: q[3]!, p95: q[4]! } : null;
    };
    fill(speedMetric);
    const speedSketch = merger.drainSorted();
    return {
      endpoint,
      n,
      successes,
      samples: speedSketch.total,
      outputTokensPerSecond: sketchSummary(speedSketch),
      ttftMs: summary('ttftMs'),
      ttfatMs: summary('ttfatMs'),
      e2eMs: summary('e2eMs'),
      speedSketch,
      errorKinds: sortKeys(kinds),
      lastMeasuredAt: lastMs === null ? null : new Date(lastMs).toISOString(),
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
  const raw = workloadId === null ? [] : await queryRaw(db, { endpointIds: eps.map((e) => e.id), workloadId, from: plan.start, to: plan.end, region: p.region });
  return eps.map((endpoint) => {
    const rows = raw.filter((r) => Number(r.endpoint_id) === endpoint.id);
    const ok = rows.filter((r) => r.outcome === 'success' && r.valid);
    const values = (f: (r: RawTailRow) => number | null) => ok.map(f).filter((v): v is number => v !== null).map(Number);
    const pct = (xs: number[]): Percentiles => {
      if (xs.length === 0) return null;
      const [p5, p25, p50, p75, p95] = exactPercentiles(xs, [5, 25, 50, 75, 95]) as [number, number, number, number, number];
      return { p5, p25, p50, p75, p95 };
    };
    const speeds = values((r) => (p.basis === 'o200k' ? r.speed_o200k : r.speed));
    const speedSketch = toSortedSketch(sketchOf(speeds));
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
