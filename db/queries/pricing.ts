import { eq } from 'drizzle-orm';
import type { EndpointPricing } from '@/lib/catalog/pricing';
import type { Db } from '../client';
import { endpoints } from '../schema';
import { insertAuditEvent } from './audit';

/**
 * Sets (or with null clears) the declared pricing of the endpoint `slug` as an admin action
 * (`actorUserId` null = the operator's CLI), logged in the audit table with the pricing as
 * details. Returns the endpoint id, or null when no endpoint has that slug.
 */
export async function setEndpointPricing(db: Db, p: { slug: string; pricing: EndpointPricing | null; actorUserId: string | null }): Promise<number | null> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(endpoints)
      .set({ pricing: p.pricing, updatedAt: new Date() })
      .where(eq(endpoints.slug, p.slug))
      .returning({ id: endpoints.id });
    if (rows.length === 0) return null;
    await insertAuditEvent(tx, { actorUserId: p.actorUserId, action: 'endpoint.pricing', endpointId: rows[0]!.id, details: { pricing: p.pricing } });
    return rows[0]!.id;
  });
}
