/**
 * Test helper process: starts the embedded PostgreSQL of `argv[2]` (data dir) on `argv[3]` (port),
 * prints `READY <pid>` and waits forever. Tests kill it with SIGKILL to leave an orphaned server
 * behind, exactly like a `tokenpace start` killed with -9.
 */
import { startEmbeddedPostgres } from '../embedded';

startEmbeddedPostgres({ dataDir: process.argv[2]!, port: Number(process.argv[3]), durability: 'test' }).then(
  (server) => {
    console.log(`READY ${server.pid}`);
    setInterval(() => {}, 60_000);
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
