/**
 * Abuse limits. Write-path limits (sign-in, sign-up, resets, submissions, tokens) are stored in
 * Postgres (table rate_limits, rate-limiter-flexible's RateLimiterDrizzle: one atomic upsert per
 * hit) so every web process shares the same counters. The public read limit is counted in this
 * process's memory (RateLimiterMemory): a read never writes to the database (decision 213; with k
 * web instances behind a balancer a client gets at most k × the limit). A refused request answers
 * 429 `rate_limited` with Retry-After in seconds (decision record 032).
 *
 * Client address (decision record 080): the TCP peer, which bin/peer-address.cjs (preloaded into
 * the web process) writes into `x-tokenpace-peer-address`; X-Forwarded-For only when that peer is
 * listed in TOKENPACE_TRUSTED_PROXIES. A client-sent X-Forwarded-For never picks the bucket.
 */
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { getDb } from '@/server/shared';
import { rateLimits } from '@/db/schema';
import { getEnv } from '@/lib/env';
import { parseTrustedProxies, rateLimitBucket, resolveClientAddress, type TrustedProxies } from '@/lib/security/client-address';

/** The limits by name: `points` requests per `durationSeconds` per key. */
export interface LimitSpec {
  points: number;
  durationSeconds: number;
}

const DEFAULT_LIMITS = {
  /** Sign-in attempts per client IP. */
  signInIp: { points: 30, durationSeconds: 60 },
  /** Sign-in attempts per email address (guessing one account's password from many IPs). */
  signInEmail: { points: 10, durationSeconds: 15 * 60 },
  /** Sign-ups per client IP. */
  signUpIp: { points: 10, durationSeconds: 60 * 60 },
  /** Password-reset requests per client IP. */
  resetIp: { points: 10, durationSeconds: 60 * 60 },
  /** Password-reset / verification mails per email address (one inbox flooded from many IPs). */
  resetEmail: { points: 5, durationSeconds: 60 * 60 },
  /** Endpoint submissions and edits (each runs a verification probe) per account. */
  submission: { points: 20, durationSeconds: 60 * 60 },
  /** Disputes opened and annotations written, per account (decision 232). */
  dispute: { points: 20, durationSeconds: 60 * 60 },
  /** Requests authenticated by one personal API token. */
  tokenUse: { points: 120, durationSeconds: 60 },
  /** Password checks of a signed-in session (verify-password, change-password, delete-user) per client IP. */
  passwordCheckIp: { points: 30, durationSeconds: 60 },
  /** Failed password checks per session (a stolen session cookie guessing its password; issue 19 #9). */
  passwordCheckSession: { points: 10, durationSeconds: 15 * 60 },
} satisfies Record<string, LimitSpec>;

export type LimitName = keyof typeof DEFAULT_LIMITS | 'publicRead';

/** Thrown when a limit is exceeded; the route wrapper answers 429 with Retry-After. */
export class RateLimitedError extends Error {
  constructor(
    readonly limit: LimitName,
    readonly retryAfterSeconds: number,
  ) {
    super(`too many requests (${limit}); retry after ${retryAfterSeconds} s`);
    this.name = 'RateLimitedError';
  }
}

let overrides: Partial<Record<LimitName, LimitSpec>> = {};
const limiters = new Map<string, RateLimiterAbstract>();

/** Test hook: replaces limits by name (e.g. a tiny limit to see 429, a huge one for fuzzing). */
export function configureRateLimits(next: Partial<Record<LimitName, LimitSpec>>): void {
  overrides = next;
  limiters.clear();
}

function specOf(name: LimitName): LimitSpec | null {
  const o = overrides[name];
  if (o) return o;
  if (name === 'publicRead') {
    const perMinute = getEnv().TOKENPACE_PUBLIC_RATE_LIMIT_PER_MINUTE;
    return perMinute > 0 ? { points: perMinute, durationSeconds: 60 } : null;
  }
  return DEFAULT_LIMITS[name];
}

/**
 * Limits counted in process memory instead of Postgres: the public read limit, so serving a read
 * writes nothing (decision 213). Per instance: behind k instances a client may make k × points.
 */
