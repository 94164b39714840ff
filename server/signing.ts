/**
 * The deployment's signer (decision 230): the current Ed25519 key from `signing_keys`, created at
 * first use when none exists (several instances at once: one key wins), its private key decrypted
 * with TOKENPACE_SECRET_KEY. Cached per process for a minute, so a rotation (`tokenpace
 * rotate-signing-key`) reaches every instance within 60 s; what an older key signed still verifies
 * because retired keys stay listed at /.well-known/tokenpace-keys.json.
 */
import { getCurrentSigningKey, installSigningKey } from '@/db/queries/signing-keys';
import type { Db } from '@/db/client';
import { getEnv } from '@/lib/env';
import { decryptSecret, parseEncryptionKey } from '@/lib/security/secrets';
import { embedSignature, formatSignatureHeader, newStoredSigningKey, signBytes, signerOf, type Signer } from '@/lib/security/signatures';

const CACHE_MS = 60_000;
let cached: { signer: Signer; at: number } | null = null;
let loading: Promise<Signer | null> | null = null;

/** Creates the first key, or (with `retireCurrent`) a new one that replaces the current key. */
export async function createSigningKey(db: Db, secretKey: Buffer, opts: { retireCurrent: boolean }): Promise<{ id: string; created: boolean }> {
  const key = newStoredSigningKey(secretKey);
  const row = await installSigningKey(db, key, opts);
  cached = null;
  return { id: row.id, created: row.id === key.id };
}

async function loadSigner(db: Db): Promise<Signer | null> {
  const value = getEnv().TOKENPACE_SECRET_KEY;
  // Without the secret key nothing can be signed (only bare test processes run so); answers stay unsigned.
  if (!value) return null;
  const secretKey = parseEncryptionKey(value);
  let row = await getCurrentSigningKey(db);
  if (!row) {
    await createSigningKey(db, secretKey, { retireCurrent: false });
    row = await getCurrentSigningKey(db);
  }
  return row ? signerOf(row.id, decryptSecret(row.privateKeyEnc, secretKey)) : null;
}

/** The current signer, or null when this process has no TOKENPACE_SECRET_KEY. */
export async function getSigner(db: Db, now = Date.now()): Promise<Signer | null> {
  if (cached && now - cached.at < CACHE_MS) return cached.signer;
  loading ??= loadSigner(db).finally(() => (loading = null));
  const signer = await loading;
  if (signer) cached = { signer, at: now };
  return signer;
}

/** Forget the cached signer (tests; rotation in this process). */
export function resetSignerCache(): void {
  cached = null;
}

// Signed bodies of answers whose ETag is their content hash, per key: serving a cached board signs nothing.
const MEMO_MAX = 2048;
const memo = new Map<string, { body: string; header: string }>();

/** Where a cached answer keeps its signed bytes (the answer cache's entry, server/leaderboard). */
export interface SignedHolder {
  signed?: { keyId: string; body: string; header: string };
}

/**
 * A JSON object text with its embedded signature, and the header signature of those exact bytes.
 * `contentKey` (a content hash such as a snapshotId) lets a repeated answer reuse its signatures;
 * a `holder` (a cached answer) keeps them itself instead, so they live and go with the answer.
 */
export function signJsonBody(signer: Signer, json: string, contentKey?: string, holder?: SignedHolder): { body: string; header: string } {
  if (holder) {
    if (holder.signed?.keyId !== signer.keyId) {
      const body = embedSignature(json, signer);
      holder.signed = { keyId: signer.keyId, body, header: formatSignatureHeader({ keyId: signer.keyId, sig: signBytes(signer, body), covers: 'body' }) };
    }
    return holder.signed;
  }
  const key = contentKey ? `${signer.keyId}:${contentKey}` : null;
  const hit = key ? memo.get(key) : undefined;
  if (hit) return hit;
  const body = embedSignature(json, signer);
  const signed = { body, header: formatSignatureHeader({ keyId: signer.keyId, sig: signBytes(signer, body), covers: 'body' }) };
  if (key) {
    if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
    memo.set(key, signed);
  }
  return signed;
}

/** Header signature of a file known by its hex SHA-256 (the raw 32-byte digest is what is signed). */
export function signDigestHeader(signer: Signer, sha256Hex: string): string {
  return formatSignatureHeader({ keyId: signer.keyId, sig: signBytes(signer, Buffer.from(sha256Hex, 'hex')), covers: 'sha256' });
}
