/**
 * One probe per endpoint at a time inside this worker process.
 *
 * Why: pg-boss's `groupConcurrency: 1` checks for an active job of the group when a job is fetched,
 * but with `localConcurrency` > 1 several fetch loops run at the same instant and each can take a
 * job of the same group before any of them is marked active. Seen on a fresh start: the 16
 * calibration workloads of one slot ran up to four at a time, and speeds read 14-20 % low. Jobs of
 * the same endpoint fetched together now run one after the other; a job's clock starts when its
 * request is written, so waiting here never enters a measurement.
 */
export interface KeyedLock {
  /** Runs `task` after every earlier task of the same `key` has settled; resolves to its result. */
  run<T>(key: string | number, task: () => Promise<T>): Promise<T>;
  /** Keys with a running or waiting task (for tests and metrics). */
  readonly activeKeys: number;
}

/** Creates an in-process keyed lock (a promise chain per key, removed when the chain drains). */
export function createKeyedLock(): KeyedLock {
  const tails = new Map<string | number, Promise<unknown>>();
  return {
    run<T>(key: string | number, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    get activeKeys() {
      return tails.size;
    },
  };
}
