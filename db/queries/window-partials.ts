/**
 * Window partials (decision 210; lib/stats/window-partials): building them from raw measurements
 * and from the span below, reading the few a window needs, and their coverage row.
 *
 * - 10-minute partials are built from raw rows (sketch bucket indexes computed by Postgres with the
 *   rollups' own expression, so a value lands in the same bucket everywhere); every larger span is
 *   the exact merge of its children, rebuilt whenever a child in its range is rebuilt.
 * - A rebuild never claims the future: coverage ends at min(to, wall clock at the build's start);
 *   probes written later for an earlier instant (late data) are folded in by the next rebuild of
 *   that range (the rollup job rebuilds the last two hours every minute).
 * - Buckets without measurements are not written and existing rows are kept (raw rows past
 *   retention may be gone while their partials remain, as with rollups).
 */
import { notRankableReasonsSql, rankableSql } from './disputes';
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { sketchIndexSql } from './sketch-bucket-sql';
import { cachedInputShareSql } from './cached-input-share-sql';
import { SketchAccumulator } from '@/lib/stats/sketch';
import {
  ALL_REGIONS,
  decodePartial,
  encodePartial,
  floorToSpan,
  FINEST_PARTIAL_MINUTES,
  PARTIAL_SPANS_MINUTES,
  type PartialBucket,
  type PartialSeries,
  type PartialSpan,
} from '@/lib/stats/window-partials';
import { mergeWindowParts, RAW_ZERO, WINDOW_METRICS, type WindowMetric, type WindowPart } from '@/lib/stats/window-stats';

const MINUTE = 60_000;
const DAY = 86400_000;

/** The complete range of partials and the build counter, or null before the first build. */
export interface PartialCoverage {
  fromMs: number;
  toMs: number;
  version: number;
}

/** The coverage row (one index lookup). */
export async function getPartialCoverage(db: Db): Promise<PartialCoverage | null> {
  const rows = (await db.execute(sql`
    select floor(extract(epoch from from_at) * 1000)::float8 as f, floor(extract(epoch from to_at) * 1000)::float8 as t, version::float8 as v
    from window_partial_coverage where id = 1`)) as unknown as Array<{ f: number; t: number; v: number }>;
  const r = rows[0];
  return r ? { fromMs: Number(r.f), toMs: Number(r.t), version: Number(r.v) } : null;
}

/**
 * The stored bodies of the given buckets of one workload, model (by slug) and region key, in one
 * query. Missing buckets (no probes) are absent from the result.
 */
export async function listPartialBodies(
  db: Db,
  p: { workloadId: number; modelSlug: string; regionKey: string; buckets: readonly PartialBucket[] },
): Promise<Uint8Array[]> {
  if (p.buckets.length === 0) return [];
  const spans = `{${p.buckets.map((b) => b.spanMinutes).join(',')}}`;
  const starts = `{${p.buckets.map((b) => new Date(b.startMs).toISOString()).join(',')}}`;
  // base64, not bytea's hex text: a third fewer characters for the client to read and drop (a 72 h
  // window at 14 endpoints is ~300 KB of bodies); Buffer.from skips the line breaks encode() puts in.
  const rows = (await db.execute(sql`
    select encode(w.body, 'base64') as body from window_partials w
    join unnest(${spans}::int[], ${starts}::timestamptz[]) as b(span, start) on w.span_minutes = b.span and w.bucket_start = b.start
    where w.workload_id = ${p.workloadId} and w.model_id = (select id from models where slug = ${p.modelSlug}) and w.region_key = ${p.regionKey}
  `)) as unknown as Array<{ body: string }>;
  return rows.map((r) => Buffer.from(r.body, 'base64'));
}

/** One stored partial of one workload and model (region key given by the caller). */
export interface PartialKey {
  workloadId: number;
  modelId: number;
  spanMinutes: number;
  startMs: number;
}

/**
 * The stored bodies of the given partials (any workloads and models) of one region key, in one
 * query; missing ones (no probes) are absent. Each body comes back with its key.
 */
