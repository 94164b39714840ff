/**
 * The monthly partitions of `measurements` (decision 217, migration 0024): one partition per UTC
 * month, named `measurements_pYYYYMM`, holding measured_at in [month start, next month start), plus
 * `measurements_default` for any row of a month without one (so no insert ever fails). Creation is
 * the database function `measurements_ensure_partition` (it moves such rows out of the default
 * partition first); dropping a month drops its table and its job keys.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { deleteInBatches } from './delete-in-batches';

/** Months created ahead of the current one by the ensure-partitions task (and by migration 0024). */
export const MEASUREMENT_PARTITION_MONTHS_AHEAD = 3;

/** The partition that receives rows of months without their own partition. */
export const DEFAULT_MEASUREMENT_PARTITION = 'measurements_default';

const NAME = /^measurements_p(\d{4})(\d{2})$/;

/** One monthly partition: its table name and its range [from, to) of measured_at (UTC month). */
export interface MeasurementPartition {
  name: string;
  from: Date;
  to: Date;
}

/** Start of the UTC month holding `t`. */
export function monthStartUtc(t: Date): Date {
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
}

/** Start of the UTC month `n` months after the one starting at (or holding) `t`. */
export function addMonthsUtc(t: Date, n: number): Date {
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + n, 1));
}

/** Table name of the partition of the UTC month holding `t`, e.g. `measurements_p202612`. */
export function measurementPartitionName(t: Date): string {
  return `measurements_p${t.getUTCFullYear()}${String(t.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * Creates the partitions of the UTC month holding `now` and of the `monthsAhead` months after it,
 * where missing. Returns the names created (empty when all existed). Idempotent and safe beside
 * another caller (the database function takes an advisory lock).
 */
export async function ensureMeasurementPartitions(db: Db, now: Date, monthsAhead: number = MEASUREMENT_PARTITION_MONTHS_AHEAD): Promise<string[]> {
  if (!Number.isInteger(monthsAhead) || monthsAhead < 0 || monthsAhead > 24)
    throw new RangeError(`monthsAhead must be an integer in [0, 24], got ${monthsAhead}`);
  const created: string[] = [];
  for (let i = 0; i <= monthsAhead; i++) {
    const month = addMonthsUtc(now, i);
    const rows = (await db.execute(sql`select measurements_ensure_partition(${month.toISOString()}::timestamptz) as created`)) as unknown as Array<{
      created: boolean;
    }>;
    if (rows[0]?.created) created.push(measurementPartitionName(month));
  }
  return created;
}

/** The monthly partitions that exist, oldest first (the default partition is not listed). */
export async function listMeasurementPartitions(db: Db): Promise<MeasurementPartition[]> {
  const rows = (await db.execute(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'measurements'::regclass
  `)) as unknown as Array<{ name: string }>;
  const parts: MeasurementPartition[] = [];
  for (const { name } of rows) {
    const m = NAME.exec(name);
    if (!m) continue;
    const from = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
    parts.push({ name, from, to: addMonthsUtc(from, 1) });
  }
  return parts.sort((a, b) => a.from.getTime() - b.from.getTime());
}

/** Earliest measured_at in one partition (by table name), or null when it is empty. */
export async function getOldestMeasurementTimeIn(db: Db, partition: string): Promise<Date | null> {
  if (!NAME.test(partition) && partition !== DEFAULT_MEASUREMENT_PARTITION) throw new RangeError(`not a measurements partition: ${partition}`);
  const rows = (await db.execute(sql`select min(measured_at) as t from ${sql.identifier(partition)}`)) as unknown as Array<{ t: string | Date | null }>;
  const t = rows[0]?.t;
  return t ? new Date(t) : null;
}

/**
 * Drops one monthly partition with all its rows, then the job keys of its month (in batches of
 * `batchSize`). Callers must have rolled the month up first (workers/tasks/apply-retention.ts
 * does). Returns the number of rows the partition held.
 */
export async function dropMeasurementPartition(db: Db, partition: MeasurementPartition, options: { batchSize?: number } = {}): Promise<number> {
  if (!NAME.test(partition.name)) throw new RangeError(`not a monthly measurements partition: ${partition.name}`);
  const counted = (await db.execute(sql`select count(*)::bigint::text as n from ${sql.identifier(partition.name)}`)) as unknown as Array<{ n: string }>;
  await db.execute(sql`drop table ${sql.identifier(partition.name)}`);
  await deleteJobKeysInRange(db, { from: partition.from, to: partition.to, batchSize: options.batchSize });
  return Number(counted[0]?.n ?? 0);
}

/** Deletes the job keys of measurements with measured_at in [from, to), in batches. Returns how many. */
export async function deleteJobKeysInRange(db: Db, params: { from: Date; to: Date; batchSize?: number }): Promise<number> {
  return deleteInBatches(
    db,
    params.batchSize ?? 20_000,
    (limit) => sql`
      delete from measurement_job_keys where job_key in (
        select k.job_key from measurement_job_keys k
        where k.measured_at >= ${params.from.toISOString()}::timestamptz and k.measured_at < ${params.to.toISOString()}::timestamptz
        limit ${limit}
      ) returning 1
    `,
  );
}
