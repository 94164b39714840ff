/**
 * Importer for the LLMPerf leaderboard raw data (ray-project/llmperf-leaderboard, folder
 * raw_data/, Apache-2.0; produced by the LLMPerf client ray-project/llmperf). See
 * test-fixtures/llmperf/README.md for what a run did.
 *
 * Two file kinds, both named `PROVIDER_SIZE.json` (e.g. `anyscale_13b.json`):
 * - individual/: a JSON array, one object per request (see {@link llmperfIndividualRecordSchema})
 * - summary/: LLMPerf's own summary of the matching individual file (see {@link llmperfSummarySchema})
 *
 * Definitions to keep apart (DESIGN.md §1):
 * - LLMPerf's `request_output_throughput_token_per_s` divides by end_to_end_latency_s, so it
 *   INCLUDES the time to first token. We keep it, unchanged, as `llmperfThroughputTokensPerSecond`.
 *   Caution, checked against the data: in THIS dataset (LLMPerf of Dec 2023) its numerator is not
 *   number_output_tokens but the count of SSE data lines received (`tokens_received += 1` per chunk in
 *   LLMPerf's OpenAI client, `output_throughput = tokens_received / total_request_time`); later LLMPerf
 *   versions overwrite it with tokenizer tokens ÷ E2E, which is what the dataset README describes.
 *   Hence value × E2E ÷ number_output_tokens ≈ 1.0 for providers streaming one token per chunk
 *   (anyscale 7B, groq, bedrock) but ≈ 0.34 for lepton (≈3 tokens per chunk) and 0.01–0.25 for
 *   replicate. It is a chunk rate, not comparable across providers.
 * - LLMPerf's `inter_token_latency_s` is Σ(gaps between content chunks, the first "gap" being TTFT)
 *   ÷ number_output_tokens ≈ E2E ÷ N: it also includes TTFT.
 * - Output speed (TPS/user, what Tokenpace and Artificial Analysis rank by) excludes TTFT. We
 *   derive it as `outputTokensPerSecond` = (number_output_tokens − 1) ÷ (end_to_end_latency_s −
 *   ttft_s), the dataset README's formula under the one-token-in-the-first-chunk assumption, with
 *   N = LLMPerf's Llama-tokenizer count of the received text.
 */
import { z } from 'zod';
import { mean, percentiles, sampleStddev } from '../stats/percentiles';
import { DatasetFormatError } from './format-error';

/** Error thrown for a file that does not match the expected LLMPerf shape; names file and field. */
export class LlmperfFormatError extends DatasetFormatError {
  constructor(fileName: string, field: string, detail: string) {
    super('LLMPerf', fileName, field, detail);
    this.name = 'LlmperfFormatError';
  }
}

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const count = z.number().int().nonnegative();

/**
 * One request in an LLMPerf individual file, with LLMPerf's field names and units (seconds,
 * tokens). Unknown extra fields (e.g. `GEN_TEXT` in the Bedrock files) are kept (loose object).
 * - error_code: null for a completed request; HTTP status (429), -1, or LLMPerf's -100 ("Output too
 *   few tokens N") otherwise. Errored rows carry 0 in the timing fields.
 * - error_msg: "" when no message.
 */
export const llmperfIndividualRecordSchema = z.looseObject({
  error_code: z.number().int().nullable(),
  error_msg: z.string().nullable(),
  inter_token_latency_s: finite.nonnegative(),
  ttft_s: finite.nonnegative(),
  end_to_end_latency_s: finite.nonnegative(),
  request_output_throughput_token_per_s: finite.nonnegative(),
  number_total_tokens: count.optional(),
  number_output_tokens: count,
  number_input_tokens: count,
});
/** A validated LLMPerf request record (seconds and tokens, LLMPerf naming). */
export type LlmperfIndividualRecord = z.infer<typeof llmperfIndividualRecordSchema>;

/** Schema of a whole individual file: a non-empty array of request records. */
export const llmperfIndividualFileSchema = z.array(llmperfIndividualRecordSchema).min(1);

/**
 * The six per-request metrics LLMPerf summarises, in LLMPerf's naming and units
 * (seconds, tokens, tokens/second).
 */
export const LLMPERF_METRICS = [
  'inter_token_latency_s',
  'ttft_s',
  'end_to_end_latency_s',
  'request_output_throughput_token_per_s',
  'number_input_tokens',
  'number_output_tokens',
] as const;
/** One of {@link LLMPERF_METRICS}. */
export type LlmperfMetric = (typeof LLMPERF_METRICS)[number];

