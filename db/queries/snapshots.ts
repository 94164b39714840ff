import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { snapshots } from '../schema';

/** Stores an immutable snapshot body once (same id → first body kept). */
export async function saveSnapshot(db: Db, s: { id: string; kind: string; query: Record<string, unknown>; body: string }): Promise<void> {
  await db.insert(snapshots).values(s).onConflictDoNothing({ target: snapshots.id });
}

/** A snapshot by id, or null. The body is the exact JSON text first served. */
export async function getSnapshot(db: Db, id: string) {
  const rows = await db
    .select({ id: snapshots.id, kind: snapshots.kind, query: snapshots.query, body: snapshots.body, createdAt: snapshots.createdAt })
    .from(snapshots)
    .where(eq(snapshots.id, id))
    .limit(1);
  return rows[0] ?? null;
}
