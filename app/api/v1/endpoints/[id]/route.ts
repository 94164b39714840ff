import { connection } from 'next/server';
import { getPublicEndpoint } from '@/db/queries/catalog';
import { getDb } from '@/db/shared';
import { idParamSchema } from '@/lib/api/schemas';
import { ApiError, corsPreflight, handle, jsonRead, parseParam } from '@/app/api/_lib/respond';

// GET /api/v1/endpoints/{id} – one endpoint's public record and declared metadata.
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const endpoint = await getPublicEndpoint(getDb(), id);
  if (!endpoint) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  return jsonRead(request, endpoint);
});
export const OPTIONS = corsPreflight;