/** The quantile levels LLMPerf reports (as fractions, as passed to pandas `Series.quantile`). */
export const LLMPERF_QUANTILES = [0.25, 0.5, 0.75, 0.9, 0.95, 0.99] as const;
/** Quantile keys as they appear in LLMPerf's summary (`..._quantiles_p25`). */
export const LLMPERF_QUANTILE_KEYS = ['p25', 'p50', 'p75', 'p90', 'p95', 'p99'] as const;
/** One of {@link LLMPERF_QUANTILE_KEYS}. */
export type LlmperfQuantileKey = (typeof LLMPERF_QUANTILE_KEYS)[number];

/**
 * LLMPerf's statistics of one metric, in the metric's own unit: pandas `Series.quantile` (linear,
 * type 7) at p25…p99, mean, min, max and sample stddev (ddof = 1). `stddev` is null when pandas
 * would give NaN (fewer than 2 values).
 */
export interface LlmperfMetricSummary {
  quantiles: Record<LlmperfQuantileKey, number>;
  mean: number;
  min: number;
  max: number;
  stddev: number | null;
}

/** A number, or a decimal string holding one (LLMPerf writes token min/max as strings, e.g. "550"). */
const numberOrNumericString = z.union([
  finite,
  z
    .string()
    .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, 'must be a number or a numeric string')
    .transform(Number),
]);

const metricSummaryShape: Record<string, typeof numberOrNumericString> = {};
for (const m of LLMPERF_METRICS) {
  for (const q of LLMPERF_QUANTILE_KEYS) metricSummaryShape[`results_${m}_quantiles_${q}`] = numberOrNumericString;
  for (const s of ['mean', 'min', 'max', 'stddev']) metricSummaryShape[`results_${m}_${s}`] = numberOrNumericString;
}

/**
 * Schema of an LLMPerf summary file (LLMPerf "version" 2023-08-31). Per metric M in
 * {@link LLMPERF_METRICS}: `results_M_quantiles_p25|p50|p75|p90|p95|p99`, `results_M_mean|min|max|stddev`
 * (min/max of token counts are numeric strings in the files; coerced to numbers). Also run-level
 * fields: error rate/count, completed requests (per minute), overall output throughput, the
 * provider (`framework`), `model_size`, `model`, optional `api` and a Unix `timestamp` (seconds).
 * Unknown extra fields are kept.
 */
export const llmperfSummarySchema = z.looseObject({
  version: z.string(),
  name: z.string(),
  model: z.string(),
  mean_input_tokens: finite,
  stddev_input_tokens: finite,
  mean_output_tokens: finite,
  stddev_output_tokens: finite,
  num_concurrent_requests: count,
  ...metricSummaryShape,
  results_num_requests_started: count,
  results_error_rate: finite,
  results_number_errors: count,
  results_error_code_frequency: z.string(),
  results_mean_output_throughput_token_per_s: finite,
  results_num_completed_requests: count,
  results_num_completed_requests_per_min: finite,
  framework: z.string(),
  model_size: z.string(),
  api: z.string().optional(),
  timestamp: z.number().int(),
});

/**
 * One imported request, in Tokenpace units (milliseconds, tokens, tokens/second).
 * - index: position in the file (0-based)
 * - ttftMs, e2eMs: LLMPerf's ttft_s and end_to_end_latency_s × 1000
 * - interTokenLatencyMs: LLMPerf's inter_token_latency_s × 1000 (≈ E2E ÷ N, includes TTFT; module doc)
 * - inputTokens, outputTokens: LLMPerf's counts (Llama tokenizer on the prompt / received text)
 * - llmperfThroughputTokensPerSecond: LLMPerf's request_output_throughput_token_per_s as stored —
 *   ÷ E2E, so it INCLUDES TTFT; in this dataset its numerator is the number of stream chunks, not
 *   tokens (module doc). Not output speed; never rank by it
 * - outputTokensPerSecond: derived output speed (TPS/user) = (outputTokens − 1) ÷ ((e2e − ttft) in s),
 *   EXCLUDING TTFT, per the dataset README (one token assumed in the first chunk); null for an
 *   errored request, when outputTokens < 2, or when e2e ≤ ttft
 * - errorCode / errorMessage: LLMPerf's error_code (null = completed) and error_msg (null when empty)
 * - raw: the validated original record, seconds untouched (used for bit-exact LLMPerf summaries)
 */
