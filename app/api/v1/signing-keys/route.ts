import { connection } from 'next/server';
import type { z } from 'zod';
import { getSigner } from '@/server/signing';
import { corsPreflight, handle, jsonRead, parseQuery } from '@/app/api/_lib/respond';
import { listSigningKeys } from '@/db/queries/signing-keys';
import { getDb } from '@/server/shared';
import type { signingKeysResponseSchema } from '@/lib/api/response-schemas';
import { emptyQuerySchema } from '@/lib/api/schemas';
import { jwkOf } from '@/lib/security/signatures';

// GET /api/v1/signing-keys (also /.well-known/tokenpace-keys.json) – every public key that signed snapshots, boards and dumps.
export const GET = handle(async (request: Request) => {
  await connection();
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  // The first key is created at first use; asking for the keys of a fresh install must list it.
  await getSigner(db);
  const keys = (await listSigningKeys(db)).map((k) => ({
    id: k.id,
    alg: 'Ed25519' as const,
    publicKeyPem: k.publicKeyPem,
    jwk: jwkOf(k.publicKeyPem),
    validFrom: k.validFrom.toISOString(),
    validUntil: k.validUntil ? k.validUntil.toISOString() : null,
  }));
  const body: z.input<typeof signingKeysResponseSchema> = { keys };
  return jsonRead(request, body, 300);
});
export const OPTIONS = corsPreflight;
