/**
 * Synthetic demo data for end-to-end tests ONLY (never used by `npm start`).
 *
 * Adds a provider "Synthetic demo" (slug `synthetic-demo`, kind 'provider') with four clearly
 * marked endpoints (slugs `synthetic-…`) of the Llama 4 Maverick model, status `paused` so the
 * scheduler never probes them, and writes ~45 days of deterministic measurements for the four
 * scheduled workloads (plus hourly prompt-cache pairs over the last 72 h), then rebuilds hourly and
 * daily rollups from them. The data is shaped to exercise every page: a tie, a step change (change point), speculative decoding that helps code,
 * math and JSON more than prose, failures of several kinds, and timelines for the evidence viewer.
 */
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { rebuildRollups } from '@/db/queries/rollups';
import { endpoints, measurementRollups, measurements, models, providers, workloads } from '@/db/schema';
import { encodeTimeline } from '@/lib/probe/timeline-codec';
import { mulberry32 } from '@/lib/stats/random';
import type { TimelineEntry } from '@/lib/probe/types';

export const SYNTHETIC_PROVIDER = { slug: 'synthetic-demo', name: 'Synthetic demo' } as const;
const MODEL_SLUG = 'llama-4-maverick';
const WORKLOADS = ['prose-1k', 'code-1k', 'math-1k', 'json-1k'] as const;
type WorkloadSlug = (typeof WORKLOADS)[number];
/** The prompt-cache family's pair (decision 260): the board of cache-cold-2k shows their columns. */
const CACHE_WORKLOADS = ['cache-cold-2k', 'cache-warm-2k'] as const;

/** One synthetic endpoint: declared metadata and the shape of its generated numbers. */
export interface SyntheticEndpointSpec {
  slug: string;
  hardware: string;
  engine: string;
  precision: string;
  speculativeDecoding: string | null;
  draftLength: number | null;
  deploymentKind: 'shared' | 'dedicated' | 'self-hosted';
  /** median output speed per workload, tokens/s */
  speed: Record<WorkloadSlug, number>;
  /** speed multiplier applied before `stepDaysAgo` (a step change at that day) */
  speedBeforeStep?: number;
  stepDaysAgo?: number;
  /** median TTFT, ms */
  ttftMs: number;
  /** fraction of probes that fail, and the kinds they fail with (cycled) */
  failureRate: number;
  failureKinds: string[];
  /**
   * The prompt-cache pair (cache-cold-2k, then cache-warm-2k with the same prefix): warm TTFT as a
   * share of cold, and the cached input tokens the provider reports on a warm request (null: it
   * reports none, so the hit share and cached share are "not reported", never 0 %).
   */
  cache: { warmTtftShare: number; cachedInputTokens: number | null };
}

/** Input tokens every synthetic prompt-cache request reports (a ~2k prompt, its first 1,792 the shared prefix). */
export const SYNTHETIC_CACHE_INPUT_TOKENS = 2_112;

export const SYNTHETIC_ENDPOINTS: SyntheticEndpointSpec[] = [
  {
    slug: 'synthetic-b200-eagle',
    hardware: 'DGX B200 (synthetic)',
    engine: 'TensorRT-LLM',
    precision: 'FP8',
    speculativeDecoding: 'EAGLE-3',
    draftLength: 3,
    deploymentKind: 'dedicated',
    speed: { 'prose-1k': 820, 'code-1k': 1080, 'math-1k': 1010, 'json-1k': 1150 },
    speedBeforeStep: 0.45,
    stepDaysAgo: 12,
    ttftMs: 340,
    failureRate: 0.01,
    failureKinds: ['stream_error'],
    cache: { warmTtftShare: 0.35, cachedInputTokens: 1_792 },
  },
  {
    slug: 'synthetic-h100-vllm',
    hardware: 'H100 SXM (synthetic)',
    engine: 'vLLM',
    precision: 'BF16',
    speculativeDecoding: null,
    draftLength: null,
    deploymentKind: 'shared',
    speed: { 'prose-1k': 415, 'code-1k': 420, 'math-1k': 418, 'json-1k': 422 },
    ttftMs: 170,
    failureRate: 0.03,
    failureKinds: ['timeout', 'http_error'],
    cache: { warmTtftShare: 0.5, cachedInputTokens: 1_024 },
  },
  {
    slug: 'synthetic-mi300-sglang',
    hardware: 'MI300X (synthetic)',
    engine: 'SGLang',
    precision: 'FP8',
    speculativeDecoding: null,
    draftLength: null,
    deploymentKind: 'shared',
    // same speeds as the H100 endpoint: the two are statistically tied on every workload
    speed: { 'prose-1k': 415, 'code-1k': 420, 'math-1k': 418, 'json-1k': 422 },
    ttftMs: 620,
    failureRate: 0.1,
    failureKinds: ['rate_limited', 'rate_limited', 'timeout'],
    // advertises caching, serves none: warm is as slow as cold and reports 0 cached tokens
    cache: { warmTtftShare: 1, cachedInputTokens: 0 },
  },
  {
    slug: 'synthetic-l40s-vllm',
    hardware: 'L40S (synthetic)',
    engine: 'vLLM',
    precision: 'FP16',
    speculativeDecoding: null,
    draftLength: null,
    deploymentKind: 'self-hosted',
    speed: { 'prose-1k': 118, 'code-1k': 121, 'math-1k': 117, 'json-1k': 119 },
    ttftMs: 950,
    failureRate: 0.05,
    failureKinds: ['timeout', 'empty'],
    cache: { warmTtftShare: 0.6, cachedInputTokens: null },
  },
];

