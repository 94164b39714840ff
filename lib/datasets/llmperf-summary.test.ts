/**
 * Recomputes LLMPerf's own summary from every individual file that has a summary and compares
 * every statistic of every metric. Result: all match bit for bit (tolerance 0), because we use
 * numpy's algorithms (type-7 lerp, pairwise summation, pandas' two-pass variance). A naive
 * left-to-right sum would be off by up to ~2e-15 relative in mean/stddev; see
 * docs/decisions/020-statistics.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LLMPERF_METRICS,
  LLMPERF_QUANTILE_KEYS,
  parseLlmperfIndividual,
  parseLlmperfSummary,
  summarizeLlmperfRows,
} from './llmperf';
import { FIXTURES_DIR, sharedDir } from './paths';

const fixtureRoot = path.join(FIXTURES_DIR, 'llmperf');
const shared = sharedDir();
const sharedRoot = shared ? path.join(shared, 'datasets', 'llmperf-leaderboard') : null;

const readJson = (p: string): unknown => JSON.parse(fs.readFileSync(p, 'utf8'));

/** Relative tolerance. 0 = bit-identical, which is what we get; kept as a named constant for clarity. */
const REL_TOL = 0;

function expectClose(actual: number | null, expected: number, label: string): void {
  expect(actual, label).not.toBeNull();
  const a = actual as number;
  const rel = a === expected ? 0 : Math.abs(a - expected) / Math.abs(expected);
  expect(rel, `${label}: ours ${a} vs LLMPerf ${expected}`).toBeLessThanOrEqual(REL_TOL);
}

function checkRoot(root: string): void {
  const files = fs.readdirSync(path.join(root, 'summary')).filter((f) => f.endsWith('.json')).sort();
  it('has summary files', () => expect(files.length).toBeGreaterThan(0));
  for (const file of files) {
    it(`${file}: every statistic of every metric matches LLMPerf's summary`, () => {
      const ind = parseLlmperfIndividual(readJson(path.join(root, 'individual', file)), file);
      const sum = parseLlmperfSummary(readJson(path.join(root, 'summary', file)), file);
      expect(ind.provider).toBe(sum.provider);
      expect(ind.modelSize).toBe(sum.modelSize);
      const ours = summarizeLlmperfRows(ind.rows);
      expect(ours.numRequestsStarted).toBe(sum.numRequestsStarted);
      expect(ours.numberErrors).toBe(sum.numberErrors);
      expect(ours.numCompletedRequests).toBe(sum.numCompletedRequests);
      expect(ours.errorRate).toBe(sum.errorRate);
      let compared = 0;
      for (const m of LLMPERF_METRICS) {
        const a = ours.metrics[m];
        const b = sum.metrics[m];
        for (const q of LLMPERF_QUANTILE_KEYS) expectClose(a.quantiles[q], b.quantiles[q], `${file} ${m} ${q}`);
        expectClose(a.mean, b.mean, `${file} ${m} mean`);
        expectClose(a.min, b.min, `${file} ${m} min`);
        expectClose(a.max, b.max, `${file} ${m} max`);
        expectClose(a.stddev, b.stddev!, `${file} ${m} stddev`);
        compared += 10;
      }
      expect(compared).toBe(60);
    });
  }
}

describe('LLMPerf summaries recomputed from committed fixtures', () => {
  checkRoot(fixtureRoot);
});

// The shared folder is optional (tests must pass on a bare clone); when present, it is checked too,
// and the fixtures must be exact copies of it.
const sharedRoots = sharedRoot && fs.existsSync(path.join(sharedRoot, 'summary')) ? [sharedRoot] : [];
for (const root of sharedRoots) {
  describe(`LLMPerf summaries recomputed from the shared dataset (${root})`, () => {
    checkRoot(root);
    it('fixtures are byte-identical copies of every shared summary and individual file', () => {
      for (const kind of ['summary', 'individual']) {
        const names = fs.readdirSync(path.join(root, kind)).filter((f) => f.endsWith('.json'));
        expect(names.length).toBeGreaterThan(0);
        for (const f of names) {
          const ours = fs.readFileSync(path.join(fixtureRoot, kind, f));
          expect(ours.equals(fs.readFileSync(path.join(root, kind, f))), `${kind}/${f}`).toBe(true);
        }
      }
    });
  });
}

describe('errored requests are excluded as LLMPerf does', () => {
  it('lepton_70b: 130 × HTTP 429 out of 150; statistics over the 20 completed requests', () => {
    const ind = parseLlmperfIndividual(readJson(path.join(fixtureRoot, 'individual', 'lepton_70b.json')), 'lepton_70b.json');
    const s = summarizeLlmperfRows(ind.rows);
    expect(s.numCompletedRequests).toBe(20);
    expect(s.numberErrors).toBe(130);
    expect(s.errorCodeFrequency).toEqual({ '429': 130 });
    // errored rows carry 0 s timings; were they included, min TTFT would be 0
    expect(s.metrics.ttft_s.min).toBeGreaterThan(0.7);
  });
});
