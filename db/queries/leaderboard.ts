import { sql } from 'drizzle-orm';
import type { Db } from '../client';

/** P5/P25/P50/P75/P95 of one metric (unit as the metric's name says), or null without samples. */
export type Percentiles = { p5: number; p25: number; p50: number; p75: number; p95: number } | null;

/** One endpoint's figures over a window, before ranking. */
export interface LeaderboardRow {
  endpoint: {
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
  };
  /** probes in the window (success + failure) */
  n: number;
  successes: number;
  /** successful, valid samples behind the percentiles */
  samples: number;
  outputTokensPerSecond: Percentiles;
  ttftMs: Percentiles;
  ttfatMs: Percentiles;
  e2eMs: Percentiles;
  /** speeds of successful valid probes (for the median's bootstrap interval), at most 2,000 newest */
  speedSamples: number[];
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

const pct = (col: string) =>
  sql.raw(
    `percentile_cont(array[0.05,0.25,0.5,0.75,0.95]) within group (order by ms.${col}) filter (where ms.outcome = 'success' and ms.valid and ms.${col} is not null)`,
  );

function toPercentiles(arr: unknown): Percentiles {
  if (!Array.isArray(arr)) return null;
  const [p5, p25, p50, p75, p95] = arr.map(Number) as [number, number, number, number, number];
  return { p5, p25, p50, p75, p95 };
}

/**
 * Per-endpoint statistics for one model and workload over (asOf − window, asOf], from raw
 * measurements. Every listed or active endpoint of the model appears, with n = 0 when it has no
 * probes yet. Percentiles: Postgres percentile_cont (linear interpolation, numpy default).
 */
export async function listLeaderboardRows(db: Db, p: LeaderboardParams): Promise<LeaderboardRow[]> {
  const speedCol = p.basis === 'o200k' ? 'output_tokens_per_second_o200k' : 'output_tokens_per_second';
  const from = new Date(p.asOf.getTime() - p.windowHours * 3600_000).toISOString();
  const to = p.asOf.toISOString();
  const regionFilter = p.region ? sql`and ms.worker_region = ${p.region}` : sql``;
  const rows = (await db.execute(sql`
    select e.id, e.slug, pr.name as provider, pr.slug as provider_slug, mo.name as model, mo.slug as model_slug,
           pr.kind, e.status, e.hardware, e.engine, e.precision, e.speculative_decoding, e.deployment_kind, e.region,
           e.calibration_tps, e.calibration_ttft_ms,
           count(ms.id)::int as n,
           (count(ms.id) filter (where ms.outcome = 'success'))::int as successes,
           (count(ms.id) filter (where ms.outcome = 'success' and ms.valid and ms.${sql.raw(speedCol)} is not null))::int as samples,
           ${pct(speedCol)} as speed, ${pct('ttft_ms')} as ttft, ${pct('ttfat_ms')} as ttfat, ${pct('e2e_ms')} as e2e,
           (array_agg(ms.${sql.raw(speedCol)} order by ms.measured_at desc) filter (where ms.outcome = 'success' and ms.valid and ms.${sql.raw(speedCol)} is not null))[1:2000] as speed_samples,
           coalesce(jsonb_object_agg(ms.error_kind, 0) filter (where ms.error_kind is not null), '{}'::jsonb) as kinds_seen,
           max(ms.measured_at) as last_measured_at
    from endpoints e
    join providers pr on pr.id = e.provider_id
    join models mo on mo.id = e.model_id
    left join workloads w on w.slug = ${p.workloadSlug}
    left join measurements ms on ms.endpoint_id = e.id and ms.workload_id = w.id
         and ms.measured_at > ${from}::timestamptz and ms.measured_at <= ${to}::timestamptz ${regionFilter}
    where mo.slug = ${p.modelSlug} and e.status in ('active', 'inactive', 'paused')
    group by e.id, pr.id, mo.id
  `)) as unknown as Array<Record<string, unknown>>;

  const kindCounts = (await db.execute(sql`
    select ms.endpoint_id, ms.error_kind, count(*)::int as n
    from measurements ms join endpoints e on e.id = ms.endpoint_id join models mo on mo.id = e.model_id
    join workloads w on w.id = ms.workload_id
    where mo.slug = ${p.modelSlug} and w.slug = ${p.workloadSlug} and ms.error_kind is not null
      and ms.measured_at > ${from}::timestamptz and ms.measured_at <= ${to}::timestamptz ${regionFilter}
    group by 1, 2
  `)) as unknown as Array<{ endpoint_id: number; error_kind: string; n: number }>;
  const kinds = new Map<number, Record<string, number>>();
  for (const k of kindCounts) kinds.set(k.endpoint_id, { ...(kinds.get(k.endpoint_id) ?? {}), [k.error_kind]: Number(k.n) });

  return rows.map((r) => ({
    endpoint: {
      id: Number(r.id),
      slug: String(r.slug),
      provider: String(r.provider),
      providerSlug: String(r.provider_slug),
      model: String(r.model),
      modelSlug: String(r.model_slug),
      kind: r.kind as 'provider' | 'calibration',
      status: String(r.status),
      hardware: (r.hardware as string | null) ?? null,
      engine: (r.engine as string | null) ?? null,
      precision: (r.precision as string | null) ?? null,
      speculativeDecoding: (r.speculative_decoding as string | null) ?? null,
      deploymentKind: (r.deployment_kind as string | null) ?? null,
      region: (r.region as string | null) ?? null,
      calibrationTps: r.calibration_tps === null ? null : Number(r.calibration_tps),
      calibrationTtftMs: r.calibration_ttft_ms === null ? null : Number(r.calibration_ttft_ms),
    },
    n: Number(r.n),
    successes: Number(r.successes),
    samples: Number(r.samples),
    outputTokensPerSecond: toPercentiles(r.speed),
    ttftMs: toPercentiles(r.ttft),
    ttfatMs: toPercentiles(r.ttfat),
    e2eMs: toPercentiles(r.e2e),
    speedSamples: Array.isArray(r.speed_samples) ? (r.speed_samples as unknown[]).map(Number) : [],
    errorKinds: kinds.get(Number(r.id)) ?? {},
    lastMeasuredAt: r.last_measured_at ? new Date(r.last_measured_at as string).toISOString() : null,
  }));
}
