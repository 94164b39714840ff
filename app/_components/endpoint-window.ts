/**
 * Window figures of particular endpoints, taken from the leaderboard answers of their models (one
 * answer per model × workload, cached by server/leaderboard), so endpoint, compare and
 * provider pages show exactly the numbers of the leaderboard and /api/v1/leaderboard.
 */
import type { Db } from '@/db/client';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { getLeaderboardAnswer, type LeaderboardAnswer } from '@/server/leaderboard';
import { PRECOMPUTED_WINDOWS_HOURS } from '@/lib/stats/window-stats';

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
  // All answers of one request share the window start; a live answer whose figures did not change
  // keeps the asOf of the minute they were computed (decision 300), so the newest asOf is the window's end.
  const asOf = answers.length ? new Date(Math.max(...answers.map((a) => Date.parse(a.asOf)))) : null;
  return { entries: out, windowStart: answers[0] ? new Date(answers[0].windowStart) : null, asOf };
}

/** One endpoint's figures for one workload over the default window, as the endpoint page and OG image show them. */
export interface EndpointWorkloadFigures {
  workloadSlug: string;
  category: string;
  n: number;
  successes: number;
  samples: number;
  outputTokensPerSecond: WindowEntry['outputTokensPerSecond'];
  /** 95 % interval of the median TPS/user, tokens/s: the interval that decides ties; null with too few samples */
  outputTokensPerSecondMedianCi: WindowEntry['outputTokensPerSecondMedianCi'];
  ttftMs: WindowEntry['ttftMs'];
  ttfatMs: WindowEntry['ttfatMs'];
  e2eMs: WindowEntry['e2eMs'];
  /** measurements left out of the figures, by not-rankable reason */
  notRankable: WindowEntry['notRankable'];
  /** inter-token latency, ms/token: window medians of the measurements' ITL P50 and ITL P95 */
  medianItlP50Ms: WindowEntry['medianItlP50Ms'];
  medianItlP95Ms: WindowEntry['medianItlP95Ms'];
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
    .map(({ w, e }) => ({
      workloadSlug: w.slug,
      category: w.category,
      n: e.n,
      successes: e.successes,
      samples: e.samples,
      outputTokensPerSecond: e.outputTokensPerSecond,
      outputTokensPerSecondMedianCi: e.outputTokensPerSecondMedianCi,
      ttftMs: e.ttftMs,
      ttfatMs: e.ttfatMs,
      e2eMs: e.e2eMs,
      notRankable: e.notRankable,
      medianItlP50Ms: e.medianItlP50Ms,
      medianItlP95Ms: e.medianItlP95Ms,
      fidelity: e.fidelity,
    }));
  return { figures, windowStart: window.windowStart, asOf: window.asOf };
}

/**
 * Tier objective attainment of one endpoint and workload over the standard windows
 * (PRECOMPUTED_WINDOWS_HOURS: 24 h, 72 h, 7 d), each the endpoint's leaderboard entry of that
 * window (the one engine; the same answers as /api/v1/leaderboard?window=…). Null attainment: no
 * judged measurement in the window (or no objective).
 */
export async function getEndpointTierWindows(
  db: Db,
  p: { endpoint: { id: number; modelSlug: string }; workloadSlug: string },
): Promise<Array<{ hours: number; attainment: WindowEntry['tierObjectiveAttainment'] }>> {
  return Promise.all(
    PRECOMPUTED_WINDOWS_HOURS.map(async (hours) => {
      const answer = await getLeaderboardAnswer(
        db,
        leaderboardQuerySchema.parse({ model: p.endpoint.modelSlug, workload: p.workloadSlug, window: `${hours}h` }),
      );
      return { hours, attainment: answer.entries.find((e) => e.endpoint.id === p.endpoint.id)?.tierObjectiveAttainment ?? null };
    }),
  );
}
