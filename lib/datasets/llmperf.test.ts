import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LlmperfFormatError,
  parseLlmperfFileName,
  parseLlmperfIndividual,
  parseLlmperfSummary,
  summarizeLlmperfRows,
} from './llmperf';
import { FIXTURES_DIR, sharedDir } from './paths';

const root = path.join(FIXTURES_DIR, 'llmperf');
const readJson = (p: string): unknown => JSON.parse(fs.readFileSync(p, 'utf8'));

const okRecord = {
  error_code: null,
  error_msg: '',
  inter_token_latency_s: 0.01,
  ttft_s: 0.5,
  end_to_end_latency_s: 2.0,
  request_output_throughput_token_per_s: 75.5,
  number_total_tokens: 701,
  number_output_tokens: 151,
  number_input_tokens: 550,
};

describe('parseLlmperfIndividual', () => {
  it('converts units and derives output speed excluding TTFT', () => {
    const { provider, modelSize, rows } = parseLlmperfIndividual([okRecord], 'individual/anyscale_13b.json');
    expect(provider).toBe('anyscale');
    expect(modelSize).toBe('13b');
    const r = rows[0]!;
    expect(r.ttftMs).toBe(500);
    expect(r.e2eMs).toBe(2000);
    expect(r.interTokenLatencyMs).toBe(10);
    expect(r.inputTokens).toBe(550);
    expect(r.outputTokens).toBe(151);
    expect(r.llmperfThroughputTokensPerSecond).toBe(75.5);
    expect(r.outputTokensPerSecond).toBe(100); // (151 − 1) / (2.0 − 0.5)
    expect(r.errorCode).toBeNull();
    expect(r.errorMessage).toBeNull();
  });

  it('real file: first anyscale_13b request', () => {
    const { rows } = parseLlmperfIndividual(readJson(path.join(root, 'individual', 'anyscale_13b.json')), 'anyscale_13b.json');
    expect(rows).toHaveLength(150);
    const r = rows[0]!;
    expect(r.ttftMs).toBeCloseTo(557.5600349999945, 9);
    expect(r.outputTokens).toBe(151);
    // LLMPerf's figure divides by the whole E2E latency, TTFT included
    expect(r.llmperfThroughputTokensPerSecond).toBeCloseTo(34.02804151827529, 12);
    expect(r.outputTokensPerSecond).toBeCloseTo(150 / (1.5281514210000182 - 0.5575600349999945), 9);
    expect(r.outputTokensPerSecond!).toBeGreaterThan(r.llmperfThroughputTokensPerSecond);
  });

  it('errored rows keep their code and message and have no output speed', () => {
    const { rows } = parseLlmperfIndividual(
      [{ ...okRecord, error_code: 429, error_msg: 'rate limited', ttft_s: 0, end_to_end_latency_s: 0, number_output_tokens: 0 }],
      'x_7b.json',
    );
    expect(rows[0]).toMatchObject({ errorCode: 429, errorMessage: 'rate limited', outputTokensPerSecond: null });
  });

  it('keeps unknown extra fields (e.g. GEN_TEXT in the Bedrock files)', () => {
    const { rows } = parseLlmperfIndividual([{ ...okRecord, GEN_TEXT: 'hello' }], 'bedrock_13b.json');
    expect(rows[0]!.raw.GEN_TEXT).toBe('hello');
  });

  it('a malformed file names the file and the field', () => {
    const bad = [okRecord, { ...okRecord, ttft_s: 'slow' }];
    expect(() => parseLlmperfIndividual(bad, 'groq_70b.json')).toThrow(LlmperfFormatError);
    expect(() => parseLlmperfIndividual(bad, 'groq_70b.json')).toThrow(/groq_70b\.json.*\[1\]\.ttft_s/);
    const { number_output_tokens: _, ...missing } = okRecord;
    expect(() => parseLlmperfIndividual([missing], 'groq_70b.json')).toThrow(/\[0\]\.number_output_tokens/);
    expect(() => parseLlmperfIndividual({ not: 'an array' }, 'groq_70b.json')).toThrow(/groq_70b\.json: field \(root\)/);
    expect(() => parseLlmperfIndividual([], 'groq_70b.json')).toThrow(/groq_70b\.json/);
    expect(() => parseLlmperfIndividual([{ ...okRecord, ttft_s: Number.NaN }], 'groq_70b.json')).toThrow(/\[0\]\.ttft_s/);
  });

  it('a file name without PROVIDER_SIZE.json form is refused', () => {
    expect(() => parseLlmperfFileName('results.json')).toThrow(/results\.json.*PROVIDER_SIZE/);
    expect(parseLlmperfFileName('/a/b/Together_70B.json')).toEqual({ provider: 'together', modelSize: '70b' });
  });
});

