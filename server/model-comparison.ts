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
import type { ComparedEndpoint, ComparedModel } from '@/lib/catalog/model-comparison';
import { getLeaderboardAnswer, type LeaderboardAnswer } from './leaderboard';

type Entry = LeaderboardAnswer['entries'][number];

export { applyComparisonFilters, endpointPasses, type ComparedEndpoint, type ComparedModel, type ComparisonFilters } from '@/lib/catalog/model-comparison';

/** The comparison's question: the board parameters without model and instant (always live). */
export type ModelComparisonQuery = Pick<LeaderboardQuery, 'workload' | 'window' | 'basis' | 'region'>;

/**
 * Every listed model's ranked endpoints and fastest endpoint for one workload × window × basis
 * (× region), live. One leaderboard answer per model (precomputed answers for the default windows).
 * Models are ordered by their best median TPS/user, fastest first, then unmeasured ones by name.
 * @param now wall-clock instant (tests pass fixed instants)
 */
export async function getModelComparison(
  db: Db,
  q: ModelComparisonQuery,
  now = new Date(),
): Promise<{ asOf: string | null; workload: string; window: string; windowHours: number; basis: string; region: string | null; models: ComparedModel[] }> {
  const [models, endpoints] = await Promise.all([listComparedModels(db), listEndpoints(db)]);
  const facts = new Map(endpoints.map((e) => [e.id, e]));
  const answers = await Promise.all(models.map((m) => getLeaderboardAnswer(db, { ...q, model: m.slug, at: undefined }, now)));
  const compared: ComparedModel[] = models.map((m, i) => {
    const answer = answers[i]!;
    const own = endpoints.filter((e) => e.modelSlug === m.slug);
    const ranked: ComparedEndpoint[] = answer.entries
      .filter(
        (e): e is Entry & { rank: number; outputTokensPerSecond: NonNullable<Entry['outputTokensPerSecond']> } =>
          e.rank !== null && e.outputTokensPerSecond !== null,
      )
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
    const providers = [...new Map(own.map((e) => [e.providerSlug, { slug: e.providerSlug, name: e.provider }])).values()].sort((a, b) =>
      a.name.localeCompare(b.name),
    );
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
  return {
    asOf: asOfs.at(-1) ?? null,
    workload: q.workload,
    window: `${q.window}h`,
    windowHours: q.window,
    basis: q.basis,
    region: q.region ?? null,
    models: compared,
  };
}
