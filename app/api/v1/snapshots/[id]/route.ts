import { connection } from 'next/server';
import { findSnapshotBody } from '@/server/leaderboard';
import { getDb } from '@/server/shared';
import { snapshotIdSchema } from '@/lib/api/schemas';
import { ApiError, corsPreflight, handle, parseParam, parseQuery } from '@/app/api/_lib/respond';
import { signedJsonRead } from '@/app/api/_lib/signed-read';
import { emptyQuerySchema } from '@/lib/api/schemas';

// GET /api/v1/snapshots/{id} – the exact leaderboard answer first served under this snapshotId (immutable, byte-identical).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const id = parseParam(snapshotIdSchema, (await ctx.params).id, 'id');
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  // A just-cited answer may still be on its way to Postgres (written off the request path): wait briefly.
  const body = await findSnapshotBody(getDb(), id);
  if (body === null) throw new ApiError('not_found', `snapshot ${id} not found`, 'id');
  // The id is the hash of the answer, so it is the strong ETag (same as the leaderboard's).
  // Signed as the board was (decision 230): embedded signature + Tokenpace-Signature header.
  return signedJsonRead(request, getDb(), body, 31_536_000, {
    etag: `"${id}"`,
    cache: { maxAgeSeconds: 31_536_000, immutable: true },
    vary: null,
    contentKey: id,
  });
});
export const OPTIONS = corsPreflight;
