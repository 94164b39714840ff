import { connection } from 'next/server';
import { getDb } from '@/server/shared';
import { idParamSchema } from '@/lib/api/schemas';
import { requireUser } from './auth';
import { assertSameOrigin } from './body';
import { parseParam } from './respond';

/**
 * The opening of every write route on /api/v1/endpoints/{id}/…: explicitly dynamic, same-origin
 * (403 for a cross-site cookie request), a signed-in user by session or API token (401 otherwise),
 * the `id` path parameter (400 naming `id`), and the database. Ownership checks stay in the route.
 */
export async function beginEndpointWrite(request: Request, ctx: { params: Promise<{ id: string }> }) {
  await connection();
  assertSameOrigin(request);
  const user = await requireUser(request);
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  return { user, id, db: getDb() };
}
