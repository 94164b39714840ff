/**
 * SQL of the window statistics (server/window-stats.ts assembles; lib/stats/window-stats
 * computes): the listed endpoints of a model, rollup buckets by start, and raw measurements of a
 * time range with their sketch bucket indexes computed by Postgres (the same function as the
 * rollups, so a raw row and a rollup bucket put a value in the same sketch bucket).
 */
import { notRankableReasonsSql, rankableSql } from './disputes';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, measurementRollups, models, providers, workloads } from '../schema';
import { blendedUsdPerMTokensSql, endpointDeploymentColumns, endpointNameColumns } from './endpoint-columns';
import { sketchIndexSql } from './sketch-bucket-sql';
import { cachedInputShareSql } from './cached-input-share-sql';
import type { ServiceTierDeclaration, TierObjective } from '@/lib/probe/service-tier';

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
  /** declared blended price, USD per million tokens (3:1 input:output; lib/catalog/pricing), null when none declared */
  blendedUsdPerMTokens: number | null;
  /** declared service tier (lib/probe/service-tier), null: the default tier (decision 262) */
  serviceTier: ServiceTierDeclaration | null;
  /** the provider's published objective for the tier, null when none declared */
  tierObjective: TierObjective | null;
}

/** Listed endpoints of a model (active, inactive, paused) with declared metadata, by id. */
export async function listLeaderboardEndpoints(db: Db, modelSlug: string): Promise<LeaderboardEndpoint[]> {
  return selectLeaderboardEndpoints(db, [modelSlug]);
}

/**
 * {@link listLeaderboardEndpoints} of several models in one query (the precompute job asks every
 * listed model each minute: one round trip, not one per model, decision 311). Every given slug is
 * a key (an empty list when it has none); each list is the same rows in the same order.
 */
export async function listLeaderboardEndpointsOfModels(db: Db, modelSlugs: readonly string[]): Promise<Map<string, LeaderboardEndpoint[]>> {
  const out = new Map<string, LeaderboardEndpoint[]>(modelSlugs.map((m) => [m, []]));
  if (modelSlugs.length === 0) return out;
  for (const e of await selectLeaderboardEndpoints(db, modelSlugs)) out.get(e.modelSlug)?.push(e);
  return out;
}

async function selectLeaderboardEndpoints(db: Db, modelSlugs: readonly string[]): Promise<LeaderboardEndpoint[]> {
  return db
    .select({
      ...endpointNameColumns,
      kind: providers.kind,
      status: endpoints.status,
      ...endpointDeploymentColumns,
      region: endpoints.region,
      calibrationTps: endpoints.calibrationTps,
      calibrationTtftMs: endpoints.calibrationTtftMs,
      blendedUsdPerMTokens: blendedUsdPerMTokensSql,
      serviceTier: endpoints.serviceTier,
      tierObjective: endpoints.tierObjective,
    })
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(
      and(
        modelSlugs.length === 1 ? eq(models.slug, modelSlugs[0]!) : inArray(models.slug, [...modelSlugs]),
        inArray(endpoints.status, ['active', 'inactive', 'paused', 'retired'] as const),
      ),
    )
    .orderBy(asc(endpoints.id));
}

/** Id of a workload by slug, or null. */
export async function getWorkloadId(db: Db, slug: string): Promise<number | null> {
  const rows = await db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, slug)).limit(1);
  return rows[0]?.id ?? null;
}

/** Ids of the given workload slugs and model slugs (unknown slugs are absent), in one query each. */
export async function listSlugIds(
  db: Db,
  p: { workloads: readonly string[]; models: readonly string[] },
): Promise<{ workloads: Map<string, number>; models: Map<string, number> }> {
  const ws = p.workloads.length
    ? await db
        .select({ id: workloads.id, slug: workloads.slug })
        .from(workloads)
        .where(inArray(workloads.slug, [...p.workloads]))
    : [];
  const ms = p.models.length
    ? await db
        .select({ id: models.id, slug: models.slug })
        .from(models)
        .where(inArray(models.slug, [...p.models]))
    : [];
  return { workloads: new Map(ws.map((w) => [w.slug, w.id])), models: new Map(ms.map((m) => [m.slug, m.id])) };
}

/** Columns of a rollup bucket that window statistics read (see db/queries/rollup-parts toWindowPart). */
export const rollupPartColumns = {
  bucketStart: measurementRollups.bucketStart,
  endpointId: measurementRollups.endpointId,
  workerRegion: measurementRollups.workerRegion,
  count: measurementRollups.count,
  successes: measurementRollups.successes,
  errorKinds: measurementRollups.errorKinds,
  sketches: measurementRollups.sketches,
  notRankable: measurementRollups.notRankable,
};

