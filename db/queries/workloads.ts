import { asc } from 'drizzle-orm';
import type { Db } from '../client';
import { workloads } from '../schema';

/**
 * The workload grid as seeded (lib/probe/workloads is its source): slug, category, input length
 * target, output budget, description, in grid order (category, then input length).
 */
export async function listWorkloadGrid(db: Db) {
  return db
    .select({
      id: workloads.id,
      slug: workloads.slug,
      name: workloads.name,
      category: workloads.category,
      inputTokens: workloads.inputTokensTarget,
      maxOutputTokens: workloads.maxOutputTokens,
      concurrency: workloads.concurrency,
      description: workloads.description,
    })
    .from(workloads)
    .orderBy(asc(workloads.id));
}
