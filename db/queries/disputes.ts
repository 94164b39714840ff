/**
 * Disputes and annotations (decision 232): data access only. Disputes never change a measurement;
 * an accepted one with `exclude` is applied where the statistics read measurements, through
 * {@link rankableSql} / {@link notRankableReasonsSql}, so every surface leaves out the same rows.
 */
import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { annotations, disputes, endpoints, measurements } from '../schema';
import { insertAuditEvent } from './audit';

/** Open disputes one endpoint may have at once, and one account over all its endpoints (write bound). */
export const MAX_OPEN_DISPUTES_PER_ENDPOINT = 5;
export const MAX_OPEN_DISPUTES_PER_USER = 20;
/** Longest period a dispute or annotation may cover (bounds the rollups an exclusion rebuilds). */
export const MAX_DISPUTE_PERIOD_MS = 31 * 86_400_000;

/** The reason an accepted, excluding dispute adds to a measurement that was otherwise rankable. */
export const DISPUTED_REASON = 'disputed';

/** SQL: true when an accepted, excluding dispute covers measurement row `m` (a table alias). */
export function disputedSql(m: string): SQL {
  const a = sql.raw(m);
  return sql`exists (select 1 from disputes d where d.status = 'accepted' and d.exclude and d.endpoint_id = ${a}.endpoint_id
    and (d.measurement_id = ${a}.id or (d.measurement_id is null and ${a}.measured_at >= d.from_at and ${a}.measured_at < d.until_at)))`;
}

/** SQL: the row's rankable flag with accepted exclusions applied. */
export function rankableSql(m: string): SQL {
  return sql`(${sql.raw(m)}.rankable and not ${disputedSql(m)})`;
}

/** SQL: the row's not-rankable reasons with accepted exclusions applied (`disputed` on an otherwise rankable row). */
export function notRankableReasonsSql(m: string): SQL {
  return sql`(case when ${sql.raw(m)}.rankable and ${disputedSql(m)} then array['${sql.raw(DISPUTED_REASON)}']::text[] else ${sql.raw(m)}.not_rankable_reasons end)`;
}

/** A dispute as published. */
export type DisputeRow = typeof disputes.$inferSelect;
/** An annotation as published. */
export type AnnotationRow = typeof annotations.$inferSelect;

/** Why a dispute could not be opened. */
export type OpenDisputeRefusal = 'too_many_open_for_endpoint' | 'too_many_open_for_user' | 'measurement_not_of_endpoint';

/**
 * Opens a dispute (status open) and logs it, in one transaction serialised per endpoint, so the
 * open-dispute bounds hold under parallel requests. For scope `measurement` the period is the
 * measurement's instant (+1 ms) and the measurement must belong to the endpoint.
 */
export async function openDispute(
  db: Db,
  p: {
    endpointId: number;
    userId: string;
    scope: 'measurement' | 'window' | 'change_point';
    measurementId: number | null;
    fromAt: Date | null;
    untilAt: Date | null;
    reason: string;
    evidence: string | null;
    links: string[];
  },
): Promise<{ dispute: DisputeRow } | { refused: OpenDisputeRefusal }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('tokenpace:disputes'), ${p.endpointId})`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`tokenpace:disputes:user:${p.userId}`}))`);
    const [perEndpoint] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(disputes)
      .where(and(eq(disputes.endpointId, p.endpointId), eq(disputes.status, 'open')));
    if ((perEndpoint?.n ?? 0) >= MAX_OPEN_DISPUTES_PER_ENDPOINT) return { refused: 'too_many_open_for_endpoint' as const };
    const [perUser] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(disputes)
      .where(and(eq(disputes.openedByUserId, p.userId), eq(disputes.status, 'open')));
    if ((perUser?.n ?? 0) >= MAX_OPEN_DISPUTES_PER_USER) return { refused: 'too_many_open_for_user' as const };
    let fromAt = p.fromAt;
    let untilAt = p.untilAt;
    if (p.scope === 'measurement') {
      const [m] = await tx
        .select({ endpointId: measurements.endpointId, measuredAt: measurements.measuredAt })
        .from(measurements)
        .where(eq(measurements.id, p.measurementId!))
        .limit(1);
      if (!m || m.endpointId !== p.endpointId) return { refused: 'measurement_not_of_endpoint' as const };
      fromAt = m.measuredAt;
      untilAt = new Date(m.measuredAt.getTime() + 1);
    }
    const [row] = await tx
      .insert(disputes)
      .values({
        endpointId: p.endpointId,
        openedByUserId: p.userId,
        scope: p.scope,
        measurementId: p.scope === 'measurement' ? p.measurementId : null,
        fromAt: fromAt!,
        untilAt: untilAt!,
        reason: p.reason,
        evidence: p.evidence,
        links: p.links,
      })
      .returning();
    await insertAuditEvent(tx, {
      actorUserId: p.userId,
      action: 'dispute.open',
      endpointId: p.endpointId,
      reason: p.reason,
      details: { disputeId: row!.id, scope: p.scope },
    });
    return { dispute: row! };
  });
}

