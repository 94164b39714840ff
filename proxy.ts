/**
 * Next 16 proxy (formerly middleware), Node runtime: decides access to the private account pages
 * BEFORE rendering, so the answer is a real HTTP status — 307 to /signin for anonymous visitors,
 * 404 for pages the user may not see — even though app/loading.tsx streams every page (a redirect
 * or notFound() thrown while streaming would arrive as a 200). The pages check again themselves
 * (app/(account)/_lib/page-user.ts); this is the first gate, not the only one.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { getUserFromHeaders } from '@/app/api/_lib/auth';
import { clientAddress, consumeLimit, RateLimitedError } from '@/app/api/_lib/rate-limit';
import { getSubmittedEndpoint } from '@/db/queries/submissions';
import { getDb } from '@/server/shared';

/** A path no route serves: rewriting to it renders the site's not-found page with status 404. */
const NOT_FOUND_PATH = '/_tokenpace-not-found';

/** An Open Graph image path (`/opengraph-image`, `/models/x/opengraph-image`, …). */
const isOgImagePath = (pathname: string) => /(^|\/)opengraph-image(-[\w-]+)?$/.test(pathname);

/**
 * Gate of the private pages: anonymous → 307 /signin?next=…; not allowed → the 404 page; else on to the page.
 * OG images first pass the public read limit per client address (429 + Retry-After; issue 19 #6, decision 164).
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const { pathname, search } = request.nextUrl;
  if (isOgImagePath(pathname)) {
    try {
      await consumeLimit('publicRead', clientAddress(request));
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      return new NextResponse('too many requests', {
        status: 429,
        headers: { 'retry-after': String(err.retryAfterSeconds), 'content-type': 'text/plain; charset=utf-8' },
      });
    }
    return NextResponse.next();
  }
  const headers = new Headers(request.headers);
  headers.delete('authorization'); // pages use the browser session only
  const user = await getUserFromHeaders(headers).catch((err: unknown) => {
    console.error(`[proxy] session check failed: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  });
  if (!user) {
    const to = new URL('/signin', request.url);
    to.searchParams.set('next', `${pathname}${search}`);
    return NextResponse.redirect(to, 307);
  }
  const notFound = () => NextResponse.rewrite(new URL(NOT_FOUND_PATH, request.url));
  if ((pathname === '/admin' || pathname.startsWith('/admin/')) && user.role !== 'admin') return notFound();
  const m = /^\/dashboard\/endpoints\/([^/]+)/.exec(pathname);
  if (m) {
    const id = Number(m[1]);
    if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) return notFound();
    const endpoint = await getSubmittedEndpoint(getDb(), id);
    if (!endpoint || endpoint.ownerUserId !== user.id) return notFound();
  }
  return NextResponse.next();
}

export const config = {
  matcher: ['/submit', '/dashboard', '/dashboard/:path*', '/admin', '/admin/:path*', '/opengraph-image', '/:path*/opengraph-image'],
};
