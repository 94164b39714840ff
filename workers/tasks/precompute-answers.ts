/**
 * Task: precompute-answers (after every rollup run, and every minute as a fallback; its descriptor, workers/tasks/index.ts).
 * Computes the most-read leaderboard answers once per change instead of once per request: every
 * listed model × scheduled workload × {24 h, 72 h, 7 d} × {reported, o200k} basis, all regions, as
 * of the current minute, from the live figures this process keeps from minute to minute
 * (server/live-figures, decision 218: only the last two hours of partials and the raw edge are read
 * each run) and the same answer builder the web uses on demand (server/leaderboard-answers), so the
 * bytes are identical; a window the partials do not cover is computed the usual way. Stores them
 * (strong ETag + content hash) in precomputed_answers and their exact JSON text as their snapshots,
 * once (decision 314), in the same transaction, so they are citable the moment they are served; a
 * batch is written while the next is built (decision 314); then,
 * with every answer written, records a data change whose `live_as_of` is this minute (decision
 * 215): from that version on, every instance serves these stored bytes for its live questions
 * (unless another change landed while the job computed: then none is current until the next run).
 * The home page, model pages and embeds ask exactly these questions (decision 120).
 *
 * Between answers it yields to the event loop (setImmediate), so no slice of this work blocks the
 * process for longer than one answer. It returns the longest answer in wall time (`maxAnswerMs`,
 * database waits included) and in CPU time of this process (`maxAnswerCpuMs`: an upper bound of the
 * longest synchronous slice one answer can cause, since its CPU work is split by its awaits).
 */
import type { Db } from '@/db/client';
import {
  answerContentHash,
  computeLeaderboardAnswer,
  leaderboardAnswerOf,
  liveLeaderboardKey,
  PROMPT_CACHE_COLUMN_BOARDS,
  PROMPT_CACHE_WORKLOADS,
  promptCacheColumnsOf,
} from '@/server/leaderboard-answers';
import { liveFigures } from '@/server/live-figures';
import { getLatestDataChange, recordDataChange } from '@/db/queries/data-changes';
import {
  deletePrecomputedAnswersOtherThan,
  listPrecomputedAnswerHashes,
  listPrecomputeTargets,
  savePrecomputedAnswers,
  type NewPrecomputedAnswer,
} from '@/db/queries/precomputed-answers';
import { syncDataVersion } from '@/server/answer-cache';
import type { NewSnapshot } from '@/db/queries/snapshots';
import { PRECOMPUTED_WINDOWS_HOURS, type SpeedBasis } from '@/lib/stats/window-stats';
import { QUEUES } from '@/lib/queues';
import { defineHousekeepingTask } from '../task';

export const PRECOMPUTE_ANSWERS_QUEUE = QUEUES.precomputeAnswers;

/** Answers (with their snapshots) per write transaction. */
const SAVE_BATCH = 100;

export { PRECOMPUTED_WINDOWS_HOURS };
const BASES: SpeedBasis[] = ['reported', 'o200k'];

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/**
 * What this process knows of the stored live answers: per key, the content hash of the stored
 * answer (its bytes without `snapshotId` and `asOf`, server/leaderboard-answers answerContentHash).
 * Loaded from precomputed_answers on a process's first run; kept in step with what each run writes;
 * dropped when a run fails (the next run reads the stored rows again).
 */
let storedContent: Map<string, string> | null = null;

/** Forgets what this process knows of the stored answers and the live figures (tests; a failed run). */
export function resetPrecomputeState(): void {
  storedContent = null;
  liveFigures.reset();
}

