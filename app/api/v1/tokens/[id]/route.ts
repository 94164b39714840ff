import { connection } from 'next/server';
import { revokeApiToken } from '@/db/queries/accounts';
import { getDb } from '@/server/shared';
import { idParamSchema } from '@/lib/api/schemas';
import { requireUser } from '@/app/api/_lib/auth';
import { assertSameOrigin, privateJson } from '@/app/api/_lib/body';
import { ApiError, handle, parseParam } from '@/app/api/_lib/respond';

// DELETE /api/v1/tokens/{id} – revokes one of the signed-in user's tokens; 200 { id, revoked: true }, 404 when not theirs or already revoked.
export const DELETE = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  assertSameOrigin(request);
  const user = await requireUser(request);
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  if (!(await revokeApiToken(getDb(), user.id, id))) throw new ApiError('not_found', `token ${id} not found`, 'id');
  return privateJson({ id, revoked: true });
});
