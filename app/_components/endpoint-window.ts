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

/** One endpoint's figures for one workload over the default window, as the endpoint page and OG image show them. */
export interface EndpointWorkloadFigures {
  workloadSlug: string;
  category: string;
  n: number;
  successes: number;
  samples: number;
  outputTokensPerSecond: WindowEntry['outputTokensPerSecond'];
  ttftMs: WindowEntry['ttftMs'];
  ttfatMs: WindowEntry['ttfatMs'];
  e2eMs: WindowEntry['e2eMs'];
  /** measurements left out of the figures, by not-rankable reason */
  excluded: WindowEntry['excluded'];
  /** inter-token latency, ms/token (window medians of per-measurement ITL p50 / p95) */
  itlMs: WindowEntry['itlMs'];
  /** fidelity checks of the window: pass rate, n, Wilson interval; null when none ran */
  fidelity: WindowEntry['fidelity'];
}

/**
 * The endpoint page's and OG image's data: per workload (in the given order) the endpoint's
 * leaderboard entry over the default window, for workloads with probes in it; plus the window bounds.
 */
export async function listEndpointWorkloadFigures(
  db: Db,
  p: { endpoint: { id: number; modelSlug: string }; workloads: Array<{ slug: string; category: string }> },
): Promise<{ figures: EndpointWorkloadFigures[]; windowStart: Date | null; asOf: Date | null }> {
  const window = await getEndpointWindowEntries(db, { endpoints: [p.endpoint], workloadSlugs: p.workloads.map((w) => w.slug) });
  const figures = p.workloads
    .map((w) => ({ w, e: window.entries.get(`${p.endpoint.id}|${w.slug}`) }))
    .filter((x): x is { w: { slug: string; category: string }; e: WindowEntry } => Boolean(x.e && x.e.n > 0))
    .map(({ w, e }) => ({ workloadSlug: w.slug, category: w.category, n: e.n, successes: e.successes, samples: e.samples, outputTokensPerSecond: e.outputTokensPerSecond, ttftMs: e.ttftMs, ttfatMs: e.ttfatMs, e2eMs: e.e2eMs, excluded: e.excluded, itlMs: e.itlMs, fidelity: e.fidelity }));
  return { figures, windowStart: window.windowStart, asOf: window.asOf };
}
