/**
 * measurements partitioned by UTC month (decision 217, migration 0024) on the real test Postgres:
 * rows land in their month's partition up to the last millisecond, a month without a partition
 * lands in the default one (no insert fails) and moves out when its month is created, a windowed
 * query reads only its months, retention drops exactly the months that ended before its cutoff
 * (after re-rolling them) and the job key stays unique across partitions.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '@/db/seed';
import { measurementJobKeys, measurementRollups, measurements } from '@/db/schema';
import { anyEndpointAndWorkload } from '@/db/test-support/any-endpoint-and-workload';
import { planRelations } from '@/db/test-support/plan-relations';
import { useTestDatabase } from '@/db/test-support/use-test-database';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { runRetentionJob } from '@/workers/tasks/apply-retention';
import { runEnsurePartitionsJob } from '@/workers/tasks/ensure-partitions';
import {
  addMonthsUtc,
  DEFAULT_MEASUREMENT_PARTITION,
  ensureMeasurementPartitions,
  listMeasurementPartitions,
  MEASUREMENT_PARTITION_MONTHS_AHEAD,
  measurementPartitionName,
  monthStartUtc,
} from './queries/measurement-partitions';
import { insertMeasurement, isJobKeyViolation, listMeasurements } from './queries/measurements';

const WL = [{ slug: 'prose-1k', category: 'prose' as const, inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true }];

const t = useTestDatabase({ seed: { workloads: WL, lookupEnv: () => 'x', referencePort: 3999 }, timeoutMs: 60_000 });
let endpointId = 0;
let workloadId = 0;

beforeAll(async () => {
  ({ endpointId, workloadId } = await anyEndpointAndWorkload(t.db));
});

function row(jobKey: string, measuredAt: Date, ttftMs = 100) {
  return {
    jobKey,
    endpointId,
    workloadId,
    measuredAt,
    workerRegion: 'local',
    workerVersion: 'test',
    outcome: 'success' as const,
    ttftMs,
    e2eMs: ttftMs + 900,
    outputTokensPerSecond: 250,
    outputTokensPerSecondO200k: 240,
    contentChunks: 256,
  };
}

/** The table (partition) holding each job key's row. */
async function partitionOf(...jobKeys: string[]): Promise<Record<string, string>> {
  const rows = (await t.db.execute(
    sql`select job_key, tableoid::regclass::text as part from measurements where job_key = any(${`{${jobKeys.join(',')}}`}::text[])`,
  )) as unknown as Array<{ job_key: string; part: string }>;
  return Object.fromEntries(rows.map((r) => [r.job_key, r.part]));
}

