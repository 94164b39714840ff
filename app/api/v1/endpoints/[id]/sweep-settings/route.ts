import { connection } from 'next/server';
import { getSweepSettings, upsertSweepSettings } from '@/db/queries/sweeps';
import { getDb } from '@/db/shared';
import { idParamSchema } from '@/lib/api/schemas';
import { updateSweepSettingsBodySchema } from '@/lib/sweep/sweep-schemas';
import { requireUser } from '@/app/api/_lib/auth';
import { beginEndpointWrite } from '@/app/api/_lib/endpoint-write';
import { parseJsonBody, privateJson } from '@/app/api/_lib/body';
import { handle, parseParam } from '@/app/api/_lib/respond';
import { getSweepEndpointForUser } from '@/app/api/_lib/sweeps';

const view = (s: Awaited<ReturnType<typeof getSweepSettings>>, endpointId: number) => ({
  endpointId,
  enabled: s?.enabled ?? false,
  maxConcurrency: s?.maxConcurrency ?? null,
  durationS: s ? s.durationMs / 1000 : null,
  consentedByUserId: s?.consentedByUserId ?? null,
  consentedAt: s?.consentedAt?.toISOString() ?? null,
});

// GET /api/v1/endpoints/{id}/sweep-settings – the owner or an admin reads the endpoint's sweep consent and limits.
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const user = await requireUser(request);
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const db = getDb();
  await getSweepEndpointForUser(db, id, user);
  return privateJson(view(await getSweepSettings(db, id), id));
});

// POST /api/v1/endpoints/{id}/sweep-settings – the owner or an admin gives or withdraws consent to sweeps and sets their limits.
export const POST = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { user, id, db } = await beginEndpointWrite(request, ctx);
  await getSweepEndpointForUser(db, id, user);
  const body = await parseJsonBody(request, updateSweepSettingsBodySchema);
  const saved = await upsertSweepSettings(db, { endpointId: id, enabled: body.enabled, maxConcurrency: body.maxConcurrency, durationMs: body.durationS * 1000, userId: user.id, now: new Date() });
  return privateJson(view(saved, id));
});
