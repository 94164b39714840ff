import { connection } from 'next/server';
import { getDb } from '@/server/shared';
import { emptyQuerySchema, idParamSchema } from '@/lib/api/schemas';
import { corsPreflight, handle, jsonRead, parseParam, parseQuery, wantsCsv } from '@/app/api/_lib/respond';
import { loadSweep } from '@/app/api/_lib/sweeps';
import { sweepsCsv } from '@/app/api/_lib/sweeps-csv';

// GET /api/v1/sweeps/{id} – one sweep with its levels and Pareto frontier (live while running; Accept: text/csv for one line per level).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const sweep = await loadSweep(getDb(), id);
  if (wantsCsv(request)) return sweepsCsv(request, [sweep], `sweep-${id}.csv`);
  return jsonRead(request, sweep, sweep.sweep.status === 'running' || sweep.sweep.status === 'queued' ? 2 : 60);
});
export const OPTIONS = corsPreflight;