describe('monthly partitions', () => {
  it('the migration made this month and the next three; the task makes missing ones and is idempotent', async () => {
    const now = new Date();
    const names = (await listMeasurementPartitions(t.db)).map((p) => p.name);
    for (let i = 0; i <= MEASUREMENT_PARTITION_MONTHS_AHEAD; i++) expect(names).toContain(measurementPartitionName(addMonthsUtc(now, i)));
    // a year on, the task creates that month and the three after it, then nothing more
    const later = addMonthsUtc(now, 12);
    const r = await runEnsurePartitionsJob(t.db, later);
    expect(r.created).toEqual([0, 1, 2, 3].map((i) => measurementPartitionName(addMonthsUtc(later, i))));
    expect(await runEnsurePartitionsJob(t.db, later)).toEqual({ created: [] });
    await expect(ensureMeasurementPartitions(t.db, now, 25)).rejects.toThrow(RangeError);
  });

  it('a row at the last millisecond of a month stays in it; the first millisecond of the next month lands in the next', async () => {
    const next = addMonthsUtc(new Date(), 1);
    const lastMs = new Date(next.getTime() - 1);
    expect(await insertMeasurement(t.db, row('edge-last-ms', lastMs))).toBe(true);
    expect(await insertMeasurement(t.db, row('edge-first-ms', next))).toBe(true);
    // and the last microsecond (Postgres keeps µs; JavaScript Dates do not)
    await t.db.execute(sql`
      insert into measurements (job_key, endpoint_id, workload_id, measured_at, worker_region, worker_version, outcome)
      values ('edge-last-us', ${endpointId}, ${workloadId}, ${next.toISOString()}::timestamptz - interval '1 microsecond', 'local', 'test', 'success')`);
    expect(await partitionOf('edge-last-ms', 'edge-first-ms', 'edge-last-us')).toEqual({
      'edge-last-ms': measurementPartitionName(lastMs),
      'edge-first-ms': measurementPartitionName(next),
      'edge-last-us': measurementPartitionName(lastMs),
    });
    expect(measurementPartitionName(lastMs)).not.toBe(measurementPartitionName(next));
  });

  it('a month made in a session far from UTC still has UTC bounds', async () => {
    // Pacific/Kiritimati is UTC+14: there, 2097-03-01T00:00Z is already 14:00 local on 1 March and
    // 2097-02-28T23:59Z is 13:59 local on 1 March, so a local-time bound would take the wrong rows.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Pacific/Kiritimati'`);
      await tx.execute(sql`select measurements_ensure_partition('2097-03-15T12:00:00Z'::timestamptz)`);
    });
    const at = (k: string, iso: string) => insertMeasurement(t.db, row(k, new Date(iso)));
    expect(await at('tz-before', '2097-02-28T23:59:59.999Z')).toBe(true);
    expect(await at('tz-first', '2097-03-01T00:00:00.000Z')).toBe(true);
    expect(await at('tz-last', '2097-03-31T23:59:59.999Z')).toBe(true);
    expect(await at('tz-after', '2097-04-01T00:00:00.000Z')).toBe(true);
    expect(await partitionOf('tz-before', 'tz-first', 'tz-last', 'tz-after')).toEqual({
      'tz-before': DEFAULT_MEASUREMENT_PARTITION,
      'tz-first': 'measurements_p209703',
      'tz-last': 'measurements_p209703',
      'tz-after': DEFAULT_MEASUREMENT_PARTITION,
    });
    // the default partition's rows of that later month go with its creation; February's stays
    expect(await ensureMeasurementPartitions(t.db, new Date('2097-04-01T00:00:00.000Z'), 0)).toEqual(['measurements_p209704']);
    expect(await partitionOf('tz-before', 'tz-after')).toEqual({ 'tz-before': DEFAULT_MEASUREMENT_PARTITION, 'tz-after': 'measurements_p209704' });
  });

  it('a row far in the future lands in the default partition, and moves into its month when that month is created', async () => {
    const far = new Date('2099-07-04T12:00:00.000Z');
    expect(await insertMeasurement(t.db, row('far-future', far, 321))).toBe(true);
    expect(await partitionOf('far-future')).toEqual({ 'far-future': DEFAULT_MEASUREMENT_PARTITION });
    const [before] = await t.db
      .select()
      .from(measurements)
      .where(sql`job_key = 'far-future'`);
    expect(await ensureMeasurementPartitions(t.db, far, 0)).toEqual(['measurements_p209907']);
    expect(await partitionOf('far-future')).toEqual({ 'far-future': 'measurements_p209907' });
    const [after] = await t.db
      .select()
      .from(measurements)
      .where(sql`job_key = 'far-future'`);
    expect(after).toEqual(before);
    // the moved row's key still refuses a duplicate, and a new row of that month goes to the new partition
    expect(await insertMeasurement(t.db, row('far-future', far))).toBe(false);
    expect(await insertMeasurement(t.db, row('far-future-2', new Date('2099-07-31T23:59:59.999Z')))).toBe(true);
    expect(await partitionOf('far-future-2')).toEqual({ 'far-future-2': 'measurements_p209907' });
    const [{ n }] = (await t.db.execute(sql`select count(*)::int as n from measurements_default where measured_at >= '2099-01-01'`)) as unknown as [
      { n: number },
    ];
    expect(n).toBe(0);
  });

  it('a windowed query reads only the partitions of its months (EXPLAIN shows the pruning)', async () => {
    const month = monthStartUtc(new Date());
    const next = addMonthsUtc(month, 1);
    const explain = async (from: Date, until: Date) => {
      const [r] = (await t.db.execute(sql`
        explain (format json) select id, ttft_ms from measurements
        where endpoint_id = ${endpointId} and measured_at >= ${from.toISOString()}::timestamptz and measured_at <= ${until.toISOString()}::timestamptz`)) as unknown as [
        { 'QUERY PLAN': unknown },
      ];
      return [...planRelations(r['QUERY PLAN'])].sort();
    };
    const all = (await listMeasurementPartitions(t.db)).length;
    expect(all).toBeGreaterThanOrEqual(6);
    // a 72-hour window inside one month: that month only (not even the default partition)
    expect(await explain(new Date(month.getTime() + 86400_000), new Date(month.getTime() + 4 * 86400_000))).toEqual([measurementPartitionName(month)]);
    // a window across the month boundary: the two months
    expect(await explain(new Date(next.getTime() - 3600_000), new Date(next.getTime() + 3600_000))).toEqual(
      [measurementPartitionName(month), measurementPartitionName(next)].sort(),
    );
    // a window up to the last microsecond of the month: still one month
    expect(await explain(new Date(next.getTime() - 86400_000), new Date(next.getTime() - 1))).toEqual([measurementPartitionName(month)]);
    // a window over months without a partition: the default partition only
    expect(await explain(new Date('2098-01-01T00:00:00Z'), new Date('2098-01-03T00:00:00Z'))).toEqual([DEFAULT_MEASUREMENT_PARTITION]);
    // the API's list query (listMeasurements) gives the rows of the window, across the boundary
    const page = await listMeasurements(t.db, { filter: { endpointId, since: new Date(next.getTime() - 3600_000), until: next }, limit: 10, order: 'asc' });
    expect(page.rows.map((r) => r.measuredAtMicros)).toEqual([
      String(next.getTime() * 1000 - 1000), // edge-last-ms
      String(next.getTime() * 1000 - 1), // edge-last-us
      String(next.getTime() * 1000), // edge-first-ms
    ]);
  });

  it('the job key stays unique across partitions: a duplicate is refused, in any month, by any path', async () => {
    const at = new Date(monthStartUtc(new Date()).getTime() + 5 * 86400_000);
    expect(await insertMeasurement(t.db, row('dup-key', at))).toBe(true);
    // the same key again: refused, also with another instant in another month (another partition)
    expect(await insertMeasurement(t.db, row('dup-key', at))).toBe(false);
    expect(await insertMeasurement(t.db, row('dup-key', addMonthsUtc(at, 1)))).toBe(false);
    // a direct insert gets the unique violation the old constraint gave
    const direct = t.db.execute(sql`
      insert into measurements (job_key, endpoint_id, workload_id, measured_at, worker_region, worker_version, outcome)
      values ('dup-key', ${endpointId}, ${workloadId}, ${addMonthsUtc(at, 2).toISOString()}::timestamptz, 'local', 'test', 'success')`);
    const err = await direct.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isJobKeyViolation(err)).toBe(true);
    // two writers of one new key at once, for different months: exactly one row
    const racing = await Promise.all([0, 1, 2, 3].map((i) => insertMeasurement(t.db, row('race-key', addMonthsUtc(at, i % 2)))));
    expect(racing.filter(Boolean)).toHaveLength(1);
    const [{ n, keys }] = (await t.db.execute(sql`
      select (select count(*)::int from measurements where job_key in ('dup-key', 'race-key')) as n,
             (select count(*)::int from measurement_job_keys where job_key in ('dup-key', 'race-key')) as keys`)) as unknown as [{ n: number; keys: number }];
    expect({ n, keys }).toEqual({ n: 2, keys: 2 });
    // a failed insert (here: an unknown endpoint) leaves no key behind, so the job can be written later
    await expect(insertMeasurement(t.db, { ...row('orphan-key', at), endpointId: 999_999 })).rejects.toThrow();
    expect(
      await t.db
        .select()
        .from(measurementJobKeys)
        .where(sql`job_key = 'orphan-key'`),
    ).toEqual([]);
    expect(await insertMeasurement(t.db, row('orphan-key', at))).toBe(true);
  });

  it('a measurement deleted frees its job key (a re-seeded job writes again); moving a month out of the default partition does not', async () => {
    const at = new Date(monthStartUtc(new Date()).getTime() + 6 * 86400_000);
    expect(await insertMeasurement(t.db, row('freed-key', at))).toBe(true);
    expect(await insertMeasurement(t.db, row('kept-key', at))).toBe(true);
    await t.db.execute(sql`delete from measurements where job_key = 'freed-key'`);
    const keys = async () =>
      (
        (await t.db.execute(sql`select job_key from measurement_job_keys where job_key in ('freed-key', 'kept-key') order by 1`)) as unknown as Array<{
          job_key: string;
        }>
      ).map((x) => x.job_key);
    expect(await keys()).toEqual(['kept-key']);
    expect(await insertMeasurement(t.db, row('freed-key', at))).toBe(true);
    expect(await insertMeasurement(t.db, row('kept-key', at))).toBe(false);
    // a row moved into a new month keeps its key
    expect(await insertMeasurement(t.db, row('moved-key', new Date('2096-05-05T00:00:00Z')))).toBe(true);
    expect(await ensureMeasurementPartitions(t.db, new Date('2096-05-01T00:00:00Z'), 0)).toEqual(['measurements_p209605']);
    expect(await partitionOf('moved-key')).toEqual({ 'moved-key': 'measurements_p209605' });
    expect(await insertMeasurement(t.db, row('moved-key', new Date('2096-05-05T00:00:00Z')))).toBe(false);
  });
});