/** Rollup buckets of one workload (all endpoints and regions) with the given starts. */
export async function listRollupBuckets(db: Db, p: { granularity: 'hour' | 'day'; workloadId: number; starts: Date[] }) {
  return db
    .select(rollupPartColumns)
    .from(measurementRollups)
    .where(
      and(
        eq(measurementRollups.granularity, p.granularity),
        eq(measurementRollups.workloadId, p.workloadId),
        inArray(measurementRollups.bucketStart, p.starts),
      ),
    );
}

/** One raw measurement as window statistics read it; `*_bin` are sketch bucket indexes, null when absent or not rankable. */
export interface RawWindowRow {
  endpoint_id: number;
  worker_region: string;
  outcome: string;
  error_kind: string | null;
  at_ms: number;
  not_rankable_reasons: string[];
  speed: number | null;
  speed_o200k: number | null;
  ttft_ms: number | null;
  ttfat_ms: number | null;
  e2e_ms: number | null;
  speed_bin: number | null;
  speed_o200k_bin: number | null;
  ttft_ms_bin: number | null;
  ttfat_ms_bin: number | null;
  e2e_ms_bin: number | null;
  itl_p50_ms: number | null;
  itl_p95_ms: number | null;
  itl_p50_ms_bin: number | null;
  itl_p95_ms_bin: number | null;
  cached_input_tokens?: number | null;
  cached_input_tokens_bin?: number | null;
  tier_objective_met?: number | null;
  tier_objective_met_bin?: number | null;
  /** cached ÷ input tokens of the prompt (db/queries/cached-input-share-sql, decision 291) and its sketch bin */
  cached_input_share?: number | null;
  cached_input_share_bin?: number | null;
  /** fidelity verdict (null: ordinary or failed probe) */
  fidelity_passed: boolean | null;
}

/**
 * Raw rows of one workload with measured_at in [from, to] (or [from, to) with `toExclusive`),
 * optionally of some endpoints and one worker region. Only the columns the statistics need.
 */
export async function listRawWindowRows(
  db: Db,
  p: { endpointIds: number[] | null; workloadId: number | readonly number[]; from: Date; to: Date; region: string | null; toExclusive?: boolean },
): Promise<Array<RawWindowRow & { workload_id: number }>> {
  const toOp = p.toExclusive ? sql`<` : sql`<=`;
  const regionFilter = p.region ? sql`and m.worker_region = ${p.region}` : sql``;
  const endpointFilter = p.endpointIds ? sql`m.endpoint_id = any(${`{${p.endpointIds.join(',')}}`}::int[]) and` : sql``;
  const binOf = (x: ReturnType<typeof sql>) => sql`case when m.outcome = 'success' and m.valid and ${rankableSql('m')} then ${sketchIndexSql(x)} end`;
  const bin = (col: string) => binOf(sql`${sql.raw(`m.${col}`)}`);
  return (await db.execute(sql`
    select m.endpoint_id, m.workload_id, m.worker_region, m.outcome, m.error_kind, ${notRankableReasonsSql('m')} as not_rankable_reasons,
           floor(extract(epoch from m.measured_at) * 1000)::float8 as at_ms,
           m.output_tokens_per_second as speed, m.output_tokens_per_second_o200k as speed_o200k, m.ttft_ms, m.ttfat_ms, m.e2e_ms,
           ${bin('output_tokens_per_second')} as speed_bin, ${bin('output_tokens_per_second_o200k')} as speed_o200k_bin,
           ${bin('ttft_ms')} as ttft_ms_bin, ${bin('ttfat_ms')} as ttfat_ms_bin, ${bin('e2e_ms')} as e2e_ms_bin,
           m.itl_p50_ms, m.itl_p95_ms, ${bin('itl_p50_ms')} as itl_p50_ms_bin, ${bin('itl_p95_ms')} as itl_p95_ms_bin,
           m.cached_input_tokens, ${bin('cached_input_tokens')} as cached_input_tokens_bin,
           m.tier_objective_met, ${bin('tier_objective_met')} as tier_objective_met_bin,
           ${cachedInputShareSql('m')} as cached_input_share, ${binOf(cachedInputShareSql('m'))} as cached_input_share_bin, m.fidelity_passed
    from measurements m
    where ${endpointFilter} ${typeof p.workloadId === 'number' ? sql`m.workload_id = ${p.workloadId}` : sql`m.workload_id = any(${`{${p.workloadId.join(',')}}`}::int[])`}
      and m.measured_at >= ${p.from.toISOString()}::timestamptz and m.measured_at ${toOp} ${p.to.toISOString()}::timestamptz ${regionFilter}
  `)) as unknown as Array<RawWindowRow & { workload_id: number }>;
}
