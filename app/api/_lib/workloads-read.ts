/**
 * GET /api/v1/workloads[.csv]: the workload grid. parse → load → respond, like the other public
 * reads (app/api/_lib/public-reads.ts), with the cadence figures from lib/probe/cadence.
 */
import { connection } from 'next/server';
import type { z } from 'zod';
import { getDb } from '@/server/shared';
import { listWorkloadGrid } from '@/db/queries/workloads';
import { workloadGridEntrySchema, type workloadsResponseSchema } from '@/lib/api/workload-schemas';
import { emptyQuerySchema } from '@/lib/api/schemas';
import { getEnv } from '@/lib/env';
import { FIDELITY_CHECK_BY_CATEGORY } from '@/lib/fidelity/tasks';
import { probesPerDay } from '@/lib/probe/cadence';
import { ALL_WORKLOADS } from '@/lib/probe/workloads';
import { csvRead, jsonRead, parseQuery, wantsCsv } from './respond';

/** GET /api/v1/workloads[.csv] */
export async function workloadsResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const rows = await listWorkloadGrid(getDb());
  const grid = new Map(ALL_WORKLOADS.map((w) => [w.slug, w]));
  const items: z.input<typeof workloadGridEntrySchema>[] = rows
    .filter((r) => grid.has(r.slug))
    .map((r) => {
      const w = grid.get(r.slug)!;
      return {
        ...r,
        headline: w.headline,
        probesPerDay: probesPerDay(w),
        minContextTokens: w.minContextTokens,
        // the prompt-cache and cache-lifetime families carry no fidelity task (their figures are TTFT and the cache counts)
        fidelityCheck: w.cacheRole || w.cacheLifetimeGapMinutes !== undefined ? null : w.outputKind ? 'json_schema' : FIDELITY_CHECK_BY_CATEGORY[w.category],
      };
    });
  if (wantsCsv(request, format)) return csvRead(request, workloadGridEntrySchema, items, 'tokenpace-workloads.csv', {}, 300);
  const body: z.input<typeof workloadsResponseSchema> = { items, fidelity: { minimumPerHour: 1, fraction: getEnv().TOKENPACE_FIDELITY_FRACTION } };
  return jsonRead(request, body, 300);
}