/**
 * One run as of `now` (floored to the minute). Only the answers whose inputs changed since the
 * previous run are rebuilt (server/live-figures `prepare`, decision 300), and only those whose
 * content changed are written: an answer whose figures are as they were keeps its stored bytes,
 * `asOf`, snapshotId and ETag (no new snapshot row; a citation of it stays the answer served), and
 * stays current for the minute this run announces (server/leaderboard serves a stored answer whose
 * `asOf` is at or before the live minute). Keys no longer asked are deleted before the minute is
 * announced. Idempotent: the same minute and data write nothing.
 * @returns live answers current after the run (`answers`), how many were rebuilt (`computed`) and
 *   written with a new snapshot (`written`), wall time (ms) and the longest single answer (ms)
 */
export async function runPrecomputeAnswersJob(
  db: Db,
  now: Date,
): Promise<{ asOf: Date; answers: number; computed: number; written: number; ms: number; maxAnswerMs: number; maxAnswerCpuMs: number }> {
  try {
    return await runOnce(db, now);
  } catch (err) {
    resetPrecomputeState();
    throw err;
  }
}

async function runOnce(
  db: Db,
  now: Date,
): Promise<{ asOf: Date; answers: number; computed: number; written: number; ms: number; maxAnswerMs: number; maxAnswerCpuMs: number }> {
  const t0 = performance.now();
  const asOf = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const base = await getLatestDataChange(db);
  const targets = await listPrecomputeTargets(db, asOf);
  if (storedContent === null) {
    const stored = new Map<string, string>();
    for (const r of await listPrecomputedAnswerHashes(db, 'leaderboard')) stored.set(r.key, r.contentHash ?? answerContentHash(r.body ?? ''));
    storedContent = stored;
  }
  const known = storedContent;
  const rows: NewPrecomputedAnswer[] = [];
  const snaps: NewSnapshot[] = [];
  const written = new Map<string, string>();
  let writtenRows = 0;
  // Batches are written while the next ones are built (one in flight): Postgres stores one batch
  // (TOAST compression, WAL) while this process builds the next (decision 314). Each batch is its
  // own transaction, as before; none is served before this run announces its minute below.
  let saving: Promise<void> = Promise.resolve();
  const save = async () => {
    await saving;
    if (rows.length === 0) return;
    const [r, sn] = [rows.splice(0), snaps.splice(0)];
    writtenRows += r.length;
    saving = savePrecomputedAnswers(db, r, sn);
    saving.catch(() => {}); // awaited by the next save or below; an unawaited failure must not go unhandled
  };
  let maxAnswerMs = 0;
  let maxAnswerCpuMs = 0;
  let computed = 0;
  // The figures of every question from the live figures kept since the last run (decision 218),
  // with whether its inputs changed (decision 300); null where the partials do not cover the
  // window (then computed the usual way). The boards with prompt-cache columns also need the same
  // window of the cache workloads.
  const keyOf = (model: string, workload: string, windowHours: number, basis: SpeedBasis) => `${model}|${workload}|${windowHours}|${basis}`;
  const questions = new Map<string, { modelSlug: string; workloadSlug: string; windowHours: number; basis: SpeedBasis }>();
  const workloadsOf = (workload: string) => [workload, ...(PROMPT_CACHE_COLUMN_BOARDS.includes(workload) ? PROMPT_CACHE_WORKLOADS : [])];
  for (const t of targets) {
    for (const windowHours of PRECOMPUTED_WINDOWS_HOURS) {
      for (const basis of BASES) {
        for (const w of workloadsOf(t.workloadSlug))
          questions.set(keyOf(t.modelSlug, w, windowHours, basis), { modelSlug: t.modelSlug, workloadSlug: w, windowHours, basis });
      }
    }
  }
  const prepared = await liveFigures.prepare(db, [...questions.values()], asOf);
  const live = new Map([...questions.keys()].map((k, i) => [k, prepared[i] ?? null]));
  type Q = { model: string; workload: string; window: number; basis: SpeedBasis; region: null };
  const partsOf = (q: Q) => workloadsOf(q.workload).map((w) => live.get(keyOf(q.model, w, q.window, q.basis)) ?? null);
  /** The answer from the live figures, or null when one of its windows is not covered by partials. */
  const fromLive = (q: Q) => {
    const parts = partsOf(q);
    if (parts.some((p) => p === null)) return null;
    const [f, cold, warm] = parts.map((p) => p!.figures());
    return leaderboardAnswerOf(q, asOf, f!, cold && warm ? promptCacheColumnsOf(cold, warm) : null);
  };
  const keys: string[] = [];
  for (const t of targets) {
    for (const windowHours of PRECOMPUTED_WINDOWS_HOURS) {
      for (const basis of BASES) {
        const q: Q = { model: t.modelSlug, workload: t.workloadSlug, window: windowHours, basis, region: null };
        const key = liveLeaderboardKey(q);
        keys.push(key);
        // Nothing this answer reads changed since the previous run: its stored answer stands.
        if (known.has(key) && partsOf(q).every((p) => p !== null && !p.changed)) continue;
        const ta = performance.now();
        const cpu = process.cpuUsage();
        const { answer, body } = fromLive(q) ?? (await computeLeaderboardAnswer(db, q, asOf));
        const content = answerContentHash(body);
        const used = process.cpuUsage(cpu);
        computed++;
        maxAnswerCpuMs = Math.max(maxAnswerCpuMs, (used.user + used.system) / 1000);
        maxAnswerMs = Math.max(maxAnswerMs, performance.now() - ta);
        await yieldToLoop();
        // Same figures as the stored answer (only the minute moved): no new row, no new snapshot.
        if (known.get(key) === content) continue;
        written.set(key, content);
        if (rows.length >= SAVE_BATCH) await save();
        rows.push({ key, kind: 'leaderboard', asOf, snapshotId: answer.snapshotId, etag: `"${answer.snapshotId}"`, contentHash: content });
        snaps.push({
          id: answer.snapshotId,
          kind: 'leaderboard',
          query: { model: q.model, workload: q.workload, window: `${windowHours}h`, basis, asOf: answer.asOf },
          body,
        });
      }
    }
  }
  await save();
  await saving;
  for (const [k, c] of written) known.set(k, c);
  // A stored answer of a question no longer asked (model unlisted, workload unscheduled) must not stay current.
  const asked = new Set(keys);
  if ([...known.keys()].some((k) => !asked.has(k))) {
    await deletePrecomputedAnswersOtherThan(db, 'leaderboard', keys);
    for (const k of [...known.keys()]) if (!asked.has(k)) known.delete(k);
  }
  // Nothing changed since this minute's answers were announced: the version stays.
  if (keys.length > 0 && !(base && base.liveAsOfMs === asOf.getTime())) {
    await recordDataChange(db, { source: 'precompute', from: asOf, to: asOf, liveAsOf: asOf, expectVersion: base?.version ?? 0 });
    await syncDataVersion(db);
  }
  return { asOf, answers: keys.length, computed, written: writtenRows, ms: performance.now() - t0, maxAnswerMs, maxAnswerCpuMs };
}

/**
 * The descriptor (workers/task.ts): jobs role (never in a probe process: 192 answers took 14.4 s of
 * every minute at 1M rows, issue 24), every minute and after every rollup run; policy `stately`
 * (at most one queued and one active, so the rollup's trigger and the cron collapse).
 */
export const precomputeAnswersTask = defineHousekeepingTask({
  task: 'precompute-answers',
  description:
    'Compute the most-read leaderboard answers (listed model × scheduled workload × 24h/72h/7d × basis) as of the minute and store their bytes + ETag.',
  queue: { name: QUEUES.precomputeAnswers, policy: 'stately' },
  schedule: { cron: '* * * * *' },
  run: async (deps) => {
    const r = await runPrecomputeAnswersJob(deps.db, deps.now());
    return {
      asOf: r.asOf.toISOString(),
      answers: r.answers,
      computed: r.computed,
      written: r.written,
      ms: Math.round(r.ms),
      maxAnswerMs: Math.round(r.maxAnswerMs),
    };
  },
});
