/**
 * Seeds the catalogue for a figures test with every endpoint active (every API key reads as set:
 * lookupEnv → 'x'), the calibration endpoint at 127.0.0.1:3999 (nothing listens: no probe runs),
 * and only the given 1k-token workloads of `category` (1,000 input tokens, 256 output tokens,
 * concurrency 1, scheduled), e.g. `{ 'prose-1k': 'prose', 'code-1k': 'code' }`.
 * @returns the workloads' ids by slug, and the ids of Llama 4 Maverick's endpoints (ascending): the
 *   model the figures tests measure
 */
import { asc, like } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, workloads as workloadsTable } from '../schema';
import { seedCatalog } from '../seed';
import type { WorkloadCategory } from '@/lib/probe/workloads';

export async function seedAllActive(
  db: Db,
  workloads: Record<string, WorkloadCategory>,
): Promise<{ workloadIds: Record<string, number>; maverickEndpointIds: number[] }> {
  await seedCatalog(db, {
    workloads: Object.entries(workloads).map(([slug, category]) => ({
      slug,
      category,
      inputTokensTarget: 1000,
      maxOutputTokens: 256,
      concurrency: 1,
      scheduled: true,
    })),
    lookupEnv: () => 'x',
    referencePort: 3999,
  });
  const workloadIds = Object.fromEntries(
    (await db.select({ id: workloadsTable.id, slug: workloadsTable.slug }).from(workloadsTable)).map((w) => [w.slug, w.id]),
  );
  const maverick = await db.select({ id: endpoints.id }).from(endpoints).where(like(endpoints.slug, '%maverick%')).orderBy(asc(endpoints.id));
  return { workloadIds, maverickEndpointIds: maverick.map((e) => e.id) };
}
