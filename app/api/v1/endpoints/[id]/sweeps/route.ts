import { connection } from 'next/server';
import { getSweep, getSweepConsentVerdict, insertSweepRequest } from '@/db/queries/sweeps';
import { getDb } from '@/server/shared';
import { emptyQuerySchema, idParamSchema } from '@/lib/api/schemas';
import { DEFAULT_CONCURRENCY_LEVELS, DEFAULT_MIN_SUCCESS_RATE, DEFAULT_SWEEP_WARM_UP_MS } from '@/lib/sweep/run-sweep';
import { createSweepBodySchema } from '@/lib/sweep/sweep-schemas';
import { buildSweepDetail, planSweepLevels } from '@/lib/sweep/sweep-view';
import { DEFAULT_LATENCY_OBJECTIVE } from '@/lib/sweep/summarize-level';
import { beginEndpointWrite } from '@/app/api/_lib/endpoint-write';
import { parseJsonBody, privateJson } from '@/app/api/_lib/body';
import { ApiError, corsPreflight, handle, jsonRead, parseParam, parseQuery, wantsCsv } from '@/app/api/_lib/respond';
import { getSweepEndpointForUser, loadEndpointSweeps, sendSweepJob } from '@/app/api/_lib/sweeps';
import { sweepsCsv } from '@/app/api/_lib/sweeps-csv';

// GET /api/v1/endpoints/{id}/sweeps – an endpoint's concurrency sweeps, newest first, each with its levels (Accept: text/csv for one line per level).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const sweeps = await loadEndpointSweeps(getDb(), id);
  if (wantsCsv(request)) return sweepsCsv(request, sweeps, `endpoint-${id}-sweeps.csv`);
  return jsonRead(request, { endpointId: id, sweeps }, 10);
});

// POST /api/v1/endpoints/{id}/sweeps – the owner or an admin requests a sweep of an approved endpoint within the limits its owner requested and an admin consented to; 201 with the queued sweep, 409 naming why not.
export const POST = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { user, id, db } = await beginEndpointWrite(request, ctx);
  await getSweepEndpointForUser(db, id, user);
  const body = await parseJsonBody(request, createSweepBodySchema);
  const consent = await getSweepConsentVerdict(db, id);
  if (!consent.ok)
    throw new ApiError('conflict', `${consent.reason}: ${consent.message}`, consent.reason === 'endpoint_not_approved' ? 'id' : 'sweep-settings');
  const plan = planSweepLevels(body.concurrency, DEFAULT_CONCURRENCY_LEVELS, consent.limits.maxConcurrency, consent.limits.maxLevels);
  if (!plan.ok) throw new ApiError('bad_request', plan.message, 'concurrency');
  const queued = await insertSweepRequest(db, {
    endpointId: id,
    requestedByUserId: user.id,
    concurrencyLevels: plan.levels,
    durationMs: consent.limits.durationMs,
    warmUpMs: DEFAULT_SWEEP_WARM_UP_MS,
    maxOutputTokens: body.maxOutputTokens ?? 256,
    objectiveTtftMs: DEFAULT_LATENCY_OBJECTIVE.ttftMs,
    objectiveTpotMs: DEFAULT_LATENCY_OBJECTIVE.tpotMs,
    minSuccessRate: DEFAULT_MIN_SUCCESS_RATE,
    now: new Date(),
  });
  if (!queued.ok) {
    throw new ApiError(
      'conflict',
      queued.reason === 'already_active' ? `sweep ${queued.activeSweepId} of this endpoint is still queued or running` : `${queued.reason}: ${queued.message}`,
    );
  }
  await sendSweepJob(queued.sweep.id);
  const stored = await getSweep(db, queued.sweep.id);
  return privateJson(buildSweepDetail(stored!, []), 201);
});

export const OPTIONS = corsPreflight;
