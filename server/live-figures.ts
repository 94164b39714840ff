/**
 * Window figures of the live questions, kept up to date minute by minute (decision 217): the
 * precompute job (workers/tasks/precompute-answers) asks every listed model × scheduled workload ×
 * window × basis each minute, and most of each window is the same as a minute ago. Per model,
 * workload and window this keeps, in this process, the merge of the window's partials over
 * [start, H) (the "prefix", H = the hour before the edge's hour), and each run merges beside it
 * only the partials of [H, edge) (≤ 2 hours: a 1-hour and a few 10-minute bodies) and the raw rows
 * of [edge, asOf] (≤ 10 minutes). When the window's hour moves on, the prefix drops its leading
 * hour (subtracted, lib/stats/window-stats subtractLeadingPart) and takes the hour before H.
 *
 * Exactness: sketch and count merges are exact sums, so the figures equal
 * server/window-stats loadWindowFigures for the same data bit for bit (tested in
 * ./live-figures.test.ts against computeLeaderboardAnswer's bytes). The cut between partials and
 * raw rows is the same function (partialsCut); a window it does not cover is answered there.
 *
 * Freshness: the prefix of a window is dropped when a recorded data change (data_changes,
 * decision 215) reaches into [start, H), when its model's listed endpoints change, or when the
 * changes cannot be followed (first run, rows pruned); changes of the last two hours (late probes,
 * the rollup job's own range) lie in [H, asOf], which is read every run.
 *
 * Changed or not (decision 300): {@link LiveFigures.prepare} also tells, per question, whether its
 * inputs may have changed since the previous run, so the precompute job rebuilds only those
 * answers. A window is unchanged when none of these holds since the previous run: its prefix was
 * (re)built or moved (first run, a data change reaching into it, the hour moved); its model's
 * listed endpoints (ids or metadata) changed; a measurement of one of its endpoints and workload
 * got an id above the newest id seen three runs ago (the rollup job's rule: a row committed late
 * is still found); a raw row of the edge is measured after the previous run's instant; a partial
 * body of [H, edge) read by both runs differs; a data change not from the rollup or precompute job
 * (a dispute, a backfill, retention) reaches into the window; or the question was not asked then.
 * Rows only move between the raw edge and the partials as the edge moves on (exact merges: the
 * same figures), so a moving edge alone changes nothing.
 */
import type { Db } from '@/db/client';
import { getLatestDataChange, listDataChangesSince } from '@/db/queries/data-changes';
import { getMaxMeasurementId, listMeasuredPairsSince } from '@/db/queries/rollup-progress';
import { listLeaderboardEndpointsOfModels, listRawWindowRows, listSlugIds, type LeaderboardEndpoint } from '@/db/queries/leaderboard';
import { getPartialCoverage, listPartialBodiesOf, type PartialKey } from '@/db/queries/window-partials';
import { ALL_REGIONS, decodePartial, planPartials } from '@/lib/stats/window-partials';
import { mergeWindowParts, subtractLeadingPart, summarizeWindowBases, type RawRows, type SpeedBasis, type WindowPart } from '@/lib/stats/window-stats';
import { packRaw, partialsCut, type LeaderboardRow, type WindowFigures } from './window-stats';

const HOUR = 3600_000;

/** One live question's figures (or null: not covered by partials, ask loadWindowFigures). */
export interface LiveQuestion {
  modelSlug: string;
  workloadSlug: string;
  windowHours: number;
  basis: SpeedBasis;
}

/**
 * One question's figures from {@link LiveFigures.prepare}: `changed` false when none of its
 * inputs changed since the previous run (the figures equal that run's); `figures()` merges and
 * summarises on demand (valid until the next prepare of the same instance).
 */
export interface LiveResult {
  changed: boolean;
  figures: () => WindowFigures;
}

/** How many runs back the newest measurement id is kept: a row whose insert commits later than this many runs after its id was taken is missed (as by the rollup job, decision 218). */
const ID_RUNS = 3;

/** Merged parts of one endpoint over a range, and how many merged series held each region. */
interface EndpointMerge {
  part: WindowPart | null;
  regions: Map<string, number>;
}

