import { connection } from 'next/server';
import { getSubmittedEndpoint, getVerificationTarget, updateSubmittedEndpoint, type EndpointChanges, type EndpointStatus } from '@/db/queries/submissions';
import { getDb } from '@/server/shared';
import { idParamSchema } from '@/lib/api/schemas';
import { updateEndpointBodySchema } from '@/lib/api/submission-schemas';
import { tierProtocolIssue } from '@/lib/api/service-tier-schemas';
import { encryptSecret } from '@/lib/security/secrets';
import { beginEndpointWrite } from '@/app/api/_lib/endpoint-write';
import { parseJsonBody, privateJson } from '@/app/api/_lib/body';
import { consumeLimit } from '@/app/api/_lib/rate-limit';
import { ApiError, corsPreflight, handle, jsonRead, parseParam } from '@/app/api/_lib/respond';
import { checkSubmittedUrl, getEndpointForUser } from '@/app/api/_lib/submission';
import { requireSecretKey, runVerification, type VerificationView } from '@/app/api/_lib/verification';
import { requirePublicEndpoint } from '@/app/api/_lib/public-endpoint-read';
import { DEPLOYMENT_FIELDS } from '@/lib/catalog/endpoint-deployment';

// GET /api/v1/endpoints/{id} – one endpoint's public record and declared metadata.
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  return jsonRead(request, await requirePublicEndpoint(getDb(), id));
});

/** Fields whose change sends an approved endpoint back to review AND re-runs verification (they change what is probed). */
const REREVIEW_FIELDS = ['baseUrl', 'protocol', 'apiModelId', 'apiKey'] as const;
/** Declared metadata shown publicly beside the measurements: a change goes back to review too (no probe needed). */
const DECLARED_FIELDS = ['region', ...DEPLOYMENT_FIELDS, 'draftLength', 'system', 'contextWindowTokens'] as const;

// PATCH /api/v1/endpoints/{id} – the owner edits (URL/key/protocol/model id changes go back to review and re-verify; declared hardware/engine/precision/… changes go back to review), pauses or resumes; returns the endpoint (+ verification when re-run).
export const PATCH = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { user, id, db } = await beginEndpointWrite(request, ctx);
  const endpoint = await getEndpointForUser(db, id, user);
  if (endpoint.ownerUserId !== user.id) throw new ApiError('forbidden', 'only the submitter can edit an endpoint');
  const body = await parseJsonBody(request, updateEndpointBodySchema);
  const { status, apiKey, ...rest } = body;
  // The declared tier is part of what is probed (decision 262): it must be valid on the protocol the
  // endpoint will have, and a change re-verifies and goes back to review like a protocol change.
  const tierAfter = body.serviceTier !== undefined ? body.serviceTier : endpoint.serviceTier;
  const tierIssue = tierProtocolIssue(body.protocol ?? endpoint.protocol, tierAfter);
  if (tierIssue)
    throw new ApiError('bad_request', `serviceTier.value: ${tierIssue}`, 'serviceTier.value', { fields: [{ field: 'serviceTier.value', message: tierIssue }] });
  const changedJson = (a: unknown, b: unknown) => a !== undefined && JSON.stringify(a) !== JSON.stringify(b ?? null);
  const targetChanged =
    REREVIEW_FIELDS.some((f) => body[f] !== undefined && (f === 'apiKey' || body[f] !== endpoint[f])) || changedJson(body.serviceTier, endpoint.serviceTier);
  const declaredChanged =
    DECLARED_FIELDS.some((f) => body[f] !== undefined && (body[f] ?? null) !== (endpoint[f] ?? null)) ||
    // Declared prices and a tier objective are shown beside the measurements too: a change is reviewed like the hardware.
    changedJson(body.pricing, endpoint.pricing) ||
    changedJson(body.tierObjective, endpoint.tierObjective);
  if (status !== undefined && (targetChanged || declaredChanged))
    throw new ApiError('bad_request', 'status: change the endpoint or its status, not both at once', 'status');
  // Each declared change is also a dated disclosure revision (decision 178): both count against the account's limit.
  if (targetChanged || declaredChanged) await consumeLimit('submission', user.id);
  if (body.baseUrl !== undefined) await checkSubmittedUrl(body.baseUrl);

  const changes: EndpointChanges = {};
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) (changes as Record<string, unknown>)[k] = v;
  if (apiKey !== undefined) changes.apiKeyEncrypted = apiKey === null ? null : encryptSecret(apiKey, requireSecretKey());

  let next: EndpointStatus | undefined;
  let from: EndpointStatus[];
  let action: 'endpoint.edit' | 'endpoint.pause' | 'endpoint.resume' = 'endpoint.edit';
  if (targetChanged || declaredChanged) {
    // What the admin approved is no longer what is shown or probed: review again (decision record 086).
    next = 'pending';
    from = ['pending', 'active', 'paused', 'rejected', 'inactive'];
  } else if (status === 'paused') {
    next = 'paused';
    from = ['active', 'paused'];
    action = 'endpoint.pause';
  } else if (status === 'active') {
    next = 'active';
    from = ['paused', 'active'];
    action = 'endpoint.resume';
  } else {
    from = ['pending', 'active', 'paused', 'rejected', 'inactive'];
  }
  const ok = await updateSubmittedEndpoint(db, { endpointId: id, actorUserId: user.id, changes, status: next, fromStatuses: from, action });
  if (!ok)
    throw new ApiError(
      'conflict',
      `endpoint ${id} is ${endpoint.status}; cannot ${status === 'paused' ? 'pause' : status === 'active' ? 'resume' : 'edit'} it`,
      'status',
    );

  let verification: VerificationView | null = null;
  if (targetChanged) {
    const target = (await getVerificationTarget(db, id))!;
    verification = await runVerification(db, { ...target, apiKey: apiKey ?? null });
  }
  return privateJson({ endpoint: await getSubmittedEndpoint(db, id), verification });
});

// DELETE /api/v1/endpoints/{id} – the owner withdraws an endpoint (soft delete: measurements stay as evidence); 200 with its id and status.
export const DELETE = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { user, id, db } = await beginEndpointWrite(request, ctx);
  const endpoint = await getEndpointForUser(db, id, user);
  if (endpoint.ownerUserId !== user.id) throw new ApiError('forbidden', 'only the submitter can delete an endpoint');
  const ok = await updateSubmittedEndpoint(db, {
    endpointId: id,
    actorUserId: user.id,
    changes: { apiKeyEncrypted: null },
    status: 'deleted',
    fromStatuses: ['pending', 'active', 'paused', 'rejected', 'inactive'],
    action: 'endpoint.delete',
  });
  if (!ok) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  return privateJson({ id, status: 'deleted' });
});

export const OPTIONS = corsPreflight;
