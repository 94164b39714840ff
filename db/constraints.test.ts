/**
 * The database refuses rows that break what the code relies on (decision 281, migration 0023):
 * every CHECK is tried with a row that satisfies it (accepted) and with rows just past its edge
 * (refused, naming the constraint), on a real migrated Postgres.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints, measurementRollups, measurements, workloads } from '@/db/schema';
import { anyEndpointAndWorkload } from '@/db/test-support/any-endpoint-and-workload';
import { useTestDatabase } from '@/db/test-support/use-test-database';
import type { TestDatabase } from '@/db/test-support/test-database';

const t = useTestDatabase({ seed: { referencePort: 1 } });
let endpointId: number;
let workloadId: number;
beforeAll(async () => {
  ({ endpointId, workloadId } = await anyEndpointAndWorkload(t.db));
});

/** The error Postgres raised for a refused statement: its constraint name, or null when accepted. */
type Tx = Parameters<Parameters<TestDatabase['db']['transaction']>[0]>[0];
async function refusal(run: (tx: Tx) => Promise<unknown>): Promise<string | null> {
  try {
    await t.db.transaction(async (tx) => {
      await run(tx);
      // roll back an accepted row so every case starts from the same table
      throw new Accepted();
    });
  } catch (e) {
    if (e instanceof Accepted) return null;
    const cause = (e as { cause?: { constraint_name?: string; code?: string } }).cause ?? (e as { constraint_name?: string; code?: string });
    if (cause.code !== '23514') throw e; // check_violation only
    return cause.constraint_name ?? 'unnamed';
  }
  return null;
}
class Accepted extends Error {}

let seq = 0;
/** A measurement as the probe writes one: a rankable success. */
function success(over: Partial<typeof measurements.$inferInsert> = {}): typeof measurements.$inferInsert {
  return {
    jobKey: `c:${seq++}`,
    endpointId,
    workloadId,
    measuredAt: new Date('2026-11-28T12:00:00Z'),
    workerRegion: 'eu',
    workerVersion: 'test',
    outcome: 'success',
    errorKind: null,
    ttftMs: 120,
    e2eMs: 900,
    outputTokensReported: 100,
    outputTokensO200k: 98,
    outputTokensPerSecond: 130,
    contentChunks: 40,
    rankable: true,
    notRankableReasons: [],
    ttftBoundMs: 0,
    e2eBoundMs: 0,
    speedBoundPct: 0,
    ...over,
  };
}
/** A failure as the probe writes one. */
const failure = (over: Partial<typeof measurements.$inferInsert> = {}) =>
  success({ outcome: 'error', errorKind: 'timeout', ttftMs: null, outputTokensPerSecond: null, rankable: false, notRankableReasons: ['failed'], ...over });

const insert = (row: typeof measurements.$inferInsert) => (tx: Tx) => tx.insert(measurements).values(row);

describe('measurements', () => {
  it('accepts what the probe writes: a rankable success, a failure, a kept-but-not-rankable success, a fidelity probe', async () => {
    expect(await refusal(insert(success()))).toBeNull();
    expect(await refusal(insert(failure()))).toBeNull();
    expect(await refusal(insert(success({ rankable: false, notRankableReasons: ['buffered_stream', 'timing_uncertain'] })))).toBeNull();
    expect(await refusal(insert(success({ fidelityCheck: 'arithmetic', fidelityPassed: false })))).toBeNull();
    expect(await refusal(insert(failure({ fidelityCheck: 'nonce_recall', fidelityPassed: null })))).toBeNull();
  });

  it('refuses an outcome or error kind that is not one of the words', async () => {
    expect(await refusal(insert(success({ outcome: 'partial' as 'success' })))).toBe('measurements_outcome_check');
    expect(await refusal(insert(failure({ errorKind: 'content_filter' })))).toBe('measurements_error_kind_check');
  });

  it('refuses a failure without its kind and a success with one', async () => {
    expect(await refusal(insert(failure({ errorKind: null })))).toBe('measurements_error_kind_check');
    expect(await refusal(insert(success({ errorKind: 'timeout' })))).toBe('measurements_error_kind_check');
  });

  it('refuses rankable disagreeing with its reasons, an unknown reason and a rankable failure', async () => {
    expect(await refusal(insert(success({ rankable: true, notRankableReasons: ['buffered_stream'] })))).toBe('measurements_rankable_check');
    expect(await refusal(insert(success({ rankable: false, notRankableReasons: [] })))).toBe('measurements_rankable_check');
    expect(await refusal(insert(success({ rankable: false, notRankableReasons: ['looked_odd'] })))).toBe('measurements_rankable_check');
    expect(await refusal(insert(failure({ rankable: true, notRankableReasons: [] })))).toBe('measurements_rankable_check');
  });

  it('refuses an unknown fidelity check and a verdict without a check', async () => {
    expect(await refusal(insert(success({ fidelityCheck: 'vibes', fidelityPassed: true })))).toBe('measurements_fidelity_check');
    expect(await refusal(insert(success({ fidelityCheck: null, fidelityPassed: true })))).toBe('measurements_fidelity_check');
  });

  it('refuses negative counts and bounds, at the edge: 0 is accepted, −1 (or −0.001) refused', async () => {
    for (const field of [
      'contentChunks',
      'outputTokensReported',
      'outputTokensO200k',
      'reasoningTokensHidden',
      'cachedInputTokens',
      'cacheWriteInputTokens',
    ] as const) {
      expect(await refusal(insert(success({ [field]: 0 }))), field).toBeNull();
      expect(await refusal(insert(success({ [field]: -1 }))), field).toBe('measurements_counts_check');
    }
    expect(await refusal(insert(success({ inputTokensReported: 0 })))).toBeNull();
    expect(await refusal(insert(success({ inputTokensReported: null })))).toBeNull();
    expect(await refusal(insert(success({ inputTokensReported: -1 })))).toBe('measurements_input_tokens_reported_check');
    for (const field of ['ttftBoundMs', 'e2eBoundMs', 'speedBoundPct'] as const) {
      expect(await refusal(insert(success({ [field]: 0 }))), field).toBeNull();
      expect(await refusal(insert(success({ [field]: -0.001 }))), field).toBe('measurements_bounds_check');
      expect(await refusal(insert(success({ [field]: null }))), field).toBeNull();
    }
  });
});

