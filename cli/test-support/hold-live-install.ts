/**
 * Test helper process standing in for a running `tokenpace start`: it owns the embedded PostgreSQL
 * of `argv[2]` (data dir) on `argv[3]` (port) exactly as start does (sharing `wait`), migrates and
 * seeds it, keeps a pool open like the web process, and serves GET http://127.0.0.1:<port>/ with
 * 200 `{ postmasterPid, heldBackendPid, endpoints }` while its database answers (a held connection
 * that a server restart would break), 503 otherwise. Prints `READY <httpPort> <postmasterPid>`.
 */
import http from 'node:http';
import postgres from 'postgres';
import { count } from 'drizzle-orm';
import { openDb } from '@/db/client';
import { startEmbeddedPostgres } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { endpoints } from '@/db/schema';
import { seedCatalog } from '@/db/seed';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';

async function main(): Promise<void> {
  const server = await startEmbeddedPostgres({
    dataDir: process.argv[2]!,
    port: Number(process.argv[3]),
    durability: 'test',
    sharing: 'wait',
    command: 'hold-live-install',
  });
  await migrateDatabase(server.url);
  const { db } = openDb(server.url, 2);
  await seedCatalog(db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: 1 });
  const held = await postgres(server.url, { max: 1, onnotice: () => {} }).reserve();
  const http_ = http.createServer((_req, res) => {
    void (async () => {
      try {
        const [{ pid }] = await held<[{ pid: number }]>`select pg_backend_pid() as pid`;
        const n = (await db.select({ n: count() }).from(endpoints))[0]!.n;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ postmasterPid: server.pid, heldBackendPid: pid, endpoints: n }));
      } catch (err) {
        res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: err instanceof Error ? err.message : String(err) }));
      }
    })();
  });
  http_.listen(0, '127.0.0.1', () => {
    const address = http_.address();
    console.log(`READY ${typeof address === 'object' && address ? address.port : 0} ${server.pid}`);
  });
  process.on('SIGTERM', () => void server.stop().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exit(1);
});
