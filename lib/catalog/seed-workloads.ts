/**
 * Workloads seeded into the catalog: exactly the grid of lib/probe/workloads (the one source of
 * truth; this file only maps it onto the `workloads` table's columns). How often each workload is
 * probed is decided by lib/probe/cadence, not here.
 */
import { ALL_WORKLOADS, HEADLINE_WORKLOAD_SLUG } from '@/lib/probe/workloads';

/** The leaderboard's default workload (= the headline workload, probed every slot). */
export const DEFAULT_WORKLOAD_SLUG = HEADLINE_WORKLOAD_SLUG;

/** Rows to upsert into `workloads`, one per grid workload, in the grid's order. */
export const SEED_WORKLOADS = ALL_WORKLOADS.map((w) => ({
  slug: w.slug,
  name: w.name,
  category: w.category,
  inputTokensTarget: w.inputTokensTarget,
  maxOutputTokens: w.maxOutputTokens,
  concurrency: w.concurrency,
  scheduled: w.scheduled,
  description: w.description,
}));
