/**
 * One probe per endpoint at a time: inside one worker process AND across all worker processes
 * that share the database (docs/decisions/141-cross-process-endpoint-lock.md).
 *
 * Why: pg-boss's `groupConcurrency: 1` checks for an active job of the group when a job is fetched,
 * but with `localConcurrency` > 1 several fetch loops run at the same instant and each can take a
 * job of the same group before any of them is marked active. Seen on a fresh start: the 16
 * calibration workloads of one slot ran up to four at a time, and speeds read 14-20 % low. The same
 * race exists between two worker processes (other machines, same Postgres): both can fetch a job
 * of one endpoint group at the same instant. Overlapping probes of one endpoint corrupt each
 * other's speed figures.
 *
 * Two layers, in this order:
 * 1. {@link createKeyedLock}: an in-process promise chain per endpoint. Jobs of one endpoint fetched
 *    together by this process run one after the other without touching Postgres, and only one task
 *    per endpoint of this process ever asks for the advisory lock (a session lock is re-entrant
 *    within its session, so this layer is what keeps two probes of this process apart).
 * 2. {@link createEndpointLock}: a session-level PostgreSQL advisory lock
 *    `pg_try_advisory_lock(ENDPOINT_LOCK_NAMESPACE, endpointId)` taken on ONE dedicated connection
 *    per process and held for the whole probe. Two-int keys live in a key space of their own
 *    (pg-boss uses single bigint keys), and the fixed namespace keeps other two-int users apart.
 *    When the process dies (kill -9 included) its connection closes and Postgres drops every lock
 *    the session held, so no lock outlives its holder.
 *
 * Waiting never enters a measurement: a probe's clock starts when its request is written
 * (lib/probe/probe-endpoint.ts), and all waiting here happens before the probe task starts.
 * Waiting is bounded: when the turn does not come within `waitMs` (both layers together), `run`
 * rejects with {@link EndpointLockTimeoutError} without running the task; the probe queue lets
 * pg-boss retry the job (workers/main.ts).
 *
 * Concurrency sweeps (workers/tasks/run-sweep.ts, decision 142) hold the same lock for their whole
 * run through {@link EndpointLock.runSweep}, plus a second advisory key
 * `(SWEEP_LOCK_NAMESPACE, endpointId)` that says "a sweep holds or is about to hold this endpoint".
 * Probes step aside from it instead of queueing behind it: `run` rejects at once with
 * {@link EndpointSweepingError} (task not run) when that key is held by any session, or when a
 * sweep of this process starts while the probe is still waiting for its turn. A probe already
 * streaming finishes first; the sweep waits for it (bounded).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';

/**
 * First key of every endpoint lock (`pg_advisory_lock(int4, int4)`): "tp" 0x7470, then 0141 for
 * decision 141. Two-int advisory keys never collide with pg-boss's single-bigint ones.
 */
export const ENDPOINT_LOCK_NAMESPACE = 0x7470_0141;

/**
 * Second key of a sweep's marker lock (`pg_advisory_lock(SWEEP_LOCK_NAMESPACE, endpointId)`, held
 * by a sweep from before it waits for the endpoint lock until it ends): "tp" 0x7470, then 0142 for
 * decision 142. Probes read it in `pg_locks` (they never take it).
 */
export const SWEEP_LOCK_NAMESPACE = 0x7470_0142;

/** Rejection of `run` / `runSweep` when the endpoint's turn did not come within the wait bound; the task did not run. */
export class EndpointLockTimeoutError extends Error {
  constructor(
    readonly endpointId: number | string,
    /** How long the caller waited (ms). */
    readonly waitedMs: number,
    /** Which lock was waited for: a probe's turn (default) or a sweep's. */
    readonly holder: 'probe' | 'sweep' = 'probe',
  ) {
    super(
      holder === 'probe'
        ? `endpoint ${endpointId} still busy after waiting ${Math.round(waitedMs)} ms for its probe lock`
        : `endpoint ${endpointId} still busy after waiting ${Math.round(waitedMs)} ms for its lock: a probe or another holder kept it past the bound, so the sweep did not start`,
    );
    this.name = 'EndpointLockTimeoutError';
  }
}

/**
 * Rejection of `run` when the endpoint is under a concurrency sweep (its sweep marker is held in
 * Postgres, or a sweep of this process started while the probe waited). The probe task did not run
 * and the endpoint was not asked: not a measurement and not a failure of the endpoint.
 */