export async function listPartialBodiesOf(db: Db, p: { keys: readonly PartialKey[]; regionKey: string }): Promise<Array<PartialKey & { body: Uint8Array }>> {
  if (p.keys.length === 0) return [];
  const arr = (f: (k: PartialKey) => number | string) => `{${p.keys.map(f).join(',')}}`;
  const rows = (await db.execute(sql`
    select w.workload_id, w.model_id, w.span_minutes, floor(extract(epoch from w.bucket_start) * 1000)::float8 as start_ms, encode(w.body, 'base64') as body
    from window_partials w
    join unnest(${arr((k) => k.workloadId)}::int[], ${arr((k) => k.modelId)}::int[], ${arr((k) => k.spanMinutes)}::int[],
                ${arr((k) => new Date(k.startMs).toISOString())}::timestamptz[]) as b(workload_id, model_id, span, start)
      on w.workload_id = b.workload_id and w.model_id = b.model_id and w.span_minutes = b.span and w.bucket_start = b.start
    where w.region_key = ${p.regionKey}
  `)) as unknown as Array<{ workload_id: number; model_id: number; span_minutes: number; start_ms: number; body: string }>;
  return rows.map((r) => ({
    workloadId: Number(r.workload_id),
    modelId: Number(r.model_id),
    spanMinutes: Number(r.span_minutes),
    startMs: Number(r.start_ms),
    body: Buffer.from(r.body, 'base64'),
  }));
}

interface RawPartialRow {
  workload_id: number;
  model_id: number;
  endpoint_id: number;
  worker_region: string;
  at_ms: number;
  outcome: string;
  error_kind: string | null;
  not_rankable_reasons: string[] | null;
  fidelity_passed: boolean | null;
  bins: Array<number | null>;
}

/** `(workload_id, model_id)` of `alias` in the given `workload|model` pairs (decision 311). */
function workloadModelFilter(workloadCol: string, modelCol: string, pairs: ReadonlySet<string>) {
  const list = [...pairs].map((k) => k.split('|').map(Number) as [number, number]);
  return sql`(${sql.raw(workloadCol)}, ${sql.raw(modelCol)}) in (select * from unnest(${`{${list.map((x) => x[0]).join(',')}}`}::int[], ${`{${list.map((x) => x[1]).join(',')}}`}::int[]))`;
}

/**
 * Raw rows of every workload measured in [from, to) with their model and sketch bins (WINDOW_METRICS order);
 * only of the given workloads, or only of the given `workload|model` pairs.
 */
async function listRawPartialRows(db: Db, from: Date, to: Date, workloadIds?: readonly number[], pairs?: ReadonlySet<string>): Promise<RawPartialRow[]> {
  const cols: Record<WindowMetric, string | null> = {
    outputTokensPerSecond: 'output_tokens_per_second',
    outputTokensPerSecondO200k: 'output_tokens_per_second_o200k',
    ttftMs: 'ttft_ms',
    ttfatMs: 'ttfat_ms',
    e2eMs: 'e2e_ms',
    itlP50Ms: 'itl_p50_ms',
    itlP95Ms: 'itl_p95_ms',
    cachedInputTokens: 'cached_input_tokens',
    tierObjectiveMet: 'tier_objective_met',
    cachedInputShare: null,
  };
  // a metric without its own column is computed from the row (the cached share, decision 291)
  const value = (m: WindowMetric) => {
    const col = cols[m];
    return col === null ? cachedInputShareSql('m') : sql.raw(`m.${col}`);
  };
  const bins = sql.join(
    WINDOW_METRICS.map(
      (m, i) => sql`case when m.outcome = 'success' and m.valid and ${rankableSql('m')} then ${sketchIndexSql(value(m))} end as ${sql.identifier(`b${i}`)}`,
    ),
    sql`, `,
  );
  const rows = (await db.execute(sql`
    select m.workload_id, e.model_id, m.endpoint_id, m.worker_region, floor(extract(epoch from m.measured_at) * 1000)::float8 as at_ms,
           m.outcome, m.error_kind, ${notRankableReasonsSql('m')} as not_rankable_reasons, m.fidelity_passed, ${bins}
    from measurements m join endpoints e on e.id = m.endpoint_id
    where m.workload_id = any(${workloadIds ? sql`${`{${workloadIds.join(',')}}`}::int[]` : sql`array(select id from workloads)`})
      and m.measured_at >= ${from.toISOString()}::timestamptz and m.measured_at < ${to.toISOString()}::timestamptz
      ${pairs ? sql`and ${workloadModelFilter('m.workload_id', 'e.model_id', pairs)}` : sql``}
  `)) as unknown as Array<Omit<RawPartialRow, 'bins'> & Record<string, unknown>>;
  return rows.map((r) => ({ ...r, bins: WINDOW_METRICS.map((_, i) => (r[`b${i}`] === null ? null : Number(r[`b${i}`]))) }));
}

