/**
 * The ONE in-process cache of answers (decision 215), per database handle, keyed by question and
 * instant and valid for the data version this process has read (db/queries/data-changes).
 *
 * - An entry holds the measured-time range its answer reads ([window start, asOf]; ±∞ for answers
 *   that read everything, e.g. the region list). Learning a new version evicts exactly the entries
 *   whose range overlaps a change's range (a null range evicts all), so a past board outside every
 *   later change stays cached for good and a live one is dropped when its data moves.
 * - The version is learnt the same way on every instance: {@link syncDataVersion} reads the
 *   changes after the version this process holds (one indexed range read), run on the first use, on
 *   every NOTIFY and every (re)LISTEN (server/cache-invalidation), and by a writer right after it
 *   recorded a change. A gap (pruned rows, > SYNC_LIMIT changes) drops everything.
 * - Values are promises until settled, so concurrent requests share one computation; the hot path
 *   (a settled hit) does not await.
 */
import type { Db } from '@/db/client';
import { getLatestDataChange, listDataChangesSince, type DataChangeRow } from '@/db/queries/data-changes';

const MAX_ENTRIES = 5_000;
const SYNC_LIMIT = 1_000;

interface Entry {
  promise: Promise<unknown>;
  value?: unknown;
  settled: boolean;
  fromMs: number;
  toMs: number;
}

/** This process's view of one database's data version and the answers cached for it. */
interface State {
  /** newest version applied; null until the first sync */
  version: number | null;
  /** the newest change's live_as_of (ms): the minute of the stored live answers, or null */
  liveAsOfMs: number | null;
  entries: Map<string, Entry>;
  syncing: Promise<void> | null;
  /** a sync was asked for while one ran: run again after it */
  again: boolean;
}

const states = new WeakMap<Db, State>();

function stateOf(db: Db): State {
  let s = states.get(db);
  if (!s) {
    s = { version: null, liveAsOfMs: null, entries: new Map(), syncing: null, again: false };
    states.set(db, s);
  }
  return s;
}

function evict(s: State, c: DataChangeRow): void {
  if (c.fromMs === null || c.toMs === null) {
    s.entries.clear();
    return;
  }
  for (const [k, e] of s.entries) if (e.fromMs <= c.toMs && e.toMs >= c.fromMs) s.entries.delete(k);
}

async function syncOnce(db: Db, s: State): Promise<void> {
  if (s.version === null) {
    const latest = await getLatestDataChange(db);
    s.entries.clear();
    s.version = latest?.version ?? 0;
    s.liveAsOfMs = latest?.liveAsOfMs ?? null;
    return;
  }
  const rows = await listDataChangesSince(db, s.version, SYNC_LIMIT);
  if (rows.length === 0) return;
  if (rows.length === SYNC_LIMIT || rows[0]!.version !== s.version + 1) {
    // Too far behind, or rows between were pruned: nothing cached can be trusted.
    const latest = rows.length === SYNC_LIMIT ? await getLatestDataChange(db) : rows[rows.length - 1]!;
    s.entries.clear();
    s.version = latest?.version ?? s.version;
    s.liveAsOfMs = latest?.liveAsOfMs ?? null;
    return;
  }
  for (const c of rows) evict(s, c);
  const last = rows[rows.length - 1]!;
  s.version = last.version;
  s.liveAsOfMs = last.liveAsOfMs;
}

/**
 * Reads the changes recorded since this process's version and evicts the answers they touch.
 * Concurrent calls share one read; a call during a read runs one more after it (a NOTIFY that
 * arrives mid-read is not lost). Resolves when applied; rejects when Postgres is unreachable.
 */
export function syncDataVersion(db: Db): Promise<void> {
  const s = stateOf(db);
  if (s.syncing) {
    s.again = true;
    return s.syncing;
  }
  const run = async (): Promise<void> => {
    try {
      do {
        s.again = false;
        await syncOnce(db, s);
      } while (s.again);
    } finally {
      s.syncing = null;
    }
  };
  s.syncing = run();
  return s.syncing;
}

/** The data version this process serves and the minute of the stored live answers (ms or null). */
export interface DataVersionView {
  version: number;
  liveAsOfMs: number | null;
}

/** This process's data version; the first call reads it from Postgres. */
export function dataVersionOf(db: Db): DataVersionView | Promise<DataVersionView> {
  const s = stateOf(db);
  if (s.version !== null) return { version: s.version, liveAsOfMs: s.liveAsOfMs };
  return syncDataVersion(db).then(() => ({ version: s.version!, liveAsOfMs: s.liveAsOfMs }));
}

/** The range of an answer that reads every measured instant (evicted by every change). */
export const ANY_TIME = { fromMs: -Infinity, toMs: Infinity } as const;

/**
 * The cached answer of `key`, else `load()` cached under it with the measured-time range it reads.
 * A value evicted while it was computed is still returned to its callers but not kept (the data
 * under it moved). A failed load is not kept.
 */
export function cachedAnswer<T>(db: Db, key: string, range: { fromMs: number; toMs: number }, load: () => Promise<T>): T | Promise<T> {
  const s = stateOf(db);
  const hit = s.entries.get(key);
  if (hit) return (hit.settled ? hit.value : hit.promise) as T | Promise<T>;
  if (s.entries.size >= MAX_ENTRIES) s.entries.clear();
  const promise = load();
  const entry: Entry = { promise, settled: false, fromMs: range.fromMs, toMs: range.toMs };
  s.entries.set(key, entry);
  promise.then(
    (v) => {
      entry.value = v;
      entry.settled = true;
    },
    () => {
      if (s.entries.get(key) === entry) s.entries.delete(key);
    },
  );
  return promise;
}

/** Whether `key` is cached now (tests). */
export function hasCachedAnswer(db: Db, key: string): boolean {
  return stateOf(db).entries.has(key);
}

/** Drops one cached answer of `db` in this process (a caller that knows it is stale). */
export function clearAnswer(db: Db, key: string): void {
  stateOf(db).entries.delete(key);
}

/** Drops every cached answer of `db` in this process (tests; the version is kept). */
export function clearAnswerCache(db: Db): void {
  stateOf(db).entries.clear();
}
