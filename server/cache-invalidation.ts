/**
 * Cross-instance notification of data changes over Postgres LISTEN/NOTIFY (decisions 140, 215).
 *
 * A writer records each change of an answer's inputs in `data_changes` after writing them
 * (db/queries/data-changes), which NOTIFYs `tokenpace_data_changed` on commit. Every web process
 * LISTENs ({@link listenForDataChanges}, started by ./shared for the web's handle) and, on every
 * notification and every (re)LISTEN, reads the changes after its version and evicts the answers
 * they touch from its one answer cache (./answer-cache `syncDataVersion`), then runs the hooks
 * registered with {@link onDataChanged}. So any number of web instances serve the same answers
 * (the same snapshotId) right after a change, and a notification lost while not listening is
 * caught up from the table at the next LISTEN.
 *
 * Lost notifications: postgres.js re-LISTENs by itself after its connection drops (with its reconnect
 * back-off), and its re-LISTEN failure is swallowed. As a guard, a watchdog sends itself a ping on
 * the channel every `watchdogMs`; when the ping does not come back, it LISTENs again.
 */
import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import type { Db } from '@/db/client';
import { DATA_CHANGED_CHANNEL, recordDataChange } from '@/db/queries/data-changes';
import { syncDataVersion } from './answer-cache';

export { DATA_CHANGED_CHANNEL };

/** The payload of one notification (JSON text on the channel). */
export interface DataChange {
  /** what changed: 'rollup' (rollup buckets rebuilt), 'late-data', … ; 'ping' is the watchdog's own */
  source: string;
  /** process id of the sender */
  pid: number;
  /** sender's wall clock, ISO 8601 */
  at: string;
  /** watchdog pings only: the listener the ping is meant for */
  listenerId?: string;
  /** the data version recorded (db/queries/data-changes); absent on pings */
  version?: number;
}

/**
 * Records that the data of `db` changed (anything: no range) as a new data version, which every
 * listening process learns, and applies it to this process's cache at once. For writers that
 * know the range they changed, `recordDataChange` + `syncDataVersion` say so. Errors propagate
 * (the database is unreachable).
 */
export async function notifyDataChanged(db: Db, source: string, range: { from?: Date | null; to?: Date | null } = {}): Promise<void> {
  await recordDataChange(db, { source, from: range.from ?? null, to: range.to ?? null });
  await syncDataVersion(db);
}

const hooks = new WeakMap<Db, Set<() => void>>();

/**
 * Registers `fn` to run whenever this process learns that the data of `db` changed (a notification,
 * or a re-LISTEN after a lost connection). Returns the unregister function.
 */
export function onDataChanged(db: Db, fn: () => void): () => void {
  let set = hooks.get(db);
  if (!set) {
    set = new Set();
    hooks.set(db, set);
  }
  set.add(fn);
  return () => set.delete(fn);
}

/**
 * Brings this process's answers of `db` up to the newest data version (./answer-cache) and runs
 * every registered hook. A failed read is retried at the next notification or LISTEN.
 */
export function invalidateLocalCaches(db: Db): void {
  syncDataVersion(db).catch(() => {});
  for (const fn of hooks.get(db) ?? []) {
    try {
      fn();
    } catch (err) {
      console.error('[cache-invalidation] hook failed', err instanceof Error ? err.message : String(err));
    }
  }
}

/** A running listener. */
export interface DataChangeListener {
  /** notifications received (pings excluded) */
  readonly received: number;
  /** resolves once the first LISTEN succeeded */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * LISTENs on {@link DATA_CHANGED_CHANNEL} with the postgres.js client of `db` and brings this
 * process's answers of `db` up to date on every notification and every (re)LISTEN (see the module doc).
 * @param client the postgres.js client that `db` was built on (its own dedicated LISTEN connection)
 * @param options.watchdogMs how often the watchdog pings itself (default 30 s; a lost listener is
 *   back within two periods)
 */
export function listenForDataChanges(
  db: Db,
  client: postgres.Sql,
  options: { watchdogMs?: number; onChange?: (change: DataChange | null) => void } = {},
): DataChangeListener {
  const listenerId = randomUUID();
  const watchdogMs = options.watchdogMs ?? 30_000;
  let received = 0;
  let stopped = false;
  let request: { unlisten(): Promise<void> } | null = null;
  let lastPong = Date.now();
  let pingSentAt = 0;
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => (resolveReady = r));

  const changed = (change: DataChange | null) => {
    invalidateLocalCaches(db);
    options.onChange?.(change);
  };
  // Each subscription's callbacks carry its generation: postgres.js may re-LISTEN an older
  // subscription's callbacks by itself after a reconnect, and those must not count twice.
  let generation = 0;
  const callbacks = (gen: number) => ({
    onNotify: (text: string) => {
      if (gen !== generation) return;
      let change: DataChange | null = null;
      try {
        change = JSON.parse(text) as DataChange;
      } catch {
        // a foreign or empty payload still means "something changed"
      }
      if (change?.source === 'ping') {
        if (change.listenerId === listenerId) lastPong = Date.now();
        return;
      }
      received++;
      changed(change);
    },
    onListen: () => {
      lastPong = Date.now();
      changed(null);
      resolveReady();
    },
  });
  const subscribe = async () => {
    const old = request;
    request = null;
    await old?.unlisten().catch(() => {});
    if (stopped) return;
    const gen = ++generation;
    const cb = callbacks(gen);
    request = await client.listen(DATA_CHANGED_CHANNEL, cb.onNotify, cb.onListen);
  };
  const subscribeOrRetry = () => {
    subscribe().catch(() => {
      // Postgres unreachable: the watchdog tries again next period
    });
  };
  subscribeOrRetry();

  const timer = setInterval(() => {
    if (stopped) return;
    if (pingSentAt > lastPong && Date.now() - pingSentAt >= watchdogMs / 2) {
      subscribeOrRetry();
      pingSentAt = 0;
      return;
    }
    pingSentAt = Date.now();
    const ping: DataChange = { source: 'ping', pid: process.pid, at: new Date().toISOString(), listenerId };
    client.notify(DATA_CHANGED_CHANNEL, JSON.stringify(ping)).catch(() => {});
  }, watchdogMs);
  timer.unref?.();

  return {
    get received() {
      return received;
    },
    ready,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await request?.unlisten().catch(() => {});
      request = null;
    },
  };
}