/** A part being filled from raw rows. */
interface PartBuilder {
  count: number;
  successes: number;
  notRankableTotal: number;
  fidelityChecks: number;
  fidelityPassed: number;
  last: number | null;
  kinds: Map<string, number>;
  reasons: Map<string, number>;
  regions: Set<string>;
  bins: Array<number[] | null>;
}

const accumulator = new SketchAccumulator();

function finishPart(b: PartBuilder): WindowPart {
  const sketches: WindowPart['sketches'] = {};
  WINDOW_METRICS.forEach((m, i) => {
    const list = b.bins[i];
    if (!list) return;
    for (const k of list) {
      if (k === RAW_ZERO) accumulator.addZero();
      else accumulator.addIndex(k);
    }
    sketches[m] = accumulator.drainPacked();
  });
  return {
    count: b.count,
    successes: b.successes,
    errorKinds: [...b.kinds.entries()].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0)),
    lastMeasuredAtMs: b.last,
    sketches,
    notRankableTotal: b.notRankableTotal,
    notRankableByReason: [...b.reasons.entries()].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0)),
    fidelityChecks: b.fidelityChecks,
    fidelityPassed: b.fidelityPassed,
  };
}

/** A partial row to write. */
interface PartialRow {
  spanMinutes: PartialSpan;
  workloadId: number;
  modelId: number;
  regionKey: string;
  bucketStartMs: number;
  series: PartialSeries[];
}

/** Groups raw rows into 10-minute partials (both the all-regions and the per-region keys). */
function partialsFromRaw(rows: RawPartialRow[]): PartialRow[] {
  const unit = FINEST_PARTIAL_MINUTES * MINUTE;
  const groups = new Map<string, { row: Omit<PartialRow, 'series'>; eps: Map<number, PartBuilder> }>();
  for (const r of rows) {
    const atMs = Number(r.at_ms);
    const start = Math.floor(atMs / unit) * unit;
    for (const regionKey of [ALL_REGIONS, r.worker_region]) {
      const gk = `${r.workload_id}|${r.model_id}|${regionKey}|${start}`;
      let g = groups.get(gk);
      if (!g) {
        g = {
          row: { spanMinutes: FINEST_PARTIAL_MINUTES, workloadId: Number(r.workload_id), modelId: Number(r.model_id), regionKey, bucketStartMs: start },
          eps: new Map(),
        };
        groups.set(gk, g);
      }
      const epId = Number(r.endpoint_id);
      let b = g.eps.get(epId);
      if (!b) {
        b = {
          count: 0,
          successes: 0,
          notRankableTotal: 0,
          fidelityChecks: 0,
          fidelityPassed: 0,
          last: null,
          kinds: new Map(),
          reasons: new Map(),
          regions: new Set(),
          bins: WINDOW_METRICS.map(() => null),
        };
        g.eps.set(epId, b);
      }
      b.count += 1;
      if (r.outcome === 'success') b.successes += 1;
      if (r.error_kind) b.kinds.set(r.error_kind, (b.kinds.get(r.error_kind) ?? 0) + 1);
      const reasons = r.not_rankable_reasons ?? [];
      if (reasons.length > 0) {
        b.notRankableTotal += 1;
        for (const x of reasons) b.reasons.set(x, (b.reasons.get(x) ?? 0) + 1);
      }
      if (r.fidelity_passed !== null && r.fidelity_passed !== undefined) {
        b.fidelityChecks += 1;
        if (r.fidelity_passed) b.fidelityPassed += 1;
      }
      if (b.last === null || atMs > b.last) b.last = atMs;
      b.regions.add(r.worker_region);
      r.bins.forEach((bin, i) => {
        if (bin === null) return;
        (b.bins[i] ??= []).push(Number(bin));
      });
    }
  }
  return [...groups.values()].map(({ row, eps }) => ({
    ...row,
    series: [...eps.entries()].sort(([a], [c]) => a - c).map(([endpointId, b]) => ({ endpointId, regions: [...b.regions].sort(), part: finishPart(b) })),
  }));
}

