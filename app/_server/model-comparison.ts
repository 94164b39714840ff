/**
 * The model comparison of the home page and GET /api/v1/model-comparison: for every listed model,
 * its ranked endpoints as the model's own leaderboard answer has them (the one statistics engine,
 * the same answer — precomputed or on demand — that the model's board serves), and the fastest of
 * them. Nothing here computes a figure: every TPS/user, interval, TTFT, success rate and fidelity
 * figure is copied from the board's entry, so the home page and the per-model boards show the same
 * numbers (decision 223). Declared facts beside them (precision, context window, blended price) come
 * from the catalog.
 *
 * "Fastest" is the board's own order: the first ranked entry (rank 1, best median in the top tie
 * band; lib/ranking/build-leaderboard). Filters pick the first ranked entry that passes them, so a
 * filtered comparison still shows board figures, never a recomputed one.
 */
import type { Db } from '@/db/client';
import { listComparedModels, listEndpoints } from '@/db/queries/catalog';
import type { LeaderboardQuery } from '@/lib/api/schemas';
import { getLeaderboardAnswer, type LeaderboardAnswer } from './leaderboard';

type Entry = LeaderboardAnswer['entries'][number];

/** One ranked endpoint of a model, with the board's figures and the catalog's declared facts. */
export interface ComparedEndpoint {
  id: number;
  slug: string;
  provider: string;
  providerSlug: string;
  /** declared precision (FP8, BF16, ...); null = undeclared */
  precision: string | null;
  hardware: string | null;
  /** declared context window, tokens; null = unknown */
  contextWindowTokens: number | null;
  /** declared blended price, USD per million tokens (3:1 input:output); null = unknown */
  blendedUsdPerMTokens: number | null;
  /** the board's rank and band (1 = best) */
  rank: number;
  band: number | null;
  samples: number;
  /** TPS/user percentiles, tokens/s (the board's) */
  outputTokensPerSecond: NonNullable<Entry['outputTokensPerSecond']>;
  /** 95 % interval of the median TPS/user, tokens/s (the board's) */
  outputTokensPerSecondMedianCi: Entry['outputTokensPerSecondMedianCi'];
  /** TTFT percentiles, ms (the board's) */
  ttftMs: Entry['ttftMs'];
  successRate: Entry['successRate'];
  fidelity: Entry['fidelity'];
}

/** One model of the comparison. */
export interface ComparedModel {
  slug: string;
  name: string;
  family: string | null;
  creator: string | null;
  /** open-weight or proprietary; null = undeclared */
  weights: 'open' | 'proprietary' | null;
  retired: boolean;
  /** listed endpoints (any status) and those probed now */
  endpointCount: number;
  activeEndpointCount: number;
  /** providers serving the model (listed endpoints), by name */
  providers: Array<{ slug: string; name: string }>;
  /** largest declared context window among the model's endpoints, tokens; null = none declared */
  maxContextWindowTokens: number | null;
  /** lowest declared blended price among the model's endpoints, USD per million tokens */
  minBlendedUsdPerMTokens: number | null;
  /** the model's board this comes from: cite it */
  snapshotId: string;
  asOf: string;
  /** ranked endpoints in the board's order (fastest first) */
  ranked: ComparedEndpoint[];
  /** the fastest ranked endpoint (= ranked[0]); null when none is ranked in the window */
  best: ComparedEndpoint | null;
}

/** The comparison's question: the board parameters without model and instant (always live). */
export type ModelComparisonQuery = Pick<LeaderboardQuery, 'workload' | 'window' | 'basis' | 'region'>;

/** Filters of the comparison (all optional): which endpoints may stand for a model. */
export interface ComparisonFilters {
  weights?: 'open' | 'proprietary' | null;
  /** provider slugs; empty/undefined = any */
  providers?: string[];
  /** blended price ceiling, USD per million tokens: an endpoint with unknown price never passes a ceiling */
  maxBlendedUsdPerMTokens?: number | null;
  /** minimum declared context window, tokens: an endpoint with unknown context never passes a minimum */
  minContextWindowTokens?: number | null;
  /** include retired models (default: no) */
  includeRetired?: boolean;
}

/**
 * Whether an endpoint may stand for its model under `f`: provider in the set, declared price at or
 * under the ceiling, declared context window at or over the minimum. Unknown price or context fails
 * a bound (unknown is never a number, decision 223). Shared by the page (client) and the API.
 */
export function endpointPasses(e: Pick<ComparedEndpoint, 'providerSlug' | 'blendedUsdPerMTokens' | 'contextWindowTokens'>, f: ComparisonFilters): boolean {
  if (f.providers && f.providers.length > 0 && !f.providers.includes(e.providerSlug)) return false;
  if (f.maxBlendedUsdPerMTokens != null && (e.blendedUsdPerMTokens === null || e.blendedUsdPerMTokens > f.maxBlendedUsdPerMTokens)) return false;
  if (f.minContextWindowTokens != null && (e.contextWindowTokens === null || e.contextWindowTokens < f.minContextWindowTokens)) return false;
  return true;
}