export class EndpointSweepingError extends Error {
  constructor(readonly endpointId: number) {
    super(`endpoint ${endpointId} is under a concurrency sweep: probe skipped`);
    this.name = 'EndpointSweepingError';
  }
}

/** Bounds of one wait for a key's turn. */
export interface WaitOptions {
  /** Give up at this instant (ms since the epoch, Date.now clock): reject with EndpointLockTimeoutError. */
  waitUntil?: number;
  /** Give up when aborted (pg-boss job signal): reject with the signal's reason. */
  signal?: AbortSignal;
}

export interface KeyedLock {
  /**
   * Runs `task` after every earlier task of the same `key` has settled; resolves to its result.
   * With `opts`, a caller still waiting at `waitUntil` (or on abort) rejects and its task never
   * runs; the tasks after it keep their order.
   */
  run<T>(key: string | number, task: () => Promise<T>, opts?: WaitOptions): Promise<T>;
  /** Keys with a running or waiting task (for tests and metrics). */
  readonly activeKeys: number;
}

/** Creates an in-process keyed lock (a promise chain per key, removed when the chain drains). */
export function createKeyedLock(): KeyedLock {
  const tails = new Map<string | number, Promise<unknown>>();
  return {
    run<T>(key: string | number, task: () => Promise<T>, opts: WaitOptions = {}): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const calledAt = Date.now();
      let state: 'waiting' | 'started' | 'gave-up' = 'waiting';
      let giveUp!: (err: unknown) => void;
      const gaveUp = new Promise<never>((_, reject) => (giveUp = reject));
      // The chain goes on through a caller that gave up: its link settles at once, the next waits for the earlier ones.
      const mine = previous
        .then(
          () => undefined,
          () => undefined,
        )
        .then(() => {
          if (state === 'gave-up') return undefined;
          state = 'started';
          cleanup();
          return task();
        });
      const tail = mine.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });

      const stop = (err: unknown) => {
        if (state !== 'waiting') return;
        state = 'gave-up';
        cleanup();
        giveUp(err);
      };
      const timer =
        opts.waitUntil === undefined
          ? null
          : setTimeout(() => stop(new EndpointLockTimeoutError(key, Date.now() - calledAt)), Math.max(0, opts.waitUntil - Date.now()));
      const onAbort = () => stop(opts.signal?.reason);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      function cleanup() {
        if (timer) clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
      }
      if (opts.signal?.aborted) stop(opts.signal.reason);
      // Without a bound the race is only `mine`; a caller that gave up never sees `mine` settle with its task.
      gaveUp.catch(() => undefined);
      return Promise.race([mine as Promise<T>, gaveUp]);
    },
    get activeKeys() {
      return tails.size;
    },
  };
}

/** A cross-process lock per endpoint (see the module docstring). */
export interface EndpointLock {
  /**
   * Runs `task` (a probe) while this process holds the endpoint's turn in-process and its advisory
   * lock in Postgres; releases both when `task` settles (also when it throws). Rejects without
   * running the task: with EndpointSweepingError as soon as the endpoint is found under a sweep
   * (checked on entry, on every try of the lock, and when a sweep of this process starts while
   * waiting); with EndpointLockTimeoutError when the turn did not come within `waitMs`; with the
   * signal's reason when aborted while waiting; or with a database error when the lock could not
   * be asked for at all. The task's own error passes through unchanged.
   */
  run<T>(endpointId: number, task: () => Promise<T>, opts?: { signal?: AbortSignal }): Promise<T>;
  /**
   * Runs `task` (a concurrency sweep, minutes to hours) holding the endpoint exclusively: first the
   * sweep marker `(SWEEP_LOCK_NAMESPACE, endpointId)`, from which on new and waiting probes of the
   * endpoint step aside in every process (EndpointSweepingError), then the endpoint's turn and lock
   * exactly as a probe takes them, i.e. after a probe already streaming has finished. Releases all
   * when `task` settles. Rejects without running the task with EndpointLockTimeoutError (holder
   * 'sweep') when both were not held within `opts.waitMs` (ms, from the call), with the signal's
   * reason when aborted while waiting, or with an Error when this process already runs a sweep of
   * the endpoint. The task's own error passes through unchanged.
   */
  runSweep<T>(endpointId: number, task: () => Promise<T>, opts: { waitMs: number; signal?: AbortSignal }): Promise<T>;
  /** Endpoints with a sweep of this process waiting for or holding the lock. */
  readonly sweepingKeys: number;
  /** Endpoints with a running or waiting task in this process. */
  readonly activeKeys: number;
  /** Closes the lock connection (releasing whatever it still holds). */
  close(): Promise<void>;
}