describe('catalog and rollups', () => {
  it('refuses an endpoint with an unknown protocol, status or deployment kind, or a count ≤ 0', async () => {
    const update = (set: Record<string, unknown>) => (tx: Tx) => tx.update(endpoints).set(set).where(eq(endpoints.id, endpointId));
    expect(
      await refusal(update({ protocol: 'openai-chat', status: 'paused', deploymentKind: 'dedicated', contextWindowTokens: 1, draftLength: 1, gpuCount: 1 })),
    ).toBeNull();
    expect(await refusal(update({ protocol: 'grpc' }))).toBe('endpoints_protocol_check');
    expect(await refusal(update({ status: 'gone' }))).toBe('endpoints_status_check');
    expect(await refusal(update({ deploymentKind: 'serverless' }))).toBe('endpoints_deployment_kind_check');
    for (const field of ['contextWindowTokens', 'draftLength', 'gpuCount']) expect(await refusal(update({ [field]: 0 })), field).toBe('endpoints_counts_check');
  });

  it('refuses a workload with an unknown category, no output budget or concurrency 0', async () => {
    const update = (set: Record<string, unknown>) => (tx: Tx) => tx.update(workloads).set(set).where(eq(workloads.id, workloadId));
    expect(await refusal(update({ inputTokensTarget: 0, maxOutputTokens: 1, concurrency: 1 }))).toBeNull();
    expect(await refusal(update({ category: 'poetry' }))).toBe('workloads_category_check');
    expect(await refusal(update({ maxOutputTokens: 0 }))).toBe('workloads_sizes_check');
    expect(await refusal(update({ concurrency: 0 }))).toBe('workloads_sizes_check');
    expect(await refusal(update({ inputTokensTarget: -1 }))).toBe('workloads_sizes_check');
  });

  it('refuses a rollup with more successes than probes or an unknown granularity', async () => {
    const row = (over: Partial<typeof measurementRollups.$inferInsert>) => (tx: Tx) =>
      tx.insert(measurementRollups).values({
        granularity: 'hour',
        bucketStart: new Date('2026-11-28T12:00:00Z'),
        endpointId,
        workloadId,
        workerRegion: 'eu',
        count: 5,
        successes: 5,
        errorKinds: {},
        sketches: {},
        ...over,
      });
    expect(await refusal(row({}))).toBeNull();
    expect(await refusal(row({ successes: 6 }))).toBe('rollups_counts_check');
    expect(await refusal(row({ successes: -1 }))).toBe('rollups_counts_check');
    expect(await refusal(row({ granularity: 'week' as 'hour' }))).toBe('rollups_granularity_check');
  });

  it('the constraints exist in the migrated database under their names', async () => {
    const rows = (await t.db.execute(sql`select conname from pg_constraint where contype = 'c' order by conname`)) as unknown as Array<{ conname: string }>;
    expect(rows.map((r) => r.conname)).toEqual(
      expect.arrayContaining([
        'endpoints_counts_check',
        'measurements_bounds_check',
        'measurements_counts_check',
        'measurements_error_kind_check',
        'measurements_fidelity_check',
        'measurements_outcome_check',
        'measurements_rankable_check',
        'rollups_counts_check',
        'sweep_levels_counts_check',
        'workloads_sizes_check',
      ]),
    );
  });
});
