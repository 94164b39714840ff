import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { apiTokens, users } from '../schema';
import { insertAuditEvent } from './audit';

/** The user fields the app needs to authorise a request. */
export interface AccountUser {
  id: string;
  email: string;
  name: string;
  role: 'provider' | 'admin';
}

const userColumns = { id: users.id, email: users.email, name: users.name, role: users.role };

/** One user by id, or null. */
export async function getUserById(db: Db, id: string): Promise<AccountUser | null> {
  const rows = await db.select(userColumns).from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

/**
 * Sets a user's role and logs it (actor null = CLI). Returns the user, or null when no account has
 * that email. Idempotent: granting an existing admin changes nothing but still logs.
 */
export async function setUserRoleByEmail(db: Db, email: string, role: 'provider' | 'admin', actorUserId: string | null): Promise<AccountUser | null> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(users)
      .set({ role, updatedAt: new Date() })
      .where(sql`lower(${users.email}) = lower(${email})`)
      .returning(userColumns);
    const user = rows[0];
    if (!user) return null;
    await insertAuditEvent(tx, { actorUserId, action: role === 'admin' ? 'admin.grant' : 'admin.revoke', targetUserId: user.id });
    return user;
  });
}

/**
 * Stores a new personal API token's hash unless the user already holds `maxLive` live tokens.
 * Atomic: the count and the insert run under a per-user transaction lock (pg_advisory_xact_lock),
 * so parallel creations cannot all see room (issue 19 finding 11). Returns its id, or null at the cap.
 */
export async function insertApiToken(
  db: Db,
  params: { userId: string; name: string; tokenHash: string; prefix: string; maxLive: number },
): Promise<{ id: number; createdAt: Date } | null> {
  const { maxLive, ...values } = params;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`api-tokens:${params.userId}`}, 0))`);
    const live = await tx.$count(apiTokens, and(eq(apiTokens.userId, params.userId), isNull(apiTokens.revokedAt)));
    if (live >= maxLive) return null;
    const [row] = await tx.insert(apiTokens).values(values).returning({ id: apiTokens.id, createdAt: apiTokens.createdAt });
    await insertAuditEvent(tx, { actorUserId: params.userId, action: 'token.create', details: { tokenId: row!.id, prefix: params.prefix } });
    return row!;
  });
}

/**
 * Revokes every live token of the user (after a password reset or an address verification:
 * issue 19 finding 4), audited with the reason. Returns how many were revoked.
 */
export async function revokeAllApiTokens(db: Db, userId: string, reason: string): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    if (rows.length) await insertAuditEvent(tx, { actorUserId: userId, action: 'token.revoke_all', details: { reason, tokenIds: rows.map((r) => r.id) } });
    return rows.length;
  });
}

/** A user's tokens (never the hash), newest first, revoked ones included. */
export async function listApiTokens(db: Db, userId: string) {
  return db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      prefix: apiTokens.prefix,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
    })
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.id));
}

/** Revokes one of the user's own tokens. Returns false when no such live token of this user exists. */
export async function revokeApiToken(db: Db, userId: string, tokenId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    if (rows.length === 0) return false;
    await insertAuditEvent(tx, { actorUserId: userId, action: 'token.revoke', details: { tokenId } });
    return true;
  });
}

/** The owner of a live (not revoked) token with this hash, touching its lastUsedAt; null otherwise. */
export async function findUserByTokenHash(db: Db, tokenHash: string): Promise<(AccountUser & { tokenId: number }) | null> {
  const rows = await db
    .select({ ...userColumns, tokenId: apiTokens.id })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  await db.update(apiTokens).set({ lastUsedAt: new Date() }).where(eq(apiTokens.id, row.tokenId));
  return row;
}