const IN_MEMORY_LIMITS: ReadonlySet<LimitName> = new Set(['publicRead']);

function limiterOf(name: LimitName, spec: LimitSpec): RateLimiterAbstract {
  const id = `${name}:${spec.points}:${spec.durationSeconds}`;
  let limiter = limiters.get(id);
  if (!limiter && IN_MEMORY_LIMITS.has(name)) {
    limiter = new RateLimiterMemory({ keyPrefix: `tp:${name}`, points: spec.points, duration: spec.durationSeconds });
    limiters.set(id, limiter);
  }
  if (!limiter) {
    limiter = new RateLimiterDrizzle({
      storeClient: getDb(),
      schema: rateLimits,
      keyPrefix: `tp:${name}`,
      points: spec.points,
      duration: spec.durationSeconds,
      clearExpiredByTimeout: true,
    });
    limiters.set(id, limiter);
  }
  return limiter;
}

/**
 * Counts one request of `key` against limit `name`. Resolves when allowed; throws
 * RateLimitedError (with the seconds until a point frees up) when the limit is used up.
 * Store failures propagate (the caller's 500), except for the public read limit, which fails open.
 */
export async function consumeLimit(name: LimitName, key: string): Promise<void> {
  const spec = specOf(name);
  if (!spec) return;
  try {
    await limiterOf(name, spec).consume(key.slice(0, 300), 1);
  } catch (res) {
    if (res instanceof RateLimiterRes) {
      throw new RateLimitedError(name, Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
    }
    if (name === 'publicRead') {
      console.error(`[rate-limit] store error, request allowed: ${res instanceof Error ? res.message : String(res)}`);
      return;
    }
    throw res;
  }
}

/**
 * Gives back one point of `key` consumed by consumeLimit (rate-limiter-flexible `reward`): for an
 * attempt that, as its answer showed, never reached what the limit guards (a sign-in refused for its
 * Origin never checked a password, issue 19 #8). Store failures propagate.
 */
export async function refundLimit(name: LimitName, key: string): Promise<void> {
  const spec = specOf(name);
  if (!spec) return;
  await limiterOf(name, spec).reward(key.slice(0, 300), 1);
}

/**
 * Name of the request header that carries the TCP peer address, when the process was started with
 * bin/peer-address.cjs preloaded (it sets this global mark and strips client copies of the header);
 * null otherwise, and then the header is not believed.
 */
export function peerAddressHeader(): string | null {
  const mark = (globalThis as Record<symbol, unknown>)[Symbol.for('tokenpace.peerAddressHeader')];
  return typeof mark === 'string' ? mark : null;
}

let trustedCache: { raw: string | undefined; parsed: TrustedProxies } | null = null;

function trustedProxies(): TrustedProxies {
  const raw = getEnv().TOKENPACE_TRUSTED_PROXIES;
  if (!trustedCache || trustedCache.raw !== raw) trustedCache = { raw, parsed: parseTrustedProxies(raw) };
  return trustedCache.parsed;
}

/**
 * The client address used as a rate-limit key: the TCP peer, or with a trusted proxy as peer the
 * right-most untrusted X-Forwarded-For entry (lib/security/client-address.ts); 'unknown' when the
 * peer is not known (the web process was not started through `tokenpace start`); an IPv6 address
 * as its /64. Every per-IP limit goes through here.
 */
export function clientAddress(request: Request): string {
  const header = peerAddressHeader();
  // An IPv6 client is bucketed by its /64 (lib/security/client-address rateLimitBucket).
  return rateLimitBucket(
    resolveClientAddress({
      peerAddress: header ? request.headers.get(header) : null,
      forwardedFor: request.headers.get('x-forwarded-for'),
      trusted: trustedProxies(),
    }),
  );
}

/** Per-IP limit of the public read API (GET/HEAD under /api/v1); other paths pass. */
export async function limitPublicRead(request: Request): Promise<void> {
  let pathname: string;
  try {
    pathname = new URL(request.url).pathname;
  } catch {
    return;
  }
  if (!pathname.startsWith('/api/v1/')) return;
  await consumeLimit('publicRead', clientAddress(request));
}
