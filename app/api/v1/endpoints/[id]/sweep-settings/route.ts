import { connection } from 'next/server';
import { getSweepConsentVerdict, getSweepSettings, upsertSweepSettings } from '@/db/queries/sweeps';
import type { SweepConsentVerdict } from '@/lib/sweep/sweep-consent';
import { getDb } from '@/server/shared';
import { idParamSchema } from '@/lib/api/schemas';
import { updateSweepSettingsBodySchema } from '@/lib/sweep/sweep-schemas';
import { requireUser } from '@/app/api/_lib/auth';
import { beginEndpointWrite } from '@/app/api/_lib/endpoint-write';
import { parseJsonBody, privateJson } from '@/app/api/_lib/body';
import { handle, parseParam } from '@/app/api/_lib/respond';
import { getSweepEndpointForUser } from '@/app/api/_lib/sweeps';

const view = (s: Awaited<ReturnType<typeof getSweepSettings>>, endpointId: number, verdict: SweepConsentVerdict) => ({
  endpointId,
  enabled: s?.enabled ?? false,
  maxConcurrency: s?.maxConcurrency ?? null,
  durationS: s ? s.durationMs / 1000 : null,
  maxLevels: s?.maxLevels ?? null,
  consentedByUserId: s?.consentedByUserId ?? null,
  consentedAt: s?.consentedAt?.toISOString() ?? null,
  adminConsent:
    s?.approvedByUserId && s.approvedMaxConcurrency !== null && s.approvedDurationMs !== null
      ? {
          byUserId: s.approvedByUserId,
          at: s.approvedAt?.toISOString() ?? null,
          maxConcurrency: s.approvedMaxConcurrency,
          durationS: s.approvedDurationMs / 1000,
          maxLevels: s.approvedMaxLevels,
          baseUrlMatches: verdict.ok || verdict.reason !== 'url_changed',
        }
      : null,
  sweepsAllowed: verdict.ok,
  refusedBecause: verdict.ok ? null : verdict.reason,
  refusal: verdict.ok ? null : verdict.message,
});

// GET /api/v1/endpoints/{id}/sweep-settings – the owner or an admin reads the endpoint's sweep consent, requested limits, the admin's consent and whether sweeps may run now.
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const user = await requireUser(request);
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const db = getDb();
  await getSweepEndpointForUser(db, id, user);
  return privateJson(view(await getSweepSettings(db, id), id, await getSweepConsentVerdict(db, id)));
});

// POST /api/v1/endpoints/{id}/sweep-settings – the owner requests (or withdraws) sweeps and their limits; posted by an admin, the limits are also the admin's consent (who and when recorded).
export const POST = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { user, id, db } = await beginEndpointWrite(request, ctx);
  await getSweepEndpointForUser(db, id, user);
  const body = await parseJsonBody(request, updateSweepSettingsBodySchema);
  const saved = await upsertSweepSettings(db, {
    endpointId: id,
    enabled: body.enabled,
    maxConcurrency: body.maxConcurrency,
    durationMs: body.durationS * 1000,
    maxLevels: body.maxLevels,
    userId: user.id,
    now: new Date(),
    adminConsent: user.role === 'admin',
  });
  return privateJson(view(saved, id, await getSweepConsentVerdict(db, id)));
});