export interface LlmperfRequestRow {
  index: number;
  ttftMs: number;
  e2eMs: number;
  interTokenLatencyMs: number;
  inputTokens: number;
  outputTokens: number;
  llmperfThroughputTokensPerSecond: number;
  outputTokensPerSecond: number | null;
  errorCode: number | null;
  errorMessage: string | null;
  raw: LlmperfIndividualRecord;
}

/** Result of {@link parseLlmperfIndividual}: provider and model size from the file name, and the rows. */
export interface LlmperfIndividualFile {
  provider: string;
  modelSize: string;
  rows: LlmperfRequestRow[];
}

const FILE_NAME = /^([a-z0-9-]+)_(\d+(?:\.\d+)?[bm])\.json$/i;

/**
 * Provider and model size from an LLMPerf file name `PROVIDER_SIZE.json` (any directory prefix is
 * ignored), e.g. "individual/anyscale_13b.json" → { provider: "anyscale", modelSize: "13b" }.
 * @throws LlmperfFormatError if the name does not have that form
 */
export function parseLlmperfFileName(fileName: string): { provider: string; modelSize: string } {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const m = FILE_NAME.exec(base);
  if (!m) throw new LlmperfFormatError(fileName, '(file name)', 'expected PROVIDER_SIZE.json, e.g. anyscale_13b.json');
  return { provider: m[1]!.toLowerCase(), modelSize: m[2]!.toLowerCase() };
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
}

