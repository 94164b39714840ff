/**
 * Test support: ONE web instance as its own process (`node --import tsx app/api/v1/test-support/web-instance.ts`):
 * the production route handlers behind {@link serveApi} on 127.0.0.1, with this process's own
 * database handle (DATABASE_URL), caches and data-change listener (server/shared → server/cache-invalidation).
 * Prints `listening <baseUrl>` on stdout when ready; ends on SIGTERM. Not Next itself (no build
 * needed, so a multi-instance test starts in seconds): Next's request scope is absent, so its
 * `connection()` (a rendering hint only) is replaced by a no-op, as the in-process tests do.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

async function main(): Promise<void> {
  const requireHere = createRequire(path.join(process.cwd(), 'package.json'));
  (requireHere('next/server') as { connection: () => Promise<void> }).connection = async () => {};
  const { serveApi } = await import('./serve-api');
  const { getDb } = await import('@/server/shared');
  getDb(); // open the handle now: its LISTEN starts before the first request
  const { baseUrl, close } = await serveApi();
  process.stdout.write(`listening ${baseUrl}\n`);
  process.once('SIGTERM', () => {
    void close().finally(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