describe('parseLlmperfSummary', () => {
  it('coerces LLMPerf string min/max token counts to numbers', () => {
    const s = parseLlmperfSummary(readJson(path.join(root, 'summary', 'anyscale_13b.json')), 'anyscale_13b.json');
    expect(s.metrics.number_input_tokens.min).toBe(550);
    expect(s.metrics.number_output_tokens.min).toBe(137);
    expect(s.metrics.ttft_s.quantiles.p50).toBe(0.20235683199999244);
    expect(s).toMatchObject({ provider: 'anyscale', modelSize: '13b', timestamp: 1703136016, numCompletedRequests: 150 });
  });
  it('a malformed summary names the file and field', () => {
    const json = readJson(path.join(root, 'summary', 'anyscale_13b.json')) as Record<string, unknown>;
    const { results_ttft_s_mean: _, ...rest } = json;
    expect(() => parseLlmperfSummary(rest, 'anyscale_13b.json')).toThrow(/anyscale_13b\.json: field results_ttft_s_mean/);
    expect(() => parseLlmperfSummary({ ...json, results_number_input_tokens_min: 'many' }, 's.json')).toThrow(
      /s\.json: field results_number_input_tokens_min/,
    );
  });
});

describe('summarizeLlmperfRows', () => {
  it('hand-computed statistics on a small set, errors excluded', () => {
    const rows = parseLlmperfIndividual(
      [...[1, 2, 3, 4].map((t) => ({ ...okRecord, ttft_s: t })), { ...okRecord, ttft_s: 0, error_code: -1 }],
      'x_7b.json',
    ).rows;
    const s = summarizeLlmperfRows(rows);
    expect(s.metrics.ttft_s.quantiles.p25).toBe(1.75);
    expect(s.metrics.ttft_s.mean).toBe(2.5);
    expect(s.metrics.ttft_s.min).toBe(1);
    expect(s.metrics.ttft_s.stddev).toBeCloseTo(Math.sqrt(5 / 3), 15);
    expect(s).toMatchObject({ numRequestsStarted: 5, numberErrors: 1, errorRate: 0.2, numCompletedRequests: 4 });
    expect(s.errorCodeFrequency).toEqual({ '-1': 1 });
  });
  it('throws when every request errored', () => {
    const rows = parseLlmperfIndividual([{ ...okRecord, error_code: 429 }], 'x_7b.json').rows;
    expect(() => summarizeLlmperfRows(rows)).toThrow(RangeError);
  });
});

describe('sharedDir', () => {
  it('prefers TOKENPACE_SHARED_DIR', () => {
    expect(sharedDir({ TOKENPACE_SHARED_DIR: '/tmp/x' })).toBe('/tmp/x');
  });
  it('otherwise falls back to an existing <repo>/../shared, else null (no fixed machine path)', () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-shared-'));
    try {
      const repo = path.join(parent, 'repo');
      fs.mkdirSync(repo);
      expect(sharedDir({}, repo)).toBeNull();
      fs.mkdirSync(path.join(parent, 'shared'));
      expect(sharedDir({}, repo)).toBe(path.join(parent, 'shared'));
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('what LLMPerf\'s throughput field really holds in this dataset', () => {
  // ratio = request_output_throughput_token_per_s × E2E ÷ number_output_tokens, median over completed requests
  const medianRatio = (file: string): number => {
    const { rows } = parseLlmperfIndividual(readJson(path.join(root, 'individual', file)), file);
    const r = rows
      .filter((x) => x.errorCode === null)
      .map((x) => (x.llmperfThroughputTokensPerSecond * x.raw.end_to_end_latency_s) / x.outputTokens)
      .sort((a, b) => a - b);
    return r[r.length >> 1]!;
  };
  it('≈ 1 where the provider streams one token per chunk, far below 1 where chunks carry several tokens', () => {
    expect(medianRatio('groq_70b.json')).toBeCloseTo(0.993, 2);
    expect(medianRatio('anyscale_7b.json')).toBeCloseTo(1.007, 2);
    expect(medianRatio('lepton_13b.json')).toBeCloseTo(0.344, 2); // ≈ 3 tokens per SSE chunk
    expect(medianRatio('replicate_7b.json')).toBeLessThan(0.05);
  });
  it('so derived output speed, not LLMPerf throughput, is the comparable TPS/user', () => {
    const { rows } = parseLlmperfIndividual(readJson(path.join(root, 'individual', 'lepton_13b.json')), 'lepton_13b.json');
    for (const r of rows.filter((x) => x.errorCode === null)) {
      expect(r.outputTokensPerSecond!).toBeGreaterThan(2 * r.llmperfThroughputTokensPerSecond);
    }
  });
});

describe('every committed individual file parses', () => {
  const files = fs.readdirSync(path.join(root, 'individual')).filter((f) => f.endsWith('.json'));
  it('19 files, 145–150 requests each, provider and size from the name', () => {
    expect(files).toHaveLength(19);
    for (const f of files) {
      const { provider, modelSize, rows } = parseLlmperfIndividual(readJson(path.join(root, 'individual', f)), f);
      expect(`${provider}_${modelSize}.json`).toBe(f);
      expect(rows.length).toBeGreaterThanOrEqual(145);
      for (const r of rows) if (r.errorCode === null) expect(r.outputTokensPerSecond).toBeGreaterThan(0);
    }
  });
});
