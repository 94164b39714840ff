import { connection } from 'next/server';
import { getDb } from '@/server/shared';
import { emptyQuerySchema, idParamSchema } from '@/lib/api/schemas';
import { corsPreflight, handle, parseParam, parseQuery } from '@/app/api/_lib/respond';
import { loadSweep } from '@/app/api/_lib/sweeps';
import { sweepsCsv } from '@/app/api/_lib/sweeps-csv';

// GET /api/v1/sweeps/{id}/levels.csv – one sweep's levels as CSV.
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  return sweepsCsv(request, [await loadSweep(getDb(), id)], `sweep-${id}.csv`);
});
export const OPTIONS = corsPreflight;
