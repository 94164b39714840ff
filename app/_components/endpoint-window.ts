/**
 * Window figures of particular endpoints, taken from the leaderboard answers of their models (one
 * answer per model × workload, cached by app/_server/leaderboard), so endpoint, compare and
 * provider pages show exactly the numbers of the leaderboard and /api/v1/leaderboard.
 */
import type { Db } from '@/db/client';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { getLeaderboardAnswer, type LeaderboardAnswer } from '@/app/_server/leaderboard';

/** One endpoint's leaderboard entry for one workload (tokens/s, ms, fraction). */
export type WindowEntry = LeaderboardAnswer['entries'][number];

/**
 * Entries of the given endpoints for each workload over the default window (72 h), keyed
 * `${endpointId}|${workloadSlug}`, with the window's bounds (windowStart inclusive, asOf).
 * Endpoints absent from their model's board are absent here.
 */
export async function getEndpointWindowEntries(
  db: Db,
  p: { endpoints: Array<{ id: number; modelSlug: string }>; workloadSlugs: string[] },
): Promise<{ entries: Map<string, WindowEntry>; windowStart: Date | null; asOf: Date | null }> {
  const models = [...new Set(p.endpoints.map((e) => e.modelSlug))];
  const pairs = models.flatMap((model) => p.workloadSlugs.map((workload) => ({ model, workload })));
  const answers = await Promise.all(pairs.map((q) => getLeaderboardAnswer(db, leaderboardQuerySchema.parse(q))));
  const wanted = new Set(p.endpoints.map((e) => e.id));
  const out = new Map<string, WindowEntry>();
  answers.forEach((a, i) => {
    for (const e of a.entries) if (wanted.has(e.endpoint.id)) out.set(`${e.endpoint.id}|${pairs[i]!.workload}`, e);
  });
  // all answers of one request share the window (asOf is the current minute)
  return { entries: out, windowStart: answers[0] ? new Date(answers[0].windowStart) : null, asOf: answers[0] ? new Date(answers[0].asOf) : null };
}
