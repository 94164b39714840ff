import { createHash } from 'node:crypto';
import { toNextJsHandler } from 'better-auth/next-js';
import { connection } from 'next/server';
import { getAuth } from '@/app/api/_lib/auth';
import { decodeUtf8, parseJsonObject, readBodyBytes } from '@/app/api/_lib/body';
import { clientAddress, consumeLimit, RateLimitedError, refundLimit } from '@/app/api/_lib/rate-limit';
import { ApiError, apiError } from '@/app/api/_lib/respond';
import { checkDisplayName } from '@/lib/security/display-names';
import { untrustedOriginMessage } from '@/lib/security/public-origin';

/** Auth request bodies are small (email, password, name, token): at most 16 KiB, counted while reading. */
const MAX_AUTH_BODY_BYTES = 16 * 1024;

/**
 * Reads a POST body once, whatever its encoding (JSON or application/x-www-form-urlencoded, the two
 * better-auth accepts from browsers), into a plain object. Other types, bodies over 16 KiB,
 * invalid UTF-8/JSON and non-object JSON throw ApiError 400 naming `body`. An empty body is `{}`.
 * The object is what both the rate limits and better-auth see (decision record 080).
 */
async function readAuthBody(request: Request): Promise<Record<string, unknown>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const text = decodeUtf8(await readBodyBytes(request, MAX_AUTH_BODY_BYTES));
  if (text.trim() === '') return {};
  if (type === 'application/json') return parseJsonObject(text);
  if (type === 'application/x-www-form-urlencoded') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(text)) {
      if (k in out) throw new ApiError('bad_request', `${k}: given more than once`, k);
      out[k] = v;
    }
    return out;
  }
  throw new ApiError('bad_request', 'body: send JSON (application/json) or a form (application/x-www-form-urlencoded)', 'body');
}

/** The per-email rate-limit key: the address as better-auth looks it up (lower case), trimmed. */
function emailKey(body: Record<string, unknown>): string {
  if (typeof body.email !== 'string' || body.email.trim() === '') throw new ApiError('bad_request', 'email: required', 'email');
  return body.email.trim().toLowerCase();
}

/**
 * Sign-up's `name` is an identity shown to reviewers: NFKC-normalised, refused with invisible or
 * mixed-script look-alike characters (lib/security/display-names.ts), like provider names.
 */
function normaliseSignUpName(body: Record<string, unknown>): void {
  if (typeof body.name !== 'string') return;
  const checked = checkDisplayName(body.name);
  if (!checked.ok) throw new ApiError('bad_request', `name: ${checked.message}`, 'name');
  body.name = checked.value;
}

/** Paths where a signed-in session checks its password (each guess must be limited: issue 19 #9). */
const PASSWORD_CHECK_PATHS = new Set(['/verify-password', '/change-password', '/delete-user']);

/** The session cookie's value (the per-session key of password checks), or '' when none. */
function sessionKey(request: Request): string {
  const m = /tokenpace[._-]session_token=([^;]+)/.exec(request.headers.get('cookie') ?? '');
  return m ? createHash('sha256').update(m[1]!).digest('hex') : '';
}

/**
 * Applies the limits of the path to this client address and parsed body. Returns the per-account
 * limit it consumed (the email's or the session's), to be refunded when the answer shows the
 * attempt never reached the password check.
 */
async function limitAuthRequest(
  path: string,
  ip: string,
  body: Record<string, unknown>,
  request: Request,
): Promise<{ name: 'signInEmail' | 'passwordCheckSession'; key: string } | null> {
  if (path === '/sign-in/email') {
    await consumeLimit('signInIp', ip);
    const key = emailKey(body);
    await consumeLimit('signInEmail', key);
    return { name: 'signInEmail', key };
  } else if (PASSWORD_CHECK_PATHS.has(path)) {
    await consumeLimit('passwordCheckIp', ip);
    const key = sessionKey(request);
    if (!key) return null; // better-auth answers 401 without a session; the IP limit holds
    await consumeLimit('passwordCheckSession', key);
    return { name: 'passwordCheckSession', key };
  } else if (path === '/sign-up/email') {
    await consumeLimit('signUpIp', ip);
  } else if (path === '/request-password-reset' || path === '/send-verification-email') {
    await consumeLimit('resetIp', ip);
    await consumeLimit('resetEmail', emailKey(body));
  }
  return null;
}

/**
 * Whether better-auth's answer shows a password was checked and was wrong: sign-in 401, the
 * session's checks 400 INVALID_PASSWORD. Anything else (a foreign Origin's 403, a bad body, a
 * success) did not guess a password, and its point is refunded (issue 19 #8).
 */
async function failedPasswordCheck(path: string, res: Response): Promise<boolean> {
  if (path === '/sign-in/email') return res.status === 401;
  if (res.status !== 400) return false;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { code?: string } | null;
  return body?.code === 'INVALID_PASSWORD';
}

async function run(request: Request, method: 'GET' | 'POST'): Promise<Response> {
  await connection();
  const handler = toNextJsHandler(getAuth());
  if (method === 'GET') return handler.GET(request);
  let forwarded: Request;
  let counted: Awaited<ReturnType<typeof limitAuthRequest>>;
  const path = new URL(request.url).pathname.replace(/^\/api\/auth/, '');
  try {
    const body = await readAuthBody(request);
    counted = await limitAuthRequest(path, clientAddress(request), body, request);
    if (path === '/sign-up/email' || path === '/update-user') normaliseSignUpName(body);
    // better-auth gets the very object the limits were keyed on, as JSON.
    const headers = new Headers(request.headers);
    headers.set('content-type', 'application/json');
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    forwarded = new Request(request.url, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch (err) {
    if (err instanceof RateLimitedError) return apiError('rate_limited', err.message, undefined, { 'retry-after': String(err.retryAfterSeconds) });
    if (err instanceof ApiError) return apiError(err.code, err.message, err.field);
    throw err;
  }
  const res = await handler.POST(forwarded);
  if (counted && !(await failedPasswordCheck(path, res))) await refundLimit(counted.name, counted.key);
  return explainOriginRefusal(res);
}

/**
 * better-auth refuses a write from an untrusted origin with a bare 403 "Invalid origin": answer in
 * the API's error shape with what to open or set instead (lib/security/public-origin).
 */
async function explainOriginRefusal(res: Response): Promise<Response> {
  if (res.status !== 403) return res;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { code?: string } | null;
  if (body?.code !== 'INVALID_ORIGIN' && body?.code !== 'MISSING_OR_NULL_ORIGIN') return res;
  return apiError('forbidden', untrustedOriginMessage(), 'origin');
}

// GET /api/auth/* – better-auth reads: session, email verification and password-reset links.
export async function GET(request: Request): Promise<Response> {
  return run(request, 'GET');
}

// POST /api/auth/* – better-auth actions: sign-up, sign-in, sign-out, password reset (rate limited; body read once, JSON or form).
export async function POST(request: Request): Promise<Response> {
  return run(request, 'POST');
}
