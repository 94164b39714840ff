/**
 * `tokenpace rotate-key [--new-key-file <path>]`: re-encrypts every stored provider API key under
 * a new AES-256-GCM key, in one transaction. The current key is TOKENPACE_SECRET_KEY or, in the
 * embedded default, <data dir>/secret.key. Without --new-key-file a fresh key is generated and,
 * in the embedded default, written to <data dir>/secret.key (the old one kept as secret.key.old).
 * With DATABASE_URL and no key file, the new key is printed once so the operator can store it.
 * On a running embedded install it refuses (exit 1, nothing changed): its processes hold the key.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDb } from '@/db/client';
import { reencryptEndpointKeys } from '@/db/queries/secrets';
import { getEnv } from '@/lib/env';
import { generateEncryptionKey, keyFingerprint, loadOrCreateKeyFile, parseEncryptionKey, reencryptSecret } from '@/lib/security/secrets';
import { acquireDatabase } from './database';
import { UsageError } from './usage-error';

export async function runRotateKeyCommand(argv: string[]): Promise<number> {
  let newKeyFile: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--new-key-file' && argv[i + 1]) newKeyFile = argv[++i]!;
    else throw new UsageError(`rotate-key: unknown or incomplete option "${argv[i]}"`);
  }
  const env = getEnv();
  const keyPath = path.join(path.resolve(env.TOKENPACE_DATA_DIR), 'secret.key');
  const oldKey = env.TOKENPACE_SECRET_KEY ? parseEncryptionKey(env.TOKENPACE_SECRET_KEY) : loadOrCreateKeyFile(keyPath);
  const newKey = newKeyFile ? parseEncryptionKey(fs.readFileSync(newKeyFile, 'utf8').trim(), `--new-key-file ${newKeyFile}`) : generateEncryptionKey();
  const database = await acquireDatabase();
  if (database.embedded && !database.embedded.owned) {
    // The running install's web and workers read the key at their start: re-encrypting under a new
    // key now would make every decryption there fail (signed answers, provider keys) until they
    // restart. Refuse before changing anything (issue #23 item 1, docs/decisions/200).
    const { pid, command } = database.embedded.owner;
    await database.release();
    console.error(
      `tokenpace: rotate-key: the install is running (pid ${pid}: ${command}) and holds the current key; stop it (Ctrl-C or SIGTERM), run rotate-key, then start it again. Nothing was changed.`,
    );
    return 1;
  }
  const { db, close } = openDb(database.url, 2);
  try {
    const n = await reencryptEndpointKeys(db, (token) => reencryptSecret(token, oldKey, newKey));
    if (!env.TOKENPACE_SECRET_KEY && !newKeyFile) {
      fs.copyFileSync(keyPath, `${keyPath}.old`);
      fs.chmodSync(`${keyPath}.old`, 0o600);
      fs.writeFileSync(keyPath, newKey.toString('hex'), { mode: 0o600 });
    } else if (!newKeyFile) {
      console.log(`new key (store it as TOKENPACE_SECRET_KEY; shown once): ${newKey.toString('hex')}`);
    }
    console.log(`re-encrypted ${n} API key(s): ${keyFingerprint(oldKey)} → ${keyFingerprint(newKey)}`);
    if (env.DATABASE_URL)
      console.log('restart every web and worker process with the new key: running ones still hold the old one and cannot decrypt what is now stored');
    return 0;
  } finally {
    await close();
    await database.release();
  }
}
