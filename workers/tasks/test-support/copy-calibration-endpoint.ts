import { eq } from 'drizzle-orm';
import { endpoints } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';

/**
 * Inserts a copy of the calibration endpoint `calibrationId` (the same reference server) with the
 * slug `<its slug><slugSuffix>` and the column overrides `set`; returns the copy's id.
 */
export async function copyCalibrationEndpoint(
  db: TestDatabase['db'],
  calibrationId: number,
  slugSuffix: string,
  set: Partial<typeof endpoints.$inferInsert> = {},
): Promise<number> {
  const [cal] = await db.select().from(endpoints).where(eq(endpoints.id, calibrationId));
  if (!cal) throw new Error(`copyCalibrationEndpoint: no endpoint ${calibrationId}`);
  const { id: _id, slug, ...rest } = cal;
  void _id;
  const [copy] = await db
    .insert(endpoints)
    .values({ ...rest, ...set, slug: `${slug}${slugSuffix}` })
    .returning({ id: endpoints.id });
  return copy!.id;
}