/** Merges child partials (same workload, model, region key) into their parent buckets of `span`. */
function mergeChildren(
  children: Array<{ workloadId: number; modelId: number; regionKey: string; bucketStartMs: number; body: Uint8Array }>,
  span: PartialSpan,
): PartialRow[] {
  const groups = new Map<string, { row: Omit<PartialRow, 'series'>; eps: Map<number, { parts: WindowPart[]; regions: Set<string> }> }>();
  for (const c of children) {
    const start = floorToSpan(c.bucketStartMs, span);
    const gk = `${c.workloadId}|${c.modelId}|${c.regionKey}|${start}`;
    let g = groups.get(gk);
    if (!g) {
      g = { row: { spanMinutes: span, workloadId: c.workloadId, modelId: c.modelId, regionKey: c.regionKey, bucketStartMs: start }, eps: new Map() };
      groups.set(gk, g);
    }
    for (const s of decodePartial(c.body)) {
      let e = g.eps.get(s.endpointId);
      if (!e) {
        e = { parts: [], regions: new Set() };
        g.eps.set(s.endpointId, e);
      }
      e.parts.push(s.part);
      for (const r of s.regions) e.regions.add(r);
    }
  }
  return [...groups.values()].map(({ row, eps }) => ({
    ...row,
    series: [...eps.entries()]
      .sort(([a], [c]) => a - c)
      .map(([endpointId, e]) => {
        const merged = mergeWindowParts(e.parts);
        return {
          endpointId,
          regions: [...e.regions].sort(),
          part: {
            ...merged,
            errorKinds: [...merged.errorKinds].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0)),
            notRankableByReason: [...merged.notRankableByReason].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0)),
          },
        };
      }),
  }));
}

/** Upserts partial rows (a row whose body did not change is not rewritten). */
async function savePartials(db: Db, rows: PartialRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    const values = sql.join(
      chunk.map(
        (r) =>
          sql`(${r.spanMinutes}::int, ${r.workloadId}::int, ${r.modelId}::int, ${r.regionKey}::text, ${new Date(r.bucketStartMs).toISOString()}::timestamptz, ${Buffer.from(encodePartial(r.series))}::bytea)`,
      ),
      sql`, `,
    );
    await db.execute(sql`
      insert into window_partials (span_minutes, workload_id, model_id, region_key, bucket_start, body)
      values ${values}
      on conflict (workload_id, model_id, region_key, span_minutes, bucket_start)
      do update set body = excluded.body, built_at = now() where window_partials.body is distinct from excluded.body`);
  }
}

/** Child rows of span `child` with bucket start in [fromMs, toMs), of every workload and model or only of the given `workload|model` pairs. */
async function listChildren(
  db: Db,
  child: PartialSpan,
  fromMs: number,
  toMs: number,
  only_?: { workloadIds?: readonly number[]; pairs?: ReadonlySet<string> },
) {
  const only = only_?.workloadIds
    ? sql`and workload_id = any(${`{${only_.workloadIds.join(',')}}`}::int[])`
    : only_?.pairs
      ? sql`and ${workloadModelFilter('workload_id', 'model_id', only_.pairs)}`
      : sql``;
  const rows = (await db.execute(sql`
    select workload_id, model_id, region_key, floor(extract(epoch from bucket_start) * 1000)::float8 as start_ms, body
    from window_partials
    where span_minutes = ${child} and bucket_start >= ${new Date(fromMs).toISOString()}::timestamptz and bucket_start < ${new Date(toMs).toISOString()}::timestamptz ${only}
  `)) as unknown as Array<{ workload_id: number; model_id: number; region_key: string; start_ms: number; body: Uint8Array }>;
  return rows.map((r) => ({
    workloadId: Number(r.workload_id),
    modelId: Number(r.model_id),
    regionKey: r.region_key,
    bucketStartMs: Number(r.start_ms),
    body: r.body,
  }));
}

/**
 * Rebuilds the partials of every span that overlap [from, to) — 10-minute ones from raw rows, the
 * rest from their children — and extends the coverage row (decision 210). Idempotent: a rebuild of
 * the same data writes nothing. `wallNow` (default now) caps the range: nothing after it is
 * claimed. Returns the number of partials (re)computed.
 */
