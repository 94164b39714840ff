/**
 * The budget of snapshot rows that anonymous questions may add (issue 19 #5, decision 163).
 *
 * A live answer of the catalog's questions is stored by the precompute job (bounded by the catalog
 * and the minute). Every other answer (an `at=` instant, a rare window, a region) is computed on
 * demand and its snapshot row is written so its snapshotId is citable, so every distinct question
 * would add a permanent row. This process lets at most {@link DEFAULT_SNAPSHOT_BUDGET}.points new
 * on-demand snapshot rows be written per `durationSeconds` (a fixed window, rate-limiter-flexible's
 * in-memory limiter as the public read limit, decision 213); a question beyond it is refused with
 * 503 and Retry-After before anything is computed. An answer already stored or pending in this
 * process costs nothing (its point is refunded).
 *
 * A live answer (no `at`) of the catalog's own grid — a listed model (checked before), any workload,
 * a precomputed window (24 h, 72 h, 7 d), either basis, all regions merged — costs nothing: those
 * rows are bounded by the catalog and the minute like the precompute job's (the home page asks one
 * per listed model, most of them without precomputed answers while their keys are unset).
 *
 * Bound: rows added by anonymous requests beyond that grid ≤ points × (elapsed / duration + 1) per web instance;
 * with the default 600 per hour (TOKENPACE_SNAPSHOT_BUDGET_PER_HOUR): ≤ 14,400 a day per instance, each a distinct answer (same id →
 * one row: INSERT … ON CONFLICT DO NOTHING).
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { getEnv } from '@/lib/env';
import { PRECOMPUTED_WINDOWS_HOURS } from '@/lib/stats/window-stats';

/** points per window of `durationSeconds` */
export interface SnapshotBudget {
  points: number;
  durationSeconds: number;
}

export const DEFAULT_SNAPSHOT_BUDGET: SnapshotBudget = { points: 600, durationSeconds: 3600 };

/** The budget this deployment configured: TOKENPACE_SNAPSHOT_BUDGET_PER_HOUR points per hour (default 600). */
export function configuredSnapshotBudget(): SnapshotBudget {
  return { points: getEnv().TOKENPACE_SNAPSHOT_BUDGET_PER_HOUR, durationSeconds: 3600 };
}

/** A new snapshot row would exceed this process's budget: answer 503, retry after `retryAfterSeconds`. */
export class SnapshotBudgetError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`too many new past or uncommon boards asked for right now; retry in ${retryAfterSeconds} s`);
  }
}

const KEY = 'snapshots';
const limiterOf = (b: SnapshotBudget) => new RateLimiterMemory({ points: b.points, duration: b.durationSeconds });
// Made on first use, so the environment is read when the process serves, not when it imports.
let limiter: RateLimiterMemory | null = null;
const budgetLimiter = () => (limiter ??= limiterOf(configuredSnapshotBudget()));

/** Forgets the budget, so the next write reads TOKENPACE_SNAPSHOT_BUDGET_PER_HOUR again (tests; a fresh window starts). */
export function resetSnapshotBudget(): void {
  limiter = null;
}

/** Replaces the budget (tests; a fresh window starts). */
export function configureSnapshotBudget(b: SnapshotBudget): void {
  limiter = limiterOf(b);
}

/** Whether a new answer to this question takes a point: everything but a live answer of the catalog grid (see above). */
export function costsSnapshotBudget(q: { window: number; region?: string | null }, live: boolean): boolean {
  return !(live && !q.region && (PRECOMPUTED_WINDOWS_HOURS as readonly number[]).includes(q.window));
}

/** Takes one point for a snapshot row about to be written; throws {@link SnapshotBudgetError} when none is left. */
export async function reserveSnapshotWrite(): Promise<void> {
  try {
    await budgetLimiter().consume(KEY, 1);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw new SnapshotBudgetError(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
    throw err;
  }
}

/** Gives a reserved point back (the answer's row already existed, or computing it failed). */
export async function refundSnapshotWrite(): Promise<void> {
  await budgetLimiter().reward(KEY, 1);
}
