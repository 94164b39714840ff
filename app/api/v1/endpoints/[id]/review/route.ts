import { getSubmittedEndpoint, reviewSubmission } from '@/db/queries/submissions';
import { reviewEndpointBodySchema } from '@/lib/api/submission-schemas';
import { beginAdminWrite } from '@/app/api/_lib/admin-write';
import { privateJson } from '@/app/api/_lib/body';
import { ApiError, handle } from '@/app/api/_lib/respond';

// POST /api/v1/endpoints/{id}/review – an admin approves (→ active, scheduled) or rejects (with reason) a pending endpoint at the revision reviewed (409 if it changed since; 409 naming linkProvider when its claim to an existing provider is unproven and not linked); logged in the audit table.
export const POST = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { admin, id, body, db } = await beginAdminWrite(request, ctx, reviewEndpointBodySchema);
  if (!(await getSubmittedEndpoint(db, id))) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  const outcome = await reviewSubmission(db, {
    endpointId: id,
    adminUserId: admin.id,
    decision: body.decision,
    reason: body.reason ?? null,
    revision: body.revision,
    linkProvider: body.linkProvider,
  });
  if (outcome.status === null && outcome.reason === 'provider_unverified') {
    throw new ApiError(
      'conflict',
      `linkProvider: the submitter has not proven they speak for this provider (no verified email at its website's domain); approve with linkProvider: true to link the endpoint to it yourself`,
      'linkProvider',
    );
  }
  if (outcome.status === null && outcome.reason === 'stale') {
    throw new ApiError(
      'conflict',
      `revision: the submitter changed endpoint ${id} since revision ${body.revision} (now ${outcome.currentRevision}); review it again`,
      'revision',
    );
  }
  if (outcome.status === null) throw new ApiError('conflict', `endpoint ${id} is not waiting for review`, 'id');
  return privateJson({ endpoint: await getSubmittedEndpoint(db, id) });
});
