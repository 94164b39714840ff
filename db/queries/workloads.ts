import { asc } from 'drizzle-orm';
import type { Db } from '../client';
import { workloads } from '../schema';

/** Columns every workload list shows: id, slug, name, category, output budget, concurrency. */
export const workloadColumns = {
  id: workloads.id,
  slug: workloads.slug,
  name: workloads.name,
  category: workloads.category,
  maxOutputTokens: workloads.maxOutputTokens,
  concurrency: workloads.concurrency,
};

/**
 * The workload grid as seeded (lib/probe/workloads is its source): slug, category, input length
 * target, output budget, description, in grid order (category, then input length).
 */
export async function listWorkloadGrid(db: Db) {
  return db
    .select({ ...workloadColumns, inputTokens: workloads.inputTokensTarget, description: workloads.description })
    .from(workloads)
    .orderBy(asc(workloads.id));
}
