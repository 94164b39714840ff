import { eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, signingKeys } from '../schema';

/**
 * Re-encrypts every stored endpoint API key and signing key with `reencrypt` in one transaction (all or nothing).
 * Returns the number of keys rewritten. `reencrypt` throws on a key it cannot decrypt, which rolls
 * the whole rotation back.
 */
export async function reencryptEndpointKeys(db: Db, reencrypt: (token: string) => string): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.select({ id: endpoints.id, token: endpoints.apiKeyEncrypted }).from(endpoints).where(isNotNull(endpoints.apiKeyEncrypted));
    for (const r of rows)
      await tx
        .update(endpoints)
        .set({ apiKeyEncrypted: reencrypt(r.token!) })
        .where(eq(endpoints.id, r.id));
    // The signing keys' private halves are encrypted under the same key (decision 230): same transaction.
    const keys = await tx.select({ id: signingKeys.id, token: signingKeys.privateKeyEnc }).from(signingKeys);
    for (const k of keys)
      await tx
        .update(signingKeys)
        .set({ privateKeyEnc: reencrypt(k.token) })
        .where(eq(signingKeys.id, k.id));
    return rows.length;
  });
}
