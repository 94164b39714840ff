/**
 * Migration 0002's backfill (decision 060): rows written before the rankable columns existed get
 * the reasons their own outcome, flags and validity show. Runs the migration's UPDATE statements
 * again on seeded rows (the template database was migrated before any row existed).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { endpoints, measurements, workloads } from '@/db/schema';
import { useTestDatabase } from '@/db/test-support/use-test-database';

const t = useTestDatabase({ seed: { referencePort: 1 } });

it('backfills not_rankable_reasons and rankable from outcome, flags and valid', async () => {
  const [endpoint] = await t.db.select({ id: endpoints.id }).from(endpoints).limit(1);
  const [workload] = await t.db.select({ id: workloads.id }).from(workloads).limit(1);
  const base = { endpointId: endpoint!.id, workloadId: workload!.id, measuredAt: new Date('2026-01-01T00:00:00Z'), workerRegion: 'r', workerVersion: 'v' };
  // Rows as they were before 0002: a failure still had rankable's default (true). The CHECK that
  // refuses such a row today (measurements_rankable_check, migration 0023) is lifted for the
  // replay and restored after it, which also proves the backfill's rows satisfy it.
  const [check] = (await t.db.execute(
    sql`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'measurements_rankable_check'`,
  )) as unknown as Array<{ def: string }>;
  expect(check?.def).toContain('cardinality');
  await t.db.execute(sql`alter table measurements drop constraint measurements_rankable_check`);
  await t.db.insert(measurements).values([
    { ...base, jobKey: 'ok', outcome: 'success', flags: { tokenCountMismatch: false, buffered: false } },
    { ...base, jobKey: 'failed', outcome: 'error', errorKind: 'timeout', flags: {} },
    { ...base, jobKey: 'mismatch', outcome: 'success', flags: { tokenCountMismatch: true, buffered: false } },
    { ...base, jobKey: 'buffered-stalled', outcome: 'success', flags: { tokenCountMismatch: false, buffered: true }, valid: false },
    {
      ...base,
      jobKey: 'everything',
      outcome: 'error',
      errorKind: 'stream_error',
      flags: { tokenCountMismatch: true, buffered: true, unrecognizedShape: true },
      valid: false,
    },
  ]);
  const migration = readFileSync(path.join(__dirname, 'migrations', '0002_measurement_rankable.sql'), 'utf8');
  const updates = migration
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter((s) => /^(-- .*\n)*UPDATE/.test(s));
  expect(updates).toHaveLength(2);
  for (const statement of updates) await t.db.execute(sql.raw(statement));
  await t.db.execute(sql.raw(`alter table measurements add constraint measurements_rankable_check ${check!.def}`));
  const rows = await t.db.select({ jobKey: measurements.jobKey, rankable: measurements.rankable, reasons: measurements.notRankableReasons }).from(measurements);
  expect(Object.fromEntries(rows.map((r) => [r.jobKey, [r.rankable, r.reasons]]))).toEqual({
    ok: [true, []],
    failed: [false, ['failed']],
    mismatch: [false, ['token_count_mismatch']],
    'buffered-stalled': [false, ['buffered_stream', 'event_loop_stall']],
    everything: [false, ['failed', 'unrecognized_shape', 'token_count_mismatch', 'buffered_stream', 'event_loop_stall']],
  });
});
