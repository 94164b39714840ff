/**
 * Where to send a browser after sign-in/sign-up (`?next=`): only to a page of this site.
 * The target is resolved the way a browser resolves it (WHATWG URL parsing drops tabs and
 * newlines, turns `\` into `/`, reads `//host` as another host), against the site's origin, and
 * refused unless the result has that same origin. Prefix checks on the raw string are not enough:
 * `/%09/evil.example` decodes to `/\t/evil.example`, which a browser follows to evil.example.
 */

/**
 * The same-origin path (pathname + search + hash) that `next` resolves to against `origin`
 * (e.g. `http://localhost:3000`), or `fallback` when `next` is absent, not a path starting with a
 * single `/`, or resolves to any other origin (other host, scheme, port; `javascript:` etc.).
 */
export function resolveSameOriginPath(next: string | null | undefined, origin: string, fallback = '/dashboard'): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2048) return fallback;
  let base: URL;
  let target: URL;
  try {
    base = new URL(origin);
    target = new URL(next, base);
  } catch {
    return fallback;
  }
  if (target.origin !== base.origin) return fallback;
  // Only a path-absolute reference of our own: not `//…`, nor a scheme-relative spelling after the
  // parser's clean-up of tabs, newlines and backslashes.
  const cleaned = next.replace(/[\t\n\r]/g, '').replace(/\\/g, '/');
  if (!cleaned.startsWith('/') || cleaned.startsWith('//')) return fallback;
  return `${target.pathname}${target.search}${target.hash}`;
}