/**
 * Applies `f`: models of the chosen weights (and not retired unless asked), each with `best` = the
 * first ranked endpoint that passes. A model with no ranked endpoint is kept (best null) unless an
 * endpoint filter is set and none of its listed endpoints' declared facts could pass.
 */
export function applyComparisonFilters(models: ComparedModel[], f: ComparisonFilters): ComparedModel[] {
  const endpointFilter = (f.providers?.length ?? 0) > 0 || f.maxBlendedUsdPerMTokens != null || f.minContextWindowTokens != null;
  return models
    .filter((m) => (f.includeRetired || !m.retired) && (!f.weights || m.weights === f.weights))
    .map((m) => ({ ...m, best: m.ranked.find((e) => endpointPasses(e, f)) ?? null }))
    .filter((m) => {
      if (!endpointFilter || m.best) return true;
      // Not measured yet: keep it when its declared facts could pass (a provider that serves it, a price and a context that qualify).
      if (m.ranked.length > 0) return false;
      if ((f.providers?.length ?? 0) > 0 && !m.providers.some((p) => f.providers!.includes(p.slug))) return false;
      if (f.maxBlendedUsdPerMTokens != null && (m.minBlendedUsdPerMTokens === null || m.minBlendedUsdPerMTokens > f.maxBlendedUsdPerMTokens)) return false;
      if (f.minContextWindowTokens != null && (m.maxContextWindowTokens === null || m.maxContextWindowTokens < f.minContextWindowTokens)) return false;
      return true;
    });
}

/**
 * Every listed model's ranked endpoints and fastest endpoint for one workload × window × basis
 * (× region), live. One leaderboard answer per model (precomputed answers for the default windows).
 * Models are ordered by their best median TPS/user, fastest first, then unmeasured ones by name.
 * @param now wall-clock instant (tests pass fixed instants)
 */
export async function getModelComparison(db: Db, q: ModelComparisonQuery, now = new Date()): Promise<{ asOf: string | null; workload: string; window: string; windowHours: number; basis: string; region: string | null; models: ComparedModel[] }> {
  const [models, endpoints] = await Promise.all([listComparedModels(db), listEndpoints(db)]);
  const facts = new Map(endpoints.map((e) => [e.id, e]));
  const answers = await Promise.all(models.map((m) => getLeaderboardAnswer(db, { ...q, model: m.slug, at: undefined }, now)));
  const compared: ComparedModel[] = models.map((m, i) => {
    const answer = answers[i]!;
    const own = endpoints.filter((e) => e.modelSlug === m.slug);
    const ranked: ComparedEndpoint[] = answer.entries
      .filter((e): e is Entry & { rank: number; outputTokensPerSecond: NonNullable<Entry['outputTokensPerSecond']> } => e.rank !== null && e.outputTokensPerSecond !== null)
      .map((e) => {
        const f = facts.get(e.endpoint.id);
        return {
          id: e.endpoint.id,
          slug: e.endpoint.slug,
          provider: e.endpoint.provider,
          providerSlug: e.endpoint.providerSlug,
          precision: e.endpoint.precision,
          hardware: e.endpoint.hardware,
          contextWindowTokens: f?.contextWindowTokens ?? null,
          blendedUsdPerMTokens: e.endpoint.blendedUsdPerMTokens,
          rank: e.rank,
          band: e.band,
          samples: e.samples,
          outputTokensPerSecond: e.outputTokensPerSecond,
          outputTokensPerSecondMedianCi: e.outputTokensPerSecondMedianCi,
          ttftMs: e.ttftMs,
          successRate: e.successRate,
          fidelity: e.fidelity,
        };
      });
    const providers = [...new Map(own.map((e) => [e.providerSlug, { slug: e.providerSlug, name: e.provider }])).values()].sort((a, b) => a.name.localeCompare(b.name));
    const contexts = own.map((e) => e.contextWindowTokens).filter((v): v is number => v !== null);
    const prices = own.map((e) => e.blendedUsdPerMTokens).filter((v): v is number => v !== null);
    return {
      slug: m.slug,
      name: m.name,
      family: m.family,
      creator: m.creator,
      weights: m.weights,
      retired: m.retiredAt !== null,
      endpointCount: m.endpointCount,
      activeEndpointCount: m.activeEndpointCount,
      providers,
      maxContextWindowTokens: contexts.length ? Math.max(...contexts) : null,
      minBlendedUsdPerMTokens: prices.length ? Math.min(...prices) : null,
      snapshotId: answer.snapshotId,
      asOf: answer.asOf,
      ranked,
      best: ranked[0] ?? null,
    };
  });
  compared.sort((a, b) => (b.best?.outputTokensPerSecond.p50 ?? -1) - (a.best?.outputTokensPerSecond.p50 ?? -1) || a.name.localeCompare(b.name));
  const asOfs = compared.map((m) => m.asOf).sort();
  return { asOf: asOfs.at(-1) ?? null, workload: q.workload, window: `${q.window}h`, windowHours: q.window, basis: q.basis, region: q.region ?? null, models: compared };
}
