/**
 * The answer service (decision 215): the one place a leaderboard answer is composed and cached,
 * shared by the API routes and the pages.
 *
 * - One cache (./answer-cache), keyed by question and instant, valid for the data version this
 *   process has read; a data change evicts the answers whose window it touches, so every instance
 *   learns a change the same way (a row in data_changes + its NOTIFY) and serves the same bytes.
 * - A live question (no `at`) is answered as of the minute whose answers the precompute job
 *   stored with the current version (`live_as_of`, workers/tasks/precompute-answers.ts): the stored
 *   bytes with their ETag, read once per version. A stored answer whose figures did not change
 *   keeps the bytes (and `asOf`, snapshotId) of the minute they were first computed (decision 300). When no stored minute is current (right after a
 *   rollup, before the job ran) or it is older than {@link PRECOMPUTED_MAX_AGE_MS} (worker
 *   stopped), the answer is computed as of the current minute by the same engine
 *   (./leaderboard-answers) and cached like any other.
 * - `at=` answers are computed on demand and cached; a sealed one (lib/stats/window-stats
 *   SEALED_AFTER_MS) stays until a change reaches into its window (late data, a dispute ruling).
 * - Snapshots are written off the request path: an answer's snapshotId (hash of its canonical text)
 *   is citable at once; its row is written by a group-commit writer (one INSERT … ON CONFLICT DO
 *   NOTHING per 100 ms batch) within seconds. Until then this process serves the pending bytes
 *   ({@link findSnapshotBody}); the same answer never writes twice.
 * - Bounded (issue 19 #5, decision 163): a question whose model, workload or region does not exist
 *   throws `UnknownBoardFieldError` (404 naming the field) before anything is computed or
 *   stored; a new on-demand answer takes a point of this process's snapshot budget
 *   (./snapshot-budget: 600 rows per hour; a live answer of a precomputed window, all regions,
 *   is free: bounded by the catalog and the minute) before it is computed, and is refused with
 *   `SnapshotBudgetError` (503 + Retry-After) when none is left.
 */
import type { Db } from '@/db/client';
import { getPrecomputedAnswer } from '@/db/queries/precomputed-answers';
import { getSnapshot, saveSnapshots, type NewSnapshot } from '@/db/queries/snapshots';
import type { LeaderboardQuery } from '@/lib/api/schemas';
import { planWindow } from '@/lib/stats/window-stats';
import { cachedAnswer, clearAnswerCache, dataVersionOf, syncDataVersion } from './answer-cache';
import { requireBoardSubject } from './board-subject';
import { computeLeaderboardAnswer, liveLeaderboardKey, type ComputedLeaderboardAnswer } from './leaderboard-answers';
import { costsSnapshotBudget, refundSnapshotWrite, reserveSnapshotWrite } from './snapshot-budget';

/** One leaderboard answer object (snapshotId first, then the body's fields). */
export type LeaderboardAnswer = ComputedLeaderboardAnswer['answer'];

/** An answer ready to serve: its object, exact text and bytes, strong ETag. */
export interface ServedAnswer {
  /** parsed lazily for precomputed answers (pages, CSV); the JSON route never touches it */
  readonly answer: LeaderboardAnswer;
  body: string;
  /** UTF-8 of `body`, encoded on first use */
  readonly bytes: Uint8Array;
  /** `"<snapshotId>"`: the content hash, so a strong validator */
  etag: string;
  snapshotId: string;
  /** the instant it answers for: `at`, or the live minute (a stored live answer's own `asOf` may be earlier: its figures did not change since, decision 300) */
  asOf: Date;
  source: 'precomputed' | 'computed';
  /** its signed bytes once signed (server/signing SignedHolder): kept with the cached answer */
  signed?: { keyId: string; body: string; header: string };
}

/** A stored answer older than this (ms past its asOf) is not served: the worker is behind or stopped. */
export const PRECOMPUTED_MAX_AGE_MS = 150_000;
const SNAPSHOT_FLUSH_MS = 100;
const SNAPSHOT_BATCH_MAX = 500;

const encoder = new TextEncoder();

function servedOf(answer: LeaderboardAnswer | null, body: string, snapshotId: string, asOf: Date, source: ServedAnswer['source']): ServedAnswer {
  let parsed = answer;
  let encoded: Uint8Array | null = null;
  return {
    get answer() {
      parsed ??= JSON.parse(body) as LeaderboardAnswer;
      return parsed;
    },
    body,
    // encoded on first use: a cached answer should not hold its text twice
    get bytes() {
      encoded ??= encoder.encode(body);
      return encoded;
    },
    etag: `"${snapshotId}"`,
    snapshotId,
    asOf,
    source,
  };
}