interface Prefix {
  startMs: number;
  /** the prefix covers [startMs, hMs) */
  hMs: number;
  /** listed endpoint ids it was built for */
  endpointKey: string;
  perEndpoint: Map<number, EndpointMerge>;
  /** set when the prefix was built or moved since the previous run */
  moved: boolean;
  /** the [H, edge) partial bodies read by the previous run (by body key) */
  recent: Map<string, Uint8Array>;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

const emptyMerge = (): EndpointMerge => ({ part: null, regions: new Map() });

/** A copy of a part whose sketches own their arrays (decoded parts may be views; merges of one part return it as is). */
function own(p: WindowPart): WindowPart {
  const sketches: WindowPart['sketches'] = {};
  for (const [m, s] of Object.entries(p.sketches))
    sketches[m as keyof WindowPart['sketches']] = { keys: s.keys.slice(), counts: s.counts.slice(), zeros: s.zeros };
  return { ...p, errorKinds: [...p.errorKinds], notRankableByReason: [...p.notRankableByReason], sketches };
}

/** Per listed endpoint, the merge of its series in decoded bodies and the regions they hold (one entry per series). */
type Deltas = Map<number, { delta: WindowPart; regions: string[] }>;

/** The per-endpoint merge of `bodies` for the endpoints of `into` (read only: several prefixes may apply one). */
function deltasOf(into: Map<number, EndpointMerge>, bodies: readonly Uint8Array[]): Deltas {
  const byEp = new Map<number, { parts: WindowPart[]; regions: string[] }>();
  for (const body of bodies) {
    for (const s of decodePartial(body)) {
      if (!into.has(s.endpointId)) continue; // not listed
      const e = byEp.get(s.endpointId) ?? { parts: [], regions: [] };
      e.parts.push(s.part);
      e.regions.push(...s.regions);
      byEp.set(s.endpointId, e);
    }
  }
  return new Map([...byEp].map(([id, e]) => [id, { delta: mergeWindowParts(e.parts), regions: e.regions }]));
}

/** Adds (sign 1) or removes (sign −1, the leading range only) decoded bodies to per-endpoint merges. */
function apply(into: Map<number, EndpointMerge>, bodies: readonly Uint8Array[] | Deltas, sign: 1 | -1): void {
  const deltas = bodies instanceof Map ? bodies : deltasOf(into, bodies);
  for (const [id, e] of deltas) {
    const m = into.get(id)!;
    const delta = e.delta;
    if (sign === 1) m.part = own(m.part ? mergeWindowParts([m.part, delta]) : delta);
    else if (m.part) m.part = subtractLeadingPart(m.part, delta);
    for (const r of e.regions) {
      const n = (m.regions.get(r) ?? 0) + sign;
      if (n > 0) m.regions.set(r, n);
      else m.regions.delete(r);
    }
  }
}

/**
 * The per-process state of the live figures. One instance per process (the precompute job's
 * {@link liveFigures}); not safe for two runs at once (the job's queue runs one at a time).
 */
export class LiveFigures {
  private version: number | null = null;
  private prefixes = new Map<string, Prefix>();
  /** newest measurement id seen at the start of each of the last {@link ID_RUNS} runs, newest first */
  private seenIds: number[] = [];
  /** the previous run's instant (ms), null before the first */
  private lastAsOfMs: number | null = null;
  /** the previous run's questions (`model|workload|window|basis`) */
  private asked = new Set<string>();
  /** per model, its listed endpoints (JSON) as of the previous run */
  private endpointJson = new Map<string, string>();
  /** measured-time ranges of data changes from other writers since the previous run */
  private foreign: Array<{ fromMs: number; toMs: number }> = [];

  /** Drops every kept prefix and what the previous run saw (the next run rebuilds and reports every question changed). */
  reset(): void {
    this.prefixes.clear();
    this.version = null;
    this.seenIds = [];
    this.lastAsOfMs = null;
    this.asked.clear();
    this.endpointJson.clear();
    this.foreign = [];
  }

  /** Follows the recorded data changes since the last run: prefixes they reach into are dropped. */
  private async followChanges(db: Db): Promise<void> {
    const latest = await getLatestDataChange(db);
    if (this.version === null || latest === null || latest.version < this.version) {
      this.prefixes.clear();
    } else if (latest.version > this.version) {
      const changes = await listDataChangesSince(db, this.version, 1000);
      if (changes.length >= 1000 || changes[0]?.version !== this.version + 1) this.prefixes.clear();
      else {
        for (const c of changes) {
          if (c.fromMs === null || c.toMs === null) {
            this.prefixes.clear();
            break;
          }
          for (const [k, p] of this.prefixes) if (c.fromMs < p.hMs && c.toMs >= p.startMs) this.prefixes.delete(k);
          // The rollup job only rolls up rows (their new ids are followed) and the precompute job writes answers; anything else may change figures of any instant.
          if (c.source !== 'rollup' && c.source !== 'precompute') this.foreign.push({ fromMs: c.fromMs, toMs: c.toMs });
        }
      }
    }
    this.version = latest?.version ?? null;
  }

