import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { measurements, workloads } from '../schema';
import { measurementWindow } from './window-filters';

/**
 * Hidden reasoning of one endpoint × workload over [from, to]: among successful measurements whose
 * provider reported reasoning tokens, how many there were, the reasoning tokens reported but not
 * streamed (measurements.reasoning_tokens_hidden) and the provider-reported output tokens of the
 * same measurements (which include the hidden tokens; the reported speed basis takes them out, decision 065). Tokens are sums.
 */
export async function getHiddenReasoning(db: Db, p: { endpointId: number; workloadSlug: string; from: Date; to: Date }) {
  const [row] = await db
    .select({
      measurements: sql<number>`count(*)::int`,
      hiddenTokens: sql<number>`coalesce(sum(${measurements.reasoningTokensHidden}), 0)::float8`,
      reportedOutputTokens: sql<number>`coalesce(sum(${measurements.outputTokensReported}), 0)::float8`,
    })
    .from(measurements)
    .innerJoin(workloads, eq(workloads.id, measurements.workloadId))
    .where(and(...measurementWindow(p), eq(measurements.outcome, 'success'), isNotNull(measurements.reasoningTokensHidden)));
  return { measurements: row?.measurements ?? 0, hiddenTokens: Number(row?.hiddenTokens ?? 0), reportedOutputTokens: Number(row?.reportedOutputTokens ?? 0) };
}
