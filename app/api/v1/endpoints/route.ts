import { connection } from 'next/server';
import { listEndpoints } from '@/db/queries/catalog';
import { createSubmission, getListedModelBySlug, getSubmittedEndpoint, LookAlikeNameError, PendingLimitError } from '@/db/queries/submissions';
import { getDb } from '@/server/shared';
import type { z } from 'zod';
import { endpointSchema, type endpointsResponseSchema } from '@/lib/api/response-schemas';
import { endpointsQuerySchema } from '@/lib/api/schemas';
import { createEndpointBodySchema } from '@/lib/api/submission-schemas';
import { getEnv } from '@/lib/env';
import { encryptSecret } from '@/lib/security/secrets';
import { requireUser } from '@/app/api/_lib/auth';
import { assertSameOrigin, parseJsonBody, privateJson } from '@/app/api/_lib/body';
import { consumeLimit } from '@/app/api/_lib/rate-limit';
import { ApiError, corsPreflight, csvRead, handle, jsonRead, parseQuery, wantsCsv } from '@/app/api/_lib/respond';
import { requireCatalogSlugs } from '@/app/api/_lib/public-reads';
import { checkSubmittedUrl } from '@/app/api/_lib/submission';
import { requireSecretKey, runVerification } from '@/app/api/_lib/verification';

// GET /api/v1/endpoints – listed endpoints with declared metadata (filter by model, provider); CSV with Accept: text/csv.
export const GET = handle(async (request: Request) => {
  await connection();
  const q = parseQuery(endpointsQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  await requireCatalogSlugs(db, { model: q.model, provider: q.provider });
  const items = (await listEndpoints(db, { modelSlug: q.model, providerSlug: q.provider })).map((e) => ({ ...e, createdAt: e.createdAt.toISOString() }));
  if (wantsCsv(request)) return csvRead(request, endpointSchema, items, 'tokenpace-endpoints.csv');
  const body: z.input<typeof endpointsResponseSchema> = { items };
  return jsonRead(request, body);
});

// POST /api/v1/endpoints – submits an endpoint (signed in or API token): 201 with the pending endpoint and its verification probe result.
export const POST = handle(async (request: Request) => {
  await connection();
  assertSameOrigin(request);
  const user = await requireUser(request);
  await consumeLimit('submission', user.id);
  const body = await parseJsonBody(request, createEndpointBodySchema);
  await checkSubmittedUrl(body.baseUrl);
  const db = getDb();
  let modelId: number | null = null;
  if (body.model !== undefined) {
    const model = await getListedModelBySlug(db, body.model);
    if (!model)
      throw new ApiError('bad_request', `model: no listed model "${body.model}" (propose it with proposedModel)`, 'model', {
        fields: [{ field: 'model', message: 'no listed model with this slug' }],
      });
    modelId = model.id;
  }
  const apiKeyEncrypted = body.apiKey ? encryptSecret(body.apiKey, requireSecretKey()) : null;
  let created: { endpointId: number };
  try {
    created = await createSubmission(
      db,
      {
        ownerUserId: user.id,
        providerName: body.provider,
        modelId,
        proposedModelName: body.proposedModel ?? null,
        protocol: body.protocol,
        baseUrl: body.baseUrl,
        apiModelId: body.apiModelId,
        apiKeyEncrypted,
        region: body.region ?? null,
        hardware: body.hardware ?? null,
        engine: body.engine ?? null,
        precision: body.precision ?? null,
        speculativeDecoding: body.speculativeDecoding ?? null,
        draftLength: body.draftLength ?? null,
        deploymentKind: body.deploymentKind,
        system: body.system ?? null,
        contact: body.contact,
        notes: body.notes ?? null,
        pricing: body.pricing ?? null,
        contextWindowTokens: body.contextWindowTokens ?? null,
        serviceTier: body.serviceTier ?? null,
        tierObjective: body.tierObjective ?? null,
      },
      getEnv().TOKENPACE_MAX_PENDING_SUBMISSIONS,
    );
  } catch (e) {
    if (e instanceof PendingLimitError) throw new ApiError('conflict', `${e.message}; wait for review or delete one`);
    if (e instanceof LookAlikeNameError)
      throw new ApiError('bad_request', `provider: ${e.message}`, 'provider', { fields: [{ field: 'provider', message: e.message }] });
    throw e;
  }
  const verification = await runVerification(db, {
    id: created.endpointId,
    protocol: body.protocol,
    baseUrl: body.baseUrl,
    apiModelId: body.apiModelId,
    apiKey: body.apiKey ?? null,
    serviceTier: body.serviceTier ?? null,
  });
  const endpoint = await getSubmittedEndpoint(db, created.endpointId);
  return privateJson({ endpoint, verification }, 201);
});

export const OPTIONS = corsPreflight;
