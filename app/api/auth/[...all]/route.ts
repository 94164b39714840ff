import { toNextJsHandler } from 'better-auth/next-js';
import { connection } from 'next/server';
import { getAuth } from '@/app/api/_lib/auth';
import { clientAddress, consumeLimit, RateLimitedError } from '@/app/api/_lib/rate-limit';
import { apiError } from '@/app/api/_lib/respond';

/** The paths that are rate limited before better-auth sees them. */
async function limitAuthRequest(request: Request): Promise<void> {
  const path = new URL(request.url).pathname.replace(/^\/api\/auth/, '');
  const ip = clientAddress(request);
  if (path === '/sign-in/email') {
    await consumeLimit('signInIp', ip);
    const body = (await request.clone().json().catch(() => null)) as { email?: unknown } | null;
    if (body && typeof body.email === 'string') await consumeLimit('signInEmail', body.email.trim().toLowerCase());
  } else if (path === '/sign-up/email') {
    await consumeLimit('signUpIp', ip);
  } else if (path === '/request-password-reset' || path === '/send-verification-email') {
    await consumeLimit('resetIp', ip);
  }
}

async function run(request: Request, method: 'GET' | 'POST'): Promise<Response> {
  await connection();
  try {
    if (method === 'POST') await limitAuthRequest(request);
  } catch (err) {
    if (err instanceof RateLimitedError) return apiError('rate_limited', err.message, undefined, { 'retry-after': String(err.retryAfterSeconds) });
    throw err;
  }
  const handler = toNextJsHandler(getAuth());
  return method === 'GET' ? handler.GET(request) : handler.POST(request);
}

// GET /api/auth/* – better-auth reads: session, email verification and password-reset links.
export async function GET(request: Request): Promise<Response> {
  return run(request, 'GET');
}

// POST /api/auth/* – better-auth actions: sign-up, sign-in, sign-out, password reset (rate limited).
export async function POST(request: Request): Promise<Response> {
  return run(request, 'POST');
}
