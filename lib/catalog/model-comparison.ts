/**
 * Shapes and filters of the model comparison (home page, GET /api/v1/model-comparison), free of
 * framework and database code so the page's filters run the same rule in the browser as the API
 * on the server (server/model-comparison composes the data; decision 223).
 */
/** Percentiles of one metric as the leaderboard answer carries them. */
type Percentiles = { p5: number; p25: number; p50: number; p75: number; p95: number };
type Interval = { low: number; high: number };

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
  outputTokensPerSecond: Percentiles;
  /** 95 % interval of the median TPS/user, tokens/s (the board's) */
  outputTokensPerSecondMedianCi: Interval | null;
  /** TTFT percentiles, ms (the board's) */
  ttftMs: Percentiles | null;
  successRate: number | null;
  fidelity: { passRate: number; n: number; interval: Interval } | null;
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