export async function rebuildWindowPartials(db: Db, p: { from: Date; to: Date; wallNow?: Date }): Promise<number> {
  const wallMs = (p.wallNow ?? new Date()).getTime();
  const coverTo = Math.min(p.to.getTime(), wallMs);
  const unit = FINEST_PARTIAL_MINUTES * MINUTE;
  const a = Math.floor(p.from.getTime() / unit) * unit;
  const b = Math.ceil(coverTo / unit) * unit;
  if (b <= a) return 0;
  let n = 0;
  // 10-minute partials from raw, one day per query.
  for (let t = a; t < b; t += DAY) {
    const rows = partialsFromRaw(await listRawPartialRows(db, new Date(t), new Date(Math.min(t + DAY, b))));
    await savePartials(db, rows);
    n += rows.length;
  }
  // Every larger span over the parents of [a, b), from the span below; chunks bound the memory.
  for (let i = 1; i < PARTIAL_SPANS_MINUTES.length; i++) {
    const span = PARTIAL_SPANS_MINUTES[i]!;
    const child = PARTIAL_SPANS_MINUTES[i - 1]!;
    const spanMs = span * MINUTE;
    const from = floorToSpan(a, span);
    const to = floorToSpan(b - 1, span) + spanMs;
    const step = Math.max(spanMs, Math.ceil((2 * DAY) / spanMs) * spanMs);
    for (let t = from; t < to; t += step) {
      const rows = mergeChildren(await listChildren(db, child, t, Math.min(t + step, to)), span);
      await savePartials(db, rows);
      n += rows.length;
    }
  }
  await extendCoverage(db, a, coverTo);
  return n;
}

/**
 * Rebuilds only the given 10-minute buckets from raw rows, and the larger spans' buckets that
 * contain them from their children, then extends the coverage over [coverFrom, min(to, wallNow)]
 * (decision 217). A bucket with an `endpointId` rebuilds the partials of that endpoint's model and
 * the workload only (a partial is one workload's and one model's, decision 311: at 200 endpoints a
 * minute's probes of a non-headline workload touch a few of its 28 models); one without, every
 * model of the workload. Correct when every other partial of that range is already current: the
 * per-minute rollup job passes the buckets that received measurements since its earlier runs
 * (db/queries/rollup-progress). Returns the partials (re)computed.
 */
export async function rebuildWindowPartialsOf(
  db: Db,
  p: { buckets: ReadonlyArray<{ workloadId: number; startMs: number; endpointId?: number }>; coverFrom: Date; to: Date; wallNow: Date },
): Promise<number> {
  const unit = FINEST_PARTIAL_MINUTES * MINUTE;
  const epIds = [...new Set(p.buckets.flatMap((b) => (b.endpointId === undefined ? [] : [b.endpointId])))];
  const modelOf = new Map<number, number>();
  if (epIds.length > 0) {
    const rows = (await db.execute(sql`select id, model_id from endpoints where id = any(${`{${epIds.join(',')}}`}::int[])`)) as unknown as Array<{
      id: number;
      model_id: number;
    }>;
    for (const r of rows) modelOf.set(Number(r.id), Number(r.model_id));
  }
  // Per bucket start: the workloads whose every model is rebuilt, and the `workload|model` pairs rebuilt alone.
  interface Dirty {
    workloads: Set<number>;
    pairs: Set<string>;
  }
  const finest = new Map<number, Dirty>();
  for (const b of p.buckets) {
    const start = Math.floor(b.startMs / unit) * unit;
    const d = finest.get(start) ?? { workloads: new Set<number>(), pairs: new Set<string>() };
    const model = b.endpointId === undefined ? undefined : modelOf.get(b.endpointId);
    if (model === undefined) d.workloads.add(b.workloadId);
    else d.pairs.add(`${b.workloadId}|${model}`);
    finest.set(start, d);
  }
  for (const d of finest.values()) for (const k of [...d.pairs]) if (d.workloads.has(Number(k.split('|')[0]))) d.pairs.delete(k);
  let level: Map<number, Dirty | 'all'> = finest;
  let n = 0;
  for (const [start, d] of finest) {
    const from = new Date(start);
    const to = new Date(start + unit);
    const rows = [
      ...(d.workloads.size > 0 ? await listRawPartialRows(db, from, to, [...d.workloads]) : []),
      ...(d.pairs.size > 0 ? await listRawPartialRows(db, from, to, [...new Set([...d.pairs].map((k) => Number(k.split('|')[0])))], d.pairs) : []),
    ];
    const built = partialsFromRaw(rows);
    await savePartials(db, built);
    n += built.length;
  }
  // A larger bucket is read only once complete (planPartials takes whole buckets before the
  // edge), so it is built when it completes (its end passed since the last build: every workload)
  // and rebuilt when a child of a complete one changed; an incomplete one is left as it is.
  const coverTo = Math.min(p.to.getTime(), p.wallNow.getTime());
  const prevTo = (await getPartialCoverage(db))?.toMs ?? p.coverFrom.getTime();
  for (let i = 1; i < PARTIAL_SPANS_MINUTES.length; i++) {
    const span = PARTIAL_SPANS_MINUTES[i]!;
    const child = PARTIAL_SPANS_MINUTES[i - 1]!;
    const spanMs = span * MINUTE;
    const parents = new Map<number, Dirty | 'all'>();
    for (const [start, d] of level) {
      const ps = floorToSpan(start, span);
      if (ps + spanMs > coverTo) continue;
      const into = parents.get(ps) ?? { workloads: new Set<number>(), pairs: new Set<string>() };
      if (d === 'all' || into === 'all') parents.set(ps, 'all');
      else {
        for (const w of d.workloads) into.workloads.add(w);
        for (const k of d.pairs) into.pairs.add(k);
        parents.set(ps, into);
      }
    }
    for (let end = floorToSpan(prevTo, span) + spanMs; end <= coverTo; end += spanMs) if (end > prevTo) parents.set(end - spanMs, 'all');
    for (const [start, d] of parents) {
      const alone = d === 'all' ? new Set<string>() : new Set([...d.pairs].filter((k) => !d.workloads.has(Number(k.split('|')[0]))));
      const children =
        d === 'all'
          ? await listChildren(db, child, start, start + spanMs)
          : [
              ...(d.workloads.size > 0 ? await listChildren(db, child, start, start + spanMs, { workloadIds: [...d.workloads] }) : []),
              ...(alone.size > 0 ? await listChildren(db, child, start, start + spanMs, { pairs: alone }) : []),
            ];
      const rows = mergeChildren(children, span);
      await savePartials(db, rows);
      n += rows.length;
    }
    level = parents;
  }
  const a = Math.floor(p.coverFrom.getTime() / unit) * unit;
  if (coverTo > a) await extendCoverage(db, a, coverTo);
  return n;
}

