import postgres from 'postgres';
import { startEmbeddedPostgres, type EmbeddedServer } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { getEnv } from '@/lib/env';

/** A database a CLI command works on, and how to let go of it. */
export interface AcquiredDatabase {
  url: string;
  /** The embedded server (owned by this process or by the running install it attached to), or null with DATABASE_URL. */
  embedded: EmbeddedServer | null;
  /** Closes what this process opened: stops the embedded server only when this process started it. */
  release: () => Promise<void>;
}

/**
 * The database a CLI command works on: DATABASE_URL when set, else the embedded server under
 * TOKENPACE_DATA_DIR. Migrations are applied either way.
 *
 * `command` (every CLI command but `start`): when a live process owns the data directory's server
 * (a running `tokenpace start`, or another command) this connects to it and never stops it
 * (issue #23 item 1, docs/decisions/200); only when nobody does is a server started here, and it is
 * stopped on release after any other command's sessions on it have ended. A server left by a
 * killed owner is stopped and started afresh (recovery). `serve` (`tokenpace start`): this process
 * must own the server; it waits for a command holding it to finish.
 */
export async function acquireDatabase(log: (line: string) => void = () => {}, opts: { role?: 'command' | 'serve' } = {}): Promise<AcquiredDatabase> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    await migrateDatabase(env.DATABASE_URL);
    return { url: env.DATABASE_URL, embedded: null, release: async () => {} };
  }
  const role = opts.role ?? 'command';
  const embedded = await startEmbeddedPostgres({
    dataDir: env.TOKENPACE_DATA_DIR,
    port: env.TOKENPACE_PG_PORT,
    sharing: role === 'serve' ? 'wait' : 'attach',
    onLog: log,
  });
  try {
    await migrateDatabase(embedded.url);
  } catch (err) {
    if (embedded.owned) await embedded.stop().catch(() => {});
    throw err;
  }
  const release = async () => {
    if (!embedded.owned) return; // the running install's server: never ours to stop
    if (role === 'command') await waitForOtherSessions(embedded.url, 600_000);
    await embedded.stop();
  };
  return { url: embedded.url, embedded, release };
}

/**
 * Waits (up to `timeoutMs`) until no client session other than this one is connected: a second
 * command that attached to a server this command started finishes before the server stops.
 */
async function waitForOtherSessions(url: string, timeoutMs: number): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where backend_type = 'client backend' and pid <> pg_backend_pid()`;
      if ((row?.n ?? 0) === 0) return;
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
