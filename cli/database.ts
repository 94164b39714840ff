import { startEmbeddedPostgres, type EmbeddedServer } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { getEnv } from '@/lib/env';

/**
 * The database a CLI command works on: DATABASE_URL when set, else the embedded server under
 * TOKENPACE_DATA_DIR (started here, stopped by `release`). Migrations are applied either way.
 */
export async function acquireDatabase(log: (line: string) => void = () => {}): Promise<{ url: string; embedded: EmbeddedServer | null; release: () => Promise<void> }> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    await migrateDatabase(env.DATABASE_URL);
    return { url: env.DATABASE_URL, embedded: null, release: async () => {} };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: env.TOKENPACE_DATA_DIR, port: env.TOKENPACE_PG_PORT, onLog: log });
  await migrateDatabase(embedded.url);
  return { url: embedded.url, embedded, release: () => embedded.stop() };
}
