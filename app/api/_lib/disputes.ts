/**
 * Shared by the dispute and annotation routes (decision 232): the public lists (JSON and CSV) and
 * what an accepted exclusion must redo so every surface leaves the same rows out.
 */
import { connection } from 'next/server';
import { notifyDataChanged } from '@/server/cache-invalidation';
import type { Db } from '@/db/client';
import { listAnnotations, listDisputes } from '@/db/queries/disputes';
import { rebuildRollups } from '@/db/queries/rollups';
import { getDb } from '@/server/shared';
import { annotationsQuerySchema, annotationsResponseSchema, disputeSchema, disputesQuerySchema, disputesResponseSchema } from '@/lib/api/dispute-schemas';
import { publishAnnotation, publishDispute } from '@/lib/api/publish-dispute';
import type { z } from 'zod';
import { csvRead, jsonRead, parseQuery, wantsCsv } from './respond';

const LIST_MAX = 500;

/** GET /api/v1/disputes and /api/v1/disputes.csv */
export async function disputesResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  const q = parseQuery(disputesQuerySchema, new URL(request.url).searchParams);
  const items = (await listDisputes(getDb(), { endpointId: q.endpoint, status: q.status, limit: LIST_MAX })).map(publishDispute);
  if (wantsCsv(request, format)) return csvRead(request, disputeSchema, items, 'tokenpace-disputes.csv', {}, 30);
  const body: z.input<typeof disputesResponseSchema> = { items };
  return jsonRead(request, body, 30);
}

/** GET /api/v1/annotations */
export async function annotationsResponse(request: Request): Promise<Response> {
  await connection();
  const q = parseQuery(annotationsQuerySchema, new URL(request.url).searchParams);
  const until = q.until ? new Date(q.until) : new Date();
  const from = q.since ? new Date(q.since) : new Date(until.getTime() - 90 * 86_400_000);
  const items = (await listAnnotations(getDb(), { endpointId: q.endpoint, from, until, limit: LIST_MAX })).map(publishAnnotation);
  const body: z.input<typeof annotationsResponseSchema> = { items };
  return jsonRead(request, body, 30);
}

/**
 * After an exclusion changes which rows count: rebuild the hour and day rollups of the covered
 * period (at most 31 days, so bounded) and tell every instance that the data changed.
 */
export async function applyExclusion(db: Db, period: { fromAt: Date; untilAt: Date }): Promise<void> {
  for (const granularity of ['hour', 'day'] as const) await rebuildRollups(db, { granularity, from: period.fromAt, to: period.untilAt });
  await notifyDataChanged(db, 'dispute');
}