  /**
   * The figures of every question as of `asOf` (in the input's order), null for a question whose
   * window the partials do not cover (the caller answers it the usual way).
   */
  async compute(db: Db, questions: readonly LiveQuestion[], asOf: Date): Promise<Array<WindowFigures | null>> {
    return (await this.prepare(db, questions, asOf)).map((r) => (r ? r.figures() : null));
  }

  /**
   * Like {@link compute}, but each figure is merged only when asked for, and each result says
   * whether the question's inputs may have changed since the previous run of this instance
   * (module doc). Every question is `changed` on the first run, after {@link reset}, or when
   * `asOf` went back.
   */
  async prepare(db: Db, questions: readonly LiveQuestion[], asOf: Date): Promise<Array<LiveResult | null>> {
    // Read first: a row inserted after this read has a larger id and is found by the next run.
    const maxId = await getMaxMeasurementId(db);
    const asOfMs = asOf.getTime();
    const lastAsOfMs = this.lastAsOfMs;
    const followable = lastAsOfMs !== null && asOfMs >= lastAsOfMs && this.seenIds.length > 0;
    this.foreign = [];
    await this.followChanges(db);
    const coverage = await getPartialCoverage(db);
    const ids = await listSlugIds(db, {
      workloads: [...new Set(questions.map((q) => q.workloadSlug))],
      models: [...new Set(questions.map((q) => q.modelSlug))],
    });
    const eps = await listLeaderboardEndpointsOfModels(db, [...ids.models.keys()]);
    const endpointsChanged = new Set<string>();
    for (const [m, list] of eps) {
      const json = JSON.stringify(list);
      if (this.endpointJson.get(m) !== json) endpointsChanged.add(m);
      this.endpointJson.set(m, json);
    }

    // The windows this run answers from partials, per (model, workload, window).
    interface Win {
      key: string;
      modelId: number;
      workloadId: number;
      modelSlug: string;
      workloadSlug: string;
      startMs: number;
      hMs: number;
      edgeMs: number;
      endpoints: LeaderboardEndpoint[];
    }
    const wins = new Map<string, Win>();
    for (const q of questions) {
      const key = `${q.modelSlug}|${q.workloadSlug}|${q.windowHours}`;
      if (wins.has(key)) continue;
      const modelId = ids.models.get(q.modelSlug);
      const workloadId = ids.workloads.get(q.workloadSlug);
      const cut = partialsCut(asOf, q.windowHours, coverage);
      const list = eps.get(q.modelSlug) ?? [];
      if (modelId === undefined || workloadId === undefined || !cut || list.length === 0) continue;
      const startMs = cut.plan.start.getTime();
      const hMs = Math.max(startMs, Math.floor(cut.edge / HOUR) * HOUR - HOUR);
      wins.set(key, { key, modelId, workloadId, modelSlug: q.modelSlug, workloadSlug: q.workloadSlug, startMs, hMs, edgeMs: cut.edge, endpoints: list });
    }

    // Prefix upkeep: which bodies to add and remove, fetched in one query per region key.
    const adds = new Map<string, PartialKey[]>();
    const removes = new Map<string, PartialKey[]>();
    const keysOf = (w: Win, from: number, to: number): PartialKey[] =>
      from >= to ? [] : planPartials(from, to).map((b) => ({ workloadId: w.workloadId, modelId: w.modelId, spanMinutes: b.spanMinutes, startMs: b.startMs }));
    for (const w of wins.values()) {
      const endpointKey = w.endpoints.map((e) => e.id).join(',');
      const p = this.prefixes.get(w.key);
      if (p) p.moved = false;
      const fresh = () => {
        const perEndpoint = new Map(w.endpoints.map((e) => [e.id, emptyMerge()]));
        this.prefixes.set(w.key, { startMs: w.startMs, hMs: w.hMs, endpointKey, perEndpoint, moved: true, recent: new Map() });
        adds.set(w.key, keysOf(w, w.startMs, w.hMs));
      };
      if (!p || p.endpointKey !== endpointKey || p.startMs > w.startMs || p.hMs > w.hMs || w.hMs - p.hMs > 6 * HOUR || w.startMs - p.startMs > 6 * HOUR)
        fresh();
      else if (p.startMs !== w.startMs || p.hMs !== w.hMs) {
        removes.set(w.key, keysOf(w, p.startMs, w.startMs));
        adds.set(w.key, keysOf(w, p.hMs, w.hMs));
        p.startMs = w.startMs;
        p.hMs = w.hMs;
        p.moved = true;
      }
    }
    const recentKeys = new Map<string, PartialKey[]>();
    for (const w of wins.values()) recentKeys.set(`${w.workloadId}|${w.modelId}|${w.hMs}|${w.edgeMs}`, keysOf(w, w.hMs, w.edgeMs));
    const allKeys = [...adds.values(), ...removes.values(), ...recentKeys.values()].flat();
    const bodies = new Map<string, Uint8Array>();
    const bodyKey = (k: PartialKey) => `${k.workloadId}|${k.modelId}|${k.spanMinutes}|${k.startMs}`;
    const unique = [...new Map(allKeys.map((k) => [bodyKey(k), k])).values()];
    for (const r of await listPartialBodiesOf(db, { keys: unique, regionKey: ALL_REGIONS })) bodies.set(bodyKey(r), r.body);
    const bodiesOf = (keys: readonly PartialKey[]) => keys.flatMap((k) => bodies.get(bodyKey(k)) ?? []);
    for (const [k, keys] of removes) apply(this.prefixes.get(k)!.perEndpoint, bodiesOf(keys), -1);
    // The hour a prefix takes on is the same for every window of a model and workload (24 h, 72 h, 7 d):
    // decoded and merged once for all of them (decision 314; the same endpoints, so the same deltas).
    const addDeltas = new Map<string, Deltas>();
    for (const [k, keys] of adds) {
      const p = this.prefixes.get(k)!;
      const sig = `${p.endpointKey}/${keys.map(bodyKey).join(';')}`;
      let d = addDeltas.get(sig);
      if (!d) addDeltas.set(sig, (d = deltasOf(p.perEndpoint, bodiesOf(keys))));
      apply(p.perEndpoint, d, 1);
    }
    for (const k of this.prefixes.keys()) if (!wins.has(k)) this.prefixes.delete(k);

    // [H, edge) merged once per (model, workload, H, edge), and only for a window whose figures are
    // asked (decision 311: an unchanged window's bodies are compared as bytes, never decoded); raw
    // rows of [min edge, asOf] in one query.
    const recentMerges = new Map<string, Map<number, EndpointMerge>>();
    const recentOf = (w: Win): Map<number, EndpointMerge> => {
      const rk = `${w.workloadId}|${w.modelId}|${w.hMs}|${w.edgeMs}`;
      let m = recentMerges.get(rk);
      if (!m) {
        m = new Map(w.endpoints.map((e) => [e.id, emptyMerge()]));
        apply(m, bodiesOf(recentKeys.get(rk)!), 1);
        recentMerges.set(rk, m);
      }
      return m;
    };
    const winList = [...wins.values()];
    const rawFrom = Math.min(...winList.map((w) => w.edgeMs));
    const rawRows =
      winList.length === 0
        ? []
        : await listRawWindowRows(db, {
            endpointIds: [...new Set(winList.flatMap((w) => w.endpoints.map((e) => e.id)))],
            workloadId: [...new Set(winList.map((w) => w.workloadId))],
            from: new Date(rawFrom),
            to: asOf,
            region: null,
          });
    // Which (workload, endpoint) pairs took new measurements since the previous runs (ids), or a raw row measured after the previous instant.
    const touched = new Set<string>();
    if (followable && winList.length > 0) {
      const afterId = this.seenIds[this.seenIds.length - 1]!;
      const pairs = await listMeasuredPairsSince(db, { afterId, upToId: maxId, from: new Date(Math.min(...winList.map((w) => w.startMs))) });
      for (const pr of pairs) touched.add(`${pr.workloadId}|${pr.endpointId}`);
      for (const r of rawRows) if (Number(r.at_ms) > lastAsOfMs) touched.add(`${Number(r.workload_id)}|${Number(r.endpoint_id)}`);
    }
    this.seenIds = [maxId, ...this.seenIds].slice(0, ID_RUNS);
    this.lastAsOfMs = asOfMs;
    const changedWins = new Set<string>();
    for (const w of winList) {
      const p = this.prefixes.get(w.key)!;
      const recentNow = new Map<string, Uint8Array>();
      for (const k of recentKeys.get(`${w.workloadId}|${w.modelId}|${w.hMs}|${w.edgeMs}`)!) {
        const b = bodies.get(bodyKey(k));
        if (b) recentNow.set(bodyKey(k), b);
      }
      const bodyChanged = [...recentNow].some(([k, b]) => p.recent.has(k) && !sameBytes(p.recent.get(k)!, b));
      p.recent = recentNow;
      if (
        !followable ||
        p.moved ||
        bodyChanged ||
        endpointsChanged.has(w.modelSlug) ||
        w.endpoints.some((e) => touched.has(`${w.workloadId}|${e.id}`)) ||
        this.foreign.some((c) => c.fromMs <= asOfMs && c.toMs >= w.startMs)
      )
        changedWins.add(w.key);
    }
    const asked = this.asked;
    this.asked = new Set(questions.map((q) => `${q.modelSlug}|${q.workloadSlug}|${q.windowHours}|${q.basis}`));
    const raw = packRaw(rawRows);
    const rawIndex = new Map<string, number[]>(); // `${workloadId}|${endpointId}` → row indexes, time order of the query
    for (let j = 0; j < rawRows.length; j++) {
      const k = `${Number(rawRows[j]!.workload_id)}|${raw.endpointId[j]}`;
      const list = rawIndex.get(k);
      if (list) list.push(j);
      else rawIndex.set(k, [j]);
    }

    // The bases asked of each window: its figures are read for all of them at once (only the output
    // speed depends on the basis, decision 314), the first time one of them is asked.
    const basesOf = new Map<string, SpeedBasis[]>();
    for (const q of questions) {
      const k = `${q.modelSlug}|${q.workloadSlug}|${q.windowHours}`;
      const list = basesOf.get(k) ?? [];
      if (!list.includes(q.basis)) list.push(q.basis);
      basesOf.set(k, list);
    }
    const figuresOfWin = new Map<string, Map<SpeedBasis, WindowFigures>>(); // merged once, however many boards read it (a cache workload's window serves three)
    return questions.map((q): LiveResult | null => {
      const w = wins.get(`${q.modelSlug}|${q.workloadSlug}|${q.windowHours}`);
      if (!w) return null;
      const changed = changedWins.has(w.key) || !asked.has(`${q.modelSlug}|${q.workloadSlug}|${q.windowHours}|${q.basis}`);
      const figures = () => {
        let byBasis = figuresOfWin.get(w.key);
        if (!byBasis) figuresOfWin.set(w.key, (byBasis = this.figuresOf(basesOf.get(w.key)!, w, recentOf(w), raw, rawIndex, asOfMs)));
        return byBasis.get(q.basis)!;
      };
      return { changed, figures };
    });
  }

