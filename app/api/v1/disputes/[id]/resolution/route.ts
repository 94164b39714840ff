import { getDispute, resolveDispute } from '@/db/queries/disputes';
import { resolveDisputeBodySchema } from '@/lib/api/dispute-schemas';
import { publishDispute } from '@/lib/api/publish-dispute';
import { beginAdminWrite } from '@/app/api/_lib/admin-write';
import { privateJson } from '@/app/api/_lib/body';
import { applyExclusion } from '@/app/api/_lib/disputes';
import { ApiError, handle } from '@/app/api/_lib/respond';

// POST /api/v1/disputes/{id}/resolution – an admin accepts (optionally excluding what it covers from every figure), rejects or annotates an open dispute; logged in the audit table.
export const POST = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { admin, id, body, db } = await beginAdminWrite(request, ctx, resolveDisputeBodySchema);
  if (!(await getDispute(db, id))) throw new ApiError('not_found', `dispute ${id} not found`, 'id');
  const resolved = await resolveDispute(db, { disputeId: id, adminUserId: admin.id, decision: body.decision, exclude: body.exclude ?? false, note: body.note });
  if (!resolved) throw new ApiError('conflict', `dispute ${id} is already decided`, 'id');
  if (resolved.exclude) await applyExclusion(db, resolved);
  return privateJson({ dispute: publishDispute(resolved) });
});
