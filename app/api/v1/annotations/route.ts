import { connection } from 'next/server';
import { createAnnotation, getDisputableEndpoint } from '@/db/queries/disputes';
import { getDb } from '@/server/shared';
import { createAnnotationBodySchema } from '@/lib/api/dispute-schemas';
import { publishAnnotation } from '@/lib/api/publish-dispute';
import { requireAdmin } from '@/app/api/_lib/auth';
import { assertSameOrigin, parseJsonBody, privateJson } from '@/app/api/_lib/body';
import { annotationsResponse } from '@/app/api/_lib/disputes';
import { consumeLimit } from '@/app/api/_lib/rate-limit';
import { ApiError, corsPreflight, handle } from '@/app/api/_lib/respond';

// GET /api/v1/annotations – notes on periods of the figures (an endpoint's and those of every endpoint), oldest first.
export const GET = handle(async (request: Request) => annotationsResponse(request));

// POST /api/v1/annotations – an admin annotates a period of one endpoint or of all (e.g. "our eu worker lost its network 10:00-10:40"); 201.
export const POST = handle(async (request: Request) => {
  await connection();
  assertSameOrigin(request);
  const admin = await requireAdmin(request);
  await consumeLimit('dispute', admin.id);
  const body = await parseJsonBody(request, createAnnotationBodySchema);
  const db = getDb();
  if (body.endpointId !== undefined && !(await getDisputableEndpoint(db, body.endpointId)))
    throw new ApiError('not_found', `endpoint ${body.endpointId} not found`, 'endpointId');
  const row = await createAnnotation(db, {
    endpointId: body.endpointId ?? null,
    workerRegion: body.workerRegion ?? null,
    fromAt: new Date(body.from),
    untilAt: new Date(body.until),
    text: body.text,
    adminUserId: admin.id,
  });
  return privateJson({ annotation: publishAnnotation(row) }, 201);
});
export const OPTIONS = corsPreflight;