/** Extends the coverage row over [a, coverTo] (a range overlapping it merges; a later disjoint one replaces it). */
async function extendCoverage(db: Db, a: number, coverTo: number): Promise<void> {
  await db.execute(sql`
    insert into window_partial_coverage (id, from_at, to_at, version, updated_at)
    values (1, ${new Date(a).toISOString()}::timestamptz, ${new Date(coverTo).toISOString()}::timestamptz, 1, now())
    on conflict (id) do update set
      from_at = case when excluded.from_at <= window_partial_coverage.to_at and excluded.to_at >= window_partial_coverage.from_at
                     then least(window_partial_coverage.from_at, excluded.from_at)
                     when excluded.to_at > window_partial_coverage.to_at then excluded.from_at
                     else window_partial_coverage.from_at end,
      to_at = case when excluded.from_at <= window_partial_coverage.to_at and excluded.to_at >= window_partial_coverage.from_at
                   then greatest(window_partial_coverage.to_at, excluded.to_at)
                   when excluded.to_at > window_partial_coverage.to_at then excluded.to_at
                   else window_partial_coverage.to_at end,
      version = window_partial_coverage.version + 1, updated_at = now()`);
}

/** Start of the oldest measurement not yet covered by partials (the backfill's next target), or null. */
export async function getOldestUncoveredMeasurement(db: Db): Promise<Date | null> {
  const rows = (await db.execute(sql`
    select min(x) as t from (
      select (select min(m.measured_at) from measurements m where m.workload_id = w.id
                and m.measured_at < coalesce((select from_at from window_partial_coverage where id = 1), 'infinity'::timestamptz)) as x
      from workloads w) q`)) as unknown as Array<{ t: string | Date | null }>;
  const t = rows[0]?.t;
  return t ? new Date(t) : null;
}

/**
 * Moves the coverage's start to the Unix epoch when no measurement and no hourly rollup bucket lies
 * before it (a day bucket starts at its day's midnight but holds only the same measurements) (windows reaching back before the first probe are then answered from partials too).
 * Returns whether it moved.
 */
export async function extendCoverageToOrigin(db: Db): Promise<boolean> {
  const rows = (await db.execute(sql`
    update window_partial_coverage c set from_at = 'epoch'::timestamptz, updated_at = now()
    where c.id = 1 and c.from_at > 'epoch'::timestamptz
      and not exists (select 1 from measurements m where m.measured_at < c.from_at)
      and not exists (select 1 from measurement_rollups r where r.granularity = 'hour' and r.bucket_start < c.from_at)
    returning 1`)) as unknown as unknown[];
  return rows.length > 0;
}
