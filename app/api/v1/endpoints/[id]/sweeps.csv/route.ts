import { connection } from 'next/server';
import { getDb } from '@/server/shared';
import { emptyQuerySchema, idParamSchema } from '@/lib/api/schemas';
import { corsPreflight, handle, parseParam, parseQuery } from '@/app/api/_lib/respond';
import { loadEndpointSweeps } from '@/app/api/_lib/sweeps';
import { sweepsCsv } from '@/app/api/_lib/sweeps-csv';

// GET /api/v1/endpoints/{id}/sweeps.csv – every level of the endpoint's sweeps as CSV, one line per level.
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  return sweepsCsv(request, await loadEndpointSweeps(getDb(), id), `endpoint-${id}-sweeps.csv`);
});
export const OPTIONS = corsPreflight;
