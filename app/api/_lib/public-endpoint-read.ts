/**
 * The start every read of one public endpoint (GET /api/v1/endpoints/{id}/…) shares: the route is
 * dynamic (connection()), the id is parsed (400 naming id), then the query with the route's
 * schema (400 naming the field), and the endpoint must be public (404 naming id).
 */
import { connection } from 'next/server';
import type { z } from 'zod';
import type { Db } from '@/db/client';
import { getPublicEndpoint } from '@/db/queries/catalog';
import { idParamSchema } from '@/lib/api/schemas';
import { getDb } from '@/server/shared';
import { ApiError, parseParam, parseQuery } from './respond';

/** Throws 404 naming `id` unless the endpoint is public; returns its public record. */
export async function requirePublicEndpoint(db: Db, id: number) {
  const endpoint = await getPublicEndpoint(db, id);
  if (!endpoint) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  return endpoint;
}

/** The steps above; returns the endpoint id, the parsed query, the database and the endpoint's public record. */
export async function readPublicEndpoint<S extends z.ZodObject>(request: Request, ctx: { params: Promise<{ id: string }> }, querySchema: S) {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const query = parseQuery(querySchema, new URL(request.url).searchParams);
  const db = getDb();
  const endpoint = await requirePublicEndpoint(db, id);
  return { id, query, db, endpoint };
}
