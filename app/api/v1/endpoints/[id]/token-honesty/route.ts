import { getTokenHonesty } from '@/db/queries/token-honesty';
import { tokenHonestyQuerySchema } from '@/lib/api/token-honesty-schemas';
import { readPublicEndpoint } from '@/app/api/_lib/public-endpoint-read';
import { corsPreflight, handle, jsonRead, resolveAsOf } from '@/app/api/_lib/respond';

// GET /api/v1/endpoints/{id}/token-honesty – reported ÷ o200k output tokens over the window with its 95 % interval, against the model tokenizer's expected band (decision 175).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id, query, db } = await readPublicEndpoint(request, ctx, tokenHonestyQuerySchema);
  // now to the minute (resolveAsOf): one answer, and one ETag, per minute
  const asOf = resolveAsOf(undefined, new Date());
  const from = new Date(asOf.getTime() - query.window * 3600_000);
  const honesty = await getTokenHonesty(db, { endpointId: id, from, to: asOf });
  return jsonRead(request, { endpointId: id, windowStart: from.toISOString(), asOf: asOf.toISOString(), ...honesty });
});

export const OPTIONS = corsPreflight;
