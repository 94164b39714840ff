import { connection } from 'next/server';
import { getPublicEndpoint } from '@/db/queries/catalog';
import { listDisclosureRevisions } from '@/db/queries/disclosure-revisions';
import { getDb } from '@/server/shared';
import type { z } from 'zod';
import type { disclosureRevisionsResponseSchema } from '@/lib/api/disclosure-schemas';
import { emptyQuerySchema, idParamSchema } from '@/lib/api/schemas';
import { ApiError, corsPreflight, handle, jsonRead, parseParam, parseQuery } from '@/app/api/_lib/respond';

// GET /api/v1/endpoints/{id}/revisions – the dated revisions of a listed endpoint's declared metadata, newest first (decision 178).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  if (!(await getPublicEndpoint(db, id))) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  const body: z.input<typeof disclosureRevisionsResponseSchema> = { endpointId: id, items: await listDisclosureRevisions(db, [id]) };
  return jsonRead(request, body, 60);
});

export const OPTIONS = corsPreflight;
