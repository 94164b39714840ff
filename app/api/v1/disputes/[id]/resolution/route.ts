import { connection } from 'next/server';
import { getDispute, resolveDispute } from '@/db/queries/disputes';
import { getDb } from '@/server/shared';
import { resolveDisputeBodySchema } from '@/lib/api/dispute-schemas';
import { publishDispute } from '@/lib/api/publish-dispute';
import { idParamSchema } from '@/lib/api/schemas';
import { requireAdmin } from '@/app/api/_lib/auth';
import { assertSameOrigin, parseJsonBody, privateJson } from '@/app/api/_lib/body';
import { applyExclusion } from '@/app/api/_lib/disputes';
import { ApiError, handle, parseParam } from '@/app/api/_lib/respond';

// POST /api/v1/disputes/{id}/resolution – an admin accepts (optionally excluding what it covers from every figure), rejects or annotates an open dispute; logged in the audit table.
export const POST = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  assertSameOrigin(request);
  const admin = await requireAdmin(request);
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const body = await parseJsonBody(request, resolveDisputeBodySchema);
  const db = getDb();
  if (!(await getDispute(db, id))) throw new ApiError('not_found', `dispute ${id} not found`, 'id');
  const resolved = await resolveDispute(db, { disputeId: id, adminUserId: admin.id, decision: body.decision, exclude: body.exclude ?? false, note: body.note });
  if (!resolved) throw new ApiError('conflict', `dispute ${id} is already decided`, 'id');
  if (resolved.exclude) await applyExclusion(db, resolved);
  return privateJson({ dispute: publishDispute(resolved) });
});
