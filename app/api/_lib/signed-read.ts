/**
 * Signed reads (decision 230): a JSON answer served with its embedded signature (last member
 * `"signature"`) and a `Tokenpace-Signature` header over the exact bytes sent. Used by the
 * leaderboard, snapshots and dump manifests, so a cited snapshot stays byte-identical to the board
 * it was cited from. Without a signer (no TOKENPACE_SECRET_KEY in a bare test process) the body is
 * served unsigned.
 */
import type { Db } from '@/db/client';
import { getSigner, signJsonBody, type SignedHolder } from '@/server/signing';
import { SIGNATURE_HEADER } from '@/lib/security/signatures';
import { readResponse, type ReadOptions } from './respond';

/**
 * readResponse for a JSON object text, signed. `contentKey` (a content hash) memoises the
 * signatures; `holder` (a cached answer) keeps them with the answer instead.
 */
export async function signedJsonRead(
  request: Request,
  db: Db,
  json: string,
  maxAgeSeconds: number,
  options: ReadOptions & { contentKey?: string; holder?: SignedHolder } = {},
): Promise<Response> {
  const signer = await getSigner(db);
  if (!signer) return readResponse(request, json, 'application/json; charset=utf-8', maxAgeSeconds, options);
  const signed = signJsonBody(signer, json, options.contentKey, options.holder);
  return readResponse(request, signed.body, 'application/json; charset=utf-8', maxAgeSeconds, {
    ...options,
    headers: { ...options.headers, [SIGNATURE_HEADER]: signed.header },
  });
}