/**
 * An admin's decision on an open dispute: accepted (optionally excluding what it covers),
 * rejected, or annotated (a note on the period, nothing excluded). Accepted and annotated ones
 * add a public annotation of the period. Returns null when the dispute is not open.
 */
export async function resolveDispute(
  db: Db,
  p: { disputeId: number; adminUserId: string; decision: 'accepted' | 'rejected' | 'annotated'; exclude: boolean; note: string },
): Promise<DisputeRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(disputes)
      .set({ status: p.decision, exclude: p.decision === 'accepted' && p.exclude, resolution: p.note, resolvedByUserId: p.adminUserId, resolvedAt: sql`now()` })
      .where(and(eq(disputes.id, p.disputeId), eq(disputes.status, 'open')))
      .returning();
    if (!row) return null;
    if (p.decision !== 'rejected') {
      await tx.insert(annotations).values({
        endpointId: row.endpointId,
        fromAt: row.fromAt,
        untilAt: row.untilAt,
        text: `Dispute ${row.id} ${p.decision}${row.exclude ? ' (excluded from rankings)' : ''}: ${p.note}`,
        disputeId: row.id,
        createdByUserId: p.adminUserId,
      });
    }
    await insertAuditEvent(tx, {
      actorUserId: p.adminUserId,
      action: `dispute.${p.decision === 'accepted' ? 'accept' : p.decision === 'rejected' ? 'reject' : 'annotate'}`,
      endpointId: row.endpointId,
      reason: p.note,
      details: { disputeId: row.id, exclude: row.exclude },
    });
    return row;
  });
}

/** Public disputes, newest first, optionally of one endpoint and/or status. */
export async function listDisputes(
  db: Db,
  p: { endpointId?: number; status?: DisputeRow['status']; limit: number },
): Promise<Array<DisputeRow & { endpointSlug: string }>> {
  const where = and(
    p.endpointId !== undefined ? eq(disputes.endpointId, p.endpointId) : undefined,
    p.status ? eq(disputes.status, p.status) : undefined,
    inArray(endpoints.status, ['active', 'inactive', 'paused'] as const),
  );
  const rows = await db
    .select({ d: disputes, endpointSlug: endpoints.slug })
    .from(disputes)
    .innerJoin(endpoints, eq(endpoints.id, disputes.endpointId))
    .where(where)
    .orderBy(desc(disputes.createdAt), desc(disputes.id))
    .limit(p.limit);
  return rows.map((r) => ({ ...r.d, endpointSlug: r.endpointSlug }));
}

/** One dispute, or null. */
export async function getDispute(db: Db, id: number): Promise<DisputeRow | null> {
  const [row] = await db.select().from(disputes).where(eq(disputes.id, id)).limit(1);
  return row ?? null;
}

/** Adds an admin annotation of a period (all endpoints when `endpointId` is null) and logs it. */
export async function createAnnotation(
  db: Db,
  p: { endpointId: number | null; workerRegion: string | null; fromAt: Date; untilAt: Date; text: string; adminUserId: string },
): Promise<AnnotationRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(annotations)
      .values({ endpointId: p.endpointId, workerRegion: p.workerRegion, fromAt: p.fromAt, untilAt: p.untilAt, text: p.text, createdByUserId: p.adminUserId })
      .returning();
    await insertAuditEvent(tx, {
      actorUserId: p.adminUserId,
      action: 'annotation.create',
      endpointId: p.endpointId,
      reason: p.text,
      details: { annotationId: row!.id, workerRegion: p.workerRegion },
    });
    return row!;
  });
}

/** Annotations overlapping [from, until), of one endpoint (and the global ones) or of all, oldest first. */
export async function listAnnotations(db: Db, p: { endpointId?: number; from: Date; until: Date; limit: number }): Promise<AnnotationRow[]> {
  const endpointFilter = p.endpointId !== undefined ? or(eq(annotations.endpointId, p.endpointId), isNull(annotations.endpointId)) : undefined;
  return db
    .select()
    .from(annotations)
    .where(and(endpointFilter, lt(annotations.fromAt, p.until), gte(annotations.untilAt, p.from)))
    .orderBy(asc(annotations.fromAt), asc(annotations.id))
    .limit(p.limit);
}

/** The endpoint a dispute may concern: its owner (null for catalog endpoints) and status; null when unknown or withdrawn. */
export async function getDisputableEndpoint(db: Db, endpointId: number): Promise<{ id: number; ownerUserId: string | null; status: string } | null> {
  const [row] = await db
    .select({ id: endpoints.id, ownerUserId: endpoints.ownerUserId, status: endpoints.status })
    .from(endpoints)
    .where(eq(endpoints.id, endpointId))
    .limit(1);
  return row && row.status !== 'deleted' ? row : null;
}