function fail(fileName: string, error: z.ZodError): never {
  const issue = error.issues[0]!;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more issue(s))` : '';
  throw new LlmperfFormatError(fileName, formatPath(issue.path), issue.message + more);
}

/** Derived output speed (tokens/s after the first token), or null when undefined. */
function outputSpeed(r: LlmperfIndividualRecord): number | null {
  if (r.error_code !== null) return null;
  const decode = r.end_to_end_latency_s - r.ttft_s;
  if (r.number_output_tokens < 2 || !(decode > 0)) return null;
  return (r.number_output_tokens - 1) / decode;
}

/**
 * Parse and validate one LLMPerf individual file.
 * @param json the parsed JSON content (an array of request objects)
 * @param fileName the file's name (`PROVIDER_SIZE.json`, directory optional): gives provider and
 *   model size, and is named in every error
 * @returns provider, modelSize and one {@link LlmperfRequestRow} per request, in file order
 * @throws LlmperfFormatError naming the file and the first offending field (e.g. `[3].ttft_s`)
 */
export function parseLlmperfIndividual(json: unknown, fileName: string): LlmperfIndividualFile {
  const { provider, modelSize } = parseLlmperfFileName(fileName);
  const parsed = llmperfIndividualFileSchema.safeParse(json);
  if (!parsed.success) fail(fileName, parsed.error);
  const rows = parsed.data.map(
    (r, index): LlmperfRequestRow => ({
      index,
      ttftMs: r.ttft_s * 1000,
      e2eMs: r.end_to_end_latency_s * 1000,
      interTokenLatencyMs: r.inter_token_latency_s * 1000,
      inputTokens: r.number_input_tokens,
      outputTokens: r.number_output_tokens,
      llmperfThroughputTokensPerSecond: r.request_output_throughput_token_per_s,
      outputTokensPerSecond: outputSpeed(r),
      errorCode: r.error_code,
      errorMessage: r.error_msg === null || r.error_msg === '' ? null : r.error_msg,
      raw: r,
    }),
  );
  return { provider, modelSize, rows };
}

/** A validated LLMPerf summary, reorganised: per-metric statistics plus run-level figures. */
export interface LlmperfSummary {
  provider: string;
  modelSize: string;
  model: string;
  /** Unix time of the run, seconds. */
  timestamp: number;
  metrics: Record<LlmperfMetric, LlmperfMetricSummary>;
  numRequestsStarted: number;
  numberErrors: number;
  errorRate: number;
  numCompletedRequests: number;
  numCompletedRequestsPerMin: number;
  /** LLMPerf's overall output throughput: Σ output tokens of completed requests ÷ wall time (tokens/s, aggregate). */
  meanOutputThroughputTokenPerS: number;
  raw: z.infer<typeof llmperfSummarySchema>;
}

/**
 * Parse and validate one LLMPerf summary file.
 * @param json the parsed JSON content (one object)
 * @param fileName file name, named in errors; provider/modelSize come from the file's
 *   `framework` and `model_size` fields
 * @throws LlmperfFormatError naming the file and the first offending field
 */
export function parseLlmperfSummary(json: unknown, fileName: string): LlmperfSummary {
  const parsed = llmperfSummarySchema.safeParse(json);
  if (!parsed.success) fail(fileName, parsed.error);
  const d = parsed.data as z.infer<typeof llmperfSummarySchema> & Record<string, number>;
  const metrics = {} as Record<LlmperfMetric, LlmperfMetricSummary>;
  for (const m of LLMPERF_METRICS) {
    const quantiles = {} as Record<LlmperfQuantileKey, number>;
    for (const q of LLMPERF_QUANTILE_KEYS) quantiles[q] = d[`results_${m}_quantiles_${q}`]!;
    metrics[m] = {
      quantiles,
      mean: d[`results_${m}_mean`]!,
      min: d[`results_${m}_min`]!,
      max: d[`results_${m}_max`]!,
      stddev: d[`results_${m}_stddev`]!,
    };
  }
  return {
    provider: d.framework,
    modelSize: d.model_size,
    model: d.model,
    timestamp: d.timestamp,
    metrics,
    numRequestsStarted: d.results_num_requests_started,
    numberErrors: d.results_number_errors,
    errorRate: d.results_error_rate,
    numCompletedRequests: d.results_num_completed_requests,
    numCompletedRequestsPerMin: d.results_num_completed_requests_per_min,
    meanOutputThroughputTokenPerS: d.results_mean_output_throughput_token_per_s,
    raw: parsed.data,
  };
}

/**
 * What {@link summarizeLlmperfRows} computes: LLMPerf's per-metric statistics over completed
 * requests, and the run-level error counts. (LLMPerf's completed-requests-per-minute and overall
 * throughput need the run's wall-clock start/end, which the individual files do not contain.)
 */
export interface LlmperfRowsSummary {
  metrics: Record<LlmperfMetric, LlmperfMetricSummary>;
  numRequestsStarted: number;
  numberErrors: number;
  errorRate: number;
  numCompletedRequests: number;
  /** error code → count, over errored requests (LLMPerf's results_error_code_frequency). */
  errorCodeFrequency: Record<string, number>;
}

/**
 * Recompute LLMPerf's summary statistics from request rows, in LLMPerf's own units and naming so
 * the result compares directly with a summary file (source: `metrics_summary` in LLMPerf's
 * token_benchmark_ray.py).
 *
 * As LLMPerf does, errored requests (error_code not null) are EXCLUDED from every metric
 * (`df[df.error_code.isna()]`) and only counted in numberErrors/errorRate. For each metric over the
 * remaining rows: pandas `Series.quantile([0.25, 0.5, 0.75, 0.9, 0.95, 0.99])` (linear, type 7;
 * pandas passes the levels to `np.percentile` as q·100, reproduced here), `mean()` (numpy pairwise
 * sum ÷ n), `min()`, `max()`, `std()` (ddof = 1, pandas two-pass). The values are taken from
 * `row.raw` (seconds as stored), not from the ms fields, so no unit-conversion rounding enters.
 *
 * @param rows rows from {@link parseLlmperfIndividual}
 * @throws RangeError if no row completed without error (LLMPerf would emit NaN)
 */
export function summarizeLlmperfRows(rows: readonly LlmperfRequestRow[]): LlmperfRowsSummary {
  const ok = rows.filter((r) => r.raw.error_code === null);
  if (ok.length === 0) throw new RangeError('no completed (error-free) requests to summarise');
  const metrics = {} as Record<LlmperfMetric, LlmperfMetricSummary>;
  for (const m of LLMPERF_METRICS) {
    const values = ok.map((r) => r.raw[m] as number);
    // pandas hands the levels to np.percentile as q·100 (and numpy divides by 100 again).
    const qs = percentiles(
      values,
      LLMPERF_QUANTILES.map((q) => q * 100),
    );
    const quantiles = {} as Record<LlmperfQuantileKey, number>;
    LLMPERF_QUANTILE_KEYS.forEach((k, i) => (quantiles[k] = qs[i]!));
    const avg = mean(values);
    const stddev = sampleStddev(values);
    metrics[m] = { quantiles, mean: avg, min: Math.min(...values), max: Math.max(...values), stddev };
  }
  const errorCodeFrequency: Record<string, number> = {};
  for (const r of rows) {
    if (r.raw.error_code !== null) {
      const k = String(r.raw.error_code);
      errorCodeFrequency[k] = (errorCodeFrequency[k] ?? 0) + 1;
    }
  }
  const numberErrors = rows.length - ok.length;
  return {
    metrics,
    numRequestsStarted: rows.length,
    numberErrors,
    errorRate: rows.length ? numberErrors / rows.length : 0,
    numCompletedRequests: ok.length,
    errorCodeFrequency,
  };
}
