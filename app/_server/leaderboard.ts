/**
 * Server-side leaderboard answers, shared by the API route and the pages (decision 120–122).
 *
 * - Live questions (no `at`) are served from the answers the precompute job stored in Postgres
 *   (workers/tasks/precompute-answers.ts, once per rollup run): the stored bytes with their ETag,
 *   no computing and no JSON.stringify per request. Every web instance holds the rows it served in
 *   memory and drops them when the stored data version moves (checked at most every 2 s, off the
 *   request path, and at once on a data-change NOTIFY: db/cache-invalidation), so all instances serve
 *   the bytes now in Postgres. A stored answer older than
 *   {@link PRECOMPUTED_MAX_AGE_MS} (worker stopped) is not served: the answer is computed instead.
 * - Other questions (old `at=`, rare windows, regions) are computed on demand by the same engine
 *   (db/leaderboard-answers) and cached in-process by (question, asOf): live ones for their minute,
 *   `at=` answers whose window has sealed until evicted or the window caches are invalidated.
 * - Snapshots are written off the request path: an answer's snapshotId (hash of its canonical text)
 *   is citable at once; its row is written by a group-commit writer (one INSERT … ON CONFLICT DO
 *   NOTHING per 100 ms batch) within seconds. Until then this process serves the pending bytes
 *   ({@link findSnapshotBody}); the same answer never writes twice.
 */
import { onDataChanged } from '@/db/cache-invalidation';
import type { Db } from '@/db/client';
import { computeLeaderboardAnswer, liveLeaderboardKey, type ComputedLeaderboardAnswer } from '@/db/leaderboard-answers';
import { getPrecomputedAnswer, getPrecomputedVersion, type PrecomputedAnswer } from '@/db/queries/precomputed-answers';
import { getSnapshot, saveSnapshots, type NewSnapshot } from '@/db/queries/snapshots';
import { namedWindowCache } from '@/db/window-stats';
import type { LeaderboardQuery } from '@/lib/api/schemas';
import { isSealed } from '@/lib/stats/window-stats';

/** One leaderboard answer object (snapshotId first, then the body's fields). */
export type LeaderboardAnswer = ComputedLeaderboardAnswer['answer'];

/** An answer ready to serve: its object, exact text and bytes, strong ETag. */
export interface ServedAnswer {
  /** parsed lazily for precomputed answers (pages, CSV); the JSON route never touches it */
  readonly answer: LeaderboardAnswer;
  body: string;
  bytes: Uint8Array;
  /** `"<snapshotId>"`: the content hash, so a strong validator */
  etag: string;
  snapshotId: string;
  asOf: Date;
  source: 'precomputed' | 'computed';
}

/** A stored answer older than this (ms past its asOf) is not served: the worker is behind or stopped. */
export const PRECOMPUTED_MAX_AGE_MS = 150_000;
const VERSION_CHECK_MS = 2_000;
const ANSWER_CACHE_MAX = 5_000;
const SNAPSHOT_FLUSH_MS = 100;
const SNAPSHOT_BATCH_MAX = 500;

const encoder = new TextEncoder();

function servedOf(answer: LeaderboardAnswer | null, body: string, snapshotId: string, asOf: Date, source: ServedAnswer['source']): ServedAnswer {
  let parsed = answer;
  return {
    get answer() {
      parsed ??= JSON.parse(body) as LeaderboardAnswer;
      return parsed;
    },
    body,
    bytes: encoder.encode(body),
    etag: `"${snapshotId}"`,
    snapshotId,
    asOf,
    source,
  };
}

// ---------------------------------------------------------------------------------------------
// Precomputed answers (read side).

interface PrecomputedState {
  version: string | null;
  checkedAt: number;
  checking: Promise<void> | null;
  rows: Map<string, ServedAnswer | null | Promise<ServedAnswer | null>>;
}
const precomputed = new WeakMap<Db, PrecomputedState>();
const hooked = new WeakSet<Db>();

