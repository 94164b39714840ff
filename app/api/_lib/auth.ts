/**
 * Who is asking: a browser session (better-auth cookie) or a personal API token
 * (`Authorization: Bearer tp_…`). Route handlers call `requireUser` / `requireAdmin`; pages call
 * `getPageUser` with Next's request headers.
 */
import { getDb } from '@/server/shared';
import { accounts, sessions, users, verifications } from '@/db/schema';
import { findUserByTokenHash, getUserById, revokeAllApiTokens, type AccountUser } from '@/db/queries/accounts';
import { createAuth, deriveAuthSecret, type Auth } from '@/lib/auth/auth';
import { hashApiToken, looksLikeApiToken } from '@/lib/auth/api-tokens';
import { getEnv } from '@/lib/env';
import { publicOrigin, trustedOrigins } from '@/lib/security/public-origin';
import { parseEncryptionKey } from '@/lib/security/secrets';
import { ApiError } from './respond';
import { consumeLimit } from './rate-limit';

const globalForAuth = globalThis as unknown as { tokenpaceAuth?: Auth };

/** The process's better-auth instance (built on first use from the environment). */
export function getAuth(): Auth {
  if (!globalForAuth.tokenpaceAuth) {
    const env = getEnv();
    if (!env.TOKENPACE_SECRET_KEY) throw new Error('TOKENPACE_SECRET_KEY is not set (tokenpace start sets it)');
    globalForAuth.tokenpaceAuth = createAuth({
      db: getDb() as unknown as Record<string, unknown>,
      tables: { user: users, session: sessions, account: accounts, verification: verifications },
      baseURL: publicOrigin(env),
      trustedOrigins: trustedOrigins(env),
      secret: deriveAuthSecret(parseEncryptionKey(env.TOKENPACE_SECRET_KEY)),
      onCredentialsChanged: async ({ userId, reason }) => {
        await revokeAllApiTokens(getDb(), userId, reason);
      },
    });
  }
  return globalForAuth.tokenpaceAuth;
}

/** The signed-in user of these request headers (session cookie or API token), or null. */
export async function getUserFromHeaders(headers: Headers): Promise<(AccountUser & { via: 'session' | 'token' }) | null> {
  const authorization = headers.get('authorization');
  if (authorization !== null) {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!m || !looksLikeApiToken(m[1]!)) throw new ApiError('unauthorized', 'Authorization: expected "Bearer tp_…" with a personal API token');
    const tokenHash = hashApiToken(m[1]!);
    await consumeLimit('tokenUse', tokenHash);
    const user = await findUserByTokenHash(getDb(), tokenHash);
    if (!user) throw new ApiError('unauthorized', 'the API token is unknown or revoked');
    return { id: user.id, email: user.email, name: user.name, role: user.role, via: 'token' };
  }
  if (!/tokenpace[._-]session_token/.test(headers.get('cookie') ?? '')) return null;
  const session = await getAuth().api.getSession({ headers });
  if (!session) return null;
  const user = await getUserById(getDb(), session.user.id);
  return user ? { ...user, via: 'session' } : null;
}

/** The signed-in user, or ApiError 401. */
export async function requireUser(request: Request): Promise<AccountUser & { via: 'session' | 'token' }> {
  const user = await getUserFromHeaders(request.headers);
  if (!user) throw new ApiError('unauthorized', 'sign in, or send Authorization: Bearer <personal API token>');
  return user;
}

/** The signed-in admin, or ApiError 401 (anonymous) / 403 (not an admin). */
export async function requireAdmin(request: Request): Promise<AccountUser & { via: 'session' | 'token' }> {
  const user = await requireUser(request);
  if (user.role !== 'admin') throw new ApiError('forbidden', 'admins only');
  return user;
}
