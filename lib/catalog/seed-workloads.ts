/**
 * Workloads seeded into the catalog: every definition of lib/probe/workloads. The catalog, not the
 * probe library, decides what is scheduled: the ~1k-token input workload of each category (so the
 * endpoint page can compare speed by category, where speculative decoding shows) (the other lengths run on demand, so the
 * default schedule stays affordable for paid provider APIs).
 */
import { WORKLOADS } from '@/lib/probe/workloads';

export const DEFAULT_WORKLOAD_SLUG = 'prose-1k';

const SCHEDULED = new Set(['prose-1k', 'code-1k', 'math-1k', 'json-1k']);

export const SEED_WORKLOADS = WORKLOADS.map((w) => ({
  slug: w.slug,
  name: w.name,
  category: w.category,
  inputTokensTarget: w.inputTokensTarget,
  maxOutputTokens: w.maxOutputTokens,
  concurrency: w.concurrency,
  scheduled: SCHEDULED.has(w.slug),
}));
