import { sql } from 'drizzle-orm';
import type { Db } from '../client';

/** Metrics summarised in rollups, by TypeScript name → measurements column. */
export const ROLLUP_METRICS = {
  ttftMs: 'ttft_ms',
  ttfatMs: 'ttfat_ms',
  e2eMs: 'e2e_ms',
  outputTokensPerSecond: 'output_tokens_per_second',
  outputTokensPerSecondO200k: 'output_tokens_per_second_o200k',
} as const;

const PCTS = [0.05, 0.25, 0.5, 0.75, 0.95] as const;

function statsExpr(column: string) {
  const c = sql.raw(column);
  return sql`percentile_cont(array[0.05,0.25,0.5,0.75,0.95]) within group (order by m.${c}) filter (where m.outcome = 'success' and m.valid and m.${c} is not null)`;
}

/**
 * Recomputes hourly or daily rollup buckets whose start lies in [from, to) from raw measurements
 * (upsert, so re-running is safe and a rebuild equals the incremental result). Percentiles are
 * linear-interpolated (Postgres percentile_cont = numpy default) over successful, valid
 * measurements. Returns the number of buckets written.
 */
export async function rebuildRollups(db: Db, params: { granularity: 'hour' | 'day'; from: Date; to: Date }): Promise<number> {
  const unit = sql.raw(`'${params.granularity}'`);
  const metricCols = Object.entries(ROLLUP_METRICS).map(([name, col]) => sql`${statsExpr(col)} as ${sql.identifier(name)}`);
  const rows = (await db.execute(sql`
    select date_trunc(${unit}, m.measured_at, 'UTC') as bucket_start,
           m.endpoint_id, m.workload_id, m.worker_region,
           count(*)::int as count,
           (count(*) filter (where m.outcome = 'success'))::int as successes,
           coalesce(jsonb_object_agg(m.error_kind, 1) filter (where m.error_kind is not null), '{}'::jsonb) as kinds_seen,
           ${sql.join(metricCols, sql`, `)}
    from measurements m
    where m.measured_at >= date_trunc(${unit}, ${params.from.toISOString()}::timestamptz, 'UTC')
      and m.measured_at < ${params.to.toISOString()}::timestamptz
    group by 1, 2, 3, 4
  `)) as unknown as Array<Record<string, unknown>>;
  if (rows.length === 0) return 0;
  const kindRows = (await db.execute(sql`
    select date_trunc(${unit}, m.measured_at, 'UTC') as bucket_start, m.endpoint_id, m.workload_id, m.worker_region,
           m.error_kind, count(*)::int as n
    from measurements m
    where m.error_kind is not null
      and m.measured_at >= date_trunc(${unit}, ${params.from.toISOString()}::timestamptz, 'UTC')
      and m.measured_at < ${params.to.toISOString()}::timestamptz
    group by 1, 2, 3, 4, 5
  `)) as unknown as Array<Record<string, unknown>>;
  const kinds = new Map<string, Record<string, number>>();
  for (const k of kindRows) {
    const key = `${new Date(k.bucket_start as string).toISOString()}|${k.endpoint_id}|${k.workload_id}|${k.worker_region}`;
    const m = kinds.get(key) ?? {};
    m[k.error_kind as string] = Number(k.n);
    kinds.set(key, m);
  }
  for (const r of rows) {
    const bucketStart = new Date(r.bucket_start as string);
    const key = `${bucketStart.toISOString()}|${r.endpoint_id}|${r.workload_id}|${r.worker_region}`;
    const stats: Record<string, Record<string, number> | null> = {};
    for (const name of Object.keys(ROLLUP_METRICS)) {
      const arr = r[name] as number[] | null;
      stats[name] = arr ? Object.fromEntries(PCTS.map((p, i) => [`p${Math.round(p * 100)}`, Number(arr[i])])) : null;
    }
    await db.execute(sql`
      insert into measurement_rollups (granularity, bucket_start, endpoint_id, workload_id, worker_region, count, successes, stats, error_kinds, sketches, updated_at)
      values (${params.granularity}, ${bucketStart.toISOString()}::timestamptz, ${r.endpoint_id as number}, ${r.workload_id as number}, ${r.worker_region as string},
              ${r.count as number}, ${r.successes as number}, ${JSON.stringify(stats)}::jsonb, ${JSON.stringify(kinds.get(key) ?? {})}::jsonb, '{}'::jsonb, now())
      on conflict (granularity, bucket_start, endpoint_id, workload_id, worker_region)
      do update set count = excluded.count, successes = excluded.successes, stats = excluded.stats,
                    error_kinds = excluded.error_kinds, updated_at = now()
    `);
  }
  return rows.length;
}
