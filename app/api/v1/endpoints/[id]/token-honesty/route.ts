import { connection } from 'next/server';
import { getPublicEndpoint } from '@/db/queries/catalog';
import { getTokenHonesty } from '@/db/queries/token-honesty';
import { getDb } from '@/server/shared';
import { idParamSchema } from '@/lib/api/schemas';
import { tokenHonestyQuerySchema } from '@/lib/api/token-honesty-schemas';
import { ApiError, corsPreflight, handle, jsonRead, parseParam, parseQuery, resolveAsOf } from '@/app/api/_lib/respond';

// GET /api/v1/endpoints/{id}/token-honesty – reported ÷ o200k output tokens over the window with its 95 % interval, against the model tokenizer's expected band (decision 175).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const query = parseQuery(tokenHonestyQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  const endpoint = await getPublicEndpoint(db, id);
  if (!endpoint) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  // now to the minute (resolveAsOf): one answer, and one ETag, per minute
  const asOf = resolveAsOf(undefined, new Date());
  const from = new Date(asOf.getTime() - query.window * 3600_000);
  const honesty = await getTokenHonesty(db, { endpointId: id, from, to: asOf });
  return jsonRead(request, { endpointId: id, windowStart: from.toISOString(), asOf: asOf.toISOString(), ...honesty });
});

export const OPTIONS = corsPreflight;
