/**
 * Signing keys (decision 230): the current one signs, retired ones stay listed so that what they
 * signed still verifies. Data access only; key generation and encryption live in lib/security.
 */
import { asc, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { signingKeys } from '../schema';

/** A stored signing key; `privateKeyEnc` is AES-256-GCM ciphertext (lib/security/secrets). */
export interface SigningKeyRow {
  id: string;
  publicKeyPem: string;
  privateKeyEnc: string;
  validFrom: Date;
  validUntil: Date | null;
}

/** Every key, oldest first (what /.well-known/tokenpace-keys.json lists). */
export async function listSigningKeys(db: Db): Promise<SigningKeyRow[]> {
  return db.select().from(signingKeys).orderBy(asc(signingKeys.validFrom), asc(signingKeys.id));
}

/** The key that signs now, or null before the first one is created. */
export async function getCurrentSigningKey(db: Db): Promise<SigningKeyRow | null> {
  const [row] = await db.select().from(signingKeys).where(isNull(signingKeys.validUntil)).limit(1);
  return row ?? null;
}

/**
 * Makes `key` the current key. With `retireCurrent` the current key (if any) gets `valid_until =
 * now()` in the same transaction (rotation); without it the insert is skipped when a current key
 * exists already (first start of several instances at once: one key wins). Returns the current key.
 */
export async function installSigningKey(
  db: Db,
  key: { id: string; publicKeyPem: string; privateKeyEnc: string },
  opts: { retireCurrent: boolean },
): Promise<SigningKeyRow> {
  return db.transaction(async (tx) => {
    // One installer at a time across processes: the partial unique index would also refuse a
    // second current key, but the lock lets the loser read the winner instead of failing.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('tokenpace:signing-keys'))`);
    const [current] = await tx.select().from(signingKeys).where(isNull(signingKeys.validUntil)).limit(1);
    if (current && !opts.retireCurrent) return current;
    if (current)
      await tx
        .update(signingKeys)
        .set({ validUntil: sql`now()` })
        .where(isNull(signingKeys.validUntil));
    const [row] = await tx.insert(signingKeys).values(key).returning();
    return row!;
  });
}