function precomputedOf(db: Db): PrecomputedState {
  let s = precomputed.get(db);
  if (!hooked.has(db)) {
    // A data-change notification (db/cache-invalidation) re-reads the version at once, not in ≤ 2 s.
    hooked.add(db);
    onDataChanged(db, () => {
      const cur = precomputed.get(db);
      if (cur) void checkVersion(db, cur).catch(() => {});
    });
  }
  if (!s) {
    s = { version: null, checkedAt: 0, checking: null, rows: new Map() };
    precomputed.set(db, s);
  }
  return s;
}

function checkVersion(db: Db, s: PrecomputedState): Promise<void> {
  s.checking ??= getPrecomputedVersion(db)
    .then((v) => {
      if (v !== s.version) {
        s.version = v;
        s.rows = new Map();
      }
      s.checkedAt = Date.now();
    })
    .finally(() => {
      s.checking = null;
    });
  return s.checking;
}

/**
 * Re-reads the data version of the precomputed answers now and drops this process's copies when it
 * moved (tests and the precompute job's own process; requests do this every 2 s in the background).
 */
export async function syncPrecomputedAnswers(db: Db): Promise<void> {
  await checkVersion(db, precomputedOf(db));
}

function fromRow(row: PrecomputedAnswer | null): ServedAnswer | null {
  return row ? servedOf(null, row.body, row.snapshotId, row.asOf, 'precomputed') : null;
}

/** The stored answer of a live question, from memory or Postgres; null when none is fresh. */
function findPrecomputed(db: Db, key: string, wallNow: number): ServedAnswer | null | Promise<ServedAnswer | null> {
  const s = precomputedOf(db);
  if (s.version === null) return checkVersion(db, s).then(() => findPrecomputed(db, key, wallNow));
  if (Date.now() - s.checkedAt >= VERSION_CHECK_MS && !s.checking) void checkVersion(db, s).catch(() => {});
  const fresh = (a: ServedAnswer | null) => (a && a.asOf.getTime() <= wallNow && a.asOf.getTime() + PRECOMPUTED_MAX_AGE_MS >= wallNow ? a : null);
  const rows = s.rows;
  const hit = rows.get(key);
  if (hit === undefined) {
    const load = getPrecomputedAnswer(db, key).then(fromRow);
    rows.set(key, load);
    load.then((v) => rows.get(key) === load && rows.set(key, v)).catch(() => rows.delete(key));
    return load.then(fresh);
  }
  return hit instanceof Promise ? hit.then(fresh) : fresh(hit);
}

// ---------------------------------------------------------------------------------------------
// Snapshot group commit, off the request path.

interface Writer {
  pending: Map<string, NewSnapshot>;
  timer: ReturnType<typeof setTimeout> | null;
  saved: Set<string>;
  failures: number;
}
const writers = new WeakMap<Db, Writer>();

function writerOf(db: Db): Writer {
  let w = writers.get(db);
  if (!w) {
    w = { pending: new Map(), timer: null, saved: new Set(), failures: 0 };
    writers.set(db, w);
  }
  return w;
}

function scheduleFlush(db: Db, w: Writer, delayMs: number): void {
  if (w.timer) return;
  w.timer = setTimeout(() => {
    w.timer = null;
    void flushSnapshots(db);
  }, delayMs);
}

/**
 * Writes the pending snapshots of `db` now (batches of 500, INSERT … ON CONFLICT DO NOTHING).
 * A failed batch stays pending and is retried with back-off (up to 30 s). Resolves when done.
 */
export async function flushSnapshots(db: Db): Promise<void> {
  const w = writerOf(db);
  while (w.pending.size > 0) {
    const batch = [...w.pending.values()].slice(0, SNAPSHOT_BATCH_MAX);
    try {
      await saveSnapshots(db, batch);
      w.failures = 0;
    } catch (err) {
      w.failures++;
      if (w.failures === 1) console.error('[snapshots] write failed; retrying', err instanceof Error ? err.message : String(err));
      scheduleFlush(db, w, Math.min(30_000, 250 * 2 ** w.failures));
      return;
    }
    for (const s of batch) {
      w.pending.delete(s.id);
      w.saved.add(s.id);
    }
    if (w.saved.size > 50_000) w.saved.clear();
  }
}

