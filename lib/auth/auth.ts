/**
 * Accounts: better-auth with its drizzle adapter (decision records 031, 081). Email + password only, no
 * external service: verification and password-reset links are written to the server log.
 * Telemetry off. better-auth's own rate limiter is off: sign-in and sign-up are limited by the
 * Postgres-backed limiter in app/api/_lib/rate-limit.ts, shared by every web process.
 *
 * This module is framework-free: the caller passes the drizzle handle and the four tables.
 */
import { hkdfSync } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';

/** Roles of a user: every account is a provider; admins review submissions. */
export const ROLES = ['provider', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Minimum and maximum password length accepted at sign-up (characters). */
export const PASSWORD_LENGTH = { min: 10, max: 128 } as const;

export interface CreateAuthOptions {
  /** drizzle handle (postgres-js). */
  db: Record<string, unknown>;
  /** The better-auth models mapped onto our tables. */
  tables: { user: unknown; session: unknown; account: unknown; verification: unknown };
  /** Public origin of the site, e.g. http://localhost:3000 (links in emails, CSRF origin check). */
  baseURL: string;
  /** Origins whose requests are accepted (CSRF origin check); default: `baseURL` only. */
  trustedOrigins?: string[];
  /** Secret for signing cookies and tokens (see deriveAuthSecret). */
  secret: string;
  /** Where verification and reset links go (the server log by default). */
  sendLink?: (kind: 'verify-email' | 'reset-password', email: string, url: string) => void | Promise<void>;
  /**
   * Called after a credential of `userId` changed hands or was proven anew: a password reset
   * (whoever reset it holds the mailbox) or an address verified. The caller revokes what a previous
   * holder may keep: personal API tokens (issue 19 finding 4). Awaited; an error fails the request.
   */
  onCredentialsChanged?: (event: { userId: string; reason: 'password_reset' | 'email_verified' }) => Promise<void>;
}

/**
 * Derives the auth signing secret from the AES-256-GCM key of TOKENPACE_SECRET_KEY (HKDF-SHA256,
 * info "tokenpace-auth-v1"), so an installation has one secret to keep. Returns 64 hex chars.
 * Rotating the key (`tokenpace rotate-key`) signs everyone out, which is acceptable.
 */
export function deriveAuthSecret(key: Buffer): string {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'tokenpace-auth-v1', 32)).toString('hex');
}

/** Builds the better-auth instance (email + password, role field, links to the log). */
export function createAuth(opts: CreateAuthOptions) {
  const sendLink =
    opts.sendLink ??
    ((kind: string, email: string, url: string) => {
      // No email service: the operator reads the link from the server log and passes it on.
      console.log(`[auth] ${kind} link for ${email}: ${url}`);
    });
  return betterAuth({
    appName: 'Tokenpace',
    baseURL: opts.baseURL,
    basePath: '/api/auth',
    secret: opts.secret,
    trustedOrigins: opts.trustedOrigins ?? [opts.baseURL],
    telemetry: { enabled: false },
    database: drizzleAdapter(opts.db, { provider: 'pg', schema: opts.tables as Record<string, unknown> }),
    rateLimit: { enabled: false },
    emailAndPassword: {
      enabled: true,
      // No auto sign-in: better-auth then answers a sign-up for an existing email exactly like a new
      // one (200, synthetic user, no session), so sign-up does not reveal which emails have
      // accounts. The sign-up form signs in with the same credentials next (decision record 081).
      autoSignIn: false,
      requireEmailVerification: false,
      minPasswordLength: PASSWORD_LENGTH.min,
      maxPasswordLength: PASSWORD_LENGTH.max,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        await sendLink('reset-password', user.email, url);
      },
      // Sessions go with a reset (above); API tokens too.
      onPasswordReset: async ({ user }) => {
        await opts.onCredentialsChanged?.({ userId: user.id, reason: 'password_reset' });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user, url }) => {
        await sendLink('verify-email', user.email, url);
      },
      // Whoever used the account before its address was proven (an attacker who registered it
      // first) keeps nothing: tokens made before verification are revoked.
      afterEmailVerification: async (user) => {
        await opts.onCredentialsChanged?.({ userId: user.id, reason: 'email_verified' });
      },
    },
    user: {
      additionalFields: {
        // input: false — a sign-up body can never choose its own role.
        role: { type: 'string', required: false, defaultValue: 'provider', input: false },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 14, updateAge: 60 * 60 * 24 },
    // The origin check runs in tests too: better-auth skips it when it detects a test environment,
    // which would let a test pass that production fails (issue #23 item 3).
    advanced: { cookiePrefix: 'tokenpace', disableOriginCheck: false },
  });
}

/** The better-auth instance type. */
export type Auth = ReturnType<typeof createAuth>;
