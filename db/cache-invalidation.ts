/**
 * Cross-instance cache invalidation over Postgres LISTEN/NOTIFY (decision 140).
 *
 * Every process caches window figures and answers per database handle (./window-stats). When the
 * data under them changes in another process (the rollup job on a worker), that process sends
 * `NOTIFY tokenpace_data_changed` ({@link notifyDataChanged}); every web process LISTENs
 * ({@link listenForDataChanges}, started by ./shared for the web's handle) and drops its caches at
 * once through {@link invalidateWindowCaches} and the hooks registered with {@link onDataChanged}.
 * So any number of web instances serve the same answer (the same snapshotId) right after a change.
 *
 * Lost notifications: postgres.js re-LISTENs by itself after its connection drops (with its reconnect
 * back-off), and its re-LISTEN failure is swallowed. As a guard, a watchdog sends itself a ping on
 * the channel every `watchdogMs`; when the ping does not come back, it LISTENs again. Every
 * (re)LISTEN also invalidates, because notifications sent while not listening are gone.
 */
import { sql as dsql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import type { Db } from './client';
import { invalidateWindowCaches } from './window-stats';

/** The NOTIFY channel of data changes. */
export const DATA_CHANGED_CHANNEL = 'tokenpace_data_changed';

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
}

/**
 * Tells every listening process that the data of `db` changed (`pg_notify`, delivered on commit
 * when called inside a transaction). Errors propagate (the database is unreachable).
 */
export async function notifyDataChanged(db: Db, source: string): Promise<void> {
  const payload: DataChange = { source, pid: process.pid, at: new Date().toISOString() };
  await db.execute(dsql`select pg_notify(${DATA_CHANGED_CHANNEL}, ${JSON.stringify(payload)})`);
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

/** Drops this process's caches of `db`: the window caches and every registered hook. */
export function invalidateLocalCaches(db: Db): void {
  invalidateWindowCaches(db);
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
 * LISTENs on {@link DATA_CHANGED_CHANNEL} with the postgres.js client of `db` and invalidates this
 * process's caches of `db` on every notification and on every (re)LISTEN (see the module doc).
 * @param client the postgres.js client that `db` was built on (its own dedicated LISTEN connection)
 * @param options.watchdogMs how often the watchdog pings itself (default 30 s; a lost listener is
 *   back within two periods)
 */
export function listenForDataChanges(db: Db, client: postgres.Sql, options: { watchdogMs?: number; onChange?: (change: DataChange | null) => void } = {}): DataChangeListener {
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