/** Queues the snapshot row (once per id per process); never awaited by a request. */
function queueSnapshot(db: Db, row: NewSnapshot): void {
  const w = writerOf(db);
  if (w.saved.has(row.id) || w.pending.has(row.id)) return;
  w.pending.set(row.id, row);
  scheduleFlush(db, w, SNAPSHOT_FLUSH_MS);
}

/**
 * The stored text of a snapshot: this process's not-yet-written answer, else the row in Postgres;
 * when neither exists yet (another instance is about to write it), polls Postgres every 200 ms for
 * up to `waitMs`. Null when it never appears.
 */
export async function findSnapshotBody(db: Db, id: string, waitMs = 3_000): Promise<string | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const pending = writerOf(db).pending.get(id);
    if (pending) return pending.body;
    const row = await getSnapshot(db, id);
    if (row) return row.body;
    if (Date.now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---------------------------------------------------------------------------------------------
// On-demand answers.

function resolveAsOf(q: LeaderboardQuery, now: Date): { asOf: Date; live: boolean } {
  if (q.at) return { asOf: new Date(q.at), live: false };
  return { asOf: new Date(Math.floor(now.getTime() / 60_000) * 60_000), live: true };
}

function computeOnDemand(db: Db, q: LeaderboardQuery, asOf: Date, live: boolean, now: Date): ServedAnswer | Promise<ServedAnswer> {
  const key = JSON.stringify([q.model, q.workload, q.window, q.basis, q.region ?? null, asOf.getTime()]);
  // Lives with the window caches, so a rollup rebuild or late data drops answers and figures at once.
  const cache = namedWindowCache<string, ServedAnswer | Promise<ServedAnswer>>(db, 'leaderboard-answers');
  const hit = cache.get(key);
  if (hit) return hit;
  const cacheable = live || isSealed(asOf.getTime(), now.getTime());
  const work = computeLeaderboardAnswer(db, q, asOf).then(({ answer, body }) => {
    queueSnapshot(db, { id: answer.snapshotId, kind: 'leaderboard', query: { ...q, window: `${q.window}h`, asOf: answer.asOf }, body });
    return servedOf(answer, body, answer.snapshotId, asOf, 'computed');
  });
  if (cacheable) {
    if (cache.size >= ANSWER_CACHE_MAX) cache.clear();
    cache.set(key, work);
    work.then((v) => cache.get(key) === work && cache.set(key, v)).catch(() => cache.delete(key));
  }
  return work;
}

/**
 * The answer to one leaderboard question as of `q.at` (or, live, the newest precomputed minute —
 * else the current minute), with its exact JSON text, bytes and strong ETag. The snapshotId in it
 * is citable at once (GET /api/v1/snapshots/{id}).
 * @param now wall-clock instant (tests pass fixed instants); defaults to the current time
 */
export async function getLeaderboardAnswerWithBody(db: Db, q: LeaderboardQuery, now = new Date()): Promise<ServedAnswer> {
  const { asOf, live } = resolveAsOf(q, now);
  if (live) {
    const stored = findPrecomputed(db, liveLeaderboardKey(q), now.getTime());
    const hit = stored instanceof Promise ? await stored : stored;
    if (hit) return hit;
  }
  return computeOnDemand(db, q, asOf, live, now);
}

/** Board for one model/workload/window (as of `q.at` or the current minute), with snapshotId. */
export async function getLeaderboardAnswer(db: Db, q: LeaderboardQuery, now = new Date()): Promise<LeaderboardAnswer> {
  return (await getLeaderboardAnswerWithBody(db, q, now)).answer;
}

/** Forgets cached answers of `db` (tests that add measurements for an already-asked instant). */
export function clearLeaderboardAnswers(db: Db): void {
  namedWindowCache(db, 'leaderboard-answers').clear();
  precomputed.delete(db);
}
