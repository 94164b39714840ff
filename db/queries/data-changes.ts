/**
 * The data version of answers (decision 215; table `data_changes`): one row per change of an
 * answer's inputs, recorded AFTER those inputs are written, and announced on
 * {@link DATA_CHANGED_CHANNEL} in the same transaction (Postgres delivers the NOTIFY on commit).
 * Every instance keys its one answer cache by the newest version it has read (server/answer-cache).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../client';

/** The NOTIFY channel of data changes. */
export const DATA_CHANGED_CHANNEL = 'tokenpace_data_changed';

/** One recorded change. Times are ms since the epoch. */
export interface DataChangeRow {
  version: number;
  source: string;
  /** measured-time range [fromMs, toMs] whose figures may have changed; null = anything */
  fromMs: number | null;
  toMs: number | null;
  /** the minute whose live answers precomputed_answers holds as of this version; null = none */
  liveAsOfMs: number | null;
}

/** What a writer records: its source and the range it changed (omit both ends: anything). */
export interface NewDataChange {
  source: string;
  from?: Date | null;
  to?: Date | null;
  /** set by the precompute job only: the minute of the live answers it just stored */
  liveAsOf?: Date | null;
  /**
   * the version the writer read before computing (precompute job): when another change landed
   * since, `liveAsOf` is recorded as null (the stored answers may predate that change)
   */
  expectVersion?: number | null;
}

const LOCK_KEY = 7_215_001; // serialises writers, so versions commit in their order

type Raw = { version: string | number; source: string; f: number | null; t: number | null; l: number | null };
const toRow = (r: Raw): DataChangeRow => ({
  version: Number(r.version),
  source: r.source,
  fromMs: r.f === null ? null : Number(r.f),
  toMs: r.t === null ? null : Number(r.t),
  liveAsOfMs: r.l === null ? null : Number(r.l),
});
const COLUMNS = sql`version, source, floor(extract(epoch from changed_from) * 1000)::float8 as f,
  floor(extract(epoch from changed_to) * 1000)::float8 as t, floor(extract(epoch from live_as_of) * 1000)::float8 as l`;

/**
 * Records one change and NOTIFYs {@link DATA_CHANGED_CHANNEL} with `{source, pid, at, version}`,
 * in one transaction holding an advisory lock, so a version is visible only with every version
 * below it. Returns the new row.
 */
export async function recordDataChange(db: Db, c: NewDataChange): Promise<DataChangeRow> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
    const live = c.liveAsOf ? c.liveAsOf.toISOString() : null;
    const expect = c.expectVersion ?? null;
    const rows = (await tx.execute(sql`
      insert into data_changes (source, changed_from, changed_to, live_as_of)
      select ${c.source}, ${c.from ? c.from.toISOString() : null}::timestamptz, ${c.to ? c.to.toISOString() : null}::timestamptz,
             case when ${expect}::bigint is null or coalesce((select max(version) from data_changes), 0) = ${expect}::bigint then ${live}::timestamptz end
      returning ${COLUMNS}`)) as unknown as Raw[];
    const row = toRow(rows[0]!);
    const payload = JSON.stringify({ source: c.source, pid: process.pid, at: new Date().toISOString(), version: row.version });
    await tx.execute(sql`select pg_notify(${DATA_CHANGED_CHANNEL}, ${payload})`);
    return row;
  });
}

/** The newest change, or null before the first. */
export async function getLatestDataChange(db: Db): Promise<DataChangeRow | null> {
  const rows = (await db.execute(sql`select ${COLUMNS} from data_changes order by version desc limit 1`)) as unknown as Raw[];
  return rows[0] ? toRow(rows[0]) : null;
}

/** Changes after `version`, oldest first, at most `limit`. */
export async function listDataChangesSince(db: Db, version: number, limit: number): Promise<DataChangeRow[]> {
  const rows = (await db.execute(sql`select ${COLUMNS} from data_changes where version > ${version} order by version limit ${limit}`)) as unknown as Raw[];
  return rows.map(toRow);
}

/** Deletes changes recorded before `before`, keeping the newest row (the current version). */
export async function pruneDataChanges(db: Db, before: Date): Promise<void> {
  await db.execute(sql`delete from data_changes where at < ${before.toISOString()}::timestamptz and version < (select max(version) from data_changes)`);
}