export interface EndpointLockOptions {
  /** postgres:// URL of the shared database; the lock opens one connection of its own there. */
  url: string;
  /** Longest wait for an endpoint's turn, in-process and cross-process together (ms). */
  waitMs: number;
  /** Longest pause between two tries of a busy lock (ms, default 200); tries start at 20 ms apart. */
  maxPollMs?: number;
  /** Called once per wait when another process holds the endpoint (for logs). */
  onBusy?: (endpointId: number) => void;
  /**
   * Called when releasing found the lock no longer held (the lock connection dropped during the
   * task, so Postgres had released it already) or the release query failed. Never throws to the task's caller.
   */
  onReleaseProblem?: (endpointId: number, problem: string) => void;
}

/** Sleeps `ms`; an abort rejects with the signal's own reason (timers/promises wraps it in an AbortError). */
async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw err;
  }
}

/**
 * Opens the cross-process endpoint lock: an in-process keyed chain in front of session advisory
 * locks on one dedicated postgres.js connection. That connection never times out on its own
 * (`idle_timeout` and `max_lifetime` off: either would close it, and drop its locks, in the middle
 * of a probe). Locks are asked for with `pg_try_advisory_lock` and re-tried with a growing pause,
 * so the single connection is never blocked by a wait and serves every endpoint of this process.
 */
