/**
 * Uptime of one endpoint: probe counts and successes over the trailing windows of lib/stats/uptime
 * (5m, 30m, 1d, 7d), and its most recent probes for a status strip. Reads raw measurements through
 * measurements_endpoint_time_idx (endpoint, time range), all workloads; one region or all.
 */
import { and, desc, eq, lte, ne, or, isNull, sql } from 'drizzle-orm';
import { computeUptimeWindow, UPTIME_WINDOWS, type UptimeWindow, type UptimeWindowKey } from '@/lib/stats/uptime';
import type { Db } from '../client';
import { measurements } from '../schema';

/** One recent probe in the status strip. */
export interface RecentProbe {
  measuredAt: string;
  outcome: 'success' | 'error';
  errorKind: string | null;
  region: string;
}

/** An endpoint's uptime at `asOf`: per window counts and fraction, and the newest probes first. */
export interface EndpointUptime {
  asOf: string;
  /** null: all regions merged; else the worker region counted. */
  region: string | null;
  windows: Record<UptimeWindowKey, UptimeWindow>;
  recent: RecentProbe[];
}

/** Uptime of `endpointId` as of `now` (UTC), optionally for one worker region; `recentLimit` probes in the strip (default 60). */
export async function getEndpointUptime(
  db: Db,
  params: { endpointId: number; now: Date; region?: string | null; recentLimit?: number },
): Promise<EndpointUptime> {
  const { endpointId, now } = params;
  const region = params.region ?? null;
  const longest = UPTIME_WINDOWS[UPTIME_WINDOWS.length - 1]!.ms;
  const counted = or(isNull(measurements.errorKind), ne(measurements.errorKind, 'cancelled'));
  const inRegion = region ? eq(measurements.workerRegion, region) : undefined;
  const columns = Object.fromEntries(
    UPTIME_WINDOWS.flatMap((w) => {
      const since = new Date(now.getTime() - w.ms).toISOString();
      return [
        [`n_${w.key}`, sql<number>`count(*) filter (where ${measurements.measuredAt} > ${since}::timestamptz)::int`],
        [`s_${w.key}`, sql<number>`count(*) filter (where ${measurements.measuredAt} > ${since}::timestamptz and ${measurements.outcome} = 'success')::int`],
      ];
    }),
  );
  const [row] = await db
    .select(columns)
    .from(measurements)
    .where(
      and(
        eq(measurements.endpointId, endpointId),
        sql`${measurements.measuredAt} > ${new Date(now.getTime() - longest).toISOString()}::timestamptz`,
        lte(measurements.measuredAt, now),
        counted,
        inRegion,
      ),
    );
  const windows = Object.fromEntries(
    UPTIME_WINDOWS.map((w) => [w.key, computeUptimeWindow(Number(row?.[`s_${w.key}`] ?? 0), Number(row?.[`n_${w.key}`] ?? 0))]),
  ) as Record<UptimeWindowKey, UptimeWindow>;
  const recent = await db
    .select({ measuredAt: measurements.measuredAt, outcome: measurements.outcome, errorKind: measurements.errorKind, region: measurements.workerRegion })
    .from(measurements)
    .where(and(eq(measurements.endpointId, endpointId), lte(measurements.measuredAt, now), counted, inRegion))
    .orderBy(desc(measurements.measuredAt))
    .limit(params.recentLimit ?? 60);
  return {
    asOf: now.toISOString(),
    region,
    windows,
    recent: recent.map((r) => ({ measuredAt: r.measuredAt.toISOString(), outcome: r.outcome, errorKind: r.errorKind, region: r.region })),
  };
}
