/**
 * The glossary in code (issue 28 item 1, decision 280): one name per idea, the field's standard
 * term where one exists (/methodology and docs: TTFT, TPOT, ITL, E2E, TPS/user, throughput,
 * P50/P95, workload, endpoint, provider, rankable). `names` are the identifiers code, API, CSV
 * and pages use for the idea; `retired` are names that meant the same idea elsewhere, renamed to
 * the term. A retired word may appear only in a documented alias (a line marked
 * `alias (decision 280)`, or the line after such a marker), in this folder, in CHANGELOG.md and
 * in history that is never rewritten (docs/decisions, db/migrations); lib/glossary/retired-words.test.ts
 * searches the tree for the rest.
 */

/** One idea and its names. */
export interface GlossaryTerm {
  /** the standard term, as /methodology writes it */
  term: string;
  meaning: string;
  /** the identifiers (camelCase in code, API and CSV) of the idea */
  names: readonly string[];
  /** names retired in favour of `names`, each with what replaces it */
  retired: ReadonlyArray<{ word: string; replacement: string; where: string; /** code only: renamed outright, no alias */ internal?: true }>;
  /**
   * Public fields renamed to the term whose old name is too common a word to search the tree for
   * (e.g. `excluded`, also English and SQL): `Schema.field` in the OpenAPI document, where the old
   * name must be a deprecated alias (retired-words.test.ts checks the document).
   */
  retiredApiFields?: ReadonlyArray<{ field: string; replacement: string }>;
}

export const GLOSSARY: readonly GlossaryTerm[] = [
  {
    term: 'TPS/user (output speed)',
    meaning:
      'Output tokens after the first content chunk ÷ (last − first content chunk time), per stream; 1/TPOT of vLLM, SGLang and TensorRT-LLM benchmarks. Not aggregate throughput (aggregateOutputTokensPerSecond).',
    names: ['outputTokensPerSecond', 'outputTokensPerSecondO200k'],
    retired: [{ word: 'outputTokensPerSecondPerUser', replacement: 'outputTokensPerSecond', where: 'sweep levels (API, CSV, CLI --json)' }],
    retiredApiFields: [{ field: 'SweepLevel.outputTokensPerSecondPerUser', replacement: 'outputTokensPerSecond' }],
  },
  {
    term: 'ITL (inter-token latency)',
    meaning:
      'Gap between consecutive token-bearing events ÷ tokens of the later event (chunk-aware). Per measurement: its token-weighted P50 and P95; per window: the median of those (not the P95 of the window).',
    names: ['itlP50Ms', 'itlP95Ms', 'medianItlP50Ms', 'medianItlP95Ms'],
    retired: [{ word: 'itlMs', replacement: 'medianItlP50Ms and medianItlP95Ms', where: 'leaderboard entries (API, CSV itlMs.p50/itlMs.p95)' }],
    retiredApiFields: [{ field: 'LeaderboardEntry.itlMs', replacement: 'medianItlP50Ms' }],
  },
  {
    term: 'rankable',
    meaning:
      'A measurement that may enter medians, ranks and history; the others are kept and counted by not-rankable reason (notRankableReasons, NOT_RANKABLE_REASONS). One word for that rejection: not "excluded".',
    names: ['rankable', 'notRankableReasons', 'notRankable', 'NotRankableCounts', 'notRankableCountsSchema', 'notRankableTotal', 'notRankableByReason'],
    retired: [
      { internal: true, word: 'ExcludedCounts', replacement: 'NotRankableCounts', where: 'the type and the OpenAPI component name (CHANGELOG.md)' },
      { internal: true, word: 'excludedCountsSchema', replacement: 'notRankableCountsSchema', where: 'lib/api/response-schemas' },
      { internal: true, word: 'excludedTotal', replacement: 'notRankableTotal', where: 'window parts (lib/stats/window-stats)' },
      { internal: true, word: 'excludedByReason', replacement: 'notRankableByReason', where: 'window parts (lib/stats/window-stats)' },
    ],
    retiredApiFields: [
      { field: 'LeaderboardEntry.excluded', replacement: 'notRankable' },
      { field: 'HistoryPoint.excluded', replacement: 'notRankable' },
      // `valid` / `invalidReason` said "timing_uncertain" with another word (decision 181)
      { field: 'Measurement.valid', replacement: 'notRankableReasons' },
      { field: 'Measurement.invalidReason', replacement: 'notRankableReasons' },
    ],
  },
  {
    term: 'n (probes)',
    meaning:
      'The probes behind a window, bucket or day, successes and failures: a leaderboard entry’s n, a history point’s n, a model history day’s n. Rankable measurements behind a percentile are samples.',
    names: ['n', 'samples', 'successes'],
    // "count" is English and SQL (count(*)): checked in the OpenAPI document, not by a word search
    retired: [],
    retiredApiFields: [
      { field: 'HistoryPoint.count', replacement: 'n' },
      { field: 'ModelHistoryDay.count', replacement: 'n' },
    ],
  },
];

/** Every retired word (the search list of retired-words.test.ts). */
export const RETIRED_WORDS: readonly string[] = GLOSSARY.flatMap((t) => t.retired.map((r) => r.word));

/** Retired words that are public names (served by an alias for one release, named in CHANGELOG.md). */
export const RETIRED_PUBLIC_WORDS: readonly string[] = GLOSSARY.flatMap((t) => t.retired.filter((r) => !r.internal).map((r) => r.word));

/** Every retired public field, `Schema.field` of the OpenAPI document. */
export const RETIRED_API_FIELDS = GLOSSARY.flatMap((t) => t.retiredApiFields ?? []);

/** The marker that documents an alias line. */
export const ALIAS_MARKER = 'alias (decision 280)';
