import { connection } from 'next/server';
import { insertApiToken, listApiTokens } from '@/db/queries/accounts';
import { getDb } from '@/server/shared';
import { generateApiToken } from '@/lib/auth/api-tokens';
import { createTokenBodySchema } from '@/lib/api/submission-schemas';
import { requireUser } from '@/app/api/_lib/auth';
import { assertSameOrigin, parseJsonBody, privateJson } from '@/app/api/_lib/body';
import { ApiError, handle } from '@/app/api/_lib/respond';

/** Most live tokens one account may hold. */
const MAX_TOKENS = 20;

// GET /api/v1/tokens – the signed-in user's personal API tokens (name, prefix, dates; never the token or its hash).
export const GET = handle(async (request: Request) => {
  await connection();
  const user = await requireUser(request);
  return privateJson({ items: await listApiTokens(getDb(), user.id) });
});

// POST /api/v1/tokens – creates a personal API token (browser session only); 201 with the token, shown this once.
export const POST = handle(async (request: Request) => {
  await connection();
  assertSameOrigin(request);
  const user = await requireUser(request);
  if (user.via !== 'session') throw new ApiError('forbidden', 'tokens are created from a signed-in browser session, not with another token');
  const body = await parseJsonBody(request, createTokenBodySchema);
  const db = getDb();
  const { token, tokenHash, prefix } = generateApiToken();
  const row = await insertApiToken(db, { userId: user.id, name: body.name, tokenHash, prefix, maxLive: MAX_TOKENS });
  if (!row) throw new ApiError('conflict', `at most ${MAX_TOKENS} live tokens; revoke one first`);
  return privateJson({ id: row.id, name: body.name, prefix, createdAt: row.createdAt, token }, 201);
});
