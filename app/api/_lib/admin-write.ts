import { connection } from 'next/server';
import type { z } from 'zod';
import { idParamSchema } from '@/lib/api/schemas';
import { getDb } from '@/server/shared';
import { requireAdmin } from './auth';
import { assertSameOrigin, parseJsonBody } from './body';
import { parseParam } from './respond';

/**
 * The opening of an admin's decision on one record (POST /api/v1/…/{id}/…): explicitly dynamic,
 * same-origin (403 for a cross-site cookie request), an admin (401/403 otherwise), the `id` path
 * parameter (400 naming `id`), the JSON body parsed with `bodySchema` (400 naming the field), and
 * the database. Whether the record exists stays in the route.
 */
export async function beginAdminWrite<S extends z.ZodType>(request: Request, ctx: { params: Promise<{ id: string }> }, bodySchema: S) {
  await connection();
  assertSameOrigin(request);
  const admin = await requireAdmin(request);
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const body = await parseJsonBody(request, bodySchema);
  return { admin, id, body, db: getDb() };
}