/** Deterministic PRNG (mulberry32) so every run writes the same numbers for the same `now`. */
const prng = mulberry32;

function gauss(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/**
 * A timeline that streams `outputTokens` tokens: first chunk (1 token) at `ttftMs`, then chunks of
 * 1–3 tokens so that (N − first chunk tokens) ÷ (last − first) ≈ speedTps. Returns the entries and
 * the exact speed they imply (tokens/s), the E2E time (ms) and the chunk count.
 */
export function makeTimeline(rand: () => number, ttftMs: number, speedTps: number, outputTokens: number) {
  const entries: TimelineEntry[] = [{ atMs: Math.round(ttftMs * 10) / 10, tokens: 1, channel: 'answer' }];
  let sent = 1;
  let t = ttftMs;
  while (sent < outputTokens) {
    const k = Math.min(outputTokens - sent, 1 + Math.floor(rand() * 3));
    t += (k / speedTps) * 1000 * (0.7 + rand() * 0.6);
    sent += k;
    entries.push({ atMs: Math.round(t * 10) / 10, tokens: k, channel: 'answer' });
  }
  const first = entries[0]!;
  const last = entries[entries.length - 1]!;
  const speed = (outputTokens - first.tokens) / ((last.atMs - first.atMs) / 1000);
  return { entries, speed, e2eMs: last.atMs + 2, chunks: entries.length };
}

/** Removes every synthetic row (measurements, rollups, endpoints, provider). Safe to re-run. */
export async function removeSyntheticData(db: Db): Promise<void> {
  const eps = await db.select({ id: endpoints.id }).from(endpoints).where(like(endpoints.slug, 'synthetic-%'));
  const ids = eps.map((e) => e.id);
  if (ids.length > 0) {
    await db.delete(measurementRollups).where(inArray(measurementRollups.endpointId, ids));
    await db.delete(measurements).where(inArray(measurements.endpointId, ids));
    await db.delete(endpoints).where(inArray(endpoints.id, ids));
  }
  await db.delete(providers).where(eq(providers.slug, SYNTHETIC_PROVIDER.slug));
}

/** What {@link seedSyntheticData} wrote. */
export interface SyntheticSeedResult {
  providerId: number;
  endpointIds: Record<string, number>;
  measurements: number;
  from: Date;
  to: Date;
}

/**
 * Writes the synthetic provider, endpoints and measurements ending at `now`, then rebuilds rollups.
 * Measurements: every 2 h for `days` days, every 15 min in the last 72 h (per endpoint × workload);
 * the newest 6 successes per endpoint × workload carry timelines. Replaces earlier synthetic data.
 * Requires the seeded catalog (model llama-4-maverick and the four scheduled workloads).
 */
export async function seedSyntheticData(db: Db, params: { now: Date; days?: number }): Promise<SyntheticSeedResult> {
  const days = params.days ?? 45;
  const now = new Date(Math.floor(params.now.getTime() / 60_000) * 60_000);
  await removeSyntheticData(db);
  const [model] = await db.select({ id: models.id }).from(models).where(eq(models.slug, MODEL_SLUG));
  if (!model) throw new Error(`model ${MODEL_SLUG} is not in the catalog: seed the catalog first`);
  const wls = await db
    .select({ id: workloads.id, slug: workloads.slug })
    .from(workloads)
    .where(inArray(workloads.slug, [...WORKLOADS]));
  if (wls.length !== WORKLOADS.length) throw new Error('the four scheduled workloads are not in the catalog');
  const workloadId = new Map(wls.map((w) => [w.slug, w.id]));
  const cacheWls = await db
    .select({ id: workloads.id, slug: workloads.slug })
    .from(workloads)
    .where(inArray(workloads.slug, [...CACHE_WORKLOADS]));
  if (cacheWls.length !== CACHE_WORKLOADS.length) throw new Error('the prompt-cache workloads are not in the catalog');
  const cacheWorkloadId = new Map(cacheWls.map((w) => [w.slug, w.id]));

  const [provider] = await db
    .insert(providers)
    .values({ slug: SYNTHETIC_PROVIDER.slug, name: SYNTHETIC_PROVIDER.name, kind: 'provider', websiteUrl: null })
    .returning({ id: providers.id });
  const endpointIds: Record<string, number> = {};
  for (const spec of SYNTHETIC_ENDPOINTS) {
    const [row] = await db
      .insert(endpoints)
      .values({
        slug: spec.slug,
        providerId: provider!.id,
        modelId: model.id,
        protocol: 'openai-chat',
        baseUrl: 'https://synthetic.invalid/v1',
        apiModelId: 'synthetic-llama-4-maverick',
        hardware: spec.hardware,
        engine: spec.engine,
        precision: spec.precision,
        speculativeDecoding: spec.speculativeDecoding,
        draftLength: spec.draftLength,
        deploymentKind: spec.deploymentKind,
        status: 'paused',
        notes: 'Synthetic demo data written by the e2e tests; not a real provider.',
        createdAt: new Date(now.getTime() - days * 86400_000),
      })
      .returning({ id: endpoints.id });
    endpointIds[spec.slug] = row!.id;
  }

  const from = new Date(now.getTime() - days * 86400_000);
  const dense = new Date(now.getTime() - 72 * 3600_000);
  const instants: Date[] = [];
  for (let t = from.getTime(); t < dense.getTime(); t += 2 * 3600_000) instants.push(new Date(t));
  for (let t = dense.getTime(); t <= now.getTime() - 60_000; t += 15 * 60_000) instants.push(new Date(t));

  const rows: Array<typeof measurements.$inferInsert> = [];
  SYNTHETIC_ENDPOINTS.forEach((spec, si) => {
    for (const wl of WORKLOADS) {
      const rand = prng(1000 * (si + 1) + WORKLOADS.indexOf(wl));
      const withTimeline = new Set<number>();
      // newest six successes get timelines: pick the six latest instants that will succeed
      const outcomes = instants.map(() => rand() >= spec.failureRate);
      for (let i = instants.length - 1, k = 0; i >= 0 && k < 6; i--)
        if (outcomes[i]) {
          withTimeline.add(i);
          k++;
        }
      let failures = 0;
      instants.forEach((at, i) => {
        const daysAgo = (now.getTime() - at.getTime()) / 86400_000;
        const step = spec.stepDaysAgo !== undefined && daysAgo > spec.stepDaysAgo ? (spec.speedBeforeStep ?? 1) : 1;
        const diurnal = 1 + 0.03 * Math.sin((at.getUTCHours() / 24) * 2 * Math.PI);
        const base = {
          jobKey: `synthetic:${spec.slug}:${wl}:${at.toISOString()}`,
          endpointId: endpointIds[spec.slug]!,
          workloadId: workloadId.get(wl)!,
          measuredAt: at,
          workerRegion: 'local',
          workerVersion: 'synthetic',
          promptHash: 'synthetic',
        };
        if (!outcomes[i]) {
          const kind = spec.failureKinds[failures++ % spec.failureKinds.length]!;
          rows.push({
            ...base,
            outcome: 'error',
            errorKind: kind,
            rankable: false,
            notRankableReasons: ['failed'],
            errorMessage: `synthetic ${kind}`,
            httpStatus: kind === 'rate_limited' ? 429 : kind === 'http_error' ? 503 : 200,
            ttftMs: kind === 'timeout' || kind === 'rate_limited' || kind === 'http_error' ? null : spec.ttftMs,
          });
          return;
        }
        const ttft = Math.max(20, spec.ttftMs * (1 + 0.12 * gauss(rand)));
        let speed = Math.max(5, spec.speed[wl] * step * diurnal * (1 + 0.05 * gauss(rand)));
        const outputTokens = 256;
        let e2e = ttft + ((outputTokens - 1) / speed) * 1000;
        let chunks = outputTokens;
        let timeline: Buffer | null = null;
        if (withTimeline.has(i)) {
          const tl = makeTimeline(rand, ttft, speed, outputTokens);
          speed = tl.speed;
          e2e = tl.e2eMs;
          chunks = tl.chunks;
          timeline = encodeTimeline(tl.entries);
        }
        rows.push({ ...base, ...successFigures(ttft, speed, e2e, outputTokens, chunks), timeline });
      });
    }
  });
  // The prompt-cache pair, hourly over the last 72 h: a cold request, then the warm one 30 s later.
  // Inserted before the grid's rows: pages list "the newest measurements" by id, and the evidence
  // walk needs the grid's timelines there.
  const cacheRows: Array<typeof measurements.$inferInsert> = [];
  SYNTHETIC_ENDPOINTS.forEach((spec, si) => {
    const rand = prng(5000 + si);
    for (let t = dense.getTime(); t <= now.getTime() - 120_000; t += 3600_000) {
      const speed = spec.speed['prose-1k'] * (1 + 0.03 * gauss(rand));
      const outputTokens = 256;
      for (const [slug, at, ttft, cached] of [
        ['cache-cold-2k', t, spec.ttftMs * 1.8 * (1 + 0.05 * gauss(rand)), spec.cache.cachedInputTokens === null ? null : 0],
        ['cache-warm-2k', t + 30_000, spec.ttftMs * 1.8 * spec.cache.warmTtftShare * (1 + 0.05 * gauss(rand)), spec.cache.cachedInputTokens],
      ] as const) {
        const e2e = ttft + ((outputTokens - 1) / speed) * 1000;
        cacheRows.push({
          jobKey: `synthetic:${spec.slug}:${slug}:${new Date(at).toISOString()}`,
          endpointId: endpointIds[spec.slug]!,
          workloadId: cacheWorkloadId.get(slug)!,
          measuredAt: new Date(at),
          workerRegion: 'local',
          workerVersion: 'synthetic',
          promptHash: `synthetic-cache-${t}`,
          ...successFigures(ttft, speed, e2e, outputTokens, outputTokens),
          inputTokensReported: SYNTHETIC_CACHE_INPUT_TOKENS,
          cachedInputTokens: cached,
        });
      }
    }
  });
  const all = [...cacheRows, ...rows];
  for (let i = 0; i < all.length; i += 500) await db.insert(measurements).values(all.slice(i, i + 500));

  const to = new Date(now.getTime() + 3600_000);
  await rebuildRollups(db, { granularity: 'hour', from, to });
  await rebuildRollups(db, { granularity: 'day', from, to: new Date(now.getTime() + 86400_000) });
  return { providerId: provider!.id, endpointIds, measurements: all.length, from, to: now };
}

/**
 * The figures of a successful synthetic measurement that stopped at its length limit: TTFT `ttft`
 * (ms; TTFB 90 % of it, no reasoning), `speed` (tokens/s), E2E `e2e` (ms), `outputTokens` reported
 * (3 fewer by o200k), in `chunks` content chunks.
 */
function successFigures(ttft: number, speed: number, e2e: number, outputTokens: number, chunks: number) {
  return {
    outcome: 'success',
    httpStatus: 200,
    connectMs: 0,
    ttfbMs: ttft * 0.9,
    ttftMs: ttft,
    ttfatMs: ttft,
    e2eMs: e2e,
    outputTokensReported: outputTokens,
    outputTokensO200k: outputTokens - 3,
    outputTokensPerSecond: speed,
    outputTokensPerSecondO200k: speed * ((outputTokens - 3) / outputTokens),
    tpotMs: (e2e - ttft) / (outputTokens - 1),
    contentChunks: chunks,
    finishReason: 'length',
  } satisfies Partial<typeof measurements.$inferInsert>;
}

/** Count of synthetic measurements (used by tests to check the helper's effect). */
export async function countSyntheticMeasurements(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(measurements)
    .innerJoin(endpoints, eq(endpoints.id, measurements.endpointId))
    .where(and(like(endpoints.slug, 'synthetic-%')));
  return Number(row?.n ?? 0);
}