/**
 * Brings this process's answers of `db` up to the newest data version now (tests and processes
 * without a LISTEN; web instances do it on every NOTIFY, server/cache-invalidation).
 */
export async function syncAnswers(db: Db): Promise<void> {
  await syncDataVersion(db);
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

/** Queues the snapshot row (once per id per process); never awaited by a request. False when it was already saved or pending. */
function queueSnapshot(db: Db, row: NewSnapshot): boolean {
  const w = writerOf(db);
  if (w.saved.has(row.id) || w.pending.has(row.id)) return false;
  w.pending.set(row.id, row);
  scheduleFlush(db, w, SNAPSHOT_FLUSH_MS);
  return true;
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
// Answers.

const MINUTE = 60_000;

/**
 * The instant a question is answered as of: `at`; live, the stored minute of the current version
 * when it is fresh, else the current minute.
 */
function resolveAsOf(q: LeaderboardQuery, liveAsOfMs: number | null, now: Date): { asOf: Date; stored: boolean } {
  if (q.at) return { asOf: new Date(q.at), stored: false };
  const wall = now.getTime();
  if (liveAsOfMs !== null && liveAsOfMs <= wall && liveAsOfMs + PRECOMPUTED_MAX_AGE_MS >= wall) return { asOf: new Date(liveAsOfMs), stored: true };
  return { asOf: new Date(Math.floor(wall / MINUTE) * MINUTE), stored: false };
}

async function loadAnswer(db: Db, q: LeaderboardQuery, asOf: Date, stored: boolean): Promise<ServedAnswer> {
  if (stored) {
    const row = await getPrecomputedAnswer(db, liveLeaderboardKey(q));
    // Current for the live minute: written this minute, or earlier and its figures unchanged since
    // (the job rewrites an answer only when its content changes, decision 300). A row newer than the
    // announced minute belongs to a run not yet announced.
    if (row && row.asOf.getTime() <= asOf.getTime()) return servedOf(null, row.body, row.snapshotId, asOf, 'precomputed');
  }
  // One point of the snapshot budget per new answer, taken before the work; given back when its row
  // already exists (stored or pending here) or computing failed. Live answers of the catalog grid
  // are free (./snapshot-budget costsSnapshotBudget).
  const charged = costsSnapshotBudget(q, !q.at);
  if (charged) await reserveSnapshotWrite();
  let computed: ComputedLeaderboardAnswer;
  try {
    computed = await computeLeaderboardAnswer(db, q, asOf);
  } catch (err) {
    if (charged) await refundSnapshotWrite();
    throw err;
  }
  const { answer, body } = computed;
  if (!queueSnapshot(db, { id: answer.snapshotId, kind: 'leaderboard', query: { ...q, window: `${q.window}h`, asOf: answer.asOf }, body }) && charged)
    await refundSnapshotWrite();
  return servedOf(answer, body, answer.snapshotId, asOf, 'computed');
}

/**
 * The answer to one leaderboard question as of `q.at` (or, live, the stored minute of the current
 * data version — else the current minute), with its exact JSON text, bytes and strong ETag, from
 * the one answer cache. The snapshotId in it is citable at once (GET /api/v1/snapshots/{id}).
 * @throws UnknownBoardFieldError unknown model, workload or region (nothing computed or stored)
 * @throws SnapshotBudgetError a new on-demand answer beyond this process's snapshot budget
 * @param now wall-clock instant (tests pass fixed instants); defaults to the current time
 */
export async function getLeaderboardAnswerWithBody(db: Db, q: LeaderboardQuery, now = new Date()): Promise<ServedAnswer> {
  await requireBoardSubject(db, q);
  const v = dataVersionOf(db);
  const { liveAsOfMs } = v instanceof Promise ? await v : v;
  const { asOf, stored } = resolveAsOf(q, liveAsOfMs, now);
  const key = JSON.stringify(['leaderboard', q.model, q.workload, q.window, q.basis, q.region ?? null, asOf.getTime()]);
  const range = { fromMs: planWindow(asOf, q.window).start.getTime(), toMs: asOf.getTime() };
  return cachedAnswer(db, key, range, () => loadAnswer(db, q, asOf, stored));
}

/** Board for one model/workload/window (as of `q.at` or the current minute), with snapshotId. */
export async function getLeaderboardAnswer(db: Db, q: LeaderboardQuery, now = new Date()): Promise<LeaderboardAnswer> {
  return (await getLeaderboardAnswerWithBody(db, q, now)).answer;
}

/** Forgets cached answers of `db` (tests that add measurements for an already-asked instant). */
export function clearLeaderboardAnswers(db: Db): void {
  clearAnswerCache(db);
}
