import { getDisputableEndpoint, openDispute } from '@/db/queries/disputes';
import { openDisputeBodySchema } from '@/lib/api/dispute-schemas';
import { publishDispute } from '@/lib/api/publish-dispute';
import { parseJsonBody, privateJson } from '@/app/api/_lib/body';
import { beginEndpointWrite } from '@/app/api/_lib/endpoint-write';
import { consumeLimit } from '@/app/api/_lib/rate-limit';
import { ApiError, corsPreflight, handle } from '@/app/api/_lib/respond';

const REFUSALS = {
  too_many_open_for_endpoint: ['conflict', 'id', 'this endpoint already has 5 open disputes; wait for a decision'],
  too_many_open_for_user: ['conflict', 'id', 'this account already has 20 open disputes; wait for decisions'],
  measurement_not_of_endpoint: ['not_found', 'measurementId', 'no such measurement of this endpoint'],
} as const;

// POST /api/v1/endpoints/{id}/disputes – the endpoint's owner (or an admin) disputes a measurement, a window or a change point; 201 with the open dispute (public at once).
export const POST = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { user, id, db } = await beginEndpointWrite(request, ctx);
  const endpoint = await getDisputableEndpoint(db, id);
  // Not the owner: 404, as for every other write on a foreign endpoint (its existence is no secret, its owner is).
  if (!endpoint || (endpoint.ownerUserId !== user.id && user.role !== 'admin')) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  await consumeLimit('dispute', user.id);
  const body = await parseJsonBody(request, openDisputeBodySchema);
  const out = await openDispute(db, {
    endpointId: id,
    userId: user.id,
    scope: body.scope,
    measurementId: body.measurementId ?? null,
    fromAt: body.from ? new Date(body.from) : null,
    untilAt: body.until ? new Date(body.until) : null,
    reason: body.reason,
    evidence: body.evidence ?? null,
    links: body.links ?? [],
  });
  if ('refused' in out) {
    const [code, field, message] = REFUSALS[out.refused];
    throw new ApiError(code, message, field);
  }
  return privateJson({ dispute: publishDispute(out.dispute) }, 201);
});
export const OPTIONS = corsPreflight;