export function createEndpointLock(opts: EndpointLockOptions): EndpointLock {
  const sql = postgres(opts.url, { max: 1, idle_timeout: 0, max_lifetime: 0, connect_timeout: 5, onnotice: () => {} });
  const chain = createKeyedLock();
  const maxPollMs = opts.maxPollMs ?? 200;
  /** Endpoints with a sweep of this process (waiting for or holding the lock). */
  const localSweeps = new Set<number>();
  /** Per endpoint, the probes of this process still waiting for their turn: a starting sweep ends their waits. */
  const waiters = new Map<number, Set<AbortController>>();

  /**
   * Tries the endpoint lock for a probe until it is held. One query per try: when the sweep marker
   * of the endpoint is held by any session of this database, the lock is not even tried (CASE is
   * evaluated lazily) and the probe steps aside.
   */
  async function acquireForProbe(endpointId: number, waitUntil: number, calledAt: number, signal: AbortSignal): Promise<void> {
    let pauseMs = 20;
    let reported = false;
    for (;;) {
      signal.throwIfAborted();
      const [row] = await sql<Array<{ ok: boolean | null }>>`
        select case
          when exists (
            select 1 from pg_locks
            where locktype = 'advisory' and granted
              and database = (select oid from pg_database where datname = current_database())
              and classid = ${SWEEP_LOCK_NAMESPACE}::int4::oid and objid = ${endpointId}::int4::oid and objsubid = 2
          ) then null
          else pg_try_advisory_lock(${ENDPOINT_LOCK_NAMESPACE}::int4, ${endpointId}::int4)
        end as ok`;
      if (row?.ok === null) throw new EndpointSweepingError(endpointId);
      if (row?.ok) {
        // A sweep of this process may have started while the query ran: give the lock back to it.
        if (signal.aborted) {
          await release(endpointId, ENDPOINT_LOCK_NAMESPACE);
          signal.throwIfAborted();
        }
        return;
      }
      if (!reported) {
        reported = true;
        opts.onBusy?.(endpointId);
      }
      const left = waitUntil - Date.now();
      if (left <= 0) throw new EndpointLockTimeoutError(endpointId, Date.now() - calledAt);
      await pause(Math.min(pauseMs, left), signal);
      pauseMs = Math.min(pauseMs * 2, maxPollMs);
    }
  }

  /** Tries one advisory key `(namespace, endpointId)` until held (sweeps: marker, then the endpoint lock). */
  async function acquireKey(namespace: number, endpointId: number, waitUntil: number, calledAt: number, signal?: AbortSignal): Promise<void> {
    let pauseMs = 20;
    for (;;) {
      signal?.throwIfAborted();
      const [row] = await sql<Array<{ ok: boolean }>>`select pg_try_advisory_lock(${namespace}::int4, ${endpointId}::int4) as ok`;
      if (row?.ok) return;
      const left = waitUntil - Date.now();
      if (left <= 0) throw new EndpointLockTimeoutError(endpointId, Date.now() - calledAt, 'sweep');
      await pause(Math.min(pauseMs, left), signal);
      pauseMs = Math.min(pauseMs * 2, maxPollMs);
    }
  }

  async function release(endpointId: number, namespace: number): Promise<void> {
    const what = namespace === SWEEP_LOCK_NAMESPACE ? 'sweep marker' : 'endpoint lock';
    try {
      const [row] = await sql<Array<{ ok: boolean }>>`select pg_advisory_unlock(${namespace}::int4, ${endpointId}::int4) as ok`;
      if (!row?.ok) opts.onReleaseProblem?.(endpointId, `${what} was no longer held (lock connection dropped while it was held)`);
    } catch (err) {
      // The query failed because the connection did: its session, and the lock with it, is gone.
      opts.onReleaseProblem?.(endpointId, `${what} unlock failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  return {
    run<T>(endpointId: number, task: () => Promise<T>, runOpts: { signal?: AbortSignal } = {}): Promise<T> {
      if (localSweeps.has(endpointId)) return Promise.reject(new EndpointSweepingError(endpointId));
      const calledAt = Date.now();
      const waitUntil = calledAt + opts.waitMs;
      // The wait ends on the job's abort or on a sweep of this process starting (its reason: EndpointSweepingError).
      const wait = new AbortController();
      const onJobAbort = () => wait.abort(runOpts.signal?.reason);
      if (runOpts.signal?.aborted) onJobAbort();
      else runOpts.signal?.addEventListener('abort', onJobAbort, { once: true });
      let mine = waiters.get(endpointId);
      if (!mine) waiters.set(endpointId, (mine = new Set()));
      mine.add(wait);
      const stopWaiting = () => {
        runOpts.signal?.removeEventListener('abort', onJobAbort);
        mine.delete(wait);
        if (mine.size === 0 && waiters.get(endpointId) === mine) waiters.delete(endpointId);
      };
      const running = chain.run(
        endpointId,
        async () => {
          await acquireForProbe(endpointId, waitUntil, calledAt, wait.signal);
          // From here on the probe runs to its end: a sweep starting now waits for it.
          stopWaiting();
          try {
            return await task();
          } finally {
            await release(endpointId, ENDPOINT_LOCK_NAMESPACE);
          }
        },
        { waitUntil, signal: wait.signal },
      );
      return running.finally(stopWaiting);
    },

    async runSweep<T>(endpointId: number, task: () => Promise<T>, sweepOpts: { waitMs: number; signal?: AbortSignal }): Promise<T> {
      if (localSweeps.has(endpointId)) throw new Error(`endpoint ${endpointId}: this worker already runs a sweep of it`);
      localSweeps.add(endpointId);
      // Probes of this process still waiting for the endpoint step aside now rather than time out behind the sweep.
      for (const w of waiters.get(endpointId) ?? []) w.abort(new EndpointSweepingError(endpointId));
      const calledAt = Date.now();
      const waitUntil = calledAt + sweepOpts.waitMs;
      try {
        // The marker first: from here on probes in every process step aside instead of taking the lock.
        await acquireKey(SWEEP_LOCK_NAMESPACE, endpointId, waitUntil, calledAt, sweepOpts.signal);
        try {
          return await chain.run(
            endpointId,
            async () => {
              // The in-process turn came: no probe of this process holds the endpoint; wait for one of another process.
              await acquireKey(ENDPOINT_LOCK_NAMESPACE, endpointId, waitUntil, calledAt, sweepOpts.signal);
              try {
                return await task();
              } finally {
                await release(endpointId, ENDPOINT_LOCK_NAMESPACE);
              }
            },
            { waitUntil, signal: sweepOpts.signal },
          );
        } finally {
          await release(endpointId, SWEEP_LOCK_NAMESPACE);
        }
      } catch (err) {
        // The chain's own bound reports a probe-lock timeout: say it is the sweep that gave up.
        if (err instanceof EndpointLockTimeoutError && err.holder === 'probe') throw new EndpointLockTimeoutError(endpointId, err.waitedMs, 'sweep');
        throw err;
      } finally {
        localSweeps.delete(endpointId);
      }
    },

    get activeKeys() {
      return chain.activeKeys;
    },
    get sweepingKeys() {
      return localSweeps.size;
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
