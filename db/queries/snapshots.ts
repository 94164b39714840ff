import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { snapshots } from '../schema';

/** A snapshot row to store: `body` is the exact JSON text served under `id`. */
export interface NewSnapshot {
  id: string;
  kind: string;
  query: Record<string, unknown>;
  body: string;
}

/** Stores an immutable snapshot body once (same id → first body kept). */
export async function saveSnapshot(db: Db, s: NewSnapshot): Promise<void> {
  await saveSnapshots(db, [s]);
}

/**
 * Stores several snapshots in one INSERT (group commit from the web process); ids already present
 * keep their first body. Duplicate ids within the batch are written once.
 */
export async function saveSnapshots(db: Db, rows: NewSnapshot[]): Promise<void> {
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
  if (unique.length === 0) return;
  await db.insert(snapshots).values(unique).onConflictDoNothing({ target: snapshots.id });
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