  /** The figures of one window for each of `bases`, from the merged prefix, the [H, edge) merge and the raw edge. */
  private figuresOf(
    bases: readonly SpeedBasis[],
    w: { key: string; workloadId: number; modelId: number; hMs: number; edgeMs: number; endpoints: LeaderboardEndpoint[] },
    rec: Map<number, EndpointMerge>,
    raw: RawRows,
    rawIndex: Map<string, number[]>,
    asOfMs: number,
  ): Map<SpeedBasis, WindowFigures> {
    const prefix = this.prefixes.get(w.key)!;
    const regions = new Set<string>();
    const rowsOf = bases.map((): LeaderboardRow[] => []);
    for (const endpoint of w.endpoints) {
      const a = prefix.perEndpoint.get(endpoint.id)!;
      const b = rec.get(endpoint.id)!;
      for (const r of a.regions.keys()) regions.add(r);
      for (const r of b.regions.keys()) regions.add(r);
      const tail = (rawIndex.get(`${w.workloadId}|${endpoint.id}`) ?? []).filter((j) => raw.atMs[j]! >= w.edgeMs && raw.atMs[j]! <= asOfMs);
      for (const j of tail) regions.add(raw.region[j]!);
      const parts = [a.part, b.part].filter((x): x is WindowPart => x !== null);
      summarizeWindowBases(parts, bases, raw, tail).forEach((stats, i) => rowsOf[i]!.push({ endpoint, ...stats }));
    }
    const sorted = [...regions].sort();
    return new Map(bases.map((basis, i) => [basis, { rows: rowsOf[i]!, regions: [...sorted], source: 'partials' as const }]));
  }
}

/** The precompute job's live figures (one per process). */
export const liveFigures = new LiveFigures();
