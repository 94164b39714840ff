import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { parseLlmperfIndividual, type LlmperfRequestRow } from '@/lib/datasets/llmperf';
import { summarize, type Summary } from '@/lib/stats/percentiles';
import type { Db } from '../client';
import { datasetRows, datasetSeries, datasets } from '../schema';

export const LLMPERF_DATASET_SLUG = 'llmperf-leaderboard-2024-01';

/** Provenance of the LLMPerf leaderboard raw data (from the dataset's README). */
const PROVENANCE = {
  slug: LLMPERF_DATASET_SLUG,
  title: 'LLMPerf leaderboard raw data (Llama-2 chat, Dec 2023 – Jan 2024)',
  source: 'ray-project/llmperf-leaderboard, folder raw_data/',
  sourceUrl: 'https://github.com/ray-project/llmperf-leaderboard',
  sourceCommit: '27aa9b6a6c4282f6d5599b9199fbb57256a2dcd8',
  licence: 'Apache-2.0',
  collectedOn: '2024-01-09',
  description:
    'Produced by the LLMPerf client from an AWS EC2 instance in us-west-2: 150 streamed chat requests per provider and Llama-2 size (7B/13B/70B), 5 in flight, ~550 input and ~150 output tokens (Llama tokenizer). outputTokensPerSecond here EXCLUDES TTFT: (output tokens − 1) ÷ (E2E − TTFT); LLMPerf’s own request_output_throughput_token_per_s INCLUDES TTFT and is kept apart as llmperfThroughputTokensPerSecond.',
};

/** Summary statistics per metric of one series, in the units their names say (completed requests only). */
export function summarizeSeries(rows: readonly LlmperfRequestRow[]): Record<string, Summary | number | null> {
  const ok = rows.filter((r) => r.errorCode === null);
  const pick = (f: (r: LlmperfRequestRow) => number | null) => {
    const v = ok.map(f).filter((x): x is number => x !== null && Number.isFinite(x));
    return v.length > 0 ? summarize(v) : null;
  };
  return {
    requests: rows.length,
    errors: rows.length - ok.length,
    ttftMs: pick((r) => r.ttftMs),
    e2eMs: pick((r) => r.e2eMs),
    interTokenLatencyMs: pick((r) => r.interTokenLatencyMs),
    outputTokens: pick((r) => r.outputTokens),
    inputTokens: pick((r) => r.inputTokens),
    outputTokensPerSecond: pick((r) => r.outputTokensPerSecond),
    llmperfThroughputTokensPerSecond: pick((r) => r.llmperfThroughputTokensPerSecond),
  };
}

const MODEL_NAMES: Record<string, string> = { '7b': 'Llama-2 7B chat', '13b': 'Llama-2 13B chat', '70b': 'Llama-2 70B chat' };

/**
 * Imports every `*.json` in `dir` (LLMPerf individual files) as one dataset with provenance.
 * Re-running replaces the dataset's series (same natural keys), so the import is safe to repeat.
 * Throws LlmperfFormatError naming the file and field for a malformed file, before writing anything.
 */
export async function importLlmperfDir(db: Db, dir: string): Promise<{ series: number; rows: number }> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`not a directory: ${dir}`);
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (files.length === 0) throw new Error(`no LLMPerf *.json files in ${dir}`);
  // Parse everything first: a bad file aborts the import with nothing half-written.
  const parsed = files.map((f) => {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new Error(`${f}: not valid JSON (${(e as Error).message})`, { cause: e });
    }
    return { file: f, data: parseLlmperfIndividual(json, f) };
  });
  return db.transaction(async (tx) => {
    await tx.delete(datasets).where(eq(datasets.slug, LLMPERF_DATASET_SLUG));
    const [ds] = await tx.insert(datasets).values(PROVENANCE).returning({ id: datasets.id });
    let rowCount = 0;
    for (const { file, data } of parsed) {
      const [series] = await tx
        .insert(datasetSeries)
        .values({
          datasetId: ds!.id,
          slug: file.replace(/\.json$/, ''),
          providerName: data.provider,
          modelName: MODEL_NAMES[data.modelSize] ?? `Llama-2 ${data.modelSize}`,
          summary: summarizeSeries(data.rows),
        })
        .returning({ id: datasetSeries.id });
      const values = data.rows.map((r) => ({
        seriesId: series!.id,
        rowIndex: r.index,
        ttftMs: r.ttftMs,
        e2eMs: r.e2eMs,
        interTokenLatencyMs: r.interTokenLatencyMs,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
        outputTokensPerSecond: r.outputTokensPerSecond,
        llmperfThroughputTokensPerSecond: r.llmperfThroughputTokensPerSecond,
        errorCode: r.errorCode === null ? null : String(r.errorCode),
        errorMessage: r.errorMessage,
      }));
      for (let i = 0; i < values.length; i += 500) await tx.insert(datasetRows).values(values.slice(i, i + 500));
      rowCount += values.length;
    }
    return { series: parsed.length, rows: rowCount };
  });
}
