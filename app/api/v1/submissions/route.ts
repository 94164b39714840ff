import { connection } from 'next/server';
import { listOwnedEndpoints } from '@/db/queries/submissions';
import { getDb } from '@/server/shared';
import { requireUser } from '@/app/api/_lib/auth';
import { privateJson } from '@/app/api/_lib/body';
import { handle } from '@/app/api/_lib/respond';

// GET /api/v1/submissions – the signed-in provider's own endpoints: status, latest verification, last 24 h of measurements and failures by kind.
export const GET = handle(async (request: Request) => {
  await connection();
  const user = await requireUser(request);
  const items = await listOwnedEndpoints(getDb(), { ownerUserId: user.id, since: new Date(Date.now() - 24 * 3600_000) });
  return privateJson({ items });
});
