/**
 * Starts a throw-away embedded PostgreSQL for a test run (fsync off: `durability: 'test'`) in a
 * new temporary directory. A random port may be taken by another run on the same machine, so up to
 * three ports are tried; when all fail the error lists each attempt with the server's own log lines
 * (a failing start says why instead of "no message").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedServer } from '../embedded';

export async function startTestPostgres(opts: { prefix: string; portBase: number; portSpan: number }): Promise<{ server: EmbeddedServer; dataDir: string }> {
  const failures: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), opts.prefix));
    fs.chmodSync(dataDir, 0o755); // the `postgres` system user (when running as root) writes below it
    const port = opts.portBase + Math.floor(Math.random() * opts.portSpan);
    try {
      const server = await startEmbeddedPostgres({ dataDir, port, database: 'postgres', durability: 'test' });
      return { server, dataDir };
    } catch (err) {
      failures.push(`attempt ${attempt + 1} (port ${port}): ${err instanceof Error ? err.message : String(err)}`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  throw new Error(`could not start a test PostgreSQL:\n${failures.join('\n')}`);
}
