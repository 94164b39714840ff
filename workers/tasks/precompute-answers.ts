/**
 * Task: precompute-answers (after every rollup run, and every minute as a fallback; its descriptor, workers/tasks/index.ts).
 * Computes the most-read leaderboard answers once per change instead of once per request: every
 * listed model × scheduled workload × {24 h, 72 h, 7 d} × {reported, o200k} basis, all regions, as
 * of the current minute, through the same engine the web uses on demand (db/leaderboard-answers),
 * so the bytes are identical. Stores them (exact JSON text + strong ETag) in precomputed_answers and
 * their snapshots in the same transaction, so they are citable the moment they are served. The
 * home page, model pages and embeds ask exactly these questions (decision 120).
 *
 * Between answers it yields to the event loop (setImmediate), so no slice of this work blocks the
 * process for longer than one answer. It returns the longest answer in wall time (`maxAnswerMs`,
 * database waits included) and in CPU time of this process (`maxAnswerCpuMs`: an upper bound of the
 * longest synchronous slice one answer can cause, since its CPU work is split by its awaits).
 */
import type { Db } from '@/db/client';
import { computeLeaderboardAnswer, liveLeaderboardKey } from '@/db/leaderboard-answers';
import { listPrecomputeTargets, savePrecomputedAnswers, type PrecomputedAnswer } from '@/db/queries/precomputed-answers';
import type { NewSnapshot } from '@/db/queries/snapshots';
import type { SpeedBasis } from '@/lib/stats/window-stats';
import { QUEUES } from '@/lib/queues';
import type { JobsRoleTask } from '../task';

export const PRECOMPUTE_ANSWERS_QUEUE = QUEUES.precomputeAnswers;

/** Windows (hours) read most: the default 72 h and the two the pages offer beside it. */
export const PRECOMPUTED_WINDOWS_HOURS = [24, 72, 168] as const;
const BASES: SpeedBasis[] = ['reported', 'o200k'];

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/**
 * One run as of `now` (floored to the minute). Idempotent: the same minute and data give the same
 * bytes, and an unchanged answer is not rewritten (its data version does not move).
 * @returns answers computed, wall time (ms) and the longest single answer (ms)
 */
export async function runPrecomputeAnswersJob(db: Db, now: Date): Promise<{ asOf: Date; answers: number; ms: number; maxAnswerMs: number; maxAnswerCpuMs: number }> {
  const t0 = performance.now();
  const asOf = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const targets = await listPrecomputeTargets(db, asOf);
  const rows: PrecomputedAnswer[] = [];
  const snaps: NewSnapshot[] = [];
  let maxAnswerMs = 0;
  let maxAnswerCpuMs = 0;
  for (const t of targets) {
    for (const windowHours of PRECOMPUTED_WINDOWS_HOURS) {
      for (const basis of BASES) {
        const q = { model: t.modelSlug, workload: t.workloadSlug, window: windowHours, basis, region: null };
        const ta = performance.now();
        const cpu = process.cpuUsage();
        const { answer, body } = await computeLeaderboardAnswer(db, q, asOf);
        const used = process.cpuUsage(cpu);
        maxAnswerCpuMs = Math.max(maxAnswerCpuMs, (used.user + used.system) / 1000);
        maxAnswerMs = Math.max(maxAnswerMs, performance.now() - ta);
        rows.push({ key: liveLeaderboardKey(q), kind: 'leaderboard', asOf, snapshotId: answer.snapshotId, etag: `"${answer.snapshotId}"`, body });
        snaps.push({ id: answer.snapshotId, kind: 'leaderboard', query: { model: q.model, workload: q.workload, window: `${windowHours}h`, basis, asOf: answer.asOf }, body });
        await yieldToLoop();
      }
    }
  }
  for (let i = 0; i < rows.length; i += 100) await savePrecomputedAnswers(db, rows.slice(i, i + 100), snaps.slice(i, i + 100));
  return { asOf, answers: rows.length, ms: performance.now() - t0, maxAnswerMs, maxAnswerCpuMs };
}

/**
 * The descriptor (workers/task.ts): jobs role (never in a probe process: 192 answers took 14.4 s of
 * every minute at 1M rows, issue 24), every minute and after every rollup run; policy `stately`
 * (at most one queued and one active, so the rollup's trigger and the cron collapse).
 */
export const precomputeAnswersTask: JobsRoleTask = {
  task: 'precompute-answers',
  role: 'jobs',
  description: 'Compute the most-read leaderboard answers (listed model × scheduled workload × 24h/72h/7d × basis) as of the minute and store their bytes + ETag.',
  queue: () => QUEUES.precomputeAnswers,
  queueOptions: { policy: 'stately' },
  schedule: { cron: () => '* * * * *', data: () => ({}) },
  timed: true,
  run: async (deps) => {
    const r = await runPrecomputeAnswersJob(deps.db, deps.now());
    return { asOf: r.asOf.toISOString(), answers: r.answers, ms: Math.round(r.ms), maxAnswerMs: Math.round(r.maxAnswerMs) };
  },
};
