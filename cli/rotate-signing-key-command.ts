/**
 * `tokenpace rotate-signing-key`: retires the current Ed25519 signing key (valid_until = now) and
 * creates a new one in the same transaction (decision 230). Retired keys stay published at
 * /.well-known/tokenpace-keys.json, so everything they signed still verifies; every web instance
 * signs with the new key within a minute. The private key is encrypted under the same secret key
 * as provider API keys (TOKENPACE_SECRET_KEY, or <data dir>/secret.key in the embedded default).
 */
import path from 'node:path';
import { openDb } from '@/db/client';
import { installSigningKey } from '@/db/queries/signing-keys';
import { getEnv } from '@/lib/env';
import { loadOrCreateKeyFile, parseEncryptionKey } from '@/lib/security/secrets';
import { newStoredSigningKey } from '@/lib/security/signatures';
import { acquireDatabase } from './database';
import { UsageError } from './usage-error';

/** Runs the command; returns the exit code. */
export async function runRotateSigningKeyCommand(argv: string[]): Promise<number> {
  if (argv.length > 0) throw new UsageError(`rotate-signing-key: takes no options (got "${argv[0]}")`);
  const env = getEnv();
  const secretKey = env.TOKENPACE_SECRET_KEY
    ? parseEncryptionKey(env.TOKENPACE_SECRET_KEY)
    : loadOrCreateKeyFile(path.join(path.resolve(env.TOKENPACE_DATA_DIR), 'secret.key'));
  const database = await acquireDatabase();
  const { db, close } = openDb(database.url, 2);
  try {
    const row = await installSigningKey(db, newStoredSigningKey(secretKey), { retireCurrent: true });
    console.log(`signing key is now ${row.id} (older keys stay published; web instances switch within 60 s)`);
    return 0;
  } finally {
    await close();
    await database.release();
  }
}
