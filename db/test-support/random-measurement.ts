/**
 * One synthetic measurement row for tests that compare two ways of computing the same figures
 * (rollups against raw, window partials against rollups, live figures against a cold compute):
 * 5 % failures, a share `flaggedShare` (default 0.05) of the successes not rankable
 * (token_count_mismatch), region eu-west for every third index and us-east otherwise, timings
 * (ms) and TPS/user drawn from `rand` around a speed that depends on the endpoint id, and a
 * fidelity check on every `fidelityEvery`-th index (default 11). The draws from `rand` come in a
 * fixed order, so a seeded generator gives the same rows every run. Options `errorKinds` (default
 * timeout or rate_limited) and `itl` (default true: ITL P50/P95 drawn) keep older fixtures'
 * sequences. The cache counts take no draw (decision 291): a cached count unknown on every 4th
 * index, a prompt of 0 input tokens on every 5th (no cached share), otherwise (i × 37) mod 1,800
 * cached of 2,048 input tokens (misses and partial hits).
 */
import type { measurements } from '../schema';

export interface RandomMeasurementSpec {
  rand: () => number;
  jobKey: string;
  endpointId: number;
  workloadId: number;
  /** epoch ms */
  at: number;
  /** the row's index: picks its region and whether it carries a fidelity check */
  i: number;
  flaggedShare?: number;
  errorKinds?: readonly ['timeout'] | readonly ['timeout', 'rate_limited'];
  itl?: boolean;
  fidelityEvery?: number;
}

export function randomMeasurement(s: RandomMeasurementSpec): typeof measurements.$inferInsert {
  const { rand, endpointId, i } = s;
  const flaggedShare = s.flaggedShare ?? 0.05;
  const fidelityEvery = s.fidelityEvery ?? 11;
  const fail = rand() < 0.05;
  const flagged = flaggedShare > 0 && !fail && rand() < flaggedShare;
  const errorKind = !fail ? null : s.errorKinds?.length === 1 ? 'timeout' : rand() < 0.5 ? 'timeout' : 'rate_limited';
  return {
    jobKey: s.jobKey,
    endpointId,
    workloadId: s.workloadId,
    measuredAt: new Date(s.at),
    workerRegion: i % 3 === 0 ? 'eu-west' : 'us-east',
    workerVersion: 'test',
    outcome: fail ? 'error' : 'success',
    errorKind,
    ttftMs: fail ? null : 100 + rand() * 400,
    ttfatMs: fail ? null : 120 + rand() * 400,
    e2eMs: fail ? null : 1000 + rand() * 3000,
    ...(s.itl === false ? {} : { itlP50Ms: fail ? null : 2 + rand() * 10, itlP95Ms: fail ? null : 10 + rand() * 20 }),
    outputTokensPerSecond: fail ? null : 100 * ((endpointId % 7) + 1) * (0.8 + 0.4 * rand()),
    outputTokensPerSecondO200k: fail ? null : 95 * ((endpointId % 7) + 1) * (0.8 + 0.4 * rand()),
    contentChunks: fail ? 0 : 100,
    cachedInputTokens: fail || i % 4 === 0 ? null : (i * 37) % 1800,
    inputTokensReported: fail ? null : i % 5 === 0 ? 0 : 2048,
    rankable: !fail && !flagged,
    notRankableReasons: fail ? ['failed'] : flagged ? ['token_count_mismatch'] : [],
    fidelityCheck: i % fidelityEvery === 0 && !fail ? 'arithmetic' : null,
    fidelityPassed: i % fidelityEvery === 0 && !fail ? rand() < 0.8 : null,
  };
}