describe('retention over partitions', () => {
  let r: TestDatabase;
  const D = (s: string) => new Date(s);
  const ROWS: Array<[string, string]> = [
    ['default-old', '2024-11-15T06:00:00.000Z'], // no partition for 2024-11: the default partition
    ['jan-a', '2025-01-10T08:00:00.000Z'],
    ['jan-last', '2025-01-31T23:59:59.999Z'],
    ['feb-first', '2025-02-01T00:00:00.000Z'],
    ['feb-b', '2025-02-20T12:00:00.000Z'],
    ['mar-a', '2025-03-05T09:00:00.000Z'],
    ['mar-b', '2025-03-20T09:00:00.000Z'],
    ['apr-a', '2025-04-02T10:00:00.000Z'],
  ];
  beforeAll(async () => {
    r = await createTestDatabase();
    await seedCatalog(r.db, { workloads: WL, lookupEnv: () => 'x', referencePort: 3999 });
    expect(await ensureMeasurementPartitions(r.db, D('2025-01-01T00:00:00Z'), 3)).toEqual([
      'measurements_p202501',
      'measurements_p202502',
      'measurements_p202503',
      'measurements_p202504',
    ]);
    for (const [k, at] of ROWS) expect(await insertMeasurement(r.db, row(k, D(at)))).toBe(true);
  }, 60_000);
  afterAll(async () => r?.drop());

  const left = async () =>
    (
      (await r.db.execute(sql`select m.job_key from measurements m join measurement_job_keys k using (job_key) order by m.measured_at`)) as unknown as Array<{
        job_key: string;
      }>
    ).map((x) => x.job_key);
  const months = async () => (await listMeasurementPartitions(r.db)).map((p) => p.name).filter((n) => n < 'measurements_p2026');
  const dayCount = async (day: string) => {
    const [x] = await r.db
      .select({ n: sql<number>`coalesce(sum(${measurementRollups.count}), 0)::int` })
      .from(measurementRollups)
      .where(sql`granularity = 'day' and bucket_start = ${`${day}T00:00:00Z`}::timestamptz`);
    return x!.n;
  };

  it('drops exactly the months that ended before the cutoff, one a run, re-rolled first; deletes the rest day by day', async () => {
    // now 2025-04-10, 30 days: the cutoff is 2025-03-11T00:00Z. January and February ended before it;
    // March did not (its days before the 11th are deleted), April is kept.
    const now = D('2025-04-10T05:00:00Z');
    const first = await runRetentionJob(r.db, now, 30);
    expect(first.partitions).toEqual(['measurements_p202501']);
    expect(first.days.slice(0, 22)).toEqual(Array.from({ length: 22 }, (_, i) => `2025-01-${String(10 + i).padStart(2, '0')}`));
    expect(first.days.slice(22)).toEqual(Array.from({ length: 7 }, (_, i) => `2024-11-${15 + i}`)); // the default partition's old day, 7 days a run
    expect(first.deleted).toBe(3);
    expect(await months()).toEqual(['measurements_p202502', 'measurements_p202503', 'measurements_p202504']);
    expect(await left()).toEqual(['feb-first', 'feb-b', 'mar-a', 'mar-b', 'apr-a']);
    // the figures of the dropped days stay (rolled up before the drop)
    expect([await dayCount('2025-01-10'), await dayCount('2025-01-31'), await dayCount('2024-11-15')]).toEqual([1, 1, 1]);

    const second = await runRetentionJob(r.db, now, 30);
    expect(second.partitions).toEqual(['measurements_p202502']);
    expect(second.days.slice(-6)).toEqual(['2025-03-05', '2025-03-06', '2025-03-07', '2025-03-08', '2025-03-09', '2025-03-10']);
    expect(second.deleted).toBe(3); // feb-first, feb-b (dropped), mar-a (deleted)
    expect(await months()).toEqual(['measurements_p202503', 'measurements_p202504']);
    expect(await left()).toEqual(['mar-b', 'apr-a']);
    expect([await dayCount('2025-02-01'), await dayCount('2025-02-20'), await dayCount('2025-03-05')]).toEqual([1, 1, 1]);

    // nothing more before the cutoff: a third run does nothing
    expect(await runRetentionJob(r.db, now, 30)).toEqual({ days: [], deleted: 0, partitions: [] });
    // one day later the cutoff is 2025-03-12: still nothing (mar-b is the 20th)
    expect(await runRetentionJob(r.db, D('2025-04-11T05:00:00Z'), 30)).toEqual({ days: [], deleted: 0, partitions: [] });
    // the removed job keys are gone with their rows; the kept ones still refuse a duplicate
    const [{ keys }] = (await r.db.execute(
      sql`select count(*)::int as keys from measurement_job_keys where job_key like 'jan-%' or job_key like 'feb-%' or job_key = 'mar-a'`,
    )) as unknown as [{ keys: number }];
    expect(keys).toBe(0);
    expect(await insertMeasurement(r.db, row('mar-b', D('2025-03-21T00:00:00Z')))).toBe(false);
  }, 120_000);
});
