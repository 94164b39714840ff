import { desc, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { auditEvents } from '../schema';

/** A transaction or the database: audit rows are written inside the transaction of the action they log. */
type Tx = Pick<Db, 'insert' | 'select'>;

/** Actions written to the audit log. */
export type AuditAction =
  | 'endpoint.submit'
  | 'endpoint.edit'
  | 'endpoint.approve'
  | 'endpoint.reject'
  | 'endpoint.pause'
  | 'endpoint.resume'
  | 'endpoint.delete'
  | 'admin.grant'
  | 'admin.revoke'
  | 'token.create'
  | 'token.revoke'
  | 'token.revoke_all'
  | 'endpoint.pricing'
  | 'dispute.open'
  | 'dispute.accept'
  | 'dispute.reject'
  | 'dispute.annotate'
  | 'annotation.create';

/** Appends one audit event. `actorUserId` null = the operator's CLI. Never put secrets in `details`. */
export async function insertAuditEvent(
  tx: Tx,
  event: {
    actorUserId: string | null;
    action: AuditAction;
    endpointId?: number | null;
    targetUserId?: string | null;
    reason?: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await tx.insert(auditEvents).values({
    actorUserId: event.actorUserId,
    action: event.action,
    endpointId: event.endpointId ?? null,
    targetUserId: event.targetUserId ?? null,
    reason: event.reason ?? null,
    details: event.details ?? {},
  });
}

/** Audit events, newest first, optionally of one endpoint. */
export async function listAuditEvents(db: Db, params: { endpointId?: number; limit: number }) {
  const q = db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      actorUserId: auditEvents.actorUserId,
      action: auditEvents.action,
      endpointId: auditEvents.endpointId,
      targetUserId: auditEvents.targetUserId,
      reason: auditEvents.reason,
      details: auditEvents.details,
    })
    .from(auditEvents);
  return (params.endpointId !== undefined ? q.where(eq(auditEvents.endpointId, params.endpointId)) : q).orderBy(desc(auditEvents.id)).limit(params.limit);
}
